import type { HttpService } from '@nestjs/axios';
import CheapRuler from 'cheap-ruler';
import sharp from 'sharp';
import { UpstreamUnavailableError } from '../api-error';
import { ArcGisFeature, ArcGisLayer, AttributesCheck, arcgisBody } from './arcgis-layer';
import { ResilientUpstream, UpstreamFailure } from './resilient-upstream';
import { getUpstreamJson, isRecord, rejectServerFailure, sendUpstream } from './upstream-json';
import type { GeoPoint, LonLatBox } from '../geo-point';

/** How to find a layer in a MapServer's layer list: by its published name; ids move, names do not. */
export interface LayerSpec {
  matches(name: string): boolean;
  /** The id it has had lately, used when the layer list cannot be read; none: the layer is then unavailable. */
  fallbackId?: number;
  /** What is wrong with a feature's attributes (see ArcGisLayer): such a feature fails its query. */
  check?: AttributesCheck;
}

/** A layer whose published name is exactly this (case and surrounding spaces aside), its features judged by `check`. */
export function layerNamed(name: string, fallbackId?: number, check?: AttributesCheck): LayerSpec {
  return { matches: (published) => published.trim().toLowerCase() === name.toLowerCase(), fallbackId, check };
}

/** What an envelope query asks for beyond attributes: geometry in WGS84, exactly as the server keeps it unless said here. */
export interface GeometryRequest {
  /** Generalisation tolerance in degrees; polygons come back whole and can be large. */
  maxAllowableOffset?: number;
  /** Decimals of each coordinate (6 is about 0.1 m); omitted, every decimal the server keeps. */
  geometryPrecision?: number;
}

/** A map picture's ground and pixels: a Web Mercator (EPSG:3857) box in metres, xmin,ymin,xmax,ymax, drawn width by height. */
export interface MapExtent {
  bbox: readonly [number, number, number, number];
  width: number;
  height: number;
}

/** An exported map image, decoded: `width` x `height` pixels of 4 bytes (red, green, blue, alpha), row after row. */
export interface MapPixels {
  width: number;
  height: number;
  rgba: Buffer;
}

/** The envelope `radiusM` around the point on every side: what a query of the features near a point asks for. */
export function squareAround(point: GeoPoint, radiusM: number): LonLatBox {
  return new CheapRuler(point.lat, 'meters').bufferPoint([point.lon, point.lat], radiusM);
}

/** ArcGIS's screen resolution for scales (dots per inch), and a metre in inches' terms. */
const METRES_PER_INCH = 0.0254;

/** The scale (1 : scale) at which a MapServer draws the extent at `dpi`, as ArcGIS reckons it for layer scale ranges. */
export function exportScale(extent: MapExtent, dpi: number): number {
  return ((extent.bbox[2] - extent.bbox[0]) / extent.width / METRES_PER_INCH) * dpi;
}

/**
 * A picture `factor` times smaller on each side, each pixel taken from its block of the larger one without
 * mixing colours: the block's centre, or, where that is clear, the first coloured pixel of the block (a thin
 * line or hatch stays visible).
 */
export function sampledDown(pixels: MapPixels, factor: number): MapPixels {
  const width = Math.floor(pixels.width / factor);
  const height = Math.floor(pixels.height / factor);
  const rgba = Buffer.alloc(width * height * 4);
  const centre = Math.floor(factor / 2);
  const at = (x: number, y: number) => (y * pixels.width + x) * 4;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let from = at(x * factor + centre, y * factor + centre);
      for (let i = 0; pixels.rgba[from + 3] === 0 && i < factor * factor; i++) {
        const candidate = at(x * factor + (i % factor), y * factor + Math.floor(i / factor));
        if (pixels.rgba[candidate + 3] > 0) from = candidate;
      }
      pixels.rgba.copy(rgba, (y * width + x) * 4, from, from + 4);
    }
  }
  return { width, height, rgba };
}

/** Every PNG starts with these 8 bytes. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** After a failed layer-list fetch, the fallback ids serve for this long before the list is asked again. */
const LAYER_LIST_RETRY_MS = 60_000;

/**
 * One keyless ArcGIS Server MapServer (FEMA's NFHL and its preliminary and pending twins, the USFWS CBRS
 * service): layer ids resolved by name, point and envelope queries, ArcGIS errors inside HTTP 200 turned
 * into upstream failures. Every request goes through the service's own resilience policies.
 */
