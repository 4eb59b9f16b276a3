/**
 * The loan book of the loan-book scenario (scenarios/loan-book.ts) and the NFHL map the emulators serve for it; the
 * watch-sweep scenario's million watched locations are such a book too, over a nation with one county more
 * (WATCHED_NATION). Both are deterministic (seeded): the benchmark builds the rows, the emulator host builds the map
 * from the same rows.
 *
 * The rows are lat/lon (addresses would only add Census geocoding calls, which is not what is measured), clustered
 * as lenders' books are: 80 % in three counties (Harris TX 35 %, Cook IL 30 %, Hudson NJ 15 %), drawn around each
 * county's main centre from a normal distribution whose standard deviation is a quarter of the county's box on each
 * axis (drawn again when outside the box), so denser downtown; 20 % uniform over the box of the conterminous US,
 * outside those counties. The regions come mixed, as in a book in loan-number order, and every third row repeats
 * an earlier row's point.
 *
 * The map has FEMA's feature sizes, so that a query over an envelope returns what FEMA's would. Per county (its
 * real extent, as a box): one NFHL Availability polygon (the box), FIRM panels as a grid of 3 x 4 km rectangles,
 * political jurisdictions partitioning the box along meandering borders (6-12, some hundreds of vertices each),
 * six LOMRs (ellipses of 1-3 km across), LOMAs at 2 per km², and flood hazard zones as a grid of 1 km squares: AE
 * within 600 m of one of three synthetic rivers (the first river's AE with a static BFE, the others' with BFE lines
 * across the river every 400 m), X shaded within 1,200 m, X minimal elsewhere. Each tail point lies in a 0.1°
 * tile with a map of its own: availability and jurisdiction over the tile, the 3 x 4 km panel and the 1 km zone
 * square around the point.
 */
import { AE, MapBuilder, X_MINIMAL, X_SHADED, countyRecord, utcDate, type Attributes, type DemoMap } from '../test/emulators/demo-map';
import { metersToDegrees, rectRing, type Position, type Ring } from '../test/emulators/geometry';
import { type Point, microDegrees } from './points';
import { seeded } from './portfolio';

/** [west, south, east, north] in degrees. */
type Box = [number, number, number, number];

export interface LoanBookCounty {
  name: string;
  basename: string;
  state: string;
  county: string;
  countyns: string;
  /** FEMA region, as in LOMR and LOMA case numbers. */
  region: string;
  /** The county's extent (its Census outline's box, to 0.01°). */
  box: Box;
  /** Where its loans crowd. */
  centre: { lat: number; lon: number };
  /** Share of the book's rows. */
  share: number;
  /** Its political jurisdictions: columns x rows of the partition of its box. */
  jurisdictions: [number, number];
  panels: { suffix: string; effective: string };
  /** BFE at the rivers' mouths (east edge), ft, and its rise per km upstream. */
  bfeFt: [number, number];
}

export const LOAN_BOOK_COUNTIES: readonly LoanBookCounty[] = [
  {
    name: 'Harris County',
    basename: 'Harris',
    state: '48',
    county: '201',
    countyns: '01383886',
    region: '06',
    box: [-95.96, 29.5, -94.91, 30.17],
    centre: { lat: 29.76, lon: -95.37 },
    share: 0.35,
    jurisdictions: [4, 3],
    panels: { suffix: 'L', effective: '2007-06-18' },
    bfeFt: [12, 0.6],
  },
  {
    name: 'Cook County',
    basename: 'Cook',
    state: '17',
    county: '031',
    countyns: '01784766',
    region: '05',
    box: [-88.26, 41.47, -87.52, 42.15],
    centre: { lat: 41.85, lon: -87.75 },
    share: 0.3,
    jurisdictions: [3, 3],
    panels: { suffix: 'J', effective: '2008-08-19' },
    bfeFt: [582, 0.4],
  },
  {
    name: 'Hudson County',
    basename: 'Hudson',
    state: '34',
    county: '017',
    countyns: '00882228',
    region: '02',
    box: [-74.17, 40.64, -73.98, 40.82],
    centre: { lat: 40.73, lon: -74.06 },
    share: 0.15,
    jurisdictions: [2, 3],
    panels: { suffix: 'E', effective: '2006-08-16' },
    bfeFt: [9, 0.5],
  },
];

