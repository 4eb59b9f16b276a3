/**
 * The `export` operation of an ArcGIS MapServer: a picture of the map for a bbox and a size, as PNG.
 *
 *   GET {base}/export?bbox=xmin,ymin,xmax,ymax&bboxSR=3857&imageSR=3857&size=W,H&format=png32
 *                    &transparent=true&layers=show:28&dpi=96&f=image|json|pjson
 *
 * As the real server does it: the extent grows around its centre to the picture's aspect ratio; `bboxSR` and
 * `imageSR` default to the service's own spatial reference; a layer draws only within its scale range
 * (`minScale`/`maxScale`, the picture's scale taken at `dpi`); each feature with the symbol its layer's
 * `drawingInfo.renderer` selects (uniqueValue over up to three fields, `<Null>` for null, `defaultSymbol` or
 * nothing for a value it does not list), later features over earlier ones, and the layer's `transparency` applied
 * to the layer as a whole (a pixel keeps the symbol's exact RGB; on a transparent picture only its alpha drops).
 *
 * Chosen here: no anti-aliasing (a pixel belongs to a polygon when its centre does, even-odd over all rings);
 * hatch fills are 2-pixel lines every 8 pixels, anchored at the picture's top left; outlines are 1 pixel per
 * 0.75 pt (at least 1). The PNG is encoded here with node:zlib because an emulator answers synchronously
 * (emulator-core.ts) and sharp only encodes asynchronously; the tests decode it with sharp.
 */
import { crc32, deflateSync } from 'node:zlib';
import { invalidParams } from './arcgis-query';
import { BBox, Position, lonLatToWebMercator, webMercatorToLonLat } from './geometry';
import type { ArcGisFeature } from './map-data';

export type Rgba = [number, number, number, number];

export interface LineSymbol {
  type: 'esriSLS';
  style: string;
  color: Rgba | null;
  /** Points. */
  width: number;
}

export interface FillSymbol {
  type: 'esriSFS';
  /** esriSFSSolid, esriSFSNull or a hatch (esriSFSBackwardDiagonal, esriSFSForwardDiagonal, esriSFSHorizontal, ...). */
  style: string;
  color: Rgba | null;
  outline: LineSymbol | null;
}

export interface UniqueValueInfo {
  value: string;
  label: string;
  symbol: FillSymbol;
}

export type Renderer =
  | { type: 'simple'; symbol: FillSymbol }
  | {
      type: 'uniqueValue';
      field1: string;
      field2?: string | null;
      field3?: string | null;
      fieldDelimiter?: string;
      defaultSymbol?: FillSymbol | null;
      uniqueValueInfos: UniqueValueInfo[];
    };

/** A layer's `drawingInfo` as its metadata publishes it (labels are not drawn). */
export interface DrawingInfo {
  renderer: Renderer;
  /** Percent, 0 (opaque) to 100. */
  transparency?: number;
}

/** What `layers=` asks for: `show:`, `hide:`, `include:` or `exclude:` a list of ids, or the default visibility. */
export interface LayerChoice {
  mode: 'show' | 'hide' | 'include' | 'exclude' | 'default';
  ids: number[];
}

export interface ExportRequest {
  f: string;
  /** The extent drawn, in the picture's spatial reference, grown to the picture's aspect ratio. */
  extent: BBox;
  /** The picture's spatial reference as answered (Web Mercator is 102100 / latest 3857). */
  imageWkid: number;
  geographic: boolean;
  width: number;
  height: number;
  dpi: number;
  transparent: boolean;
  layers: LayerChoice;
}

/** What the service's root document says about pictures. */
export interface ExportLimits {
  /** The service's own spatial reference (the default of bboxSR and imageSR). */
  wkid: number;
  maxImageWidth: number;
  maxImageHeight: number;
}

type ArcGisError = ReturnType<typeof invalidParams>;

