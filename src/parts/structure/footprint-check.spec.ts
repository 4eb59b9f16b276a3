import CheapRuler from 'cheap-ruler';
import { checkFootprint, checkFootprintReach, FootprintCheck } from './footprint-check';
import type { Footprint, LonLat } from './structure.types';

/** Houston, TX: where the footprints below stand. */
const HOUSTON = { lat: 29.763, lon: -95.39 };
const ruler = new CheapRuler(HOUSTON.lat, 'meters');

/** A closed ring: the corners, then the first again. */
const closed = (...corners: LonLat[]): LonLat[] => [...corners, corners[0]];

/** A square ring `sideM` metres across centred `eastM`, `northM` from Houston, its corners listed clockwise or counter-clockwise. */
function square(sideM: number, eastM = 0, northM = 0, clockwise = true): LonLat[] {
  const at = (east: number, north: number) => ruler.offset([HOUSTON.lon, HOUSTON.lat], east, north) as LonLat;
  const h = sideM / 2;
  const corners = [at(eastM - h, northM - h), at(eastM - h, northM + h), at(eastM + h, northM + h), at(eastM + h, northM - h)];
  return closed(...(clockwise ? corners : corners.reverse()));
}

/** A ring of `vertices` vertices on a circle `radiusM` metres round Houston. */
function circle(vertices: number, radiusM: number): LonLat[] {
  const ring = Array.from({ length: vertices }, (_, i) => ruler.destination([HOUSTON.lon, HOUSTON.lat], radiusM, (360 * i) / vertices) as LonLat);
  return closed(...ring);
}

const polygon = (...rings: LonLat[][]): Footprint => ({ type: 'Polygon', coordinates: rings });
const house = square(20);
const yard = square(60);

/**
 * A real FEMA polygon with a hole, the size of a building: an X (0.2% annual chance) area of FEMA's NFHL in Hudson
 * County, New Jersey (DFIRM 34017C, FLD_AR_ID 1351074_86; a work of the U.S. government, public domain), 71 vertices.
 */
