import {
  Position,
  bboxOfRings,
  bboxOfShape,
  haversineMeters,
  lonLatToWebMercator,
  metersToDegrees,
  pathsToGeoJson,
  polygonIntersectsPoint,
  rectHole,
  rectRing,
  ringsToGeoJson,
  segmentIntersectsBBox,
  shapeDistanceDegrees,
  shapeDistanceMeters,
  shapeIntersectsEnvelope,
  shapeIntersectsPoint,
  signedArea,
  squareAround,
  thinVertices,
  webMercatorToLonLat,
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
    const triangle: [number, number][] = [
      [0, 0],
      [0, 4],
      [4, 0],
      [0, 0],
    ];
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

describe('envelopes, lines and points (esriSpatialRelIntersects with an envelope)', () => {
  const box = { xmin: 2, ymin: 2, xmax: 4, ymax: 4 };

  it.each([
    ['crossing the box with both ends outside', [0, 3], [6, 3], true],
    ['ending inside', [0, 0], [3, 3], true],
    ['touching a corner', [0, 6], [2, 4], true],
    ['passing beside it', [0, 5], [6, 5], false],
    ['diagonal past a corner', [0, 5], [5, 10], false],
    ['wholly inside', [2.5, 2.5], [3, 3], true],
  ])('a segment %s', (_what, a, b, hit) => {
    expect(segmentIntersectsBBox(a as Position, b as Position, box)).toBe(hit);
  });

  it('intersects polygons by edge, by containing the envelope, and not inside a hole', () => {
    expect(shapeIntersectsEnvelope({ rings: [rectRing(3, 3, 10, 10)] }, box)).toBe(true);
    expect(shapeIntersectsEnvelope({ rings: [rectRing(0, 0, 10, 10)] }, box)).toBe(true);
    expect(shapeIntersectsEnvelope({ rings: [rectRing(0, 0, 10, 10), rectHole(1, 1, 5, 5)] }, box)).toBe(false);
    expect(shapeIntersectsEnvelope({ rings: [rectRing(0, 0, 10, 10), rectHole(1, 1, 3, 3)] }, box)).toBe(true);
    expect(shapeIntersectsEnvelope({ rings: [rectRing(5, 5, 10, 10)] }, box)).toBe(false);
  });

  it('intersects polylines by any segment and points by position', () => {
    expect(
      shapeIntersectsEnvelope(
        {
          paths: [
            [
              [0, 0],
              [0, 6],
              [6, 6],
              [6, 3],
              [1, 3],
            ],
          ],
        },
        box,
      ),
    ).toBe(true);
    expect(
      shapeIntersectsEnvelope(
        {
          paths: [
            [
              [0, 0],
              [0, 6],
              [6, 6],
            ],
          ],
        },
        box,
      ),
    ).toBe(false);
    expect(shapeIntersectsEnvelope({ point: [4, 3] }, box)).toBe(true);
    expect(shapeIntersectsEnvelope({ point: [4.1, 3] }, box)).toBe(false);
  });

  it('intersects a point with a polyline on it and with the same point', () => {
    expect(
      shapeIntersectsPoint(
        {
          paths: [
            [
              [0, 0],
              [2, 2],
            ],
          ],
        },
        1,
        1,
      ),
    ).toBe(true);
    expect(
      shapeIntersectsPoint(
        {
          paths: [
            [
              [0, 0],
              [2, 2],
            ],
          ],
        },
        1,
        1.1,
      ),
    ).toBe(false);
    expect(shapeIntersectsPoint({ point: [1, 1] }, 1, 1)).toBe(true);
    expect(shapeIntersectsPoint({ point: [1, 1] }, 1, 1.001)).toBe(false);
  });

  it('measures bounding boxes of every shape', () => {
    expect(
      bboxOfShape({
        paths: [
          [
            [1, 2],
            [3, -1],
          ],
        ],
      }),
    ).toEqual({ xmin: 1, ymin: -1, xmax: 3, ymax: 2 });
    expect(bboxOfShape({ point: [1, 2] })).toEqual({ xmin: 1, ymin: 2, xmax: 1, ymax: 2 });
  });
});

describe('distances to shapes (great circle)', () => {
  const lat = 30;
  const lon = -90;
  const { dLon, dLat } = metersToDegrees(lat, 100);
  // on the mean-radius sphere (6,371,008.8 m) a degree of latitude is 111,195 m, of longitude at 30° N 96,297 m
  const M_PER_DEG_LAT = 111_195;
  const M_PER_DEG_LON = 96_297;
  const near = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThan(expected * 0.001 + 0.01);

  it('is 0 inside a polygon and the distance to the nearest edge outside', () => {
    const poly = { rings: [rectRing(lon - dLon, lat - dLat, lon + dLon, lat + dLat)] };
    expect(shapeDistanceMeters(poly, lon, lat)).toBe(0);
    near(shapeDistanceMeters(poly, lon + 3 * dLon, lat), 2 * dLon * M_PER_DEG_LON);
    near(shapeDistanceMeters(poly, lon, lat + 2.5 * dLat), 1.5 * dLat * M_PER_DEG_LAT);
  });

  it('measures to the nearest segment of any path and to a point', () => {
    const line = {
      paths: [
        [
          [lon - 5 * dLon, lat + dLat],
          [lon + 5 * dLon, lat + dLat],
        ],
        [
          [lon, lat - 4 * dLat],
          [lon + dLon, lat - 4 * dLat],
        ],
      ] as Position[][],
    };
    near(shapeDistanceMeters(line, lon, lat), dLat * M_PER_DEG_LAT);
    near(shapeDistanceMeters({ point: [lon + 0.3 * dLon, lat + 0.4 * dLat] }, lon, lat), Math.hypot(0.3 * dLon * M_PER_DEG_LON, 0.4 * dLat * M_PER_DEG_LAT));
  });

  it('measures planar degrees for unit-less buffers', () => {
    expect(shapeDistanceDegrees({ rings: [rectRing(0, 0, 1, 1)] }, 0.5, 0.5)).toBe(0);
    expect(shapeDistanceDegrees({ rings: [rectRing(0, 0, 1, 1)] }, 3, 0.5)).toBeCloseTo(2, 12);
    expect(
      shapeDistanceDegrees(
        {
          paths: [
            [
              [0, 0],
              [0, 10],
            ],
          ],
        },
        0.25,
        5,
      ),
    ).toBeCloseTo(0.25, 12);
    expect(shapeDistanceDegrees({ point: [3, 4] }, 0, 0)).toBe(5);
  });
});

describe('geometry output helpers', () => {
  it('round-trips Web Mercator', () => {
    const [x, y] = lonLatToWebMercator(-77.03535, 38.898754);
    expect(x).toBeCloseTo((-77.03535 * 20037508.342789244) / 180, 6); // half the equator spans 180 degrees
    const [lon, lat] = webMercatorToLonLat(x, y);
    expect(lon).toBeCloseTo(-77.03535, 9);
    expect(lat).toBeCloseTo(38.898754, 9);
  });

  it('thins vertices closer than the offset, keeping both ends and never collapsing a ring', () => {
    const line: Position[] = [
      [0, 0],
      [0.1, 0],
      [0.2, 0],
      [1, 0],
      [1.05, 0],
      [2, 0],
    ];
    expect(thinVertices(line, 0.5, 2)).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
    expect(thinVertices(line, 0, 2)).toBe(line);
    const ring = rectRing(0, 0, 0.1, 0.1);
    expect(thinVertices(ring, 1, 4)).toBe(ring);
  });

  it('writes paths as GeoJSON lines', () => {
    expect(
      pathsToGeoJson([
        [
          [0, 0],
          [1, 1],
        ],
      ]),
    ).toEqual({
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 1],
      ],
    });
    expect(
      pathsToGeoJson([
        [
          [0, 0],
          [1, 1],
        ],
        [
          [2, 2],
          [3, 3],
        ],
      ]).type,
    ).toBe('MultiLineString');
  });
});