const MERCATOR_WKIDS = new Set([3857, 102100]);
const GEOGRAPHIC_WKIDS = new Set([4326, 4269]);
const PNG_FORMATS = new Set(['png', 'png8', 'png24', 'png32']);
/** Web Mercator's latitude limit (the square world). */
const MAX_MERCATOR_LAT = 85.0511287798;
/** Metres per degree along the equator of the Web Mercator sphere, for the scale of a geographic picture. */
const METRES_PER_DEGREE = (6378137 * Math.PI) / 180;
const METRES_PER_INCH = 0.0254;

function numberList(text: string | undefined, count: number): number[] | null {
  if (text === undefined) return null;
  const parts = text.split(',').map((s) => s.trim());
  if (parts.length !== count || parts.some((s) => s === '' || !Number.isFinite(Number(s)))) return null;
  return parts.map(Number);
}

function wkidOf(raw: string | undefined, fallback: number): number | null {
  if (raw === undefined || raw.trim() === '') return fallback;
  const wkid = Number(raw.trim());
  return MERCATOR_WKIDS.has(wkid) || GEOGRAPHIC_WKIDS.has(wkid) ? wkid : null;
}

/** A box from one spatial reference to the other (both are cylindrical, so the box stays a box). */
function reprojectBox(box: BBox, fromGeographic: boolean, toGeographic: boolean): BBox {
  if (fromGeographic === toGeographic) return box;
  const clampLat = (lat: number) => Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat));
  const convert = fromGeographic ? (x: number, y: number) => lonLatToWebMercator(x, clampLat(y)) : webMercatorToLonLat;
  const [xmin, ymin] = convert(box.xmin, box.ymin);
  const [xmax, ymax] = convert(box.xmax, box.ymax);
  return { xmin, ymin, xmax, ymax };
}

/** The extent grown around its centre to the width:height of the picture, as ArcGIS Server does. */
function fitToPicture(box: BBox, width: number, height: number): BBox {
  const perPixelX = (box.xmax - box.xmin) / width;
  const perPixelY = (box.ymax - box.ymin) / height;
  if (Math.abs(perPixelX - perPixelY) <= 1e-12 * Math.max(perPixelX, perPixelY)) return box;
  if (perPixelX > perPixelY) {
    const half = (perPixelX * height) / 2;
    const cy = (box.ymin + box.ymax) / 2;
    return { ...box, ymin: cy - half, ymax: cy + half };
  }
  const half = (perPixelY * width) / 2;
  const cx = (box.xmin + box.xmax) / 2;
  return { ...box, xmin: cx - half, xmax: cx + half };
}

function parseLayers(raw: string | undefined): LayerChoice {
  const m = /^\s*(show|hide|include|exclude)\s*:\s*([\d,\s]*)$/i.exec(raw ?? '');
  if (!m) return { mode: 'default', ids: [] };
  const ids = m[2]
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(Number);
  return { mode: m[1].toLowerCase() as LayerChoice['mode'], ids };
}

/** The export parameters, or the ArcGIS error the real server answers for them (in HTTP 200). */
export function parseExportRequest(params: Record<string, string>, limits: ExportLimits): ExportRequest | ArcGisError {
  const f = (params.f ?? 'html').toLowerCase();
  const bbox = numberList(params.bbox, 4);
  if (!bbox) return invalidParams([params.bbox === undefined ? "'bbox' parameter is missing" : "'bbox' parameter is invalid"]);
  const [xmin, ymin, xmax, ymax] = bbox;
  if (!(xmin < xmax && ymin < ymax)) return invalidParams(["'bbox' parameter is invalid"]);
  const size = numberList(params.size ?? '400,400', 2);
  const [width, height] = size ?? [NaN, NaN];
  const fits = (n: number, max: number) => Number.isInteger(n) && n >= 1 && n <= max;
  if (!fits(width, limits.maxImageWidth) || !fits(height, limits.maxImageHeight)) {
    return invalidParams([`'size' parameter is invalid: width and height are whole numbers from 1 to ${limits.maxImageWidth} x ${limits.maxImageHeight}`]);
  }
  const imageWkid = wkidOf(params.imageSR, limits.wkid);
  if (imageWkid === null) return invalidParams(["'imageSR' parameter is invalid"]);
  const bboxWkid = wkidOf(params.bboxSR, limits.wkid);
  if (bboxWkid === null) return invalidParams(["'bboxSR' parameter is invalid"]);
  const format = (params.format ?? 'png').toLowerCase();
  if (!PNG_FORMATS.has(format)) return invalidParams([`'format' parameter is invalid: this emulator draws ${[...PNG_FORMATS].join(', ')}`]);
  const dpi = params.dpi === undefined || params.dpi.trim() === '' ? 96 : Number(params.dpi);
  if (!Number.isFinite(dpi) || dpi <= 0) return invalidParams(["'dpi' parameter is invalid"]);
  const geographic = GEOGRAPHIC_WKIDS.has(imageWkid);
  const extent = fitToPicture(reprojectBox({ xmin, ymin, xmax, ymax }, GEOGRAPHIC_WKIDS.has(bboxWkid), geographic), width, height);
  return {
    f,
    extent,
    imageWkid: geographic ? imageWkid : 102100,
    geographic,
    width,
    height,
    dpi,
    transparent: /^true$/i.test((params.transparent ?? '').trim()),
    layers: parseLayers(params.layers),
  };
}