const REAL_RING_WITH_HOLE = [
  [
    [-74.0373512460514, 40.71809341390423],
    [-74.03742299648673, 40.71809358154235],
    [-74.0375153637944, 40.718093916818646],
    [-74.03758845402518, 40.718097269581506],
    [-74.03769473660844, 40.71811520686293],
    [-74.0378714285219, 40.718150075596895],
    [-74.03794317764755, 40.71816197790514],
    [-74.03799045160412, 40.71817388021333],
    [-74.03801609893048, 40.7181809210154],
    [-74.03804543560568, 40.7181946673432],
    [-74.03805683499951, 40.71821226934833],
    [-74.03805918193353, 40.71823657687918],
    [-74.03803604786964, 40.718265745916256],
    [-74.03799212667593, 40.718297764801775],
    [-74.03794200287086, 40.718312181682165],
    [-74.03784460510917, 40.71832257524704],
    [-74.03765483873019, 40.71832089886561],
    [-74.0374907209872, 40.71832307816152],
    [-74.0374189718616, 40.718323748714056],
    [-74.03737790051628, 40.71832760439139],
    [-74.03733683048068, 40.71833414227899],
    [-74.03728670536594, 40.7183418536336],
    [-74.03722635563412, 40.71834654750165],
    [-74.03719048238099, 40.71834637986353],
    [-74.03714823756866, 40.71833732740373],
    [-74.03711889958379, 40.71831670791204],
    [-74.03710112994054, 40.7182972618873],
    [-74.03708336160696, 40.71827664239561],
    [-74.0370758165808, 40.71824931737814],
    [-74.0370707874365, 40.71822785969573],
    [-74.0370709563843, 40.71820824603287],
    [-74.03708017648222, 40.71818494433086],
    [-74.03710716491372, 40.718159630971115],
    [-74.03714320842437, 40.71814135841339],
    [-74.03719081634756, 40.71812492987527],
    [-74.03725636286191, 40.71810766314644],
    [-74.0373512460514, 40.71809341390423],
  ],
  [
    [-74.03737035679978, 40.71812174475053],
    [-74.03732794434939, 40.71812543278975],
    [-74.03726373894023, 40.71813498816391],
    [-74.03720724488568, 40.718153260721635],
    [-74.03717774057236, 40.71816968925975],
    [-74.03715192560787, 40.718195002619495],
    [-74.03713750741781, 40.718219310150346],
    [-74.03713231063534, 40.71823976200392],
    [-74.03713214299717, 40.71826121968638],
    [-74.03714739937794, 40.718278821691456],
    [-74.03716919102703, 40.71829256801931],
    [-74.0371960144397, 40.718299441183206],
    [-74.03723306246957, 40.71830363213678],
    [-74.03728704064224, 40.71830379977496],
    [-74.03733448354666, 40.71829910590691],
    [-74.03736264544517, 40.7182903887234],
    [-74.03740639900076, 40.71828083334918],
    [-74.03747177787693, 40.71827127797502],
    [-74.0375436946407, 40.71826289606781],
    [-74.03763472346259, 40.71826121968638],
    [-74.03772709077026, 40.718262560791516],
    [-74.03781158039482, 40.718265913554376],
    [-74.03786036309475, 40.71826608119255],
    [-74.0378846706256, 40.71826038149567],
    [-74.037900260973, 40.71824378531937],
    [-74.03790160207814, 40.718232050649306],
    [-74.03789774640086, 40.71822132180807],
    [-74.0378915437895, 40.71821361045346],
    [-74.03787477997508, 40.71820573146067],
    [-74.03783773194527, 40.71819483498132],
    [-74.0377750365891, 40.71818477669268],
    [-74.03768668997753, 40.718162983733976],
    [-74.03760857060246, 40.71814806393917],
    [-74.03749591776966, 40.718130964848456],
    [-74.03743573567596, 40.71812191238871],
    [-74.03737035679978, 40.71812174475053],
  ],
] as LonLat[][];

describe('checkFootprint: what is accepted', () => {
  it.each<[string, unknown, Footprint]>([
    ['a Polygon', polygon(house), polygon(house)],
    ['a Polygon with a hole', polygon(yard, house), polygon(yard, house)],
    ['a Polygon whose hole runs the same way as its outer ring', polygon(yard, square(20, 0, 0, true)), polygon(yard, square(20, 0, 0, true))],
    [
      'a MultiPolygon (a house and its garage)',
      { type: 'MultiPolygon', coordinates: [[house], [square(6, 20, 0)]] },
      { type: 'MultiPolygon', coordinates: [[house], [square(6, 20, 0)]] },
    ],
    ['a Feature of a Polygon, its properties left aside', { type: 'Feature', properties: { name: 'house' }, geometry: polygon(house) }, polygon(house)],
    [
      'a Feature of a MultiPolygon',
      { type: 'Feature', properties: null, geometry: { type: 'MultiPolygon', coordinates: [[yard, house]] } },
      { type: 'MultiPolygon', coordinates: [[yard, house]] },
    ],
    ['positions with an altitude, which is dropped', polygon(house.map(([lon, lat]) => [lon, lat, 12.5] as unknown as LonLat)), polygon(house)],
    [
      'a ring that repeats a position in a row',
      polygon([house[0], house[1], house[1], house[2], house[3], house[4]]),
      polygon([house[0], house[1], house[1], house[2], house[3], house[4]]),
    ],
    ['2,000 vertices', polygon(circle(2000, 100)), polygon(circle(2000, 100))],
    ['2,000 vertices over a hole and its ring', polygon(circle(1000, 200), circle(1000, 100)), polygon(circle(1000, 200), circle(1000, 100))],
    ['a real FEMA polygon with a hole', polygon(...REAL_RING_WITH_HOLE), polygon(...REAL_RING_WITH_HOLE)],
    ['a square a little under 1 km²', polygon(square(999)), polygon(square(999))],
    [
      '1.2 km² less a hole of 0.3 km² wound against its outer ring',
      polygon(square(1095), square(548, 0, 0, false)),
      polygon(square(1095), square(548, 0, 0, false)),
    ],
    ['1.2 km² less a hole of 0.3 km², wound as its outer ring', polygon(square(1095), square(548)), polygon(square(1095), square(548))],
    ['the extreme coordinates', polygon(closed([180, 90], [180, 89.99], [179.99, 89.99])), polygon(closed([180, 90], [180, 89.99], [179.99, 89.99]))],
  ])('%s', (_what, value, footprint) => {
    expect(checkFootprint(value)).toEqual<FootprintCheck>({ footprint });
  });
});