/**
 * The nation of the watch-sweep scenario (scenarios/watch-sweep.ts): the loan book's counties and its tail, and a
 * small county besides whose map the scenario revises, Boulder County, CO, with 0.3 % of the rows (some thousands of a
 * national book of a million loans, as a county of its size holds), taken from Hudson's share.
 */
export const WATCHED_NATION: readonly LoanBookCounty[] = [
  ...LOAN_BOOK_COUNTIES.map((county) => (county.basename === 'Hudson' ? { ...county, share: county.share - 0.003 } : county)),
  {
    name: 'Boulder County',
    basename: 'Boulder',
    state: '08',
    county: '013',
    countyns: '00198122',
    region: '08',
    box: [-105.69, 39.91, -105.05, 40.26],
    centre: { lat: 40.02, lon: -105.27 },
    share: 0.003,
    jurisdictions: [3, 2],
    panels: { suffix: 'J', effective: '2012-12-18' },
    bfeFt: [5090, 3],
  },
];

/** The region of a row outside the book's counties. */
export const TAIL_REGION = -1;
/** The conterminous United States, as a box. */
const CONUS: Box = [-124.7, 25.1, -67.0, 49.0];
/** A tail point's own map covers the 0.1° tile around it. */
const TILE_DEG = 0.1;
/** Tile edges lie this far off whole micro-degrees, so that no point (6 decimals) sits on one. */
const TILE_EDGE_OFFSET_DEG = 3.7e-7;
const PANEL_WIDTH_M = 3000;
const PANEL_HEIGHT_M = 4000;
const ZONE_SQUARE_M = 1000;
const LOMAS_PER_KM2 = 2;
const LOMRS_PER_COUNTY = 6;
const RIVERS_PER_COUNTY = 3;
const AE_REACH_M = 600;
const SHADED_REACH_M = 1200;
const BFE_LINE_SPACING_M = 400;
const BFE_LINE_HALF_M = 800;
/** Vertices along a jurisdiction's border: one every this many metres. */
const BORDER_STEP_M = 200;
const M_PER_DEG_LAT = 111_320;
const BOOK_SEED = 20_000;
const MAP_SEED = 7;

export interface LoanBookRow {
  point: Point;
  /** Index in the book's counties, or TAIL_REGION. */
  region: number;
  /** Whether it repeats an earlier row's point. */
  repeat: boolean;
}

export interface LoanBook {
  rows: LoanBookRow[];
  distinctPoints: number;
  /** The counties the rows crowd in (the rest is the tail), and which the map draws. */
  counties: readonly LoanBookCounty[];
}

/** The loan book of `size` rows, crowding in `counties` (by default the three of the loan-book scenario). */
export function loanBook(size: number, counties: readonly LoanBookCounty[] = LOAN_BOOK_COUNTIES): LoanBook {
  const random = seeded(BOOK_SEED);
  const rows: LoanBookRow[] = [];
  for (let i = 0; i < size; i++) {
    rows.push(i % 3 === 2 ? { ...rows[Math.floor(random() * i)], repeat: true } : newRow(random, counties));
  }
  return { rows, distinctPoints: new Set(rows.map(({ point }) => `${point.lat},${point.lon}`)).size, counties };
}

function newRow(random: () => number, counties: readonly LoanBookCounty[]): LoanBookRow {
  let draw = random();
  const region = counties.findIndex((county) => (draw -= county.share) < 0);
  if (region === TAIL_REGION) {
    for (;;) {
      const lon = CONUS[0] + random() * (CONUS[2] - CONUS[0]);
      const lat = CONUS[1] + random() * (CONUS[3] - CONUS[1]);
      const point = { lat: Math.round(lat * 1e6), lon: Math.round(lon * 1e6) };
      const tile = tileBox(tileOf(point.lon / 1e6, point.lat / 1e6));
      if (!counties.some(({ box }) => boxesOverlap(box, tile))) return { point: asPoint(point), region, repeat: false };
    }
  }
  const { box, centre } = counties[region];
  for (;;) {
    const [dx, dy] = normalPair(random);
    const point = { lat: Math.round((centre.lat + (dy * (box[3] - box[1])) / 4) * 1e6), lon: Math.round((centre.lon + (dx * (box[2] - box[0])) / 4) * 1e6) };
    // Strictly inside, so that no point lies on the county's edge.
    if (point.lon > box[0] * 1e6 && point.lon < box[2] * 1e6 && point.lat > box[1] * 1e6 && point.lat < box[3] * 1e6) {
      return { point: asPoint(point), region, repeat: false };
    }
  }
}

