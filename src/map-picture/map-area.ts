/**
 * The ground a map picture shows and how it is measured: the Web Mercator box around the point, the pixel
 * of the point, and the scale bar. Pure arithmetic: no I/O.
 */
import type { MapExtent } from '../common/upstream/arcgis-map-server';
import type { GeoPoint } from '../flood-hazard/flood-hazard.types';
import { polygonsOfFootprint } from '../parts/structure/footprint-geometry';
import type { Footprint } from '../parts/structure/structure.types';

/** The sphere of Web Mercator (EPSG:3857): WGS84's semi-major axis. */
const WEB_MERCATOR_RADIUS_M = 6_378_137;

/** Web Mercator reaches this far north and south (the square world); beyond it no picture can be drawn. */
export const WEB_MERCATOR_MAX_LAT = 85.051128;

export interface PictureSize {
  width: number;
  height: number;
}

/** The picture asked for: its size in pixels and the ground metres across its width. */
export interface PictureFrame extends PictureSize {
  spanM: number;
}

/** A point in Web Mercator metres. */
export function webMercator(point: GeoPoint): { x: number; y: number } {
  const rad = Math.PI / 180;
  return {
    x: WEB_MERCATOR_RADIUS_M * point.lon * rad,
    y: WEB_MERCATOR_RADIUS_M * Math.log(Math.tan(Math.PI / 4 + (point.lat * rad) / 2)),
  };
}

/**
 * The extent with the point at its centre and `spanM` ground metres across its width. Web Mercator
 * stretches ground by 1/cos(lat), so the box is that much wider in map metres; its height keeps the
 * picture's aspect (ground metres span * height / width). Box corners to the centimetre.
 */
export function mapExtentAround(point: GeoPoint, frame: PictureFrame): MapExtent {
  const { x, y } = webMercator(point);
  const stretch = 1 / Math.cos((point.lat * Math.PI) / 180);
  const halfWidth = (frame.spanM / 2) * stretch;
  const halfHeight = ((frame.spanM * frame.height) / frame.width / 2) * stretch;
  const cm = (value: number) => Math.round(value * 100) / 100;
  return { bbox: [cm(x - halfWidth), cm(y - halfHeight), cm(x + halfWidth), cm(y + halfHeight)], width: frame.width, height: frame.height };
}

/**
 * The pixel of the point, counted from 0 at the top left: column ⌊width/2⌋, row ⌊height/2⌋. The point is the
 * centre of the picture, so for an even size it lies on that pixel's top-left corner, for an odd one at its centre.
 */
export function pinPixel(size: PictureSize): { column: number; row: number } {
  return { column: Math.floor(size.width / 2), row: Math.floor(size.height / 2) };
}

/** One bar of the scale: its words and its length in pixels. */
export interface ScaleBarUnit {
  label: string;
  pixels: number;
}

const FEET_PER_METRE = 3.280839895;
const FEET_PER_MILE = 5280;

/** The largest 1, 2 or 5 times a power of ten that is at most `value` (value ≥ 1). */
export function roundDownToNice(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  const leading = value / power;
  return (leading >= 5 ? 5 : leading >= 2 ? 2 : 1) * power;
}

/**
 * The scale bar of a picture: the longest round length (1, 2 or 5 times a power of ten) in metres, and in
 * feet, that fits in `maxPixels`, at `spanM / width` ground metres per pixel. Metres from 1,000 read as km,
 * feet from a mile as miles.
 */
export function scaleBar(frame: PictureFrame, maxPixels: number): { metric: ScaleBarUnit; imperial: ScaleBarUnit } {
  const metresPerPixel = frame.spanM / frame.width;
  const maxMetres = maxPixels * metresPerPixel;
  const metres = roundDownToNice(maxMetres);
  const maxFeet = maxMetres * FEET_PER_METRE;
  const inMiles = maxFeet >= FEET_PER_MILE;
  const imperialLength = roundDownToNice(inMiles ? maxFeet / FEET_PER_MILE : maxFeet);
  const imperialMetres = inMiles ? (imperialLength * FEET_PER_MILE) / FEET_PER_METRE : imperialLength / FEET_PER_METRE;
  return {
    metric: { label: metres >= 1000 ? `${metres / 1000} km` : `${metres} m`, pixels: Math.round(metres / metresPerPixel) },
    imperial: { label: `${imperialLength} ${inMiles ? 'mi' : 'ft'}`, pixels: Math.round(imperialMetres / metresPerPixel) },
  };
}

/** A position on a picture in pixels, from its top-left corner (not rounded: a line may fall between pixels). */
export type PicturePosition = readonly [x: number, y: number];

/**
 * Where [lon, lat] falls on the picture of `frame` centred on `center`, in the Web Mercator of mapExtentAround: the
 * same scale across and down (the box's map metres over its pixels), the centre at width/2, height/2.
 */
export function picturePosition(center: GeoPoint, frame: PictureFrame, [lon, lat]: readonly [number, number]): PicturePosition {
  const origin = webMercator(center);
  const at = webMercator({ lat, lon });
  const mapMetresPerPixel = frame.spanM / frame.width / Math.cos((center.lat * Math.PI) / 180);
  return [frame.width / 2 + (at.x - origin.x) / mapMetresPerPixel, frame.height / 2 - (at.y - origin.y) / mapMetresPerPixel];
}

/** Every ring of a footprint (outer rings and holes alike) where it falls on the picture: the outline to draw. */
export function footprintOutline(center: GeoPoint, frame: PictureFrame, footprint: Footprint): PicturePosition[][] {
  return polygonsOfFootprint(footprint)
    .flat()
    .map((ring) => ring.map((position) => picturePosition(center, frame, position)));
}