describe('checkFootprint: each rule refused, by name', () => {
  const shape = (got: string) => `footprint: must be a GeoJSON Polygon, MultiPolygon, or a Feature of one; got ${got}`;
  const notLonLat = (where: string) =>
    `footprint: ${where} is not lon/lat: give WGS84 degrees (longitude -180 to 180, latitude -90 to 90), not projected metres or feet`;
  const notNumbers = (where: string) => `footprint: ${where} is not [lon, lat]: two numbers (an altitude may follow)`;
  const [a, b, c, d] = house;

  it.each<[string, unknown, string]>([
    // The shape
    ['nothing', undefined, shape('nothing')],
    ['null', null, shape('null')],
    ['text', 'POLYGON((-95.39 29.763, ...))', shape('text')],
    ['a number', 5, shape('a number')],
    ['a list (coordinates without their geometry)', [house], shape('a list')],
    ['a LineString', { type: 'LineString', coordinates: house }, shape('a "LineString"')],
    ['a Point', { type: 'Point', coordinates: a }, shape('a "Point"')],
    ['a FeatureCollection', { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: polygon(house) }] }, shape('a "FeatureCollection"')],
    ['a GeometryCollection', { type: 'GeometryCollection', geometries: [polygon(house)] }, shape('a "GeometryCollection"')],
    ['a type in lower case', { type: 'polygon', coordinates: [house] }, shape('a "polygon"')],
    ['a long type, cut short', { type: 'x'.repeat(100), coordinates: [house] }, shape(`a "${'x'.repeat(40)}"`)],
    ['an object without a type', { coordinates: [house] }, shape('an object without a GeoJSON type')],
    ['a Feature of a Point', { type: 'Feature', geometry: { type: 'Point', coordinates: a } }, shape('a Feature whose geometry is a "Point"')],
    ['a Feature without a geometry', { type: 'Feature', geometry: null }, shape('a Feature whose geometry is null')],
    ['a Feature of a Feature', { type: 'Feature', geometry: { type: 'Feature', geometry: polygon(house) } }, shape('a Feature whose geometry is a "Feature"')],
    // The coordinates: lists of numbers
    ['a Polygon without coordinates', { type: 'Polygon' }, 'footprint: coordinates must be a list of rings (the outer ring, then any holes)'],
    ['a Polygon with no ring', polygon(), 'footprint: coordinates must be a list of rings (the outer ring, then any holes)'],
    [
      'a Polygon whose coordinates are one ring, unwrapped',
      { type: 'Polygon', coordinates: house },
      'footprint: ring 1 must be a list of [lon, lat] positions',
    ],
    ['an empty ring', polygon(house, []), 'footprint: ring 2 must be a list of [lon, lat] positions'],
    [
      'a MultiPolygon without polygons',
      { type: 'MultiPolygon', coordinates: [] },
      "footprint: a MultiPolygon's coordinates must be a list of polygons, each a list of rings (the outer ring, then any holes)",
    ],
    [
      'a MultiPolygon with an empty polygon',
      { type: 'MultiPolygon', coordinates: [[house], []] },
      'footprint: polygon 2 must be a list of rings (the outer ring, then any holes)',
    ],
    [
      "a MultiPolygon given a Polygon's coordinates",
      { type: 'MultiPolygon', coordinates: [house] },
      'footprint: polygon 1, ring 1 must be a list of [lon, lat] positions',
    ],
    ['a ring holding a number', polygon([a, b, 5 as unknown as LonLat, d, a]), 'footprint: ring 1 must be a list of [lon, lat] positions'],
    ['coordinates written as text', polygon([a, b, [String(c[0]), String(c[1])] as unknown as LonLat, d, a]), notNumbers('ring 1, position 3')],
    ['a position of one number', polygon([a, b, [c[0]] as unknown as LonLat, d, a]), notNumbers('ring 1, position 3')],
    ['a position of four numbers', polygon([a, b, [...c, 1, 2] as unknown as LonLat, d, a]), notNumbers('ring 1, position 3')],
    ['a null coordinate', polygon([a, [b[0], null] as unknown as LonLat, c, d, a]), notNumbers('ring 1, position 2')],
    // lon/lat, not projected
    [
      'Web Mercator metres',
      polygon(closed([-10618929.5, 3473000.1], [-10618929.5, 3473020.1], [-10618909.5, 3473020.1])),
      notLonLat('ring 1, position 1 [-10618929.5, 3473000.1]'),
    ],
    [
      'Texas state plane feet (South Central, 4204)',
      polygon(closed([3118000, 13840000], [3118000, 13840065], [3118065, 13840065])),
      notLonLat('ring 1, position 1 [3118000, 13840000]'),
    ],
    ['a latitude beyond 90', polygon(closed([-95.39, 89.9], [-95.39, 90.1], [-95.38, 89.9])), notLonLat('ring 1, position 2 [-95.39, 90.1]')],
    [
      'Houston with latitude and longitude swapped',
      polygon(house.map(([lon, lat]) => [lat, lon] as LonLat)),
      notLonLat(`ring 1, position 1 [${a[1]}, ${a[0]}]`),
    ],
    ['a hole in metres', polygon(yard, closed([0, 0], [0, 200], [200, 200])), notLonLat('ring 2, position 2 [0, 200]')],
    // Closed rings of at least 4 positions
    ['a ring not closed', polygon([a, b, c, d]), 'footprint: ring 1 is not closed (its first and last positions differ)'],
    ['a hole not closed', polygon(yard, house.slice(0, 4)), 'footprint: ring 2 is not closed (its first and last positions differ)'],
    [
      "a MultiPolygon's second polygon not closed",
      { type: 'MultiPolygon', coordinates: [[yard], [house.slice(0, 4)]] },
      'footprint: polygon 2, ring 1 is not closed (its first and last positions differ)',
    ],
    ['a ring of 3 positions', polygon([a, b, a]), 'footprint: ring 1 has 3 positions; a ring needs at least 4 (3 corners, then the first again)'],
    ['a ring of one position', polygon([a]), 'footprint: ring 1 has 1 positions; a ring needs at least 4 (3 corners, then the first again)'],
    // At most 2,000 vertices
    ['2,001 vertices', polygon(circle(2001, 100)), 'footprint: it has 2,001 vertices; at most 2,000 are accepted'],
    ['2,001 vertices over a hole and its ring', polygon(circle(1000, 200), circle(1001, 100)), 'footprint: it has 2,001 vertices; at most 2,000 are accepted'],
    ['12,000 vertices', polygon(circle(12_000, 100)), 'footprint: it has 12,000 vertices; at most 2,000 are accepted'],
  ])('%s', (_what, value, problem) => {
    expect(checkFootprint(value)).toEqual<FootprintCheck>({ problem });
  });

  const crossing = (at: LonLat) =>
    `footprint: its outline crosses itself near [${Number(at[0].toFixed(7))}, ${Number(at[1].toFixed(7))}]: a ring crosses itself, a hole its outer ring, or one polygon another (rings may touch only at a vertex they share)`;
  const at = (east: number, north: number) => ruler.offset([HOUSTON.lon, HOUSTON.lat], east, north) as LonLat;
  const HOUSTON_POSITION: LonLat = [HOUSTON.lon, HOUSTON.lat];

  it.each<[string, unknown, LonLat[]]>([
    ['a bow tie', polygon([a, c, b, d, a]), [at(0, 0)]],
    ['a hole crossing its outer ring', polygon(house, square(16, 10, 0)), [at(10, -8), at(10, 8)]],
    ['two polygons of a MultiPolygon crossing', { type: 'MultiPolygon', coordinates: [[house], [square(20, 10, 10)]] }, [at(10, 0), at(0, 10)]],
  ])('%s: crosses itself, near where', (_what, value, crossings) => {
    const checked = checkFootprint(value);
    const place = /near \[(-?[\d.]+), (-?[\d.]+)\]/.exec('problem' in checked ? checked.problem : '');
    const near: LonLat = [Number(place?.[1]), Number(place?.[2])];
    expect(Math.min(...crossings.map((crossing) => ruler.distance(near, crossing)))).toBeLessThan(0.01);
    expect(checked).toEqual({ problem: crossing(near) });
  });

  it('over 1 km², however it is wound, its area in m² (on the ground, at its latitude)', () => {
    expect(checkFootprint(polygon(square(1001)))).toEqual({ problem: 'footprint: its area is 1,002,001 m²; at most 1,000,000 m² (1 km²) is accepted' });
    expect(checkFootprint(polygon(square(1001, 0, 0, false)))).toEqual({
      problem: 'footprint: its area is 1,002,001 m²; at most 1,000,000 m² (1 km²) is accepted',
    });
    expect(checkFootprint({ type: 'MultiPolygon', coordinates: [[square(800)], [square(800, 2000, 0)]] })).toEqual({
      problem: 'footprint: its area is 1,280,000 m²; at most 1,000,000 m² (1 km²) is accepted',
    });
    expect(checkFootprint(polygon(square(1095), square(200)))).toEqual({
      problem: 'footprint: its area is 1,159,025 m²; at most 1,000,000 m² (1 km²) is accepted',
    });
  });

  it.each<[string, unknown]>([
    ['positions on one line', polygon(closed(at(0, 0), at(10, 0), at(20, 0)))],
    ['one place repeated', polygon([at(0, 0), at(0, 0), at(0, 0), at(0, 0)])],
  ])('enclosing no area (%s)', (_what, value) => {
    expect(checkFootprint(value)).toEqual({
      problem: 'footprint: it encloses no area (less than 0.1 m²): its positions lie on one line, or in one place',
    });
  });

  it('the first rule broken decides: the shape, then numbers, lon/lat, closed rings, vertices, crossings, area', () => {
    expect(checkFootprint({ type: 'LineString', coordinates: [[1e7, 1e7]] })).toEqual({ problem: shape('a "LineString"') });
    expect(checkFootprint(polygon([[1e7, 1e7], ['x', 1] as unknown as LonLat]))).toEqual({ problem: notNumbers('ring 1, position 2') });
    expect(checkFootprint(polygon([a, b, [1e7, 1e7], d]))).toEqual({ problem: notLonLat('ring 1, position 3 [10000000, 10000000]') });
    expect(checkFootprint(polygon([...circle(2001, 100).slice(0, -1)]))).toEqual({
      problem: 'footprint: ring 1 is not closed (its first and last positions differ)',
    });
    const bowTieOfManyVertices = polygon([a, c, ...circle(2001, 5).slice(1, -1), b, d, a]);
    expect(checkFootprint(bowTieOfManyVertices)).toEqual({ problem: 'footprint: it has 2,004 vertices; at most 2,000 are accepted' });
    const [p, q, r, t] = square(2000);
    expect(checkFootprint(polygon([p, r, q, t, p]))).toEqual({ problem: crossing(HOUSTON_POSITION) });
  });
});

