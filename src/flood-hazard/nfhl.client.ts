import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { PieceParts } from '../cache/piece-cache';
import { UpstreamUnavailableError, unknownOnFailure } from '../common/api-error';
import type { AppConfig } from '../config/app-config';
import { QueriesAbandoned, ResilientUpstream } from '../common/upstream/resilient-upstream';
import {
  ArcGisMapServer,
  GeometryRequest,
  MapExtent,
  MapPixels,
  exportScale,
  layerNamed,
  sampledDown,
  squareAround,
} from '../common/upstream/arcgis-map-server';
import { ArcGisFeature, ArcGisFieldType, attributeTypeProblem, positionListsOf } from '../common/upstream/arcgis-layer';
import { LonLatBox, OFF_THE_EARTH, isOnEarth } from '../common/geo-point';
import { nfhlValueProblem } from './nfhl-values';
import { HeldPoints, HeldPolygons, heldPolygons, pointsWithin, polygonsAt } from './held-layer';
import { HeldLayers, HeldWay } from './held-layers.client';
import { BFE_LINE_REACH_M } from './bfe-estimate';
import { LOMA_REACH_M } from './loma-status';
import { BfeLinesWanted, EffectiveMapData, FloodHazardPort } from './flood-hazard-port';
import type {
  BfeLineAttributes,
  BfeLineFeature,
  FirmPanelAttributes,
  FloodHazardZoneAttributes,
  FootprintLayers,
  FootprintSurroundings,
  GeoPoint,
  LomaAttributes,
  LomaFeature,
  LomrAttributes,
  PoliticalJurisdictionAttributes,
  ZonePolygonFeature,
} from './flood-hazard.types';

export const NFHL_UPSTREAM = Symbol('NFHL_UPSTREAM');

type NfhlLayer = 'zones' | 'panels' | 'lomrs' | 'jurisdictions' | 'availability' | 'lomas' | 'bfeLines';

/** The type each NFHL field the service asks for is declared with, in every layer that has it (the layers' `fields`). */
const NFHL_FIELD_TYPES: Record<string, ArcGisFieldType> = {
  FLD_ZONE: 'string',
  ZONE_SUBTY: 'string',
  SFHA_TF: 'string',
  STATIC_BFE: 'double',
  DEPTH: 'double',
  V_DATUM: 'string',
  LEN_UNIT: 'string',
  DFIRM_ID: 'string',
  FLD_AR_ID: 'string',
  FIRM_PAN: 'string',
  PANEL: 'string',
  SUFFIX: 'string',
  EFF_DATE: 'date',
  PANEL_TYP: 'string',
  CASE_NO: 'string',
  STATUS: 'string',
  POL_NAME1: 'string',
  CID: 'string',
  STUDY_ID: 'string',
  CASENUMBER: 'string',
  DATEENDED: 'date',
  OUTCOME: 'string',
  REVAL_STAT: 'string',
  PROJECTCATEGORY: 'string',
  LAT: 'double',
  LON: 'double',
  ELEV: 'double',
};

/** An NFHL feature is used only when its values are of their declared types and ones a flood map can hold; else the query fails. */
const nfhlAttributesProblem = (attributes: Record<string, unknown>) => attributeTypeProblem(attributes, NFHL_FIELD_TYPES) ?? nfhlValueProblem(attributes);

/**
 * NFHL layers by their published name, with the ids they have had lately as a fallback: ids have
 * moved over the years, names have not.
 */
const nfhlLayer = (name: string, fallbackId: number) => layerNamed(name, fallbackId, nfhlAttributesProblem);
const LAYERS = {
  zones: nfhlLayer('Flood Hazard Zones', 28),
  panels: nfhlLayer('FIRM Panels', 3),
  lomrs: nfhlLayer('LOMRs', 1),
  jurisdictions: nfhlLayer('Political Jurisdictions', 22),
  availability: nfhlLayer('NFHL Availability', 0),
  lomas: nfhlLayer('LOMAs', 34),
  bfeLines: nfhlLayer('Base Flood Elevations', 16),
};