export class ArcGisMapServer<L extends string> {
  /** The MapServer's URL as configured, without trailing slashes. */
  readonly serviceUrl: string;
  private layerIds?: Promise<Partial<Record<L, number>>>;

  constructor(
    private readonly http: HttpService,
    readonly upstream: ResilientUpstream,
    configuredUrl: string,
    private readonly layers: Record<L, LayerSpec>,
  ) {
    this.serviceUrl = configuredUrl.replace(/\/+$/, '');
  }

  /**
   * Attributes of the layer's features that contain the point, every page of them: an answer cut at the
   * transfer limit is never read as the whole answer (a truncated empty one would say "no zone here").
   */
  async queryPoint<T>(layer: L, outFields: string[], point: GeoPoint, deadline: AbortSignal): Promise<T[]> {
    const features = await this.allPages(layer, deadline, {
      // ArcGIS axis order is x,y = lon,lat; swapped axes silently match nothing.
      geometry: `${point.lon},${point.lat}`,
      geometryType: 'esriGeometryPoint',
      inSR: '4326',
      spatialRel: 'esriSpatialRelIntersects',
      outFields: outFields.join(','),
      returnGeometry: 'false',
      f: 'json',
    });
    return features.map((feature) => feature.attributes as T);
  }

  /** The layer's features that intersect the square of `radiusM` around the point, with their geometry, every page of them. */
  queryAround<T>(
    layer: L,
    outFields: string[],
    point: GeoPoint,
    radiusM: number,
    geometry: GeometryRequest,
    deadline: AbortSignal,
  ): Promise<Array<ArcGisFeature<T>>> {
    return this.queryEnvelope<T>(layer, outFields, squareAround(point, radiusM), geometry, deadline);
  }

  /** The layer's features that intersect the envelope, with their geometry in WGS84, every page of them. */
  async queryEnvelope<T>(
    layer: L,
    outFields: string[],
    envelope: LonLatBox,
    geometry: GeometryRequest,
    deadline: AbortSignal,
  ): Promise<Array<ArcGisFeature<T>>> {
    const params = {
      geometry: envelope.join(','),
      geometryType: 'esriGeometryEnvelope',
      inSR: '4326',
      spatialRel: 'esriSpatialRelIntersects',
      outFields: outFields.join(','),
      ...geometryOutput(geometry),
    };
    return (await this.allPages(layer, deadline, params)) as Array<ArcGisFeature<T>>;
  }

  /** The layer's features that match an attribute clause (`where`, standardized SQL), with their geometry in WGS84, every page of them. */
  async queryWhere<T>(layer: L, outFields: string[], where: string, geometry: GeometryRequest, deadline: AbortSignal): Promise<Array<ArcGisFeature<T>>> {
    return (await this.allPages(layer, deadline, { where, outFields: outFields.join(','), ...geometryOutput(geometry) })) as Array<ArcGisFeature<T>>;
  }