/** Two independent standard normal numbers (Box-Muller). */
function normalPair(random: () => number): [number, number] {
  const r = Math.sqrt(-2 * Math.log(1 - random()));
  const theta = 2 * Math.PI * random();
  return [r * Math.cos(theta), r * Math.sin(theta)];
}

const asPoint = ({ lat, lon }: { lat: number; lon: number }): Point => ({ lat: microDegrees(lat), lon: microDegrees(lon) });

function boxesOverlap(a: Box, b: Box): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

function tileOf(lon: number, lat: number): [number, number] {
  return [Math.floor((lon - TILE_EDGE_OFFSET_DEG) / TILE_DEG), Math.floor((lat - TILE_EDGE_OFFSET_DEG) / TILE_DEG)];
}

function tileBox([tx, ty]: [number, number]): Box {
  const edge = (t: number) => t * TILE_DEG + TILE_EDGE_OFFSET_DEG;
  return [edge(tx), edge(ty), edge(tx + 1), edge(ty + 1)];
}

/** The map of the loan book: the NFHL layers and the Census counties (the tail's points have none). */
export function loanBookMap(book: LoanBook): DemoMap {
  const b = new MapBuilder();
  const random = seeded(MAP_SEED);
  const counties = book.counties.map((county, i) => {
    countyLayers(b, county, random);
    return countyRecord({ ...county, oid: 9001 + i }, county.box);
  });
  tailLayers(b, book, random);
  return { nfhl: b.nfhl, census: { counties, zctas: [], states: {}, addresses: [] } };
}

interface GridCell {
  col: number;
  row: number;
  box: Box;
}

/**
 * A grid of `widthM` x `heightM` cells over `box` from its north-west corner, those at the east and south edges
 * cut to it. Inner grid lines lie half a micro-degree off whole ones: no point (6 decimals) sits on one.
 */
function grid(box: Box, widthM: number, heightM: number) {
  const [west, south, east, north] = box;
  const dLon = metersToDegrees((south + north) / 2, widthM).dLon;
  const dLat = heightM / M_PER_DEG_LAT;
  const offGrid = (v: number) => (Math.floor(v * 1e6) + 0.5) / 1e6;
  const x = (col: number) => (col === 0 ? west : Math.min(east, offGrid(west + col * dLon)));
  const y = (row: number) => (row === 0 ? north : Math.max(south, offGrid(north - row * dLat)));
  const cell = (col: number, row: number): GridCell => ({ col, row, box: [x(col), y(row + 1), x(col + 1), y(row)] });
  return {
    cells(): GridCell[] {
      const cells: GridCell[] = [];
      for (let row = 0; y(row) > south; row++) for (let col = 0; x(col) < east; col++) cells.push(cell(col, row));
      return cells;
    },
    at(lon: number, lat: number): GridCell {
      const col = Math.floor((lon - west) / dLon);
      const row = Math.floor((north - lat) / dLat);
      // a point a hair from a line is placed by the line as drawn
      return cell(col + (lon < x(col) ? -1 : lon > x(col + 1) ? 1 : 0), row + (lat > y(row) ? -1 : lat < y(row + 1) ? 1 : 0));
    },
  };
}

const boxRing = (box: Box): Ring => rectRing(box[0], box[1], box[2], box[3]);
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const between = (random: () => number, low: number, high: number) => low + random() * (high - low);
const panelNumber = (n: number) => String(n * 5).padStart(4, '0');

function randomDate(random: () => number, fromYear: number, toYear: number): number {
  const year = Math.floor(between(random, fromYear, toYear + 1));
  const day = Math.floor(random() * 365);
  return utcDate(`${year}-01-01`) + day * 86_400_000;
}

