import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { ResilientUpstream } from '../../common/upstream/resilient-upstream';
import type { AppConfig } from '../../config/app-config';
import { ArcGisMapServer, LayerSpec } from '../../common/upstream/arcgis-map-server';
import { MapChangeMaps, MapChangePort } from './map-change-port';
import type { MapChangeMapData, FloodHazardZoneAttributes, GeoPoint, MapChangeAvailabilityAttributes } from '../../flood-hazard/flood-hazard.types';

export const PRELIMINARY_UPSTREAM = Symbol('PRELIMINARY_UPSTREAM');
export const PENDING_UPSTREAM = Symbol('PENDING_UPSTREAM');

type MapChangeMapLayer = 'zones' | 'availability';

/**
 * The coming maps publish NFHL's layers under prefixed names ("Preliminary Flood Hazard Zones") whose ids
 * have moved before, so only the names are trusted: no fallback ids.
 */
const LAYERS: Record<MapChangeMapLayer, LayerSpec> = {
  zones: { matches: (name) => name.trim().toLowerCase().endsWith('flood hazard zones') },
  availability: { matches: (name) => name.toLowerCase().includes('availability') },
};

const AVAILABILITY_FIELDS = ['DFIRM_ID', 'PRELM_ISSUE_DATE'];
const ZONE_FIELDS = ['FLD_ZONE', 'ZONE_SUBTY', 'SFHA_TF', 'STATIC_BFE', 'DEPTH', 'V_DATUM', 'LEN_UNIT'];

/** FEMA's preliminary and pending NFHL MapServers: two services, each with its own resilience policies. */
@Injectable()
export class MapChangeClient extends MapChangePort {
  private readonly pending: ArcGisMapServer<MapChangeMapLayer>;
  private readonly preliminary: ArcGisMapServer<MapChangeMapLayer>;

  constructor(
    http: HttpService,
    @Inject(PENDING_UPSTREAM) pendingUpstream: ResilientUpstream,
    @Inject(PRELIMINARY_UPSTREAM) preliminaryUpstream: ResilientUpstream,
    config: ConfigService<AppConfig, true>,
  ) {
    super();
    this.pending = new ArcGisMapServer(http, pendingUpstream, config.get('PENDING_NFHL_BASE_URL', { infer: true }), LAYERS);
    this.preliminary = new ArcGisMapServer(http, preliminaryUpstream, config.get('PRELIMINARY_NFHL_BASE_URL', { infer: true }), LAYERS);
  }

  async mapsAt(point: GeoPoint, deadline: AbortSignal): Promise<MapChangeMaps> {
    const [pending, preliminary] = await Promise.all([mapAt(this.pending, point, deadline), mapAt(this.preliminary, point, deadline)]);
    return { pending, preliminary };
  }
}

/** Availability and zones of one coming map at the point, asked together. */
function mapAt(map: ArcGisMapServer<MapChangeMapLayer>, point: GeoPoint, deadline: AbortSignal): Promise<MapChangeMapData> {
  return map.upstream.operation(async () => {
    const [availability, zones] = await Promise.all([
      map.queryPoint<MapChangeAvailabilityAttributes>('availability', AVAILABILITY_FIELDS, point, deadline),
      map.queryPoint<FloodHazardZoneAttributes>('zones', ZONE_FIELDS, point, deadline),
    ]);
    return { availability, zones };
  });
}