export const ZONE_FIELDS = ['FLD_ZONE', 'ZONE_SUBTY', 'SFHA_TF', 'STATIC_BFE', 'DEPTH', 'V_DATUM', 'LEN_UNIT', 'DFIRM_ID', 'FLD_AR_ID'];
export const POINT_FIELDS: Record<'panels' | 'lomrs' | 'jurisdictions' | 'availability', string[]> = {
  panels: ['FIRM_PAN', 'PANEL', 'SUFFIX', 'EFF_DATE', 'PANEL_TYP', 'DFIRM_ID'],
  lomrs: ['CASE_NO', 'EFF_DATE', 'STATUS'],
  jurisdictions: ['POL_NAME1', 'CID'],
  availability: ['STUDY_ID'],
};
const LOMA_FIELDS = ['CASENUMBER', 'DATEENDED', 'OUTCOME', 'REVAL_STAT', 'PROJECTCATEGORY', 'LAT', 'LON'];
const BFE_LINE_FIELDS = ['ELEV', 'LEN_UNIT', 'V_DATUM', 'DFIRM_ID'];
/** What a nearby polygon is classified by; nothing more is asked for. */
const NEARBY_ZONE_FIELDS = ['FLD_ZONE', 'ZONE_SUBTY', 'STATIC_BFE', 'LEN_UNIT'];
/** What a zone over a footprint is classified and summed by. */
const FOOTPRINT_ZONE_FIELDS = ['FLD_ZONE', 'ZONE_SUBTY', 'SFHA_TF', 'STATIC_BFE', 'DEPTH', 'V_DATUM', 'LEN_UNIT'];
const FOOTPRINT_PANEL_FIELDS = ['FIRM_PAN', 'PANEL', 'SUFFIX', 'EFF_DATE', 'PANEL_TYP'];
/** What each polygon layer held for squares is asked for: the fields of its point query. */
const HELD_POLYGON_FIELDS = { zones: ZONE_FIELDS, ...POINT_FIELDS };
type HeldPolygonLayer = keyof typeof HELD_POLYGON_FIELDS;
export type HeldLayer = HeldPolygonLayer | 'lomas';

/**
 * Where a portfolio's points are dense, these layers are held for whole squares of a grid (see HeldLayers), each
 * square fetched once that many of a job's points fell in it. FIRM panels, communities, availability and LOMRs are
 * large polygons, so a square of 0.1° (about 10 km) costs one query of a few dozen features (on Hudson County's real
 * map a median of 30 vertices of panels, 658 of communities). Zones are many and detailed: a 0.01° square (about
 * 1 km) of Hudson's holds a median of 1,737 vertices (28 KiB held; at most 50,295), a 0.05° one 18,622, against
 * well under 1 KB for one point's answer, so a square of zones is asked for only at its third point. LOMAs are points
 * asked within LOMA_REACH_M of each point, so their squares (0.05°) overlap by more than that (0.004° of longitude
 * is 100 m up to 77° of latitude; a point nearer the pole is asked alone).
 */
export const HELD_GRID: Record<HeldLayer, { sizeDeg: number; marginDeg: number; pointsBeforeFetch: number }> = {
  zones: { sizeDeg: 0.01, marginDeg: 0.0005, pointsBeforeFetch: 3 },
  panels: { sizeDeg: 0.1, marginDeg: 0.0005, pointsBeforeFetch: 2 },
  lomrs: { sizeDeg: 0.1, marginDeg: 0.0005, pointsBeforeFetch: 2 },
  jurisdictions: { sizeDeg: 0.1, marginDeg: 0.0005, pointsBeforeFetch: 2 },
  availability: { sizeDeg: 0.1, marginDeg: 0.0005, pointsBeforeFetch: 2 },
  lomas: { sizeDeg: 0.05, marginDeg: 0.004, pointsBeforeFetch: 2 },
};

/** A square of a polygon layer or of the LOMAs as kept in the shared cache: the envelope asked for and what FEMA gave. */
interface StoredPolygons {
  envelope: LonLatBox;
  features: Array<{ attributes: unknown; rings: number[][][] }>;
}
interface StoredLomas {
  envelope: LonLatBox;
  features: LomaFeature[];
}
/** What a held LOMA takes in memory, roughly: its attributes and place. */
const HELD_LOMA_BYTES = 400;

