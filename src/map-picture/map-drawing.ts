/**
 * Everything drawn over the map, as one SVG the size of the picture: the building's outline, the pin, the caption
 * (the building's answer, the zone and risk at the point, FIRM panel and date), the place, the legend, the scale bar
 * with a north arrow, and the attribution.
 * Words are outlines (see picture-text). Boxes keep clear of the middle of the picture, where the pin and the zone
 * under it are.
 */
import type { Rgba, ZoneSymbol } from '../flood-hazard/nfhl-symbols';
import { PictureFrame, PicturePosition, scaleBar } from './map-area';
import { LegendEntry, attributionSegments } from './map-legend';
import { PictureText, TextStyle, lineMetrics, textWidth, wrapSegments } from './picture-text';

export interface PictureContent {
  frame: PictureFrame;
  /** Caption segments, joined by " · " (see captionSegments). */
  caption: readonly string[];
  /** Where: the matched address, or the coordinates. */
  place: string;
  legend: readonly LegendEntry[];
  /** How FEMA draws the zone the answer names at the point (pointZoneSymbol): what the ring shows inside. */
  pointZone: ZoneSymbol | null;
  basemapShown: boolean;
  /** The rings of the building the answer is for, on the picture (footprintOutline); empty when the answer has no building. */
  buildingOutline: ReadonlyArray<readonly PicturePosition[]>;
  /** The credit of the building's data when its outline is drawn from it (footprintCredit); null otherwise. */
  footprintCredit: string | null;
}

/** The pin: a ring around the point, leaving the pixels within 6 px of it showing the zone at the point (composePicture draws it). */
export const PIN_RING_RADIUS = 9;
const PIN_HALO_WIDTH = 5;
const PIN_LINE_WIDTH = 2.5;
/** Boxes stay this far (vertically) from the point: the ring and its halo, and a margin. */
const PIN_CLEARANCE = PIN_RING_RADIUS + PIN_HALO_WIDTH / 2 + 6;

/**
 * The building: a near-black line on a white halo, so that it shows on every zone colour and on the basemap alike,
 * thin enough to leave the zones on either side of its edges readable.
 */
const BUILDING_INK = '#000000';
const BUILDING_LINE_WIDTH = 2;
const BUILDING_HALO_WIDTH = 4;
export const BUILDING_LEGEND_LABEL = 'Building footprint';

const INK = '#1a1a1a';
const SECONDARY_INK = '#454545';
const BOX = 'fill="#ffffff" fill-opacity="0.9" stroke="#8c8c8c" stroke-width="1"';

/** Sizes of one picture's drawing, from its size: words from 9 px (200 px wide) to 15 px (1000 px and wider). */
interface Layout {
  text: TextStyle;
  bold: TextStyle;
  small: TextStyle;
  lineHeight: number;
  smallLineHeight: number;
  margin: number;
  padding: number;
}

function layoutOf({ width, height }: PictureFrame): Layout {
  const size = Math.max(9, Math.min(15, Math.round(Math.min(width, (height * 4) / 3) / 66)));
  const small = Math.max(8, size - 2);
  return {
    text: { size, weight: 'regular' },
    bold: { size, weight: 'bold' },
    small: { size: small, weight: 'regular' },
    lineHeight: Math.round(size * 1.35),
    smallLineHeight: Math.round(small * 1.3),
    margin: Math.round(size * 0.6),
    padding: Math.round(size * 0.5),
  };
}

/**
 * FEMA's backward-diagonal hatch (floodways), as its export draws it at 96 dpi: 2-pixel lines from top left to
 * bottom right, 8 pixels apart. `dx`, `dy`: a pixel's offset from one on a line.
 */
const HATCH_PERIOD_PX = 8;
const HATCH_LINE_PX = 2;
export const onHatchLine = (dx: number, dy: number) => (((dx - dy) % HATCH_PERIOD_PX) + HATCH_PERIOD_PX) % HATCH_PERIOD_PX < HATCH_LINE_PX;

const colour = ([r, g, b]: Rgba) => `rgb(${r},${g},${b})`;
const n = (value: number) => String(Math.round(value * 100) / 100);