/** The centre of an export's bbox in lon/lat (what a `near` fault matches), when the bbox can be read. */
export function exportFocus(params: Record<string, string>, serviceWkid: number): Position | undefined {
  const bbox = numberList(params.bbox, 4);
  const wkid = wkidOf(params.bboxSR, serviceWkid);
  if (!bbox || wkid === null) return undefined;
  const x = (bbox[0] + bbox[2]) / 2;
  const y = (bbox[1] + bbox[3]) / 2;
  return GEOGRAPHIC_WKIDS.has(wkid) ? [x, y] : webMercatorToLonLat(x, y);
}

/** The scale of the picture (1 : scale), as ArcGIS computes it for layer scale ranges and the JSON answer. */
export function exportScale(req: ExportRequest): number {
  const perPixel = (req.extent.xmax - req.extent.xmin) / req.width;
  return ((perPixel * (req.geographic ? METRES_PER_DEGREE : 1)) / METRES_PER_INCH) * req.dpi;
}

/** `f=json`: where the picture is and what it covers. */
export function exportDescription(req: ExportRequest, href: string): Record<string, unknown> {
  const spatialReference = req.geographic ? { wkid: req.imageWkid, latestWkid: req.imageWkid } : { wkid: 102100, latestWkid: 3857 };
  return { href, width: req.width, height: req.height, extent: { ...req.extent, spatialReference }, scale: exportScale(req) };
}

/** Whether a layer is drawn: asked for by `layers=` (or visible by default), and within its scale range. */
export function layerDrawn(req: ExportRequest, layer: { id: number; defaultVisibility?: unknown; minScale?: unknown; maxScale?: unknown }): boolean {
  const byDefault = layer.defaultVisibility !== false;
  const listed = req.layers.ids.includes(layer.id);
  const chosen = { show: listed, hide: byDefault && !listed, exclude: byDefault && !listed, include: byDefault || listed, default: byDefault }[req.layers.mode];
  const scale = exportScale(req);
  const minScale = typeof layer.minScale === 'number' ? layer.minScale : 0;
  const maxScale = typeof layer.maxScale === 'number' ? layer.maxScale : 0;
  return chosen && (minScale === 0 || scale <= minScale) && (maxScale === 0 || scale >= maxScale);
}

/** Lon/lat to pixel [column, row] (fractional) of the picture. */
function pixelProjector(req: ExportRequest): (lon: number, lat: number) => Position {
  const { xmin, ymax, xmax, ymin } = req.extent;
  const sx = req.width / (xmax - xmin);
  const sy = req.height / (ymax - ymin);
  return (lon, lat) => {
    const [x, y] = req.geographic ? [lon, lat] : lonLatToWebMercator(lon, Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat)));
    return [(x - xmin) * sx, (ymax - y) * sy];
  };
}

/** The picture's extent in lon/lat, to skip features far from it. */
function lonLatExtent(req: ExportRequest): BBox {
  return reprojectBox(req.extent, req.geographic, true);
}

const NULL_VALUE = '<Null>';