/** The zones drawn with a transparent background (32-bit PNG), at the screen resolution ArcGIS assumes. */
const ZONES_EXPORT_DPI = 96;
const ZONES_EXPORT = { format: 'png32', transparent: 'true', dpi: String(ZONES_EXPORT_DPI) };
/** The Flood Hazard Zones layer's published `minScale`: FEMA's server draws it only at this scale or larger (finer). */
const ZONES_MIN_SCALE = 36111.909643;
/** FEMA's largest export, `maxImageWidth` and `maxImageHeight` of the service. */
const MAX_EXPORT_SIDE = 4096;
/** About 1 m: whole polygons come back with far fewer vertices, and distances stay within the metre. */
const NEARBY_MAX_ALLOWABLE_OFFSET_DEG = 0.00001;
/** Coordinates to 6 decimals (about 0.1 m): enough for distances of metres, and shorter answers. */
const TO_A_DECIMETRE: GeometryRequest = { geometryPrecision: 6 };
/**
 * Every vertex as FEMA keeps it: a house is 10 m across, so a metre's generalisation or rounding to 6 decimals
 * would move the share of it in each zone.
 */
const EXACT_GEOMETRY: GeometryRequest = {};

/** FEMA's National Flood Hazard Layer, an ArcGIS Server MapServer queried point by point, or square by square where a portfolio is dense. */
@Injectable()
export class NfhlClient extends FloodHazardPort {
  readonly serviceUrl: string;
  private readonly map: ArcGisMapServer<NfhlLayer>;
  private readonly heldPolygonWays: Record<HeldPolygonLayer, HeldWay<StoredPolygons, HeldPolygons<unknown>, unknown[]>>;
  private readonly heldLomaWay: HeldWay<StoredLomas, HeldPoints<LomaFeature>, LomaFeature[]>;

  constructor(
    http: HttpService,
    @Inject(NFHL_UPSTREAM) private readonly upstream: ResilientUpstream,
    config: ConfigService<AppConfig, true>,
    private readonly held: HeldLayers,
  ) {
    super();
    this.map = new ArcGisMapServer(http, upstream, config.get('NFHL_BASE_URL', { infer: true }), LAYERS);
    this.serviceUrl = this.map.serviceUrl;
    this.heldPolygonWays = {
      zones: this.heldPolygonWay('zones'),
      panels: this.heldPolygonWay('panels'),
      lomrs: this.heldPolygonWay('lomrs'),
      jurisdictions: this.heldPolygonWay('jurisdictions'),
      availability: this.heldPolygonWay('availability'),
    };
    this.heldLomaWay = {
      ...HELD_GRID.lomas,
      fetch: async (envelope, signal) => {
        const features = await this.map.queryEnvelope<LomaAttributes>('lomas', LOMA_FIELDS, envelope, TO_A_DECIMETRE, signal);
        return { envelope, features: features.map((feature) => this.lomaOf(feature)) };
      },
      hold: ({ envelope, features }) => ({
        held: { envelope, features: features.map((feature) => ({ feature, lon: feature.lon, lat: feature.lat })) },
        bytes: HELD_LOMA_BYTES * (features.length + 1),
      }),
      answerAt: (held, point) => pointsWithin(held, squareAround(point, LOMA_REACH_M)),
    };
  }

  pointData(point: GeoPoint, lookupDeadline: AbortSignal, bfeLinesWanted: BfeLinesWanted, layers: PieceParts): Promise<EffectiveMapData> {
    return this.upstream.operation(async () => {
      // Once an essential query has failed the lookup is a 502: its sibling queries (and their retries) stop.
      const [zones, panels, lomrs, jurisdictions, lomas, { inAvailability, bfeLines }] = await stoppingAtFirstFailure(lookupDeadline, (deadline) => {
        const at = <T>(layer: HeldPolygonLayer) =>
          layers.kept(layer, (fetchedAt) =>
            this.held.answer(layer, point, this.heldPolygonWays[layer], deadline, fetchedAt, () =>
              this.map.queryPoint<T>(layer, HELD_POLYGON_FIELDS[layer], point, deadline),
            ),
          ) as Promise<T[]>;
        const zoneQuery = at<FloodHazardZoneAttributes>('zones');
        // Only these two wait for the zones; they exclude each other.
        const followUp = zoneQuery.then(async (found) => {
          if (found.length === 0) return { inAvailability: (await at('availability')).length > 0 };
          const bfeLines = () => layers.kept('bfeLines', () => this.bfeLines(point, deadline));
          return { inAvailability: null, bfeLines: bfeLinesWanted(found) ? await unknownOnFailure(bfeLines()) : undefined };
        });
        // Community, LOMRs, LOMAs and BFE lines are supplementary: their failure makes them unknown (null), not the lookup.
        return Promise.all([
          zoneQuery,
          at<FirmPanelAttributes>('panels'),
          unknownOnFailure(at<LomrAttributes>('lomrs')),
          unknownOnFailure(at<PoliticalJurisdictionAttributes>('jurisdictions')),
          unknownOnFailure(
            layers.kept('lomas', (fetchedAt) => this.held.answer('lomas', point, this.heldLomaWay, deadline, fetchedAt, () => this.lomas(point, deadline))),
          ),
          followUp,
        ]);
      });
      return { zones, panels, lomrs, jurisdictions, inAvailability, lomas, bfeLines };
    });
  }

