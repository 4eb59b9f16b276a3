/**
 * Hostile geometry drawn from a seed, for the fuzzing suite (test/e2e/http/hostile-geometry-fuzz.e2e-spec.ts) and
 * the hostile-polygon bench: random rings (crossing or not), stars, spikes, slivers, rings across the ±180° meridian,
 * huge and tiny coordinates, holes outside their shell, overlapping or touching parts, unclosed rings, numbers
 * written as text, coordinates nested at the wrong depth, and large valid outlines. Each case says, by how it was
 * drawn, what the polygon rules make of it on each path: a caller's footprint measured or refused (and with which
 * words), and the same shape served by an upstream as a building's footprint or as a flood zone polygon measured or
 * never measured. The same seed draws the same cases, so any failure can be drawn again.
 */
import CheapRuler from 'cheap-ruler';
import {
  DEMO_MAP,
  DEMO_STRUCTURES,
  type ArcGisFeature,
  type DemoStructure,
  bboxOfRings,
  demoPlace,
  demoStructure,
  polygonIntersectsPoint,
  rectangleFootprint,
} from '../emulators';
import { type Position, hostileShapesAround } from './hostile-shapes';

export type Ring = Position[];
/** A polygon: its outer ring, then its holes. */
export type PolygonRings = Ring[];

/** What a caller's footprint must be answered with: measured as `measured`, or refused in words matching `refusal`; both set, either. */
export interface GivenVerdict {
  measured: PolygonRings[] | null;
  refusal: RegExp | null;
}

/** What an upstream's polygon must be: measured as `measured` (rings closed, as the service reads ArcGIS rings), never measured (null), or either when `mayBreak`. */
export interface ServedVerdict {
  measured: PolygonRings[] | null;
  mayBreak: boolean;
}

/** The shape as an upstream serves it (ArcGIS rings: outer rings clockwise, holes counter-clockwise), as a building's footprint and as a zone polygon. */
export interface ServedShape {
  rings: Ring[];
  building: ServedVerdict;
  zone: ServedVerdict;
}

export interface HostileCase {
  /** Its kind and number, and what makes it hostile. */
  name: string;
  /** The footprint as a caller sends it (any JSON value). */
  footprint: unknown;
  /** Positions in its rings, all together (0 where it has none a polygon task would count). */
  positions: number;
  given: GivenVerdict;
  /** Absent where the shape has no numeric rings for an upstream to serve. */
  served?: ServedShape;
}

/** The seed the suite and the bench draw with, unless FUZZ_SEED gives another (to draw a failing run again). */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261127);

/** Where the shapes are drawn: between Houston's X (minimal) polygon, ending 4 m west, and its AE polygon, starting 8 m east. */
export const FUZZ_CENTRE = { lat: 29.83, lon: -95.4497 };

/** The location a caller's footprint is sent with: the demo place in that X polygon, 29 m west of the centre. */
export const FUZZ_PLACE = demoPlace('houston-nearby-hazards');

/** The footprint given under each shape served as a zone polygon: 30 m by 14 m round the centre, across X, the unmapped gap and AE. */
export const UNDER_ZONE = { type: 'Polygon' as const, coordinates: [rectangleFootprint([FUZZ_CENTRE.lon, FUZZ_CENTRE.lat], 30, 14)] };

/** The demo building whose footprint USA Structures serves as each shape. */
export const FUZZ_HOUSE = demoStructure('houston-x-house-ae-street-point');

/** The buildings USA Structures serves while `rings` are the house's footprint: the others near the centre left out, so that only it is found there. */
export function buildingsServing(rings: Ring[]): DemoStructure[] {
  const others = DEMO_STRUCTURES.filter((building) => building.id !== FUZZ_HOUSE.id && building.demoPlace !== FUZZ_HOUSE.demoPlace);
  return [...others, { ...FUZZ_HOUSE, feature: { ...FUZZ_HOUSE.feature, rings, bbox: bboxOfRings(rings) } }];
}