/** A case number as FEMA writes them: year, region, number, kind (P: LOMR, A: LOMA). */
function caseNumber(random: () => number, eff: number, region: string, kind: 'A' | 'P'): string {
  const year = new Date(eff).getUTCFullYear() % 100;
  return `${String(year).padStart(2, '0')}-${region}-${String(Math.floor(random() * 10_000)).padStart(4, '0')}${kind}`;
}

/** AE without a static BFE (read from the BFE lines across it), as a riverine study maps it. */
const AE_WITH_BFE_LINES: Attributes = { FLD_ZONE: 'AE', STUDY_TYP: 'SFHA with BFE and floodway', SFHA_TF: 'T' };

function countyLayers(b: MapBuilder, c: LoanBookCounty, random: () => number): void {
  const dfirm = `${c.state}${c.county}C`;
  const [west, south, east, north] = c.box;
  b.availability([boxRing(c.box)], dfirm);
  const panelDate = utcDate(c.panels.effective);
  grid(c.box, PANEL_WIDTH_M, PANEL_HEIGHT_M)
    .cells()
    .forEach((cell, n) =>
      b.panel([boxRing(cell.box)], { dfirm, stFips: c.state, pcomm: `${c.county}C`, panel: panelNumber(n + 1), suffix: c.panels.suffix, eff: panelDate }),
    );
  const communities = jurisdictionRings(c, random).map((ring, n) => {
    const community = { name1: `${c.basename} community ${n + 1}`, cid: `${c.state}${9001 + n}` };
    b.jurisdiction([ring], { dfirm, ...community, stFips: c.state, coFips: c.county });
    return community;
  });

  const widthKm = ((east - west) * M_PER_DEG_LAT * Math.cos((((south + north) / 2) * Math.PI) / 180)) / 1000;
  const heightKm = ((north - south) * M_PER_DEG_LAT) / 1000;
  for (let n = 0; n < LOMRS_PER_COUNTY; n++) {
    const centre = {
      lon: between(random, west + 0.1 * (east - west), east - 0.1 * (east - west)),
      lat: between(random, south + 0.1 * (north - south), north - 0.1 * (north - south)),
    };
    const eff = randomDate(random, 2009, 2024);
    b.lomr([ellipse(centre, between(random, 500, 1500), between(random, 500, 1500))], {
      dfirm,
      caseNo: caseNumber(random, eff, c.region, 'P'),
      eff,
      status: 'Effective',
    });
  }
  const lomas = Math.round(widthKm * heightKm * LOMAS_PER_KM2);
  for (let n = 0; n < lomas; n++) {
    const at = { lon: between(random, west, east), lat: between(random, south, north) };
    const eff = randomDate(random, 1996, 2024);
    const community = pick(random, communities);
    b.loma(at, {
      caseNo: caseNumber(random, eff, c.region, 'A'),
      eff,
      outcome: pick(random, ['Structure removed', 'Portion of property removed', 'Property out as shown', 'Structure denied']),
      category: random() < 0.8 ? 'LOMA' : 'LOMR-F',
      reval: null,
      cid: community.cid,
      community: community.name1.toUpperCase(),
    });
  }

  // Rivers run west to east, meandering; the BFE rises upstream (west) from the county's own figure at the east edge.
  const rivers = Array.from({ length: RIVERS_PER_COUNTY }, (_, r) => {
    const base = south + ((r + 1) * (north - south)) / (RIVERS_PER_COUNTY + 1);
    const amplitude = (north - south) / 14;
    const wavelength = ((east - west) / 2.5) * between(random, 0.8, 1.2);
    const [phase, phase2] = [random() * 2 * Math.PI, random() * 2 * Math.PI];
    return (lon: number) =>
      base +
      amplitude * Math.sin((2 * Math.PI * (lon - west)) / wavelength + phase) +
      (amplitude / 3) * Math.sin((2 * Math.PI * (lon - west) * 3.7) / wavelength + phase2);
  });
  const bfeAt = (lon: number) => Math.round((c.bfeFt[0] + ((c.bfeFt[1] * (east - lon)) / (east - west)) * widthKm) * 10) / 10;
  for (const cell of grid(c.box, ZONE_SQUARE_M, ZONE_SQUARE_M).cells()) {
    const lon = (cell.box[0] + cell.box[2]) / 2;
    const lat = (cell.box[1] + cell.box[3]) / 2;
    const distances = rivers.map((river) => Math.abs(lat - river(lon)) * M_PER_DEG_LAT);
    const nearest = distances.indexOf(Math.min(...distances));
    const zone =
      distances[nearest] <= AE_REACH_M
        ? nearest === 0
          ? AE(Math.round(bfeAt(lon)))
          : AE_WITH_BFE_LINES
        : distances[nearest] <= SHADED_REACH_M
          ? X_SHADED
          : X_MINIMAL;
    b.zone([boxRing(cell.box)], dfirm, zone);
  }
  const step = metersToDegrees((south + north) / 2, BFE_LINE_SPACING_M).dLon;
  const half = BFE_LINE_HALF_M / M_PER_DEG_LAT;
  for (const river of rivers.slice(1)) {
    for (let lon = west + step / 2; lon < east; lon += step) {
      b.bfeLine(
        [
          [lon, river(lon) - half],
          [lon, river(lon) + half],
        ],
        { dfirm, elev: bfeAt(lon) },
      );
    }
  }
}

