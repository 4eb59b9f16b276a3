import { footprintOutline, mapExtentAround, picturePosition, pinPixel, roundDownToNice, scaleBar, webMercator } from './map-area';

describe('webMercator: EPSG:3857 metres of a point', () => {
  it.each([
    [0, 0, 0, 0],
    [0, 180, 20_037_508.34, 0],
    [0, -180, -20_037_508.34, 0],
    [45, 0, 0, 5_621_521.49],
    [-45, 0, 0, -5_621_521.49],
    [38.8987, -77.0352, -8_575_519.24, 4_707_171.59],
  ])('lat %d lon %d is x %d, y %d', (lat, lon, x, y) => {
    const projected = webMercator({ lat, lon });
    expect(projected.x).toBeCloseTo(x, 2);
    expect(projected.y).toBeCloseTo(y, 2);
  });
});

describe('mapExtentAround: the box with the point at its centre and span metres across', () => {
  it.each([
    // lat, lon, width, height, span, bbox
    [0, 0, 800, 600, 600, [-300, -225, 300, 225]],
    [0, 0, 600, 800, 600, [-300, -400, 300, 400]],
    [0, 0, 200, 200, 100, [-50, -50, 50, 50]],
    [0, 0, 1600, 200, 5000, [-2500, -312.5, 2500, 312.5]],
    // at 60° Web Mercator doubles every ground distance
    [60, 0, 800, 600, 600, [-600, 8_399_737.89 - 450, 600, 8_399_737.89 + 450]],
  ])('lat %d lon %d, %dx%d, span %d m: %j', (lat, lon, width, height, spanM, bbox) => {
    const extent = mapExtentAround({ lat, lon }, { width, height, spanM });
    expect(extent.width).toBe(width);
    expect(extent.height).toBe(height);
    extent.bbox.forEach((value, i) => expect(value).toBeCloseTo(bbox[i], 0));
  });

  it.each([
    [38.8987, -77.0352, 800, 600, 600],
    [29.7, -95.43, 1024, 768, 250],
    [64.8378, -147.7164, 400, 300, 5000],
    [-14.2756, -170.702, 200, 1600, 100],
  ])('lat %d lon %d, %dx%d, span %d m: the point is the centre; width is span ground metres, height keeps the aspect', (lat, lon, width, height, spanM) => {
    const extent = mapExtentAround({ lat, lon }, { width, height, spanM });
    const [xmin, ymin, xmax, ymax] = extent.bbox;
    const { x, y } = webMercator({ lat, lon });
    expect((xmin + xmax) / 2).toBeCloseTo(x, 1);
    expect((ymin + ymax) / 2).toBeCloseTo(y, 1);
    const ground = Math.cos((lat * Math.PI) / 180);
    expect((xmax - xmin) * ground).toBeCloseTo(spanM, 1);
    expect((ymax - ymin) * ground).toBeCloseTo((spanM * height) / width, 1);
  });

  it('gives the corners to the centimetre', () => {
    for (const value of mapExtentAround({ lat: 38.8987, lon: -77.0352 }, { width: 800, height: 600, spanM: 600 }).bbox) {
      expect(Math.round(value * 100) / 100).toBe(value);
    }
  });
});

describe('pinPixel: the pixel of the point, from 0 at the top left', () => {
  it.each([
    [800, 600, 400, 300],
    [200, 200, 100, 100],
    [201, 199, 100, 99],
    [1600, 1600, 800, 800],
  ])('%dx%d: column %d, row %d', (width, height, column, row) => {
    expect(pinPixel({ width, height })).toEqual({ column, row });
  });
});

describe('roundDownToNice: 1, 2 or 5 times a power of ten', () => {
  it.each([
    [1, 1],
    [1.99, 1],
    [2, 2],
    [4.99, 2],
    [5, 5],
    [9.99, 5],
    [10, 10],
    [150, 100],
    [492.1, 200],
    [1250, 1000],
    [4101, 2000],
    [0.3, 0.2],
  ])('%d → %d', (value, nice) => {
    expect(roundDownToNice(value)).toBe(nice);
  });
});

