import sharp from 'sharp';
import type { MapPixels } from '../flood-hazard/arcgis-map-server';
import { PictureContent, pictureDecorations } from './map-drawing';

/** The plain background where the basemap could not be had: a light grey every zone colour stands out on. */
export const PLAIN_BACKGROUND: readonly [number, number, number] = [236, 236, 236];

/**
 * zlib's strongest level, without per-row filter search: a quarter smaller than the default for a few
 * milliseconds more, for pictures served many times over. The colours are kept exactly (no palette).
 */
const PNG_OPTIONS = { compressionLevel: 9, adaptiveFiltering: false, palette: false } as const;

/**
 * The picture as a PNG: the basemap (or the plain background), FEMA's flood zones over it at full opacity,
 * then the drawing (pin, words, legend, scale bar). Every pixel FEMA's export colours at all takes that
 * colour whole: FEMA's server draws its zones 70% transparent, which would mix them with the basemap,
 * and the colour at the point must be the zone's own.
 */
export async function composePicture(floodZones: MapPixels, basemap: MapPixels | null, content: PictureContent): Promise<Buffer> {
  const { width, height } = content.frame;
  const pixels = Buffer.alloc(width * height * 3);
  const [greyR, greyG, greyB] = PLAIN_BACKGROUND;
  for (let i = 0, o = 0; o < pixels.length; i += 4, o += 3) {
    const zoneAlpha = floodZones.rgba[i + 3];
    if (zoneAlpha > 0) {
      pixels[o] = floodZones.rgba[i];
      pixels[o + 1] = floodZones.rgba[i + 1];
      pixels[o + 2] = floodZones.rgba[i + 2];
    } else if (basemap) {
      // A basemap is opaque; should one leave a pixel clear, the plain background shows through it.
      const a = basemap.rgba[i + 3];
      pixels[o] = (basemap.rgba[i] * a + greyR * (255 - a) + 127) / 255;
      pixels[o + 1] = (basemap.rgba[i + 1] * a + greyG * (255 - a) + 127) / 255;
      pixels[o + 2] = (basemap.rgba[i + 2] * a + greyB * (255 - a) + 127) / 255;
    } else {
      pixels[o] = greyR;
      pixels[o + 1] = greyG;
      pixels[o + 2] = greyB;
    }
  }
  return (
    sharp(pixels, { raw: { width, height, channels: 3 } })
      .composite([{ input: Buffer.from(pictureDecorations(content)), top: 0, left: 0 }])
      // An opaque picture: no alpha channel to carry.
      .removeAlpha()
      .png(PNG_OPTIONS)
      .toBuffer()
  );
}
