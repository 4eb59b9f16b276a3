/**
 * The zones over footprints drawn across real FEMA polygons (zone edges, a hole, an AREA NOT INCLUDED edge, a FIRM
 * panel boundary, floodways), checked against an independent measure: a 0.2 m grid of points over each footprint,
 * each point placed in the polygons by counting edge crossings of the GeoJSON rings (no clipping, no ArcGIS rings,
 * no area formula). The shares must agree within 0.5 % of the footprint.
 */
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import CheapRuler from 'cheap-ruler';
import { classifyZone, moreSevereFirst, toFirmPanel, type ZoneClassification } from '../../src/flood-hazard/classification';
import { footprintFloodZones, footprintOfRings } from '../../src/parts/structure/footprint-zones';
import type { FootprintFloodZones, LonLat } from '../../src/parts/structure/structure.types';
import {
  type RealLayers,
  type RealPolygon,
  cambridge,
  footprintLayersAround,
  footprintRing,
  hudsonCounty,
  lShapeCorners,
  polygonsAround,
  rectangleCorners,
  ringBox,
} from './real-nfhl-layers';

const GRID_M = 0.2;
/** Percentage points of the footprint the two measures may differ by. */
const TOLERANCE_PERCENT = 0.5;

const hudson = hudsonCounty();
const middlesex = cambridge();

/** An edge of a GeoJSON ring: [lon1, lat1, lon2, lat2]. */
type Edge = [number, number, number, number];

/** A polygon's edges that reach into the latitudes [south, north]. */
function edgesBetween<A>(polygon: RealPolygon<A>, south: number, north: number): Edge[] {
  const rings = polygon.geometry.type === 'Polygon' ? polygon.geometry.coordinates : polygon.geometry.coordinates.flat();
  const edges: Edge[] = [];
  for (const ring of rings) {
    for (let i = 1; i < ring.length; i++) {
      const [[x1, y1], [x2, y2]] = [ring[i - 1], ring[i]];
      if (Math.max(y1, y2) >= south && Math.min(y1, y2) <= north) edges.push([x1, y1, x2, y2]);
    }
  }
  return edges;
}

/** The longitudes where a row of latitude `lat` crosses the edges (even-odd: inside between the 1st and 2nd, ...). */
function crossings(edges: Edge[], lat: number): number[] {
  const found: number[] = [];
  for (const [x1, y1, x2, y2] of edges) {
    if (y1 > lat !== y2 > lat) found.push(x1 + ((lat - y1) * (x2 - x1)) / (y2 - y1));
  }
  return found;
}

const inside = (rowCrossings: number[], lon: number): boolean => rowCrossings.filter((x) => x < lon).length % 2 === 1;

const zoneKey = (floodZone: string, zoneSubtype: string | null, bfe: number | null): string =>
  `${floodZone}${zoneSubtype === null ? '' : ` ${zoneSubtype}`}${bfe === null ? '' : ` ${bfe} ft`}`;

interface GridShares {
  zones: Map<string, number>;
  unmapped: number;
  panels: Map<string, number>;
}