describe('checkFootprint: the polygon rules every polygon meets', () => {
  /** A star of `vertices` points (odd), each edge crossing most others: the hostile shape that froze clipping. */
  function star(vertices: number, radiusM: number): LonLat[] {
    const step = (vertices - 1) / 2;
    return closed(
      ...Array.from(
        { length: vertices },
        (_, i) => ruler.destination([HOUSTON.lon, HOUSTON.lat], radiusM, (360 * ((i * step) % vertices)) / vertices) as LonLat,
      ),
    );
  }
  const crossingProblem = (checked: FootprintCheck) => ('problem' in checked ? checked.problem.replace(/near \[[^\]]*\]/, 'near […]') : 'accepted');

  it('a 1,999-vertex star is refused as crossing itself', () => {
    expect(crossingProblem(checkFootprint(polygon(star(1999, 20))))).toBe(
      'footprint: its outline crosses itself near […]: a ring crosses itself, a hole its outer ring, or one polygon another (rings may touch only at a vertex they share)',
    );
  });

  it('a footprint across the ±180° meridian is refused, naming it', () => {
    const across = polygon(closed([179.9999, 51.2], [179.9999, 51.2001], [-179.9999, 51.2001], [-179.9999, 51.2]));
    expect(checkFootprint(across)).toEqual({
      problem:
        'footprint: it crosses the ±180° meridian (its longitudes run from both sides of it): give each side as its own polygon, longitudes within -180 to 180',
    });
  });

  it('a footprint wider than 0.2° is refused', () => {
    const strip = polygon(closed([-95.5, 29.76], [-95.5, 29.76001], [-95.2, 29.76001], [-95.2, 29.76]));
    expect(checkFootprint(strip)).toEqual({ problem: 'footprint: it spans 0.3°; at most 0.2° of longitude or latitude is accepted' });
  });

  it('a hole lying outside its outer ring is refused', () => {
    expect(checkFootprint(polygon(house, square(14, 50, 0, false)))).toEqual({ problem: 'footprint: ring 2, a hole, lies outside its outer ring' });
  });

  it('a hole inside another hole is refused', () => {
    expect(checkFootprint(polygon(yard, square(30, 0, 0, false), square(10, 0, 0, false)))).toEqual({
      problem: 'footprint: ring 3, a hole, lies inside another hole (ring 2)',
    });
  });

  it('a polygon of a MultiPolygon inside another is refused', () => {
    expect(checkFootprint({ type: 'MultiPolygon', coordinates: [[yard], [house]] })).toEqual({
      problem: 'footprint: polygon 2, ring 1 lies inside polygon 1, ring 1: polygons of a MultiPolygon must not overlap',
    });
  });

  it('a polygon inside the hole of another is accepted (an island in a courtyard)', () => {
    const island: Footprint = { type: 'MultiPolygon', coordinates: [[yard, square(40, 0, 0, false)], [house]] };
    expect(checkFootprint(island)).toEqual({ footprint: island });
  });

  it('rings touching at a vertex they share are accepted: two polygons corner to corner, a hole touching its outer ring', () => {
    const [sw, , ne] = square(20);
    const cornerToCorner: Footprint = {
      type: 'MultiPolygon',
      coordinates: [[closed(sw, at(-10, 10), ne, at(10, -10))], [closed(ne, at(10, 30), at(30, 30), at(30, 10))]],
    };
    expect(checkFootprint(cornerToCorner)).toEqual({ footprint: cornerToCorner });
    const outer = square(20);
    const holeAtCorner = polygon(outer, closed(outer[0], at(-5, 0), at(0, 0), at(0, -5)));
    expect(checkFootprint(holeAtCorner)).toEqual({ footprint: holeAtCorner });
  });

  const at = (east: number, north: number) => ruler.offset([HOUSTON.lon, HOUSTON.lat], east, north) as LonLat;
});