  zonePolygonsNear(point: GeoPoint, radiusM: number, deadline: AbortSignal): Promise<ZonePolygonFeature[]> {
    const geometry = { ...TO_A_DECIMETRE, maxAllowableOffset: NEARBY_MAX_ALLOWABLE_OFFSET_DEG };
    return this.failingAlone(async () => {
      const features = await this.map.queryAround<FloodHazardZoneAttributes>('zones', NEARBY_ZONE_FIELDS, point, radiusM, geometry, deadline);
      return features.map((feature) => ({ attributes: feature.attributes, rings: positionListsOf(feature, 'rings', this.upstream.name) }));
    });
  }

  footprintLayers(bbox: LonLatBox, lookupDeadline: AbortSignal): Promise<FootprintLayers> {
    return this.failingAlone(async () => {
      // Either query failing fails the answer: its sibling stops.
      const [zones, panels] = await stoppingAtFirstFailure(lookupDeadline, (deadline) => {
        const within = async <T>(layer: 'zones' | 'panels', fields: string[]) =>
          (await this.map.queryEnvelope<T>(layer, fields, bbox, EXACT_GEOMETRY, deadline)).map((feature) => ({
            attributes: feature.attributes,
            rings: positionListsOf(feature, 'rings', this.upstream.name),
          }));
        return Promise.all([within<FloodHazardZoneAttributes>('zones', FOOTPRINT_ZONE_FIELDS), within<FirmPanelAttributes>('panels', FOOTPRINT_PANEL_FIELDS)]);
      });
      return { zones, panels };
    });
  }

  zonesOver(bbox: LonLatBox, deadline: AbortSignal): Promise<ZonePolygonFeature[]> {
    return this.failingAlone(async () =>
      (await this.map.queryEnvelope<FloodHazardZoneAttributes>('zones', FOOTPRINT_ZONE_FIELDS, bbox, EXACT_GEOMETRY, deadline)).map((feature) => ({
        attributes: feature.attributes,
        rings: positionListsOf(feature, 'rings', this.upstream.name),
      })),
    );
  }

  footprintSurroundings(bbox: LonLatBox, lomaBox: LonLatBox | null, deadline: AbortSignal): Promise<FootprintSurroundings> {
    return this.upstream.operation(async () => {
      const within = async <T>(layer: 'jurisdictions' | 'lomrs') =>
        (await this.map.queryEnvelope<T>(layer, POINT_FIELDS[layer], bbox, EXACT_GEOMETRY, deadline)).map((feature) => ({
          attributes: feature.attributes,
          rings: positionListsOf(feature, 'rings', this.upstream.name),
        }));
      const lomasWithin = async (box: LonLatBox) =>
        (await this.map.queryEnvelope<LomaAttributes>('lomas', LOMA_FIELDS, box, TO_A_DECIMETRE, deadline)).map((feature) => this.lomaOf(feature));
      // Each answers its own part of the form: one failing leaves that part unknown, not the others.
      const [jurisdictions, lomrs, lomas] = await Promise.all([
        unknownOnFailure(within<PoliticalJurisdictionAttributes>('jurisdictions')),
        unknownOnFailure(within<LomrAttributes>('lomrs')),
        lomaBox ? unknownOnFailure(lomasWithin(lomaBox)) : undefined,
      ]);
      return { jurisdictions, lomrs, ...(lomaBox ? { lomas } : {}) };
    });
  }

