import { readFileSync } from 'node:fs';
import { Font, Path, parse } from 'opentype.js';

/**
 * Words on the picture as SVG outlines, never as SVG text: the SVG renderer would look the font up through
 * the machine's fontconfig, so a machine without fonts (the container image, a fresh CI runner) would draw
 * other letters, or none. The outlines come from DejaVu Sans in the npm package `dejavu-fonts-ttf`, found by
 * module resolution so that the service finds it from src/, from dist/ and in the container image alike.
 * Glyph by glyph, without OpenType substitutions (opentype.js cannot apply DejaVu's) or kerning: Latin text
 * needs neither.
 */

export type FontWeight = 'regular' | 'bold';

const FONT_FILES: Record<FontWeight, string> = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
};

const fonts = new Map<FontWeight, Font>();

function font(weight: FontWeight): Font {
  let loaded = fonts.get(weight);
  if (!loaded) {
    loaded = parse(readFileSync(FONT_FILES[weight]));
    fonts.set(weight, loaded);
  }
  return loaded;
}

export interface TextStyle {
  size: number;
  weight: FontWeight;
}

/** How far the text advances, in pixels. */
export function textWidth(text: string, style: TextStyle): number {
  const face = font(style.weight);
  let units = 0;
  for (const char of text) units += face.charToGlyph(char).advanceWidth ?? 0;
  return (units * style.size) / face.unitsPerEm;
}

/** The font's ascent and descent at this size, in pixels (descent positive). */
export function lineMetrics(style: TextStyle): { ascent: number; descent: number } {
  const face = font(style.weight);
  return { ascent: (face.ascender * style.size) / face.unitsPerEm, descent: (-face.descender * style.size) / face.unitsPerEm };
}

/** Each glyph outline at the origin, by font, size and character: drawn once, placed with `<use>` wherever it appears. */
const glyphOutlines = new Map<string, { id: string; d: string }>();

/**
 * The SVG of one picture's words: `<defs>` with the glyph outlines its lines use, then each line as its glyphs
 * placed along the baseline. Build with `line`, read with `svg` once every line is in.
 */
export class PictureText {
  private readonly used = new Map<string, string>();
  private readonly lines: string[] = [];

  /** A line whose baseline starts at (x, y), filled with `fill`. */
  line(text: string, x: number, y: number, style: TextStyle, fill: string): void {
    const face = font(style.weight);
    const scale = style.size / face.unitsPerEm;
    const uses: string[] = [];
    let advance = x;
    for (const char of text) {
      const glyph = face.charToGlyph(char);
      const key = `${style.weight}|${style.size}|${char}`;
      let outline = glyphOutlines.get(key);
      if (!outline) {
        outline = { id: `g${glyphOutlines.size}`, d: pathData(glyph.getPath(0, 0, style.size)) };
        glyphOutlines.set(key, outline);
      }
      if (outline.d !== '') {
        this.used.set(outline.id, outline.d);
        uses.push(`<use href="#${outline.id}" x="${round(advance)}" y="${round(y)}"/>`);
      }
      advance += (glyph.advanceWidth ?? 0) * scale;
    }
    this.lines.push(`<g fill="${fill}">${uses.join('')}</g>`);
  }

  get svg(): string {
    const defs = [...this.used].map(([id, d]) => `<path id="${id}" d="${d}"/>`).join('');
    return `<defs>${defs}</defs>${this.lines.join('')}`;
  }
}

/**
 * A glyph outline as SVG path data, every number to the hundredth and spaced (opentype.js's own writer runs
 * some numbers together), each contour closed: TrueType contours are closed by definition.
 */
function pathData(path: Path): string {
  const parts: string[] = [];
  for (const command of path.commands) {
    if (command.type === 'M' && parts.length > 0) parts.push('Z');
    if (command.type === 'Z') parts.push('Z');
    else if (command.type === 'Q') parts.push(`Q${round(command.x1)} ${round(command.y1)} ${round(command.x)} ${round(command.y)}`);
    else if (command.type === 'C')
      parts.push(`C${round(command.x1)} ${round(command.y1)} ${round(command.x2)} ${round(command.y2)} ${round(command.x)} ${round(command.y)}`);
    else parts.push(`${command.type}${round(command.x)} ${round(command.y)}`);
  }
  if (parts.length > 0 && parts[parts.length - 1] !== 'Z') parts.push('Z');
  return parts.join('');
}

function round(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/**
 * The words in lines no wider than `maxWidth`: whole segments (joined by " · ") while they fit, a segment
 * too long for a line on its own broken between words.
 */
export function wrapSegments(segments: readonly string[], maxWidth: number, style: TextStyle): string[] {
  const lines: string[] = [];
  let current = '';
  const fits = (text: string) => textWidth(text, style) <= maxWidth;
  for (const segment of segments) {
    const joined = current === '' ? segment : `${current} · ${segment}`;
    if (fits(joined)) {
      current = joined;
      continue;
    }
    if (current !== '') lines.push(current);
    current = '';
    for (const word of segment.split(' ')) {
      const next = current === '' ? word : `${current} ${word}`;
      if (fits(next) || current === '') current = next;
      else {
        lines.push(current);
        current = word;
      }
    }
  }
  if (current !== '') lines.push(current);
  return lines;
}
