import { pictureDecorations } from './map-drawing';

describe('pictureDecorations: a north arrow', () => {
  it.each([
    [800, 600],
    [200, 200],
    [1600, 200],
    [200, 1600],
  ])('%dx%d: one arrow pointing up (the pictures are north up), bottom left beside the scale bar, clear of the point', (width, height) => {
    const frame = { width, height, spanM: 600 };
    const svg = pictureDecorations({
      frame,
      caption: ['Zone AE'],
      place: '29.7, -95.4',
      legend: [],
      pointZone: null,
      basemapShown: true,
      buildingOutline: [],
      footprintCredit: null,
    });
    const arrows = [...svg.matchAll(/<path class="north-arrow" d="([^"]+)"/g)];
    expect(arrows.length).toBe(1);
    const points = [...arrows[0][1].matchAll(/(-?[\d.]+),(-?[\d.]+)/g)].map(([, x, y]) => [Number(x), Number(y)]);
    const [apex, ...rest] = points;
    // the apex above every other point, in the middle of the arrow
    expect(rest.every(([, y]) => y > apex[1])).toBe(true);
    expect(Math.min(...rest.map(([x]) => x))).toBeLessThan(apex[0]);
    expect(Math.max(...rest.map(([x]) => x))).toBeGreaterThan(apex[0]);
    // in the bottom-left corner, below the ring around the point
    expect(points.every(([x, y]) => x < width / 2 && y > height / 2 + 15 && y < height)).toBe(true);
  });
});

describe("pictureDecorations: the building data's credit at the foot", () => {
  it('drawn with its outline: every glyph of " · FEMA/ORNL USA Structures (CC BY 4.0)" more than without it', () => {
    const frame = { width: 800, height: 600, spanM: 150 };
    const outline = [
      [
        [380, 290],
        [420, 290],
        [420, 310],
        [380, 310],
        [380, 290],
      ] as Array<[number, number]>,
    ];
    const glyphs = (footprintCredit: string | null) =>
      pictureDecorations({
        frame,
        caption: ['Zone AE'],
        place: '29.7, -95.4',
        legend: [],
        pointZone: null,
        basemapShown: true,
        buildingOutline: outline,
        footprintCredit,
      }).match(/<use /g)!.length;
    const credit = 'FEMA/ORNL USA Structures (CC BY 4.0)';
    expect(glyphs(credit) - glyphs(null)).toBe(` · ${credit}`.replace(/ /g, '').length);
  });
});