/** The SVG drawn over the map. */
export function pictureDecorations(content: PictureContent): string {
  const { frame } = content;
  const layout = layoutOf(frame);
  const text = new PictureText();
  // Over the zones, under every box and the pin.
  const shapes: string[] = [buildingOutlineSvg(content.buildingOutline)];
  const patterns = new Map<string, string>();

  // Top: the caption and the place, as many lines as fit above the pin.
  const topLimit = frame.height / 2 - PIN_CLEARANCE;
  const innerWidth = frame.width - 2 * (layout.margin + layout.padding);
  const captionLines = wrapSegments(content.caption, innerWidth, layout.bold).map((line) => ({ line, style: layout.bold, ink: INK }));
  const placeLines = wrapSegments([content.place], innerWidth, layout.small).map((line) => ({ line, style: layout.small, ink: SECONDARY_INK }));
  const topLines = fitLines([...captionLines, ...placeLines], layout, topLimit - layout.margin - 2 * layout.padding);
  if (topLines.length > 0) {
    const height = 2 * layout.padding + topLines.reduce((sum, { style }) => sum + heightOf(style, layout), 0);
    const width = 2 * layout.padding + Math.max(...topLines.map(({ line, style }) => textWidth(line, style)));
    shapes.push(`<rect x="${layout.margin}" y="${layout.margin}" width="${n(width)}" height="${n(height)}" rx="3" ${BOX}/>`);
    let y = layout.margin + layout.padding;
    for (const { line, style, ink } of topLines) {
      y += heightOf(style, layout);
      text.line(line, layout.margin + layout.padding, y - lineMetrics(style).descent - 1, style, ink);
    }
  }

  // Bottom: the attribution across the foot, the scale bar on the left and the legend on the right above it.
  const bottomLimit = frame.height / 2 + PIN_CLEARANCE;
  const footLines = wrapSegments(attributionSegments(content.basemapShown, content.footprintCredit), frame.width - 2 * layout.padding, layout.small);
  const footHeight = footLines.length * layout.smallLineHeight + layout.padding;
  const footTop = frame.height - footHeight;
  shapes.push(`<rect x="0" y="${n(footTop)}" width="${frame.width}" height="${n(footHeight)}" fill="#ffffff" fill-opacity="0.85"/>`);
  footLines.forEach((line, i) => {
    const y = footTop + (i + 1) * layout.smallLineHeight - lineMetrics(layout.small).descent;
    text.line(line, frame.width - layout.padding - textWidth(line, layout.small), y, layout.small, SECONDARY_INK);
  });

  const scale = drawScaleBar(frame, layout, text, footTop - layout.margin);
  shapes.push(scale.svg);
  drawLegend(
    content.legend,
    content.buildingOutline.length > 0,
    frame,
    layout,
    { text, shapes, patterns },
    { bottom: footTop - layout.margin, clearLeft: scale.right, above: scale.top, limit: bottomLimit },
  );

  // The point is the picture's centre: the corner (even size) or the middle (odd size) of its pixel (pinPixel).
  const [cx, cy] = [frame.width / 2, frame.height / 2];
  shapes.push(
    `<circle cx="${n(cx)}" cy="${n(cy)}" r="${PIN_RING_RADIUS}" fill="none" stroke="#ffffff" stroke-width="${PIN_HALO_WIDTH}"/>`,
    `<circle cx="${n(cx)}" cy="${n(cy)}" r="${PIN_RING_RADIUS}" fill="none" stroke="${INK}" stroke-width="${PIN_LINE_WIDTH}"/>`,
  );

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${frame.width}" height="${frame.height}" viewBox="0 0 ${frame.width} ${frame.height}">` +
    `<defs>${[...patterns.values()].join('')}</defs>${shapes.join('')}${text.svg}</svg>`
  );
}

/** The building's rings as one path, halo first; nothing without a building. */
function buildingOutlineSvg(rings: ReadonlyArray<readonly PicturePosition[]>): string {
  if (rings.length === 0) return '';
  const d = rings.map((ring) => `M${ring.map(([x, y]) => `${n(x)},${n(y)}`).join('L')}Z`).join('');
  return (
    `<path class="building" d="${d}" fill="none" stroke="#ffffff" stroke-width="${BUILDING_HALO_WIDTH}" stroke-linejoin="miter"/>` +
    `<path d="${d}" fill="none" stroke="${BUILDING_INK}" stroke-width="${BUILDING_LINE_WIDTH}" stroke-linejoin="miter"/>`
  );
}

function heightOf(style: TextStyle, layout: Layout): number {
  return style.size === layout.small.size && style.weight === 'regular' ? layout.smallLineHeight : layout.lineHeight;
}