describe('scaleBar: the longest round length in metres and in feet that fits', () => {
  it.each([
    // width, span, max pixels, metric, its pixels, imperial, its pixels
    [800, 600, 200, '100 m', 133, '200 ft', 81],
    [800, 600, 400, '200 m', 267, '500 ft', 203],
    [200, 5000, 50, '1 km', 40, '2000 ft', 24],
    [1600, 100, 400, '20 m', 320, '50 ft', 244],
    [400, 5000, 100, '1 km', 80, '2000 ft', 49],
    [200, 5000, 100, '2 km', 80, '1 mi', 64],
    [1600, 5000, 400, '1 km', 320, '2000 ft', 195],
  ])('%d px across %d m, at most %d px: %s (%d px) and %s (%d px)', (width, spanM, maxPixels, metric, metricPixels, imperial, imperialPixels) => {
    expect(scaleBar({ width, height: 600, spanM }, maxPixels)).toEqual({
      metric: { label: metric, pixels: metricPixels },
      imperial: { label: imperial, pixels: imperialPixels },
    });
  });
});

describe('picturePosition: where a lon/lat falls on the picture, in pixels from the top left', () => {
  // 600 m across 800 px at the equator: 0.75 m a pixel; one metre of Web Mercator is one ground metre there
  const frame = { width: 800, height: 600, spanM: 600 };
  const metre = 1 / 111_319.49;
  it.each([
    ['the centre', [0, 0], [400, 300]],
    ['75 m east', [75 * metre, 0], [500, 300]],
    ['75 m west', [-75 * metre, 0], [300, 300]],
    ['225 m north: the top edge', [0, 225 * metre], [400, 0]],
    ['225 m south: the bottom edge', [0, -225 * metre], [400, 600]],
  ] as const)('%s', (_what, position, [x, y]) => {
    const [column, row] = picturePosition({ lat: 0, lon: 0 }, frame, position);
    expect(column).toBeCloseTo(x, 1);
    expect(row).toBeCloseTo(y, 1);
  });

  it.each([
    [38.8987, -77.0352, 800, 600, 600],
    [45.1, -87.5875, 560, 360, 600],
    [29.7, -95.43, 1024, 768, 250],
  ])('lat %d lon %d, %dx%d, span %d m: the corners of mapExtentAround are the corners of the picture', (lat, lon, width, height, spanM) => {
    const [xmin, ymin, xmax, ymax] = mapExtentAround({ lat, lon }, { width, height, spanM }).bbox;
    const lonLatOf = (x: number, y: number) =>
      [(x / 6_378_137) * (180 / Math.PI), (2 * Math.atan(Math.exp(y / 6_378_137)) - Math.PI / 2) * (180 / Math.PI)] as const;
    const corners = [lonLatOf(xmin, ymax), lonLatOf(xmax, ymin)].map((corner) => picturePosition({ lat, lon }, { width, height, spanM }, corner));
    [0, 0, width, height].forEach((value, i) => expect(corners[Math.floor(i / 2)][i % 2]).toBeCloseTo(value, 1));
  });
});

describe('footprintOutline: every ring of a footprint on the picture', () => {
  const frame = { width: 800, height: 600, spanM: 600 };
  const m = 1 / 111_319.49;
  const square = (west: number, south: number, size: number): Array<[number, number]> => [
    [west * m, south * m],
    [west * m, (south + size) * m],
    [(west + size) * m, (south + size) * m],
    [(west + size) * m, south * m],
    [west * m, south * m],
  ];
  const rounded = (rings: ReadonlyArray<ReadonlyArray<readonly [number, number]>>) =>
    rings.map((ring) => ring.map(([x, y]) => [Math.round(x * 10) / 10, Math.round(y * 10) / 10]));

  it('a Polygon with a hole: its outer ring and its hole, in order', () => {
    const outline = footprintOutline({ lat: 0, lon: 0 }, frame, { type: 'Polygon', coordinates: [square(0, 0, 15), square(3, 3, 3)] });
    expect(rounded(outline)).toEqual([
      [
        [400, 300],
        [400, 280],
        [420, 280],
        [420, 300],
        [400, 300],
      ],
      [
        [404, 296],
        [404, 292],
        [408, 292],
        [408, 296],
        [404, 296],
      ],
    ]);
  });

  it("a MultiPolygon: each polygon's rings", () => {
    const outline = footprintOutline({ lat: 0, lon: 0 }, frame, { type: 'MultiPolygon', coordinates: [[square(-30, 0, 15)], [square(30, 0, 15)]] });
    expect(rounded(outline).map((ring) => ring[0])).toEqual([
      [360, 300],
      [440, 300],
    ]);
  });
});
