import { POINT_EDGE_MARGIN_DEG, POLYGON_EDGE_MARGIN_DEG, heldPolygon, heldPolygonBytes, pointsWithin, polygonsAt, tileAt } from './held-layer';

/** A square ring, clockwise as ArcGIS draws an outer ring (counter-clockwise when `hole`). */
function square(west: number, south: number, east: number, north: number, hole = false): number[][] {
  const ring = [
    [west, south],
    [west, north],
    [east, north],
    [east, south],
    [west, south],
  ];
  return hole ? ring.reverse() : ring;
}

const ENVELOPE = [-75, 40, -74.9, 40.1] as const;
/** A panel with a hole, a second panel beside it, and a third overlapping both (order is FEMA's). */
const held = {
  envelope: ENVELOPE,
  features: [
    heldPolygon({ name: 'A' }, [square(-75, 40, -74.95, 40.05), square(-74.98, 40.02, -74.97, 40.03, true)]),
    heldPolygon({ name: 'B' }, [square(-74.95, 40, -74.9, 40.05)]),
    heldPolygon({ name: 'C' }, [square(-74.96, 40.01, -74.94, 40.02)]),
  ],
};

describe('polygonsAt: a point query answered from polygons held for an envelope', () => {
  it.each([
    ['inside A only', -74.99, 40.01, ['A']],
    ['inside B only', -74.91, 40.04, ['B']],
    ["in A's hole: not in A", -74.975, 40.025, []],
    ['inside A and C, in held order', -74.955, 40.015, ['A', 'C']],
    ['inside C and B', -74.945, 40.015, ['B', 'C']],
    ['in the envelope, in no polygon', -74.99, 40.08, []],
  ])('%s', (_case, lon, lat, names) => {
    expect(polygonsAt(held, lon, lat)?.map(({ name }) => name)).toEqual(names);
  });

  it.each([
    ["on the edge between A and B (FEMA's tolerance decides)", -74.95, 40.03],
    ["a hair from the edge of A's hole", -74.97 + POLYGON_EDGE_MARGIN_DEG / 2, 40.025],
    ['on a vertex', -74.96, 40.01],
    ['outside the envelope', -75.01, 40.01],
    ["just inside the envelope's edge", -75 + POLYGON_EDGE_MARGIN_DEG / 2, 40.06],
  ])('cannot tell: %s', (_case, lon, lat) => {
    expect(polygonsAt(held, lon, lat)).toBeUndefined();
  });

  it('tells a point just beyond the margin from an edge', () => {
    expect(polygonsAt(held, -74.95 - 3 * POLYGON_EDGE_MARGIN_DEG, 40.03)?.map(({ name }) => name)).toEqual(['A']);
    expect(polygonsAt(held, -74.95 + 3 * POLYGON_EDGE_MARGIN_DEG, 40.03)?.map(({ name }) => name)).toEqual(['B']);
  });

  it('holds rings as flat coordinates with their bounds, and counts their bytes', () => {
    const polygon = heldPolygon({}, [square(1, 2, 3, 4)]);
    expect(Array.from(polygon.rings[0])).toEqual([1, 2, 1, 4, 3, 4, 3, 2, 1, 2]);
    expect(polygon.box).toEqual([1, 2, 3, 4]);
    expect(heldPolygonBytes(polygon)).toBe(400 + 80 + 96);
  });
});

describe('pointsWithin: an envelope query of points answered from points held for a larger envelope', () => {
  const points = {
    envelope: ENVELOPE,
    features: [
      { feature: 'p1', lon: -74.95, lat: 40.05 },
      { feature: 'p2', lon: -74.96, lat: 40.06 },
      { feature: 'p3', lon: -74.93, lat: 40.05 },
    ],
  };

  it.each([
    ['around p1 and p2', [-74.97, 40.04, -74.94, 40.07], ['p1', 'p2']],
    ['around p3 only', [-74.935, 40.045, -74.925, 40.055], ['p3']],
    ['around none', [-74.99, 40.01, -74.98, 40.02], []],
  ] as const)('%s', (_case, box, found) => {
    expect(pointsWithin(points, box)).toEqual(found);
  });

  it.each([
    ['a point on the edge of the box', [-74.95, 40.04, -74.94, 40.06]],
    ['a point nearer the edge than rounding can move it', [-74.97, 40.04, -74.95 - POINT_EDGE_MARGIN_DEG / 2, 40.07]],
    ['the box reaching out of the held envelope', [-75.001, 40.04, -74.94, 40.07]],
  ] as const)('cannot tell: %s', (_case, box) => {
    expect(pointsWithin(points, box)).toBeUndefined();
  });
});

describe('tileAt: the grid square of a point, widened by its margin', () => {
  it.each([
    [-74.123, 40.7, 0.05, 0.0005, '0.05/-1483/814', [-74.1505, 40.6995, -74.0995, 40.7505]],
    [-74.1, 40.749, 0.05, 0.0005, '0.05/-1482/814', [-74.1005, 40.6995, -74.0495, 40.7505]],
    [10.01, -0.01, 0.02, 0.004, '0.02/500/-1', [9.996, -0.024, 10.024, 0.004]],
  ])('(%s, %s) by %s° → %s', (lon, lat, size, margin, key, envelope) => {
    expect(tileAt(lon, lat, size, margin)).toEqual({ key, envelope });
  });

  it('gives every point of a square the same key', () => {
    const keys = new Set([0.001, 0.017, 0.0499].map((d) => tileAt(-74.1 + d, 40.7 + d, 0.05, 0).key));
    expect(keys.size).toBe(1);
  });
});