/** The lines that fit in `height`; a cut ends on "…". */
function fitLines<T extends { line: string; style: TextStyle }>(lines: T[], layout: Layout, height: number): T[] {
  const kept: T[] = [];
  let used = 0;
  for (const line of lines) {
    used += heightOf(line.style, layout);
    if (used > height) {
      if (kept.length > 0) kept[kept.length - 1] = { ...kept[kept.length - 1], line: `${kept[kept.length - 1].line} …` };
      break;
    }
    kept.push(line);
  }
  return kept;
}

/**
 * The scale bar in the bottom-left corner, metres above the bar and feet below, with a north arrow beside it (the
 * pictures are north up, as Web Mercator draws them). Returns where the box ends.
 */
function drawScaleBar(frame: PictureFrame, layout: Layout, text: PictureText, bottom: number): { svg: string; right: number; top: number } {
  const { metric, imperial } = scaleBar(frame, Math.round(frame.width / 4));
  const barWidth = Math.max(metric.pixels, imperial.pixels);
  const barsWidth = Math.max(barWidth, textWidth(metric.label, layout.small), textWidth(imperial.label, layout.small));
  const arrowWidth = layout.bold.size;
  const width = 2 * layout.padding + barsWidth + layout.padding + arrowWidth;
  const height = 2 * layout.padding + 2 * layout.smallLineHeight + 8;
  const [x, top] = [layout.margin, bottom - height];
  const left = x + layout.padding;
  const barY = top + layout.padding + layout.smallLineHeight + 4;
  text.line(metric.label, left, top + layout.padding + layout.smallLineHeight - lineMetrics(layout.small).descent, layout.small, INK);
  text.line(imperial.label, left, barY + 4 + layout.smallLineHeight - lineMetrics(layout.small).descent, layout.small, INK);
  const ticks = (length: number, down: boolean) => {
    const dy = down ? 4 : -4;
    return `M${n(left)},${n(barY + dy)}V${n(barY)}H${n(left + length)}V${n(barY + dy)}`;
  };
  // The north arrow: "N" over an arrowhead pointing up, filling the box's height.
  const arrowX = left + barsWidth + layout.padding + arrowWidth / 2;
  text.line(
    'N',
    arrowX - textWidth('N', layout.small) / 2,
    top + layout.padding + layout.smallLineHeight - lineMetrics(layout.small).descent,
    layout.small,
    INK,
  );
  const [apex, base] = [top + layout.padding + layout.smallLineHeight + 1, top + height - layout.padding];
  const half = arrowWidth * 0.35;
  const arrow = `M${n(arrowX)},${n(apex)}L${n(arrowX + half)},${n(base)}L${n(arrowX)},${n(base - half)}L${n(arrowX - half)},${n(base)}Z`;
  const svg =
    `<rect x="${x}" y="${n(top)}" width="${n(width)}" height="${n(height)}" rx="3" ${BOX}/>` +
    `<path d="${ticks(metric.pixels, false)}${ticks(imperial.pixels, true)}" fill="none" stroke="${INK}" stroke-width="1.5"/>` +
    `<path class="north-arrow" d="${arrow}" fill="${INK}"/>`;
  return { svg, right: x + width, top };
}

interface Drawing {
  text: PictureText;
  shapes: string[];
  patterns: Map<string, string>;
}

/**
 * The legend in the bottom-right corner, above the foot: beside the scale bar when both fit across the
 * picture, else above it; as many zone entries as fit below the pin, then "and N more". The building's outline,
 * when drawn, is named last and always.
 */