/** The symbol a renderer gives a feature: its listed value's, else the default symbol, else none. */
export function symbolFor(renderer: Renderer, attributes: ArcGisFeature['attributes']): FillSymbol | null {
  if (renderer.type === 'simple') return renderer.symbol;
  const fields = [renderer.field1, renderer.field2, renderer.field3].filter((f): f is string => typeof f === 'string' && f !== '');
  const value = fields
    .map((f) => {
      const v = attributes[f];
      return v === null || v === undefined ? NULL_VALUE : String(v);
    })
    .join(renderer.fieldDelimiter ?? ',');
  return renderer.uniqueValueInfos.find((info) => info.value === value)?.symbol ?? renderer.defaultSymbol ?? null;
}

const HATCH_PERIOD_PX = 8;
const HATCH_LINE_PX = 2;
const onLine = (v: number) => ((v % HATCH_PERIOD_PX) + HATCH_PERIOD_PX) % HATCH_PERIOD_PX < HATCH_LINE_PX;

/** Which pixels of a polygon a fill style paints (rows grow downwards, so "\" keeps x - y constant). */
const FILL_PATTERNS: Readonly<Record<string, (x: number, y: number) => boolean>> = {
  esriSFSSolid: () => true,
  esriSFSBackwardDiagonal: (x, y) => onLine(x - y),
  esriSFSForwardDiagonal: (x, y) => onLine(x + y),
  esriSFSHorizontal: (_x, y) => onLine(y),
  esriSFSVertical: (x) => onLine(x),
  esriSFSCross: (x, y) => onLine(x) || onLine(y),
  esriSFSDiagonalCross: (x, y) => onLine(x - y) || onLine(x + y),
};

