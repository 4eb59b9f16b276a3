import type { PieceParts } from '../cache/piece-cache';
import type { LonLatBox } from '../common/geo-point';
import type { MapExtent, MapPixels } from '../common/upstream/arcgis-map-server';
import type {
  BfeLineFeature,
  FloodHazardZoneAttributes,
  FootprintLayers,
  FootprintSurroundings,
  GeoPoint,
  LomaFeature,
  NfhlPointData,
  ZonePolygonFeature,
} from './flood-hazard.types';

/**
 * Everything the effective map says at one point. `null` for a supplementary layer means its query
 * failed (unknown); `bfeLines` is undefined when the zone answer did not call for them.
 */
export interface EffectiveMapData extends NfhlPointData {
  lomas: LomaFeature[] | null;
  bfeLines?: BfeLineFeature[] | null;
}

/** Whether the zones at the point call for the BFE lines around it (a rule of the caller's, not of the map). */
export type BfeLinesWanted = (zones: FloodHazardZoneAttributes[]) => boolean;

/** FEMA's effective flood map (NFHL). The use case sees this, never HTTP. */
export abstract class FloodHazardPort {
  /** The flood data service actually queried (`source.floodService`). */
  abstract readonly serviceUrl: string;

  /**
   * Zones, FIRM panels, LOMRs, community and LOMAs at a point, all at once; then availability when no
   * zone was found, or the BFE lines when the zones call for them. Each layer's answer is a part of the
   * cached piece this makes (`layers`): one kept by an earlier load cut short is not asked again.
   */
  abstract pointData(point: GeoPoint, deadline: AbortSignal, bfeLinesWanted: BfeLinesWanted, layers: PieceParts): Promise<EffectiveMapData>;

  /** Every Flood Hazard Zones polygon within `radiusM` of the point, with its geometry. */
  abstract zonePolygonsNear(point: GeoPoint, radiusM: number, deadline: AbortSignal): Promise<ZonePolygonFeature[]>;

  /**
   * Every Flood Hazard Zones and FIRM Panels polygon intersecting a footprint's envelope ([west, south, east,
   * north]), with its exact geometry, both asked at once. Its failure is the building part's alone.
   */
  abstract footprintLayers(bbox: LonLatBox, deadline: AbortSignal): Promise<FootprintLayers>;

  /**
   * Every Flood Hazard Zones polygon intersecting an envelope, with its exact geometry: one query for several
   * footprints at once (the buildings listed when none could be chosen). Its failure is the building part's alone.
   */
  abstract zonesOver(bbox: LonLatBox, deadline: AbortSignal): Promise<ZonePolygonFeature[]>;

  /**
   * Every Political Jurisdictions and LOMRs polygon intersecting a footprint's envelope, with its exact geometry, and the
   * LOMAs within `lomaBox` when one is given, all asked at once; each query failing alone (null).
   */
  abstract footprintSurroundings(bbox: LonLatBox, lomaBox: LonLatBox | null, deadline: AbortSignal): Promise<FootprintSurroundings>;

  /** The Flood Hazard Zones over the extent as FEMA's own map draws them (its renderer; clear where no zone is drawn). */
  abstract exportFloodZones(extent: MapExtent, deadline: AbortSignal): Promise<MapPixels>;
}
