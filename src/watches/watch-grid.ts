/**
 * The spatial index of a watch: its locations by grid cell, so that a sweep finds the locations inside a changed
 * area without reading the others. Pure rules, tested table by table.
 */

/** West, south, east, north in WGS84 degrees. */
export type GridEnvelope = readonly [number, number, number, number];

/** Cells per degree: a cell is 0.1° (about 11 km north-south), a county holds tens of them. */
const CELLS_PER_DEGREE = 10;

/**
 * How far around a changed area a location still counts as inside (degrees, about 100 m): a building's footprint
 * reaches beyond its point, and FEMA's envelopes are of the polygons, not of every building they touch.
 */
export const AREA_MARGIN_DEGREES = 0.001;

/** Past this many cells an area is taken as "everywhere" (a national layer republished): every location is answered again. */
export const MAX_AREA_CELLS = 40_000;

const cellIndex = (degrees: number) => Math.floor(degrees * CELLS_PER_DEGREE);

/** The cell of a point: "latIndex:lonIndex". */
export function gridCellOf(lat: number, lon: number): string {
  return `${cellIndex(lat)}:${cellIndex(lon)}`;
}

/** The cells an envelope (with the margin) touches; null when it touches more than MAX_AREA_CELLS. */
export function gridCellsOf(envelope: GridEnvelope): string[] | null {
  const [west, south, east, north] = withMargin(envelope);
  const rows = cellIndex(north) - cellIndex(south) + 1;
  const columns = cellIndex(east) - cellIndex(west) + 1;
  if (rows <= 0 || columns <= 0) return [];
  if (rows * columns > MAX_AREA_CELLS) return null;
  const cells: string[] = [];
  for (let lat = cellIndex(south); lat <= cellIndex(north); lat++) {
    for (let lon = cellIndex(west); lon <= cellIndex(east); lon++) cells.push(`${lat}:${lon}`);
  }
  return cells;
}

function withMargin([west, south, east, north]: GridEnvelope): GridEnvelope {
  return [west - AREA_MARGIN_DEGREES, south - AREA_MARGIN_DEGREES, east + AREA_MARGIN_DEGREES, north + AREA_MARGIN_DEGREES];
}

/** Whether a point lies in an envelope widened by the margin. */
export function inEnvelope(lat: number, lon: number, envelope: GridEnvelope): boolean {
  const [west, south, east, north] = withMargin(envelope);
  return lat >= south && lat <= north && lon >= west && lon <= east;
}