/** Shares (percent of the points in the footprint) by a grid of points GRID_M apart, each the most severe zone's at it. */
function gridShares(ring: number[][], layers: RealLayers): GridShares {
  const box = ringBox(ring);
  const [west, south, east, north] = box;
  const ruler = new CheapRuler((south + north) / 2, 'meters');
  const footprint = { type: 'Polygon' as const, coordinates: [ring] };
  const zones = polygonsAround(layers.zones, box)
    .map((polygon) => ({ zone: classifyZone(polygon.attributes), edges: edgesBetween(polygon, south, north) }))
    .filter((polygon): polygon is { zone: ZoneClassification; edges: Edge[] } => polygon.zone !== null);
  const panels = polygonsAround(layers.panels, box).map((polygon) => ({
    id: toFirmPanel(polygon.attributes)?.panel ?? '',
    edges: edgesBetween(polygon, south, north),
  }));
  const counts = { footprint: 0, unmapped: 0, zones: new Map<string, number>(), panels: new Map<string, number>() };
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  const columns = Math.ceil(ruler.distance([west, south], [east, south]) / GRID_M);
  const rows = Math.ceil(ruler.distance([west, south], [west, north]) / GRID_M);
  for (let row = 0; row < rows; row++) {
    const lat = ruler.offset([west, south], 0, (row + 0.5) * GRID_M)[1];
    const zoneCrossings = zones.map(({ zone, edges }) => ({ zone, at: crossings(edges, lat) }));
    const panelCrossings = panels.map(({ id, edges }) => ({ id, at: crossings(edges, lat) }));
    for (let column = 0; column < columns; column++) {
      const point = ruler.offset([west, south], (column + 0.5) * GRID_M, (row + 0.5) * GRID_M);
      if (!booleanPointInPolygon(point, footprint)) continue;
      counts.footprint++;
      const here = zoneCrossings.filter(({ at }) => inside(at, point[0])).map(({ zone }) => zone);
      const governing = here.sort(moreSevereFirst)[0];
      if (governing === undefined) counts.unmapped++;
      else add(counts.zones, zoneKey(governing.floodZone, governing.zoneSubtype, governing.staticBaseFloodElevationFt));
      const panel = panelCrossings.find(({ at }) => inside(at, point[0]));
      if (panel) add(counts.panels, panel.id);
    }
  }
  const percent = (count: number): number => (100 * count) / counts.footprint;
  return {
    zones: new Map([...counts.zones].map(([key, count]) => [key, percent(count)])),
    unmapped: percent(counts.unmapped),
    panels: new Map([...counts.panels].map(([key, count]) => [key, percent(count)])),
  };
}

interface RealFootprint {
  what: string;
  layers: RealLayers;
  ring: number[][];
  /** The entries the answer must have, in its order: zone, subtype, BFE. */
  zones: string[];
  firmPanels: string[];
}

const X_SHADED = 'X 0.2 PCT ANNUAL CHANCE FLOOD HAZARD';
const X_MINIMAL = 'X AREA OF MINIMAL FLOOD HAZARD';

const at = (lon: number, lat: number): LonLat => [lon, lat];