/** An RGBA picture (not premultiplied), top row first. */
export class Picture {
  readonly rgba: Buffer;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.rgba = Buffer.alloc(width * height * 4);
  }

  fill(color: Rgba): void {
    for (let i = 0; i < this.rgba.length; i += 4) this.rgba.set(color, i);
  }

  /** Paints the pixels whose centres lie inside the rings (pixel coordinates; even-odd) and that `pattern` selects. */
  fillRings(rings: Position[][], color: Rgba, pattern: (x: number, y: number) => boolean = FILL_PATTERNS.esriSFSSolid): void {
    let top = Infinity;
    let bottom = -Infinity;
    for (const ring of rings) {
      for (const [, y] of ring) {
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
    }
    const firstRow = Math.max(0, Math.ceil(top - 0.5));
    const lastRow = Math.min(this.height - 1, Math.floor(bottom - 0.5));
    for (let row = firstRow; row <= lastRow; row++) {
      const yc = row + 0.5;
      const crossings: number[] = [];
      for (const ring of rings) {
        for (let i = 0; i < ring.length; i++) {
          const [x0, y0] = ring[i];
          const [x1, y1] = ring[(i + 1) % ring.length];
          if (y0 <= yc !== y1 <= yc) crossings.push(x0 + ((yc - y0) / (y1 - y0)) * (x1 - x0));
        }
      }
      crossings.sort((a, b) => a - b);
      for (let k = 0; k + 1 < crossings.length; k += 2) {
        const from = Math.max(0, Math.ceil(crossings[k] - 0.5));
        const to = Math.min(this.width - 1, Math.ceil(crossings[k + 1] - 0.5) - 1);
        for (let col = from; col <= to; col++) if (pattern(col, row)) this.set(col, row, color);
      }
    }
  }

  /** Draws each ring's edges `widthPx` wide (pixel coordinates). */
  strokeRings(rings: Position[][], color: Rgba, widthPx: number): void {
    for (const ring of rings) for (let i = 0; i + 1 < ring.length; i++) this.strokeSegment(ring[i], ring[i + 1], color, widthPx);
  }

  /** Lays `layer` over this picture at `opacity` (0..1) of its own alpha, source-over. */
  drawOver(layer: Picture, opacity: number): void {
    for (let i = 0; i < this.rgba.length; i += 4) {
      const sa = Math.round(layer.rgba[i + 3] * opacity);
      if (sa === 0) continue;
      const da = this.rgba[i + 3];
      const keep = (da * (255 - sa)) / 255;
      const outA = sa + keep;
      for (let c = 0; c < 3; c++) this.rgba[i + c] = Math.round((layer.rgba[i + c] * sa + this.rgba[i + c] * keep) / outA);
      this.rgba[i + 3] = Math.round(outA);
    }
  }

  /** PNG: 8-bit RGBA, unfiltered rows. */
  png(): Buffer {
    const rowBytes = this.width * 4;
    const raw = Buffer.alloc((rowBytes + 1) * this.height);
    for (let y = 0; y < this.height; y++) this.rgba.copy(raw, y * (rowBytes + 1) + 1, y * rowBytes, (y + 1) * rowBytes);
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header[8] = 8; // bits per channel
    header[9] = 6; // RGBA
    return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
  }

  private set(x: number, y: number, color: Rgba): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    this.rgba.set(color, (y * this.width + x) * 4);
  }

  private strokeSegment(a: Position, b: Position, color: Rgba, widthPx: number): void {
    // clip to the picture (plus the brush) first: an edge of a large polygon may run far outside it
    const margin = widthPx + 1;
    let t0 = 0;
    let t1 = 1;
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const sides: Array<[number, number]> = [
      [-dx, a[0] + margin],
      [dx, this.width + margin - a[0]],
      [-dy, a[1] + margin],
      [dy, this.height + margin - a[1]],
    ];
    for (const [p, q] of sides) {
      if (p === 0) {
        if (q < 0) return;
      } else if (p < 0) t0 = Math.max(t0, q / p);
      else t1 = Math.min(t1, q / p);
    }
    if (t0 > t1) return;
    const steps = Math.max(1, Math.ceil(Math.max(Math.abs(dx), Math.abs(dy)) * (t1 - t0)));
    const offset = Math.floor((widthPx - 1) / 2);
    for (let s = 0; s <= steps; s++) {
      const t = t0 + ((t1 - t0) * s) / steps;
      const x = Math.floor(a[0] + dx * t) - offset;
      const y = Math.floor(a[1] + dy * t) - offset;
      for (let j = 0; j < widthPx; j++) for (let i = 0; i < widthPx; i++) this.set(x + i, y + j, color);
    }
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function overlaps(a: BBox, b: BBox): boolean {
  return a.xmin <= b.xmax && b.xmin <= a.xmax && a.ymin <= b.ymax && b.ymin <= a.ymax;
}

/** Draws a polygon layer's features with its renderer onto `target`, the layer's transparency applied to the whole layer. */
export function drawLayer(target: Picture, features: readonly ArcGisFeature[], drawingInfo: DrawingInfo, req: ExportRequest): void {
  const layer = new Picture(req.width, req.height);
  const toPixel = pixelProjector(req);
  const visible = lonLatExtent(req);
  for (const feature of features) {
    if (!feature.rings || !overlaps(feature.bbox, visible)) continue;
    const symbol = symbolFor(drawingInfo.renderer, feature.attributes);
    if (!symbol) continue;
    const rings = feature.rings.map((ring) => ring.map(([lon, lat]) => toPixel(lon, lat)));
    if (symbol.color && symbol.style !== 'esriSFSNull') layer.fillRings(rings, symbol.color, FILL_PATTERNS[symbol.style] ?? FILL_PATTERNS.esriSFSSolid);
    const outline = symbol.outline;
    if (outline?.color && outline.style !== 'esriSLSNull') layer.strokeRings(rings, outline.color, Math.max(1, Math.round((outline.width * req.dpi) / 72)));
  }
  target.drawOver(layer, (100 - (drawingInfo.transparency ?? 0)) / 100);
}

/** Fills lon/lat rings (e.g. a basemap's water) onto the picture, opaque. */
export function fillLonLatRings(target: Picture, rings: Position[][], color: Rgba, req: ExportRequest): void {
  const toPixel = pixelProjector(req);
  target.fillRings(
    rings.map((ring) => ring.map(([lon, lat]) => toPixel(lon, lat))),
    color,
  );
}