/** The demo map's VE polygon, whose attributes a zone polygon served over the footprint takes. */
const VE = DEMO_MAP.nfhl.floodHazardZones.find((feature) => feature.attributes.FLD_ZONE === 'VE' && feature.attributes.ZONE_SUBTY === null) as ArcGisFeature;

/** A VE zone polygon of `rings`, as NFHL serves one over the footprint (the most severe zone: it is measured first). */
export function zoneServing(rings: Ring[]): ArcGisFeature {
  return { attributes: { ...VE.attributes, OBJECTID: 6439999, FLD_AR_ID: '48201C_FUZZ' }, rings, bbox: bboxOfRings(rings) };
}

/** The refusals of a caller's footprint, as the service words them (docs/api.md). */
const REFUSED = {
  crossing: /^footprint: (its outline crosses itself near \[|it could not be checked within \d+ ms)/,
  vertices: /^footprint: it has [\d,]+ vertices; at most 2,000 are accepted$/,
  noArea: /^footprint: it encloses no area/,
  meridian: /^footprint: it crosses the ±180° meridian/,
  notLonLat: /is not lon\/lat: give WGS84 degrees/,
  notClosed: /is not closed \(its first and last positions differ\)$/,
  tooFewPositions: /positions; a ring needs at least 4/,
  holeOutside: /a hole, lies outside its outer ring$/,
  overlap: /^footprint: (polygon \d+, ring 1 lies inside polygon \d+, ring 1: polygons of a MultiPolygon must not overlap|its outline crosses itself near \[)/,
  notPositions:
    /^footprint: .*(is not \[lon, lat\]: two numbers|must be a list of \[lon, lat\] positions|must be a list of rings|must be a list of polygons|must be a GeoJSON Polygon, MultiPolygon)/,
};

/** Mulberry32: a small seeded generator, the same numbers on every machine. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Twice the ring's signed area, in square degrees: positive counter-clockwise. */
function doubleArea(ring: Ring): number {
  let sum = 0;
  for (let i = 1; i < ring.length; i++) sum += (ring[i - 1][0] - ring[i][0]) * (ring[i - 1][1] + ring[i][1]);
  return sum;
}

const wound = (ring: Ring, clockwise: boolean): Ring => (doubleArea(ring) < 0 === clockwise ? ring : [...ring].reverse());
const closed = (ring: Ring): Ring => [...ring, ring[0]];

/** Polygons as ArcGIS serves them: each outer ring clockwise, each hole counter-clockwise. */
const asArcGis = (polygons: PolygonRings[]): Ring[] =>
  polygons.flatMap(([outer, ...holes]) => [wound(outer, true), ...holes.map((hole) => wound(hole, false))]);

/**
 * Whether two segments share a point, their shared end points aside: a test of this suite's own (every pair of
 * segments, exact orientation signs), not the service's sweep line.
 */
function segmentsMeet(a: Position, b: Position, c: Position, d: Position): boolean {
  const turn = (p: Position, q: Position, r: Position) => Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  const within = (p: Position, q: Position, r: Position) =>
    Math.min(p[0], q[0]) <= r[0] && r[0] <= Math.max(p[0], q[0]) && Math.min(p[1], q[1]) <= r[1] && r[1] <= Math.max(p[1], q[1]);
  const [d1, d2, d3, d4] = [turn(c, d, a), turn(c, d, b), turn(a, b, c), turn(a, b, d)];
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (d1 === 0 && within(c, d, a)) || (d2 === 0 && within(c, d, b)) || (d3 === 0 && within(a, b, c)) || (d4 === 0 && within(a, b, d));
}

/** Whether a closed ring crosses or touches itself anywhere but where consecutive edges meet. */
export function ringCrossesItself(ring: Ring): boolean {
  const edges = ring.length - 1;
  for (let i = 0; i < edges; i++) {
    for (let j = i + 1; j < edges; j++) {
      const adjacent = j === i + 1 || (i === 0 && j === edges - 1);
      if (!adjacent && segmentsMeet(ring[i], ring[i + 1], ring[j], ring[j + 1])) return true;
    }
  }
  return false;
}

const measured = (polygons: PolygonRings[]): GivenVerdict => ({ measured: polygons, refusal: null });
const refused = (refusal: RegExp): GivenVerdict => ({ measured: null, refusal });
const eitherGiven = (polygons: PolygonRings[], refusal: RegExp): GivenVerdict => ({ measured: polygons, refusal });
const servedMeasured = (polygons: PolygonRings[], mayBreak = false): ServedVerdict => ({ measured: polygons, mayBreak });
const servedBroken: ServedVerdict = { measured: null, mayBreak: true };

/** A shape served alike as a building and as a zone. */
const servedAlike = (rings: Ring[], verdict: ServedVerdict): ServedShape => ({ rings, building: verdict, zone: verdict });

const polygonOf = (rings: PolygonRings) => ({ type: 'Polygon', coordinates: rings });
const multiPolygonOf = (polygons: PolygonRings[]) => ({ type: 'MultiPolygon', coordinates: polygons });
const positionsOf = (rings: Ring[]) => rings.reduce((sum, ring) => sum + ring.length, 0);

/** A case whose footprint is `polygons` (a Polygon when one), served as ArcGIS rings of the same polygons. */
function plainCase(
  name: string,
  polygons: PolygonRings[],
  given: GivenVerdict,
  served: ServedVerdict | { building: ServedVerdict; zone: ServedVerdict },
): HostileCase {
  const footprint = polygons.length === 1 ? polygonOf(polygons[0]) : multiPolygonOf(polygons);
  const rings = asArcGis(polygons);
  return {
    name,
    footprint,
    positions: positionsOf(polygons.flat()),
    given,
    served: 'building' in served ? { rings, ...served } : servedAlike(rings, served),
  };
}

/** The seeded cases, some seventy, in a fixed order. */
export function hostileGeometryCases(seed: number = FUZZ_SEED): HostileCase[] {
  const random = randomFrom(seed);
  const between = (low: number, high: number) => low + random() * (high - low);
  const whole = (low: number, high: number) => Math.floor(between(low, high + 1));
  const { at, star } = hostileShapesAround(FUZZ_CENTRE);
  const ruler = new CheapRuler(FUZZ_CENTRE.lat, 'meters');
  /** A point `eastM`, `northM` from `from`. */
  const from = (origin: Position, eastM: number, northM: number) => ruler.offset(origin, eastM, northM) as Position;
  /** A rectangle `widthM` by `heightM` centred `eastM`, `northM` from the centre, counter-clockwise. */
  const rectangle = (eastM: number, northM: number, widthM: number, heightM: number): Ring =>
    closed([
      at(eastM - widthM / 2, northM - heightM / 2),
      at(eastM + widthM / 2, northM - heightM / 2),
      at(eastM + widthM / 2, northM + heightM / 2),
      at(eastM - widthM / 2, northM + heightM / 2),
    ]);
  const cases: HostileCase[] = [];
  const add = (kind: string, what: string, make: (name: string) => HostileCase) => {
    cases.push(make(`${kind} ${cases.filter((c) => c.name.startsWith(`${kind} `)).length + 1} (${what})`));
  };

  // Random rings: vertices in angle order round an inner point (simple), or in random order (crossing, almost always).
  for (let i = 0; i < 12; i++) {
    const vertices = i < 2 ? [1200, 1900][i] : whole(4, 16);
    const ordered = i % 2 === 0;
    const [eastM, northM] = [between(-8, 8), between(-4, 4)];
    let ring: Ring;
    if (ordered) {
      const step = (2 * Math.PI) / vertices;
      ring = closed(
        Array.from({ length: vertices }, (_, k) => {
          const angle = (k + between(0, 0.8)) * step;
          const radius = between(4, 25);
          return at(eastM + radius * Math.cos(angle), northM + radius * Math.sin(angle));
        }),
      );
    } else {
      ring = closed(Array.from({ length: vertices }, () => at(eastM + between(-25, 25), northM + between(-25, 25))));
    }
    const crossing = !ordered && ringCrossesItself(ring);
    // Random vertices in a row may enclose next to nothing: a caller's is then measured or refused for it.
    const simple = ruler.area([ring]) >= 1 ? measured([[ring]]) : eitherGiven([[ring]], REFUSED.noArea);
    const what = `${vertices} random vertices, ${ordered ? 'in angle order' : 'in random order'}${crossing ? ', crossing' : ''}`;
    add('random ring', what, (name) =>
      plainCase(name, [[ring]], crossing ? refused(REFUSED.crossing) : simple, crossing ? servedBroken : servedMeasured([[ring]])),
    );
  }

  // Stars: every edge crosses most others; past 2,000 vertices a caller's is refused for its size first.
  for (const vertices of [5, 7, 51, 1001, 1999, 2001]) {
    const ring = star(vertices, between(6, 20));
    const given = refused(vertices > 2000 ? REFUSED.vertices : REFUSED.crossing);
    add('star', `${vertices} vertices`, (name) => plainCase(name, [[ring]], given, servedBroken));
  }

  // Spikes: a square with a long thin spike out of one side (simple), or a spike out and back along one line.
  for (let i = 0; i < 6; i++) {
    const side = between(6, 12);
    const [eastM, northM] = [between(-5, 5), between(-3, 3)];
    const [lengthM, widthM] = [between(10, 40), [0.05, 0.2, 0.01, 1][i % 4]];
    const base = at(eastM + side / 2, northM);
    const corners = [at(eastM - side / 2, northM - side / 2), at(eastM + side / 2, northM - side / 2)];
    const back = i >= 4;
    const spike = back
      ? [from(base, 0, -widthM / 2), from(base, lengthM, 0), from(base, 0, -widthM / 2), from(base, 0, widthM / 2)]
      : [from(base, 0, -widthM / 2), from(base, lengthM, 0), from(base, 0, widthM / 2)];
    const ring = closed([...corners, ...spike, at(eastM + side / 2, northM + side / 2), at(eastM - side / 2, northM + side / 2)]);
    if (back) {
      // Out and back: the ring touches itself along the spike; refused as crossing, or measured as the square it encloses.
      add('spike', `${Math.round(lengthM)} m out and back along one line`, (name) =>
        plainCase(name, [[ring]], eitherGiven([[ring]], REFUSED.crossing), servedMeasured([[ring]], true)),
      );
    } else {
      add('spike', `${Math.round(lengthM)} m long, ${widthM} m wide`, (name) => plainCase(name, [[ring]], measured([[ring]]), servedMeasured([[ring]])));
    }
  }

  // Slivers: triangles of almost no area (under 0.1 m²: no outline for a caller, nothing to share out), or thin but measurable.
  for (const heightM of [1e-4, 0.004, 0.05, 0.3, 1]) {
    const lengthM = between(10, 30);
    const [eastM, northM] = [between(-10, 0), between(-3, 3)];
    const ring = closed([at(eastM, northM), at(eastM + lengthM, northM + heightM), at(eastM + lengthM / 2, northM)]);
    const areaSqM = (lengthM * heightM) / 4;
    const given = areaSqM < 0.08 ? refused(REFUSED.noArea) : areaSqM > 0.12 ? measured([[ring]]) : eitherGiven([[ring]], REFUSED.noArea);
    add('sliver', `${lengthM.toFixed(1)} m by ${heightM} m`, (name) => plainCase(name, [[ring]], given, servedMeasured([[ring]], areaSqM < 0.12)));
  }

  // Across the ±180° meridian at the centre's latitude: read as a band round the world, it would cover everything.
  const [south, north] = [FUZZ_CENTRE.lat - 0.0001, FUZZ_CENTRE.lat + 0.0001];
  const meridianRing: Ring = [
    [179.9999, south],
    [-179.9999, south],
    [-179.9999, north],
    [179.9999, north],
    [179.9999, south],
  ];
  add('antimeridian', 'longitudes from both sides of ±180°', (name) => plainCase(name, [[meridianRing]], refused(REFUSED.meridian), servedBroken));
  const sides: PolygonRings[] = [
    [
      [
        [179.9999, south],
        [180, south],
        [180, north],
        [179.9999, north],
        [179.9999, south],
      ],
    ],
    [
      [
        [-180, south],
        [-179.9999, south],
        [-179.9999, north],
        [-180, north],
        [-180, south],
      ],
    ],
  ];
  add('antimeridian', 'one part on each side of ±180°', (name) => plainCase(name, sides, refused(REFUSED.meridian), servedBroken));
  const beyond: Ring = meridianRing.map(([lon, lat]) => [lon < 0 ? lon + 360 : lon, lat] as Position);
  add('antimeridian', 'longitudes past 180', (name) => plainCase(name, [[beyond]], refused(REFUSED.notLonLat), servedBroken));

  // Huge coordinates: projected numbers, 1e20, 1e308 (nothing of them is lon/lat).
  const house = rectangle(0, 0, 10, 8);
  const huge: Array<[string, Ring]> = [
    [
      '1e308 everywhere',
      [
        [1e308, 1e308],
        [-1e308, 1e308],
        [-1e308, -1e308],
        [1e308, 1e308],
      ],
    ],
    ['one vertex at 1e20', [house[0], house[1], [1e20, house[2][1]], house[3], house[0]]],
    ['one vertex at -1e308', [house[0], house[1], house[2], [house[3][0], -1e308], house[0]]],
    ['Web Mercator metres', house.map(([lon, lat]) => [lon * 111319.49, Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) * 6378137] as Position)],
  ];
  for (const [what, ring] of huge) add('huge', what, (name) => plainCase(name, [[ring]], refused(REFUSED.notLonLat), servedBroken));

  // Tiny: a ring 1e-12° across, a house with a vertex 1e-12° from another, a ring pinched to 1e-12° of touching itself.
  const corner = house[1];
  const speck: Ring = closed([corner, [corner[0] + 1e-12, corner[1]], [corner[0] + 1e-12, corner[1] + 1e-12], [corner[0], corner[1] + 1e-12]]);
  add('tiny', 'a ring 1e-12° across', (name) =>
    plainCase(name, [[speck]], refused(new RegExp(`${REFUSED.noArea.source}|${REFUSED.crossing.source}`)), servedMeasured([[speck]], true)),
  );
  const doubled: Ring = [house[0], house[1], [house[1][0] + 1e-12, house[1][1] + 1e-12], house[2], house[3], house[4]];
  add('tiny', 'a vertex 1e-12° from the one before', (name) => plainCase(name, [[doubled]], measured([[doubled]]), servedMeasured([[doubled]])));
  const pinch = at(0, 0);
  const pinched: Ring = closed([at(-6, -4), at(6, -4), [pinch[0] + 1e-12, pinch[1]], at(6, 4), at(-6, 4), [pinch[0] - 1e-12, pinch[1]]]);
  add('tiny', 'a ring pinched to 2e-12° of touching itself', (name) =>
    plainCase(name, [[pinched]], eitherGiven([[pinched]], REFUSED.crossing), servedMeasured([[pinched]], true)),
  );
  for (const exponent of [-9, -7]) {
    const nudge = 10 ** exponent;
    const near: Ring = [house[0], house[1], [house[1][0] + nudge, house[1][1] + nudge], house[2], house[3], house[4]];
    add('tiny', `a vertex 1e${exponent}° from the one before`, (name) => plainCase(name, [[near]], measured([[near]]), servedMeasured([[near]])));
  }

  // Holes: outside the shell (a caller's is refused; ArcGIS rings make it a polygon of its own), or across it.
  for (let i = 0; i < 3; i++) {
    const shell = rectangle(between(-4, 0), between(-2, 2), between(8, 14), between(6, 10));
    const hole = rectangle(between(12, 20), between(-6, 6), 3, 3).reverse();
    add('hole', 'outside its shell', (name) => ({
      name,
      footprint: polygonOf([shell, hole]),
      positions: positionsOf([shell, hole]),
      given: refused(REFUSED.holeOutside),
      // As ArcGIS writes a hole (counter-clockwise): no outer ring holds it, so it is read as a polygon of its own.
      served: servedAlike([wound(shell, true), wound(hole, false)], servedMeasured([[shell], [hole]])),
    }));
  }
  const across = rectangle(5, 0, 4, 3).reverse();
  add('hole', 'across its shell', (name) => ({
    name,
    footprint: polygonOf([house, across]),
    positions: positionsOf([house, across]),
    given: refused(REFUSED.crossing),
    served: servedAlike([wound(house, true), wound(across, false)], servedBroken),
  }));

  // Parts of a MultiPolygon: one inside another, overlapping, the same twice, touching at a vertex.
  const inner = rectangle(0, 0, 4, 3);
  add('parts', 'one inside another', (name) => plainCase(name, [[house], [inner]], refused(REFUSED.overlap), servedBroken));
  add('parts', 'overlapping', (name) => plainCase(name, [[house], [rectangle(4, 2, 8, 6)]], refused(REFUSED.overlap), servedBroken));
  add('parts', 'the same part twice', (name) => plainCase(name, [[house], [house]], refused(REFUSED.overlap), servedBroken));
  const west = rectangle(-5, 0, 10, 8);
  const east = rectangle(5, 8, 10, 8);
  add('parts', 'touching at a vertex', (name) => plainCase(name, [[west], [east]], measured([[west], [east]]), servedMeasured([[west], [east]])));
  const touchingHole: Ring = closed([house[0], at(0, -1), at(-2, 1)]).reverse();
  add('parts', 'a hole touching its shell at a vertex', (name) =>
    plainCase(name, [[house, touchingHole]], measured([[house, touchingHole]]), servedMeasured([[house, touchingHole]])),
  );
  const figureEight: Ring = [at(0, 0), at(8, -4), at(8, 4), at(0, 0), at(-8, 4), at(-8, -4), at(0, 0)];
  add('parts', 'one ring touching itself at a vertex', (name) =>
    plainCase(name, [[figureEight]], eitherGiven([[figureEight]], REFUSED.crossing), servedMeasured([[figureEight]], true)),
  );

  // Unclosed rings: a caller's is refused; ArcGIS rings are closed as read.
  const open = house.slice(0, -1);
  add('unclosed', 'the last position left out', (name) => ({
    name,
    footprint: polygonOf([open]),
    positions: open.length,
    given: refused(REFUSED.notClosed),
    served: servedAlike([wound(open, true)], servedMeasured([[house]])),
  }));
  const triangle = closed([at(0, 0), at(8, 0)]);
  add('unclosed', 'three positions, two corners', (name) => ({
    name,
    footprint: polygonOf([triangle]),
    positions: triangle.length,
    given: refused(REFUSED.tooFewPositions),
    served: servedAlike([triangle], servedBroken),
  }));

  // Numbers as text, and other values where a number belongs (never served: an upstream's rings are numbers).
  for (const [what, value] of [
    ['"NaN"', 'NaN'],
    ['"Infinity"', 'Infinity'],
    ['"1e400"', '1e400'],
    ['a number written as text', String(house[2][0])],
    ['null', null],
    ['true', true],
  ] as Array<[string, unknown]>) {
    const ring = house.map((position, k) => (k === 2 ? [value, position[1]] : position));
    add('not a number', what, (name) => ({ name, footprint: polygonOf([ring as Ring]), positions: 0, given: refused(REFUSED.notPositions) }));
  }

  // Coordinates at the wrong depth, and other values where a polygon belongs.
  for (const [what, footprint] of [
    ['a ring where rings belong', { type: 'Polygon', coordinates: house }],
    ['rings of polygons in a Polygon', { type: 'Polygon', coordinates: [[house]] }],
    ['a Polygon in a MultiPolygon', { type: 'MultiPolygon', coordinates: [house] }],
    ['one position where rings belong', { type: 'Polygon', coordinates: [house[0]] }],
    ['no rings', { type: 'Polygon', coordinates: [] }],
    ['an empty ring', { type: 'Polygon', coordinates: [[]] }],
    ['positions of four numbers', { type: 'Polygon', coordinates: [house.map(([lon, lat]) => [lon, lat, 0, 0])] }],
    ['coordinates nested 20 deep', { type: 'Polygon', coordinates: JSON.parse(`${'['.repeat(20)}${house[0].join(',')}${']'.repeat(20)}`) }],
    ['a Feature without geometry', { type: 'Feature', properties: {}, geometry: null }],
    ['a GeometryCollection', { type: 'GeometryCollection', geometries: [polygonOf([house])] }],
    ['a list of rings', [house]],
    ['text', JSON.stringify(polygonOf([house]))],
  ] as Array<[string, unknown]>) {
    add('wrong depth', what, (name) => ({ name, footprint, positions: 0, given: refused(REFUSED.notPositions) }));
  }

  // Large valid outlines, checked and measured in the pool: combs of teeth, and a circle past the caller's 2,000 vertices.
  for (const teeth of [260, 499]) {
    const widthM = between(30, 50);
    const step = widthM / teeth;
    const comb: Position[] = [at(-widthM / 2, -3)];
    for (let k = 0; k < teeth; k++) {
      const x = -widthM / 2 + k * step;
      comb.push(at(x, 8), at(x + step / 2, 8), at(x + step / 2, 0), at(x + step, 0));
    }
    comb.push(at(widthM / 2, -3), comb[0]);
    add('comb', `${teeth} teeth, ${comb.length - 1} vertices`, (name) => plainCase(name, [[comb]], measured([[comb]]), servedMeasured([[comb]])));
  }
  const circle = closed(Array.from({ length: 2001 }, (_, k) => at(12 * Math.cos((2 * Math.PI * k) / 2001), 12 * Math.sin((2 * Math.PI * k) / 2001))));
  add('circle', '2,001 vertices', (name) =>
    plainCase(name, [[circle]], refused(REFUSED.vertices), { building: servedBroken, zone: servedMeasured([[circle]]) }),
  );
  return cases;
}

/**
 * Where to look up the building a served shape is the footprint of: a point the USA Structures emulator finds inside
 * its rings (its own even-odd test), preferring one inside the polygons it must be measured as; the centre, not
 * `inside`, when none is (no building is then found at that point). Each point is written to 6 decimals, as the
 * service asks for a point (about 10 cm): a point inside a spike 5 cm wide may round out of it.
 */
export function pointInside(served: ServedShape): { point: { lat: number; lon: number }; inside: boolean } {
  const ruler = new CheapRuler(FUZZ_CENTRE.lat, 'meters');
  const centre: Position = [FUZZ_CENTRE.lon, FUZZ_CENTRE.lat];
  const candidates: Position[] = [centre];
  for (let r = 1; r <= 30; r += 1.5) {
    for (let a = 0; a < 12; a++) {
      const [lon, lat] = ruler.offset(centre, r * Math.cos((a * Math.PI) / 6), r * Math.sin((a * Math.PI) / 6));
      candidates.push([Number(lon.toFixed(6)), Number(lat.toFixed(6))]);
    }
  }
  const inServed = (p: Position) => polygonIntersectsPoint(served.rings, p[0], p[1]);
  const inMeasured = (p: Position) => served.building.measured?.some((polygon) => polygonIntersectsPoint(polygon, p[0], p[1])) ?? true;
  const found = candidates.find((p) => inServed(p) && inMeasured(p)) ?? candidates.find(inServed);
  return { point: { lat: (found ?? centre)[1], lon: (found ?? centre)[0] }, inside: found !== undefined };
}