describe('checkFootprint: shapes the hostile-geometry fuzz found (test/e2e/http/hostile-geometry-fuzz.e2e-spec.ts, seed 20261127)', () => {
  // Rings lying on one another's outline: no vertex of one is off the other's, so which holds which is told by a point inside.
  it.each<[string, Footprint, string]>([
    [
      'the same polygon twice (its area counted twice, each share halved)',
      { type: 'MultiPolygon', coordinates: [[house], [house]] },
      'footprint: polygon 1, ring 1 lies inside polygon 2, ring 1: polygons of a MultiPolygon must not overlap',
    ],
    [
      'the same polygon twice, wound each way',
      { type: 'MultiPolygon', coordinates: [[house], [[...house].reverse()]] },
      'footprint: polygon 1, ring 1 lies inside polygon 2, ring 1: polygons of a MultiPolygon must not overlap',
    ],
    [
      'a polygon on three corners of another (inside it, every vertex on its outline)',
      { type: 'MultiPolygon', coordinates: [[house], [closed(house[0], house[1], house[2])]] },
      'footprint: polygon 2, ring 1 lies inside polygon 1, ring 1: polygons of a MultiPolygon must not overlap',
    ],
    [
      'the same hole twice (its area taken away twice)',
      polygon(yard, house, [...house].reverse()),
      'footprint: ring 2, a hole, lies inside another hole (ring 3)',
    ],
  ])('%s is refused', (_what, footprint, problem) => {
    expect(checkFootprint(footprint)).toEqual({ problem });
  });

  it('a polygon filling the notch of another, every vertex on its outline, is accepted (they only touch)', () => {
    const [sw, nw, ne, se] = square(20);
    const notched = closed(sw, nw, ne, se, ruler.offset([HOUSTON.lon, HOUSTON.lat], 0, 0) as LonLat);
    const notch: Footprint = { type: 'MultiPolygon', coordinates: [[notched], [closed(sw, ruler.offset([HOUSTON.lon, HOUSTON.lat], 0, 0) as LonLat, se)]] };
    expect(checkFootprint(notch)).toEqual({ footprint: notch });
  });
});

