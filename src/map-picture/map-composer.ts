import sharp from 'sharp';
import type { MapPixels } from '../common/upstream/arcgis-map-server';
import { pinPixel } from './map-area';
import { PIN_RING_RADIUS, PictureContent, onHatchLine, pictureDecorations } from './map-drawing';

/** The plain background where the basemap could not be had: a light grey every zone colour stands out on. */
export const PLAIN_BACKGROUND: readonly [number, number, number] = [236, 236, 236];

/**
 * zlib's strongest level, without per-row filter search: a quarter smaller than the default for a few
 * milliseconds more, for pictures served many times over. The colours are kept exactly (no palette).
 */
const PNG_OPTIONS = { compressionLevel: 9, adaptiveFiltering: false, palette: false } as const;

/** Paints the ground at pixel `i` (RGBA offset) into `o` (RGB offset): the basemap, or the plain background where it has none. */
function paintGround(pixels: Buffer, o: number, basemap: MapPixels | null, i: number): void {
  if (!basemap) {
    pixels.set(PLAIN_BACKGROUND, o);
    return;
  }
  // A basemap is opaque; should one leave a pixel clear, the plain background shows through it.
  const a = basemap.rgba[i + 3];
  for (let c = 0; c < 3; c++) pixels[o + c] = (basemap.rgba[i + c] * a + PLAIN_BACKGROUND[c] * (255 - a) + 127) / 255;
}

/**
 * The picture as a PNG: the basemap (or the plain background), FEMA's flood zones over it at full opacity,
 * then the drawing (pin, words, legend, scale bar). Every pixel FEMA's export colours at all takes that
 * colour whole: FEMA's server draws its zones 70% transparent, which would mix them with the basemap,
 * and the colour at the point must be the zone's own. Inside the ring the zone the answer names at the point is
 * drawn as FEMA draws it (a hatch with a line through the point's pixel): on a seam, FEMA's pixel at the point may
 * belong to the neighbour, while the answer, and the legend entry it heads, name the zone that governs there.
 */
export async function composePicture(floodZones: MapPixels, basemap: MapPixels | null, content: PictureContent): Promise<Buffer> {
  const { width, height } = content.frame;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0, o = 0; o < pixels.length; i += 4, o += 3) {
    if (floodZones.rgba[i + 3] > 0) pixels.set(floodZones.rgba.subarray(i, i + 3), o);
    else paintGround(pixels, o, basemap, i);
  }
  drawZoneAtPoint(pixels, basemap, content);
  return (
    sharp(pixels, { raw: { width, height, channels: 3 } })
      .composite([{ input: Buffer.from(pictureDecorations(content)), top: 0, left: 0 }])
      // An opaque picture: no alpha channel to carry.
      .removeAlpha()
      .png(PNG_OPTIONS)
      .toBuffer()
  );
}

/** The pixels under the pin and inside it (their centres within the ring's radius of the point): the zone at the point, on the ground. */
function drawZoneAtPoint(pixels: Buffer, basemap: MapPixels | null, { frame, pointZone }: PictureContent): void {
  const { column, row } = pinPixel(frame);
  const [cx, cy] = [frame.width / 2, frame.height / 2];
  for (let y = Math.max(0, row - PIN_RING_RADIUS); y <= Math.min(frame.height - 1, row + PIN_RING_RADIUS); y++) {
    for (let x = Math.max(0, column - PIN_RING_RADIUS); x <= Math.min(frame.width - 1, column + PIN_RING_RADIUS); x++) {
      if (Math.hypot(x + 0.5 - cx, y + 0.5 - cy) > PIN_RING_RADIUS) continue;
      const p = y * frame.width + x;
      if (pointZone && (pointZone.style === 'solid' || onHatchLine(x - column, y - row))) pixels.set(pointZone.color.slice(0, 3), p * 3);
      else paintGround(pixels, p * 3, basemap, p * 4);
    }
  }
}
