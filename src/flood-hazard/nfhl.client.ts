import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import { ResilientUpstream, UpstreamFailure } from '../common/upstream/resilient-upstream';
import { getUpstreamJson, isRecord } from '../common/upstream/upstream-json';
import { FloodHazardSource } from './flood-hazard-source';
import type {
  FirmPanelAttributes,
  FloodHazardZoneAttributes,
  GeoPoint,
  LomrAttributes,
  NfhlPointData,
  PoliticalJurisdictionAttributes,
} from './flood-hazard.types';

export const NFHL_UPSTREAM = Symbol('NFHL_UPSTREAM');

type NfhlLayer = 'zones' | 'panels' | 'lomrs' | 'jurisdictions' | 'availability';

/**
 * NFHL layers by their published name, with the ids they have had lately as a fallback: ids have
 * moved over the years, names have not.
 */
const LAYERS: Record<NfhlLayer, { name: string; fallbackId: number; outFields: string[] }> = {
  zones: {
    name: 'Flood Hazard Zones',
    fallbackId: 28,
    outFields: ['FLD_ZONE', 'ZONE_SUBTY', 'SFHA_TF', 'STATIC_BFE', 'DEPTH', 'V_DATUM', 'LEN_UNIT', 'DFIRM_ID', 'FLD_AR_ID'],
  },
  panels: {
    name: 'FIRM Panels',
    fallbackId: 3,
    outFields: ['FIRM_PAN', 'PANEL', 'SUFFIX', 'EFF_DATE', 'PANEL_TYP', 'DFIRM_ID'],
  },
  lomrs: { name: 'LOMRs', fallbackId: 1, outFields: ['CASE_NO', 'EFF_DATE', 'STATUS'] },
  jurisdictions: { name: 'Political Jurisdictions', fallbackId: 22, outFields: ['POL_NAME1', 'CID'] },
  availability: { name: 'NFHL Availability', fallbackId: 0, outFields: ['STUDY_ID'] },
};

type LayerIds = Record<NfhlLayer, number>;

const FALLBACK_IDS = Object.fromEntries(
  Object.entries(LAYERS).map(([layer, { fallbackId }]) => [layer, fallbackId]),
) as LayerIds;

/** After a failed layer-list fetch, the fallback ids serve for this long before the list is asked again. */
const LAYER_LIST_RETRY_MS = 60_000;

/** FEMA's National Flood Hazard Layer, an ArcGIS Server MapServer queried point by point. */
@Injectable()
export class NfhlClient extends FloodHazardSource {
  readonly serviceUrl: string;
  private layerIds?: Promise<LayerIds>;

  constructor(
    private readonly http: HttpService,
    @Inject(NFHL_UPSTREAM) private readonly upstream: ResilientUpstream,
    config: ConfigService<AppConfig, true>,
  ) {
    super();
    this.serviceUrl = config.get('NFHL_BASE_URL', { infer: true }).replace(/\/+$/, '');
  }

  pointData(point: GeoPoint, deadline: AbortSignal): Promise<NfhlPointData> {
    return this.upstream.operation(async () => {
      const ids = await this.resolveLayerIds(deadline);
      const query = <T>(layer: NfhlLayer) => this.query<T>(ids[layer], LAYERS[layer].outFields, point, deadline);
      // Community and LOMRs are supplementary: their failure makes them unknown (null), not the lookup.
      const [zones, panels, lomrs, jurisdictions] = await Promise.all([
        query<FloodHazardZoneAttributes>('zones'),
        query<FirmPanelAttributes>('panels'),
        query<LomrAttributes>('lomrs').catch(() => null),
        query<PoliticalJurisdictionAttributes>('jurisdictions').catch(() => null),
      ]);
      const inAvailability = zones.length > 0 ? null : (await query('availability')).length > 0;
      return { zones, panels, lomrs, jurisdictions, inAvailability };
    });
  }

  /** Layer ids from `MapServer?f=json`, fetched once and shared by concurrent lookups. */
  private resolveLayerIds(deadline: AbortSignal): Promise<LayerIds> {
    this.layerIds ??= this.fetchLayerIds(deadline).catch(() => {
      setTimeout(() => (this.layerIds = undefined), LAYER_LIST_RETRY_MS).unref();
      return FALLBACK_IDS;
    });
    return this.layerIds;
  }

  private async fetchLayerIds(deadline: AbortSignal): Promise<LayerIds> {
    const body = await this.upstream.request(async (signal) => {
      const answer = await getUpstreamJson(this.http, this.serviceUrl, { f: 'json' }, signal);
      return arcgisBody(answer.body);
    }, deadline);
    const published = Array.isArray(body.layers) ? body.layers.filter(isRecord) : [];
    const idOf = (name: string, fallbackId: number) => {
      const layer = published.find((l) => typeof l.name === 'string' && l.name.trim().toLowerCase() === name.toLowerCase());
      return typeof layer?.id === 'number' ? layer.id : fallbackId;
    };
    return Object.fromEntries(
      Object.entries(LAYERS).map(([layer, { name, fallbackId }]) => [layer, idOf(name, fallbackId)]),
    ) as LayerIds;
  }

  private query<T>(layerId: number, outFields: string[], point: GeoPoint, deadline: AbortSignal): Promise<T[]> {
    return this.upstream.request(async (signal) => {
      const answer = await getUpstreamJson(
        this.http,
        `${this.serviceUrl}/${layerId}/query`,
        {
          // ArcGIS axis order is x,y = lon,lat; swapped axes silently match nothing.
          geometry: `${point.lon},${point.lat}`,
          geometryType: 'esriGeometryPoint',
          inSR: '4326',
          spatialRel: 'esriSpatialRelIntersects',
          outFields: outFields.join(','),
          returnGeometry: 'false',
          f: 'json',
        },
        signal,
      );
      const body = arcgisBody(answer.body);
      if (!Array.isArray(body.features)) throw new UpstreamFailure(`layer ${layerId}: answer without features`, false);
      return body.features.map((feature) => {
        if (!isRecord(feature) || !isRecord(feature.attributes)) {
          throw new UpstreamFailure(`layer ${layerId}: feature without attributes`, false);
        }
        return feature.attributes as T;
      });
    }, deadline);
  }
}

/** ArcGIS reports errors inside HTTP 200 as `{"error": {code, message}}`; 5xx codes there are transient. */
function arcgisBody(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw new UpstreamFailure('answer is not a JSON object', false);
  if (isRecord(body.error)) {
    const code = Number(body.error.code);
    throw new UpstreamFailure(`ArcGIS error ${body.error.code}: ${String(body.error.message ?? '')}`, code >= 500);
  }
  return body;
}