const FOOTPRINTS: RealFootprint[] = [
  {
    what: 'a 20 m by 12 m house across the edge of the AE 9 ft polygon 1351074_106 (22,691 vertices), Jersey City',
    layers: hudson,
    ring: footprintRing(at(-74.0637895, 40.6974305), rectangleCorners(20, 12)),
    zones: ['AE 9 ft', X_SHADED],
    firmPanels: ['34017C0104D'],
  },
  {
    what: 'an L-shaped 30 m by 24 m building across an AE 8 ft / unshaded X edge, Weehawken',
    layers: hudson,
    ring: footprintRing(at(-74.0148609, 40.8134649), lShapeCorners(30, 24, 12)),
    zones: ['AE 8 ft', X_MINIMAL],
    firmPanels: ['34017C0034D'],
  },
  {
    what: 'a 40 m by 30 m warehouse over a 520 m² hole in the AE 8 ft polygon 1351074_248, Bayonne',
    layers: hudson,
    ring: footprintRing(at(-74.0975592, 40.6513829), rectangleCorners(40, 30)),
    zones: ['AE 8 ft', X_MINIMAL],
    firmPanels: ['34017C0113D'],
  },
  {
    what: 'a 25 m by 20 m building turned 30° over a 162 m² hole in the shaded X polygon 1351074_364, Jersey City',
    layers: hudson,
    ring: footprintRing(at(-74.0401334, 40.7319541), rectangleCorners(25, 20), 30),
    zones: [X_SHADED, X_MINIMAL],
    firmPanels: ['34017C0106D'],
  },
  {
    what: 'a 30 m by 20 m building across the edge of the AREA NOT INCLUDED (the Meadowlands)',
    layers: hudson,
    ring: footprintRing(at(-74.064026, 40.7438275), rectangleCorners(30, 20)),
    zones: [X_MINIMAL],
    firmPanels: ['34017C0102D'],
  },
  {
    what: 'a 20 m by 15 m pier building across the VE 11 ft / AE 10 ft edge on the Hudson',
    layers: hudson,
    ring: footprintRing(at(-73.9923604, 40.8000224), rectangleCorners(20, 15)),
    zones: ['VE 11 ft', 'AE 10 ft'],
    firmPanels: ['34017C0061D'],
  },
  {
    what: 'an L-shaped 15 m by 12 m house across an AH 9 ft (ponding) edge, Jersey City',
    layers: hudson,
    ring: footprintRing(at(-74.0997938, 40.7049335), lShapeCorners(15, 12, 5)),
    zones: ['AH 9 ft', X_SHADED],
    firmPanels: ['34017C0103D'],
  },
  {
    what: 'a 60 m by 10 m row of houses turned 45° across the edge of an A polygon, North Bergen',
    layers: hudson,
    ring: footprintRing(at(-74.0521398, 40.8026628), rectangleCorners(60, 10), 45),
    zones: ['A', X_MINIMAL],
    firmPanels: ['34017C0041D'],
  },
  {
    what: 'a 20 m by 40 m building across the boundary of FIRM panels 0106D and 0108D (its north 11 m in 0106D), on three zones',
    layers: hudson,
    ring: footprintRing(at(-74.06, 40.71867), rectangleCorners(20, 40)),
    zones: ['AE 9 ft', X_SHADED, X_MINIMAL],
    firmPanels: ['34017C0106D', '34017C0108D'],
  },
  {
    what: 'a 20 m by 15 m building across an AE FLOODWAY / AE edge on the Charles, Cambridge',
    layers: middlesex,
    ring: footprintRing(at(-71.1436972, 42.3653865), rectangleCorners(20, 15)),
    zones: ['AE', 'AE FLOODWAY'],
    firmPanels: [],
  },
  {
    what: 'a 30 m by 15 m building across an AE FLOODWAY of three parts (one with a hole) and shaded X, partly off the extract, Alewife',
    layers: middlesex,
    ring: footprintRing(at(-71.1560464, 42.3961713), rectangleCorners(30, 15)),
    zones: ['AE FLOODWAY', X_SHADED],
    firmPanels: [],
  },
  {
    what: 'an L-shaped 20 m by 15 m building across the edge of the AE 3.5 ft polygon (4,704 vertices), Cambridge',
    layers: middlesex,
    ring: footprintRing(at(-71.1300641, 42.3743091), lShapeCorners(20, 15, 6)),
    zones: ['AE 3.5 ft'],
    firmPanels: [],
  },
];

function answered(footprint: RealFootprint): FootprintFloodZones {
  return footprintFloodZones(footprintOfRings([footprint.ring]), footprintLayersAround(footprint.layers, ringBox(footprint.ring)));
}

describe('footprintFloodZones over real FEMA polygons, against a 0.2 m grid', () => {
  it.each(FOOTPRINTS.map((footprint) => [footprint.what, footprint] as const))('%s', (_what, footprint) => {
    const answer = answered(footprint);
    const grid = gridShares(footprint.ring, footprint.layers);

    // Each footprint lies across an edge: two entries, or an entry and an unmapped part.
    expect(answer.zones.map((zone) => zoneKey(zone.floodZone, zone.zoneSubtype, zone.staticBaseFloodElevationFt))).toEqual(footprint.zones);
    expect(answer.zones.length >= 2 || answer.unmappedSharePercent >= 1).toBe(true);
    const shares = new Map(answer.zones.map((zone) => [zoneKey(zone.floodZone, zone.zoneSubtype, zone.staticBaseFloodElevationFt), zone.sharePercent]));
    shares.set('unmapped', answer.unmappedSharePercent);
    grid.zones.set('unmapped', grid.unmapped);
    const disagreements = [...new Set([...shares.keys(), ...grid.zones.keys()])]
      .map((key) => ({ key, answer: shares.get(key) ?? 0, grid: grid.zones.get(key) ?? 0 }))
      .filter(({ answer: share, grid: gridShare }) => Math.abs(share - gridShare) > TOLERANCE_PERCENT);
    expect(disagreements).toEqual([]);

    expect(answer.firmPanels).toEqual(footprint.firmPanels);
    const gridPanels = [...grid.panels].sort((a, b) => b[1] - a[1]);
    expect(answer.governingPanel?.FIRM_PAN ?? null).toBe(gridPanels[0]?.[0] ?? null);
  });
});