/** A clockwise ring of 64 vertices around an ellipse of semi-axes `aM` (east) and `bM` (north). */
function ellipse(centre: { lat: number; lon: number }, aM: number, bM: number): Ring {
  const { dLon } = metersToDegrees(centre.lat, aM);
  const dLat = bM / M_PER_DEG_LAT;
  const ring: Ring = Array.from({ length: 64 }, (_, i): Position => {
    const t = (-2 * Math.PI * i) / 64;
    return [centre.lon + dLon * Math.cos(t), centre.lat + dLat * Math.sin(t)];
  });
  return [...ring, ring[0]];
}

/**
 * The county's box cut into columns of jurisdictions, each column into rows at heights of its own (borders meet
 * in T-junctions, as towns' do). Every inner border meanders between its junctions and is shared vertex for vertex
 * by the jurisdictions either side of it, so the partition has no gap and no overlap.
 */
function jurisdictionRings(c: LoanBookCounty, random: () => number): Ring[] {
  const [west, south, east, north] = c.box;
  const [cols, rows] = c.jurisdictions;
  const xs = Array.from({ length: cols + 1 }, (_, i) => west + ((east - west) * i) / cols);
  const columnRows = xs
    .slice(0, cols)
    .map(() =>
      Array.from({ length: rows + 1 }, (_, j) => (j === 0 ? south : j === rows ? north : south + ((north - south) * (j + (random() - 0.5) * 0.5)) / rows)),
    );
  const colWidthM = (east - west) / metersToDegrees((south + north) / 2, 1).dLon / cols;
  const rowHeightM = ((north - south) * M_PER_DEG_LAT) / rows;
  // Vertical border i, south to north, through every junction of the columns either side.
  const verticals = xs.map((x, i) => {
    const junctions = [...new Set([...(columnRows[i - 1] ?? []), ...(columnRows[i] ?? [])])].sort((a, b) => a - b);
    return junctions.slice(1).flatMap((y, j) => {
      const part = border([x, junctions[j]], [x, y], colWidthM, i > 0 && i < cols, random);
      return j === 0 ? part : part.slice(1);
    });
  });
  const rings: Ring[] = [];
  for (let col = 0; col < cols; col++) {
    // Horizontal border j of the column, west to east.
    const horizontals = columnRows[col].map((y, j) => border([xs[col], y], [xs[col + 1], y], rowHeightM, j > 0 && j < rows, random));
    for (let row = 0; row < rows; row++) {
      const [low, high] = [columnRows[col][row], columnRows[col][row + 1]];
      const side = (points: Position[]) => points.filter(([, y]) => y >= low && y <= high);
      // Up the west side, east along the top, down the east side, west along the bottom: clockwise.
      const ring: Ring = [
        ...side(verticals[col]),
        ...horizontals[row + 1].slice(1),
        ...side(verticals[col + 1])
          .reverse()
          .slice(1),
        ...horizontals[row].slice(1, -1).reverse(),
      ];
      ring.push(ring[0]);
      rings.push(ring);
    }
  }
  return rings;
}