describe('checkFootprintReach: within 1 km of the location', () => {
  const east = (metres: number) => ({ lat: HOUSTON.lat, lon: (ruler.offset([HOUSTON.lon, HOUSTON.lat], metres, 0) as LonLat)[0] });

  it.each<[string, Footprint, { lat: number; lon: number }]>([
    ['the location inside it', polygon(house), HOUSTON],
    ['the location on its edge', polygon(house), east(10)],
    ['1,000 m from its edge', polygon(house), east(1010)],
    ['the location in a hole, 20 m from its edge', polygon(yard, house), HOUSTON],
    ['the nearer of two polygons 900 m away', { type: 'MultiPolygon', coordinates: [[square(20, 5000, 0)], [square(20, -910, 0)]] }, HOUSTON],
  ])('%s is near enough', (_what, footprint, location) => {
    expect(checkFootprintReach(footprint, location)).toBeUndefined();
  });

  it.each<[string, Footprint, { lat: number; lon: number }, string]>([
    ['1,001 m from its edge', polygon(house), east(1011), '1,001 m'],
    ['1.5 km away', polygon(house), east(1510), '1,500 m'],
    ['9,999 m away', polygon(house), east(10_009), '9,999 m'],
    ['11 km away', polygon(house), east(11_010), 'more than 10 km'],
  ])('%s is refused, saying how far', (_what, footprint, location, away) => {
    expect(checkFootprintReach(footprint, location)).toBe(
      `footprint: it lies ${away} from the location (lat ${location.lat}, lon ${Number(location.lon.toFixed(7))}); it must lie within 1,000 m of it (GeoJSON positions are [longitude, latitude], longitude first)`,
    );
  });

  it('catches latitude and longitude swapped where both are valid degrees (Washington, DC)', () => {
    const whiteHouse = { lat: 38.8977, lon: -77.0365 };
    const swapped = polygon(closed([38.8976, -77.0366], [38.8978, -77.0366], [38.8978, -77.0364], [38.8976, -77.0364]));
    expect(checkFootprint(swapped)).toEqual({ footprint: swapped });
    expect(checkFootprintReach(swapped, whiteHouse)).toBe(
      'footprint: it lies more than 10 km from the location (lat 38.8977, lon -77.0365); it must lie within 1,000 m of it (GeoJSON positions are [longitude, latitude], longitude first)',
    );
  });
});
