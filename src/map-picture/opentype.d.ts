/** The part of opentype.js (v2, which ships no types) the picture uses: a parsed font, its glyphs and their outlines. */
declare module 'opentype.js' {
  /** A drawing command in SVG coordinates (y down); `x1`, `y1` for Q and C, `x2`, `y2` for C; none for Z. */
  export type PathCommand =
    | { type: 'M' | 'L'; x: number; y: number }
    | { type: 'Q'; x1: number; y1: number; x: number; y: number }
    | { type: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
    | { type: 'Z' };
  export class Path {
    commands: PathCommand[];
  }
  export interface Glyph {
    advanceWidth?: number;
    getPath(x: number, y: number, fontSize: number): Path;
  }
  export interface Font {
    unitsPerEm: number;
    ascender: number;
    descender: number;
    charToGlyph(char: string): Glyph;
  }
  export function parse(buffer: ArrayBuffer | Uint8Array): Font;
}