/**
 * A border from `start` to `end` (both exactly), due north or due east, a vertex every BORDER_STEP_M; when
 * `meandering`, the vertices between move across its line by up to a tenth of its length or of `spanM` (the
 * jurisdictions' size across it), whichever is less, so that no two borders cross.
 */
function border(start: Position, end: Position, spanM: number, meandering: boolean, random: () => number): Position[] {
  const northward = start[0] === end[0];
  const perM = northward ? metersToDegrees(start[1], 1).dLon : 1 / M_PER_DEG_LAT;
  const lengthM = northward ? (end[1] - start[1]) * M_PER_DEG_LAT : (end[0] - start[0]) / metersToDegrees(start[1], 1).dLon;
  const steps = Math.max(1, Math.ceil(lengthM / BORDER_STEP_M));
  const amplitudeM = meandering ? 0.1 * Math.min(lengthM, spanM) : 0;
  const [p1, p2] = [random() * 2 * Math.PI, random() * 2 * Math.PI];
  return Array.from({ length: steps + 1 }, (_, k): Position => {
    if (k === 0) return start;
    if (k === steps) return end;
    const t = k / steps;
    const m = t * lengthM;
    const offset = amplitudeM * Math.sin(Math.PI * t) * (0.6 * Math.sin((2 * Math.PI * m) / 7000 + p1) + 0.4 * Math.sin((2 * Math.PI * m) / 2300 + p2)) * perM;
    const x = start[0] + t * (end[0] - start[0]);
    const y = start[1] + t * (end[1] - start[1]);
    return northward ? [x + offset, y] : [x, y + offset];
  });
}

/** Each tail point's own map: its tile's availability and jurisdiction, its panel and its zone square. */
function tailLayers(b: MapBuilder, book: LoanBook, random: () => number): void {
  const tiles = new Map<string, { dfirm: string; box: Box; panels: Set<string>; zones: Set<string> }>();
  for (const { point, region, repeat } of book.rows) {
    if (region !== TAIL_REGION || repeat) continue;
    const [lon, lat] = [Number(point.lon), Number(point.lat)];
    const at = tileOf(lon, lat);
    let tile = tiles.get(at.join());
    if (!tile) {
      const n = tiles.size;
      const state = String(60 + (n % 40));
      const dfirm = `${state}${String(n % 1000).padStart(3, '0')}C`;
      tile = { dfirm, box: tileBox(at), panels: new Set(), zones: new Set() };
      tiles.set(at.join(), tile);
      b.availability([boxRing(tile.box)], dfirm);
      b.jurisdiction([boxRing(tile.box)], {
        dfirm,
        name1: `Tail community ${n + 1}`,
        cid: `${state}${String(n % 10_000).padStart(4, '0')}`,
        stFips: state,
        coFips: dfirm.slice(2, 5),
      });
    }
    const panel = grid(tile.box, PANEL_WIDTH_M, PANEL_HEIGHT_M).at(lon, lat);
    const panelKey = `${panel.col},${panel.row}`;
    if (!tile.panels.has(panelKey)) {
      tile.panels.add(panelKey);
      const stFips = tile.dfirm.slice(0, 2);
      b.panel([boxRing(panel.box)], {
        dfirm: tile.dfirm,
        stFips,
        pcomm: tile.dfirm.slice(2),
        panel: panelNumber(tile.panels.size),
        suffix: 'K',
        eff: randomDate(random, 2008, 2022),
      });
    }
    const square = grid(tile.box, ZONE_SQUARE_M, ZONE_SQUARE_M).at(lon, lat);
    const squareKey = `${square.col},${square.row}`;
    if (!tile.zones.has(squareKey)) {
      tile.zones.add(squareKey);
      const draw = random();
      b.zone([boxRing(square.box)], tile.dfirm, draw < 0.1 ? AE(Math.round(between(random, 5, 900))) : draw < 0.25 ? X_SHADED : X_MINIMAL);
    }
  }
}
