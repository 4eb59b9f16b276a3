import {
  bboxOfRings,
  haversineMeters,
  polygonIntersectsPoint,
  rectHole,
  rectRing,
  ringsToGeoJson,
  signedArea,
  squareAround,
} from './geometry';

describe('point in polygon (esriSpatialRelIntersects over ArcGIS rings)', () => {
  const outer = rectRing(0, 0, 10, 10);
  const hole = rectHole(4, 4, 6, 6);
  const donut = [outer, hole];

  it('contains an interior point and not an outside one', () => {
    expect(polygonIntersectsPoint([outer], 5, 5)).toBe(true);
    expect(polygonIntersectsPoint([outer], 11, 5)).toBe(false);
    expect(polygonIntersectsPoint([outer], -0.001, 5)).toBe(false);
  });

  it('excludes a point in a hole, includes the ring between hole and outer edge', () => {
    expect(polygonIntersectsPoint(donut, 5, 5)).toBe(false);
    expect(polygonIntersectsPoint(donut, 2, 2)).toBe(true);
  });

  it('counts a point on an edge or a vertex (also of a hole) as contained', () => {
    expect(polygonIntersectsPoint([outer], 10, 5)).toBe(true);
    expect(polygonIntersectsPoint([outer], 0, 0)).toBe(true);
    expect(polygonIntersectsPoint([outer], 3.3, 10)).toBe(true);
    expect(polygonIntersectsPoint(donut, 4, 5)).toBe(true);
  });

  it('puts a point on the shared edge of two polygons (a seam) in both', () => {
    const west = [rectRing(-95.4, 29.76, -95.39, 29.77)];
    const east = [rectRing(-95.39, 29.76, -95.38, 29.77)];
    expect(polygonIntersectsPoint(west, -95.39, 29.765)).toBe(true);
    expect(polygonIntersectsPoint(east, -95.39, 29.765)).toBe(true);
    expect(polygonIntersectsPoint(west, -95.3899, 29.765)).toBe(false);
  });

  it('handles multi-part polygons and non-rectangular rings (even-odd)', () => {
    const twoParts = [rectRing(0, 0, 1, 1), rectRing(2, 0, 3, 1)];
    expect(polygonIntersectsPoint(twoParts, 2.5, 0.5)).toBe(true);
    expect(polygonIntersectsPoint(twoParts, 1.5, 0.5)).toBe(false);
    const triangle: [number, number][] = [[0, 0], [0, 4], [4, 0], [0, 0]];
    expect(polygonIntersectsPoint([triangle], 1, 1)).toBe(true);
    expect(polygonIntersectsPoint([triangle], 2, 2)).toBe(true); // on the hypotenuse
    expect(polygonIntersectsPoint([triangle], 2.1, 2.1)).toBe(false);
  });

  it('rejects by bounding box before testing rings', () => {
    const rings = [squareAround(38.9, -77, 300)];
    const bbox = bboxOfRings(rings);
    expect(polygonIntersectsPoint(rings, -77, 38.9, bbox)).toBe(true);
    expect(polygonIntersectsPoint(rings, 38.9, -77, bbox)).toBe(false); // swapped axes
  });

  it('builds squares of the requested size and orientation', () => {
    const sq = squareAround(38.9, -77, 300);
    expect(signedArea(sq)).toBeLessThan(0); // clockwise = ArcGIS outer ring
    expect(haversineMeters(sq[0][1], sq[0][0], sq[1][1], sq[1][0])).toBeCloseTo(300, -1);
    expect(haversineMeters(sq[1][1], sq[1][0], sq[2][1], sq[2][0])).toBeCloseTo(300, -1);
  });

  it('converts rings with holes to GeoJSON (RFC 7946 orientation)', () => {
    const g = ringsToGeoJson([outer, hole]);
    expect(g.type).toBe('Polygon');
    const coords = g.coordinates as [number, number][][];
    expect(coords).toHaveLength(2);
    expect(signedArea(coords[0])).toBeGreaterThan(0);
    expect(signedArea(coords[1])).toBeLessThan(0);
    expect(ringsToGeoJson([rectRing(0, 0, 1, 1), rectRing(2, 0, 3, 1)]).type).toBe('MultiPolygon');
  });
});
