import { PictureText, TextStyle, textWidth, wrapSegments } from './picture-text';

const REGULAR: TextStyle = { size: 10, weight: 'regular' };
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('') + '·—…';

/** The path data of each glyph the text's SVG defines. */
function outlines(svg: string): string[] {
  return [...svg.matchAll(/<path id="g\d+" d="([^"]*)"\/>/g)].map((match) => match[1]);
}

describe('PictureText: words as glyph outlines', () => {
  it.each([8, 9, 10, 11, 13, 15])('at %d px every glyph is well-formed path data: spaced numbers to the hundredth, closed contours', (size) => {
    for (const weight of ['regular', 'bold'] as const) {
      const text = new PictureText();
      text.line(PRINTABLE, 0, 20, { size, weight }, '#000');
      const paths = outlines(text.svg);
      // every printable character but the space draws something
      expect(paths).toHaveLength([...PRINTABLE].length - 1);
      for (const d of paths) {
        expect(d).toMatch(/^M/);
        expect(d).toMatch(/Z$/);
        // a command letter, then numbers separated by a space or their own sign: never two numbers run together
        for (const command of d.match(/[MLQCZ][^MLQCZ]*/g) ?? []) {
          expect(command).toMatch(
            /^(Z|[ML]-?\d+(\.\d{1,2})? -?\d+(\.\d{1,2})?|Q(-?\d+(\.\d{1,2})? ){3}-?\d+(\.\d{1,2})?|C(-?\d+(\.\d{1,2})? ){5}-?\d+(\.\d{1,2})?)$/,
          );
        }
      }
    }
  });

  it('places each glyph once defined, wherever it appears, along the baseline by its advance', () => {
    const text = new PictureText();
    text.line('AAA', 10, 30, REGULAR, '#123456');
    const svg = text.svg;
    expect(outlines(svg)).toHaveLength(1);
    const xs = [...svg.matchAll(/<use href="#g\d+" x="([\d.]+)" y="30"\/>/g)].map((match) => Number(match[1]));
    const advance = textWidth('A', REGULAR);
    expect(xs).toEqual([10, Math.round((10 + advance) * 100) / 100, Math.round((10 + 2 * advance) * 100) / 100]);
    expect(svg).toContain('<g fill="#123456">');
  });

  it('measures text in proportion to its size', () => {
    expect(textWidth('Zone AE', { size: 20, weight: 'regular' })).toBeCloseTo(2 * textWidth('Zone AE', REGULAR), 6);
    expect(textWidth('Zone AE', { size: 10, weight: 'bold' })).toBeGreaterThan(textWidth('Zone AE', REGULAR));
    expect(textWidth('', REGULAR)).toBe(0);
  });
});

describe('wrapSegments: lines no wider than asked, whole segments first', () => {
  const segments = ['Zone AE', 'high risk (SFHA)', 'FIRM panel 51710C0035G, effective 2009-12-16'];
  const width = (text: string) => textWidth(text, REGULAR);

  it.each([
    [10_000, ['Zone AE · high risk (SFHA) · FIRM panel 51710C0035G, effective 2009-12-16']],
    [width('FIRM panel 51710C0035G, effective 2009-12-16'), ['Zone AE · high risk (SFHA)', 'FIRM panel 51710C0035G, effective 2009-12-16']],
    [width('Zone AE · high risk (SFHA)'), ['Zone AE · high risk (SFHA)', 'FIRM panel', '51710C0035G, effective', '2009-12-16']],
    [width('Zone AE · high risk (SFHA)') - 1, ['Zone AE', 'high risk (SFHA)', 'FIRM panel', '51710C0035G, effective', '2009-12-16']],
  ])('at %d px', (maxWidth, lines) => {
    expect(wrapSegments(segments, maxWidth, REGULAR)).toEqual(lines);
    for (const line of lines) expect(width(line)).toBeLessThanOrEqual(maxWidth);
  });

  it('keeps a word longer than the line whole, on a line of its own', () => {
    expect(wrapSegments(['a 4804260005B b'], width('4804260005'), REGULAR)).toEqual(['a', '4804260005B', 'b']);
  });
});