  /**
   * The MapServer's `export` of the extent as a PNG (`f=image`), decoded; only the layer `showOnly` when
   * given (its id resolved by name), else the service's default layers. Anything but a PNG of the size
   * asked for is a failure: an HTML page or a 5xx is an outage, an ArcGIS error in HTTP 200 too when its
   * code is 5xx; any other body, a PNG of another size or one that does not decode fails at this extent only.
   */
  async exportImage(extent: MapExtent, params: Record<string, string>, deadline: AbortSignal, showOnly?: L): Promise<MapPixels> {
    const layers = showOnly === undefined ? {} : { layers: `show:${await this.layerId(showOnly, deadline)}` };
    const png = await this.upstream.request(async (signal) => {
      const response = await sendUpstream(
        this.http.axiosRef.get<ArrayBuffer>(`${this.serviceUrl}/export`, {
          params: {
            bbox: extent.bbox.join(','),
            bboxSR: '3857',
            imageSR: '3857',
            size: `${extent.width},${extent.height}`,
            ...layers,
            ...params,
            f: 'image',
          },
          signal,
          responseType: 'arraybuffer',
          validateStatus: () => true,
          maxContentLength: this.upstream.maxBodyBytes,
          headers: { Accept: 'image/png' },
        }),
        signal,
      );
      rejectServerFailure(response.status);
      const body = Buffer.from(response.data);
      const contentType = String(response.headers['content-type'] ?? '');
      if (response.status === 200 && contentType.startsWith('image/png') && body.subarray(0, 8).equals(PNG_SIGNATURE)) return body;
      throw notAnImage(response.status, contentType, body);
    }, deadline);
    try {
      // A picture larger than asked is refused before it is decoded.
      const { data, info } = await sharp(png, { limitInputPixels: extent.width * extent.height })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      if (info.width === extent.width && info.height === extent.height && info.channels === 4) return { width: info.width, height: info.height, rgba: data };
      throw new Error(`a ${info.width}x${info.height} picture, asked ${extent.width}x${extent.height}`);
    } catch (error) {
      throw new UpstreamUnavailableError(this.upstream.name, `export: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Every page of a query of the layer (see ArcGisLayer.queryAllPages), its id resolved by name. */
  private async allPages(layer: L, deadline: AbortSignal, params: Record<string, string>): Promise<Array<ArcGisFeature<unknown>>> {
    const id = await this.layerId(layer, deadline);
    return new ArcGisLayer(this.http, this.upstream, `${this.serviceUrl}/${id}`, `layer ${layer}`, this.layers[layer].check).queryAllPages(params, deadline);
  }

  private async layerId(layer: L, deadline: AbortSignal): Promise<number> {
    const id = (await this.resolveLayerIds(deadline))[layer];
    if (id === undefined) throw new UpstreamUnavailableError(this.upstream.name, `no layer "${layer}" in the service's layer list`);
    return id;
  }

  /** Layer ids from `MapServer?f=json`, fetched once and shared by concurrent lookups. */
  private resolveLayerIds(deadline: AbortSignal): Promise<Partial<Record<L, number>>> {
    this.layerIds ??= this.fetchLayerIds(deadline).catch((error: unknown) => {
      const fallbacks = this.idsBy(() => undefined);
      // Without a fallback for every layer the list is needed: ask again at the next lookup.
      if (Object.values(fallbacks).some((id) => id === undefined)) {
        this.layerIds = undefined;
        throw error;
      }
      setTimeout(() => (this.layerIds = undefined), LAYER_LIST_RETRY_MS).unref();
      return fallbacks;
    });
    return this.layerIds;
  }

  private async fetchLayerIds(deadline: AbortSignal): Promise<Partial<Record<L, number>>> {
    const body = await this.upstream.request(async (signal) => {
      const answer = await getUpstreamJson(this.http, this.serviceUrl, { f: 'json' }, signal, { maxBodyBytes: this.upstream.maxBodyBytes });
      return arcgisBody(answer.body);
    }, deadline);
    const published = Array.isArray(body.layers) ? body.layers.filter(isRecord) : [];
    return this.idsBy((spec) => {
      const found = published.find((l) => typeof l.name === 'string' && spec.matches(l.name));
      return typeof found?.id === 'number' ? found.id : undefined;
    });
  }

  private idsBy(find: (spec: LayerSpec) => number | undefined): Partial<Record<L, number>> {
    const entries = Object.entries<LayerSpec>(this.layers).map(([layer, spec]) => [layer, find(spec) ?? spec.fallbackId]);
    return Object.fromEntries(entries) as Partial<Record<L, number>>;
  }
}

/** The parameters that ask for features' geometry in WGS84 as `geometry` says, in JSON. */
function geometryOutput(geometry: GeometryRequest): Record<string, string> {
  const params: Record<string, string> = { returnGeometry: 'true', outSR: '4326', f: 'json' };
  if (geometry.geometryPrecision !== undefined) params.geometryPrecision = String(geometry.geometryPrecision);
  if (geometry.maxAllowableOffset !== undefined) params.maxAllowableOffset = String(geometry.maxAllowableOffset);
  return params;
}

/** Why an export's answer is not a picture, judged as `arcgisBody` judges an answer: a page or an ArcGIS 5xx is an outage. */
function notAnImage(status: number, contentType: string, body: Buffer): UpstreamFailure {
  const text = body.subarray(0, 4096).toString('utf8');
  if (contentType.includes('html') || /^\s*</.test(text)) return new UpstreamFailure(`export: HTML page instead of a PNG (HTTP ${status})`, true);
  try {
    arcgisBody(JSON.parse(body.toString('utf8')));
  } catch (error) {
    if (error instanceof UpstreamFailure) return new UpstreamFailure(`export: ${error.reason}`, error.outage);
  }
  return new UpstreamFailure(`export: ${contentType || 'an answer'} instead of a PNG (HTTP ${status})`, false);
}