function drawLegend(
  legend: readonly LegendEntry[],
  building: boolean,
  frame: PictureFrame,
  layout: Layout,
  drawing: Drawing,
  room: { bottom: number; clearLeft: number; above: number; limit: number },
): void {
  if (legend.length === 0 && !building) return;
  const swatch = layout.text.size + 1;
  const gap = Math.round(layout.text.size / 2);
  const maxTextWidth = Math.max(frame.width * 0.6, 120) - 2 * layout.padding - swatch - gap;
  const rowOf = (words: string, swatchAt: (x: number, y: number) => string) => ({ swatchAt, lines: wrapSegments([words], maxTextWidth, layout.small) });
  const entries = legend.map((entry) => rowOf(`${entry.zone} — ${entry.label}`, (x, y) => swatchOf(entry.symbol, x, y, swatch, drawing.patterns)));
  const buildingRow = building ? [rowOf(BUILDING_LEGEND_LABEL, (x, y) => buildingSwatch(x, y, swatch))] : [];
  const entryHeight = (lines: string[]) => Math.max(swatch + 2, lines.length * layout.smallLineHeight) + 3;
  const measure = (shown: typeof entries, more: number) => {
    const rows = [...shown, ...buildingRow];
    const moreLine = more > 0 ? `and ${more} more` : null;
    const height = 2 * layout.padding + rows.reduce((sum, { lines }) => sum + entryHeight(lines), 0) + (moreLine ? layout.smallLineHeight : 0);
    const widest = Math.max(
      ...rows.flatMap(({ lines }) => lines.map((line) => swatch + gap + textWidth(line, layout.small))),
      moreLine ? textWidth(moreLine, layout.small) : 0,
    );
    return { rows, height, width: 2 * layout.padding + widest, moreLine };
  };
  let shown = entries;
  let box = measure(shown, 0);
  const besideScale = frame.width - layout.margin - box.width > room.clearLeft + layout.margin;
  const bottom = besideScale ? room.bottom : room.above - layout.margin;
  while (shown.length > 1 && bottom - box.height < room.limit) {
    shown = shown.slice(0, -1);
    box = measure(shown, entries.length - shown.length);
  }
  const x = frame.width - layout.margin - box.width;
  let y = bottom - box.height + layout.padding;
  drawing.shapes.push(`<rect x="${n(x)}" y="${n(y - layout.padding)}" width="${n(box.width)}" height="${n(box.height)}" rx="3" ${BOX}/>`);
  const descent = lineMetrics(layout.small).descent;
  const shownRows = box.rows.slice(0, shown.length);
  const printRow = ({ swatchAt, lines }: (typeof box.rows)[number]) => {
    drawing.shapes.push(swatchAt(x + layout.padding, y + 1));
    lines.forEach((line, i) => drawing.text.line(line, x + layout.padding + swatch + gap, y + (i + 1) * layout.smallLineHeight - descent, layout.small, INK));
    y += entryHeight(lines);
  };
  shownRows.forEach(printRow);
  if (box.moreLine) {
    drawing.text.line(box.moreLine, x + layout.padding, y + layout.smallLineHeight - descent, layout.small, SECONDARY_INK);
    y += layout.smallLineHeight;
  }
  buildingRow.forEach(printRow);
}

/** The building's swatch: its outline, as the picture draws it, around the box. */
function buildingSwatch(x: number, y: number, size: number): string {
  const inset = BUILDING_HALO_WIDTH / 2;
  const at = `x="${n(Math.round(x) + inset)}" y="${n(Math.round(y) + inset)}" width="${n(size - 2 * inset)}" height="${n(size - 2 * inset)}"`;
  return (
    `<rect ${at} fill="#ffffff" stroke="#ffffff" stroke-width="${BUILDING_HALO_WIDTH}"/>` +
    `<rect ${at} fill="none" stroke="${BUILDING_INK}" stroke-width="${BUILDING_LINE_WIDTH}"/>`
  );
}

/** A legend swatch as FEMA's map draws the zone: solid, hatched, outlined, or a clear box for a zone it leaves clear. */
function swatchOf(symbol: ZoneSymbol | null, x: number, y: number, size: number, patterns: Map<string, string>): string {
  // On whole pixels, so that the swatch shows the zone's exact colour, the colour the point has in that zone.
  const at = `x="${Math.round(x)}" y="${Math.round(y)}" width="${size}" height="${size}"`;
  if (symbol === null) return `<rect ${at} fill="#ffffff" stroke="#8c8c8c" stroke-width="1" stroke-dasharray="2 2"/>`;
  const outline = symbol.outline ? `stroke="${colour(symbol.outline)}" stroke-width="1"` : 'stroke="#8c8c8c" stroke-width="0.5"';
  if (symbol.style === 'solid') return `<rect ${at} fill="${colour(symbol.color)}" ${outline}/>`;
  // FEMA's hatch pixel for pixel (onHatchLine), on the clear ground beneath.
  const id = `hatch-${symbol.color.slice(0, 3).join('-')}`;
  const linePixels: string[] = [];
  for (let row = 0; row < HATCH_PERIOD_PX; row++) {
    for (let column = 0; column < HATCH_PERIOD_PX; column++) if (onHatchLine(column, row)) linePixels.push(`M${column},${row}h1v1h-1z`);
  }
  patterns.set(
    id,
    `<pattern id="${id}" patternUnits="userSpaceOnUse" width="${HATCH_PERIOD_PX}" height="${HATCH_PERIOD_PX}">` +
      `<path d="${linePixels.join('')}" fill="${colour(symbol.color)}" shape-rendering="crispEdges"/></pattern>`,
  );
  return `<rect ${at} fill="#ffffff"/><rect ${at} fill="url(#${id})" ${outline}/>`;
}