  /**
   * A picture coarser than the layer's scale range would come back empty: it is asked that many times larger
   * (within FEMA's largest export), then sampled down to the size asked.
   */
  exportFloodZones(extent: MapExtent, deadline: AbortSignal): Promise<MapPixels> {
    // A hair under the range, so that the server's own arithmetic on the box never lands just past it.
    const needed = Math.ceil(exportScale(extent, ZONES_EXPORT_DPI) / (ZONES_MIN_SCALE * 0.999));
    const factor = Math.max(1, Math.min(needed, Math.floor(MAX_EXPORT_SIDE / Math.max(extent.width, extent.height))));
    const asked = { ...extent, width: extent.width * factor, height: extent.height * factor };
    return this.upstream.operation(async () => {
      const pixels = await this.map.exportImage(asked, ZONES_EXPORT, deadline, 'zones');
      return factor === 1 ? pixels : sampledDown(pixels, factor);
    });
  }

  private async lomas(point: GeoPoint, deadline: AbortSignal): Promise<LomaFeature[]> {
    const features = await this.map.queryAround<LomaAttributes>('lomas', LOMA_FIELDS, point, LOMA_REACH_M, TO_A_DECIMETRE, deadline);
    return features.map((feature) => this.lomaOf(feature));
  }

  private lomaOf(feature: ArcGisFeature<LomaAttributes>): LomaFeature {
    const { x, y } = feature.geometry;
    // The point geometry is the LOMA's location; LAT/LON carry the same when a server leaves geometry out.
    const [lon, lat] = typeof x === 'number' && typeof y === 'number' ? [x, y] : [feature.attributes.LON, feature.attributes.LAT];
    if (typeof lon !== 'number' || typeof lat !== 'number') throw this.malformed('lomas', 'a LOMA without a location');
    if (!isOnEarth({ lat, lon })) throw this.malformed('lomas', `a LOMA at ${OFF_THE_EARTH}`);
    return { attributes: feature.attributes, lon, lat };
  }

  /** A polygon layer held for grid squares: its features with exact geometry, answered at a point as its point query is. */
  private heldPolygonWay(layer: HeldPolygonLayer): HeldWay<StoredPolygons, HeldPolygons<unknown>, unknown[]> {
    return {
      ...HELD_GRID[layer],
      fetch: async (envelope, signal) => {
        const features = await this.map.queryEnvelope(layer, HELD_POLYGON_FIELDS[layer], envelope, EXACT_GEOMETRY, signal);
        return {
          envelope,
          features: features.map((feature) => ({ attributes: feature.attributes, rings: positionListsOf(feature, 'rings', this.upstream.name) })),
        };
      },
      hold: ({ envelope, features }) => heldPolygons(envelope, features),
      answerAt: (held, point) => polygonsAt(held, point.lon, point.lat),
    };
  }

  private async bfeLines(point: GeoPoint, deadline: AbortSignal): Promise<BfeLineFeature[]> {
    const features = await this.map.queryAround<BfeLineAttributes>('bfeLines', BFE_LINE_FIELDS, point, BFE_LINE_REACH_M, TO_A_DECIMETRE, deadline);
    return features.map((feature) => ({ attributes: feature.attributes, paths: positionListsOf(feature, 'paths', this.upstream.name) }));
  }

  /**
   * One operation of an opt-in part's own on the circuit: refused while the circuit is open, but its failure is
   * this part's alone and does not count against the circuit.
   */
  private async failingAlone<T>(run: () => Promise<T>): Promise<T> {
    const outcome = await this.upstream.operation(() =>
      run().then(
        (answer) => ({ answer }),
        (error: unknown) => ({ error }),
      ),
    );
    if ('error' in outcome) throw outcome.error;
    return outcome.answer;
  }

  private malformed(what: string, reason: string): UpstreamUnavailableError {
    return new UpstreamUnavailableError(this.upstream.name, `${what}: ${reason}`);
  }
}

/** The queries `run` starts, with a deadline that also ends once one of them has failed: its siblings (and their retries) stop. */
async function stoppingAtFirstFailure<T>(lookupDeadline: AbortSignal, run: (deadline: AbortSignal) => Promise<T>): Promise<T> {
  const failed = new AbortController();
  try {
    return await run(AbortSignal.any([lookupDeadline, failed.signal]));
  } catch (error) {
    failed.abort(new QueriesAbandoned());
    throw error;
  }
}
