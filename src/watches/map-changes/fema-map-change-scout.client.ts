import { AsyncLocalStorage } from 'node:async_hooks';
import { setMaxListeners } from 'node:events';
import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import axios from 'axios';
import { ArcGisFeature, ArcGisFieldType, attributeTypeProblem, isPositionLists } from '../../common/upstream/arcgis-layer';
import { ArcGisMapServer, GeometryRequest, LayerSpec, layerNamed } from '../../common/upstream/arcgis-map-server';
import type { ResilientUpstream } from '../../common/upstream/resilient-upstream';
import { OPENFEMA_UPSTREAM, OpenFemaClient } from '../../community-status/openfema.client';
import type { AppConfig } from '../../config/app-config';
import { NFHL_UPSTREAM } from '../../flood-hazard/nfhl.client';
import { CBRS_UPSTREAM } from '../../parts/coastal-barrier/cbrs.client';
import { PENDING_UPSTREAM, PRELIMINARY_UPSTREAM } from '../../parts/map-change/map-change.client';
import { ComingMapKind, DatedFeature, comingMapChanges, datedAreas, effectiveSince } from './changed-areas';
import { changedCommunities, isCommunityKey, statusBookCopy } from './changed-communities';
import type { ChangedArea, ChangedAreaKind, MapChangeReport, MapChangeScout, StatusBookCopy } from './map-change-scout.port';

/**
 * Outlines come generalised to about 50 m and rounded to about 1 m: an extent is all a sweep needs, and a county's
 * panels or a LOMR's outline at full detail would cost megabytes. Each extent is widened by as much again.
 */
const OUTLINE: Required<GeometryRequest> = { maxAllowableOffset: 0.0005, geometryPrecision: 5 };
const MARGIN_DEGREES = OUTLINE.maxAllowableOffset + 10 ** -OUTLINE.geometryPrecision;

/** The fields each dated layer is asked for, with the types their layers declare (CBRS's FI_Date aside: a few rows hold it as text). */
const FIELD_TYPES: Record<string, ArcGisFieldType> = {
  FIRM_PAN: 'string',
  CASE_NO: 'string',
  EFF_DATE: 'date',
  DFIRM_ID: 'string',
  PRELM_ISSUE_DATE: 'date',
  Unit: 'string',
};
const typesProblem = (attributes: Record<string, unknown>) => attributeTypeProblem(attributes, FIELD_TYPES);

/** NFHL's dated layers, by name with their usual ids, as the lookup's client finds them. */
const NFHL_LAYERS = {
  panels: layerNamed('FIRM Panels', 3, typesProblem),
  lomrs: layerNamed('LOMRs', 1, typesProblem),
};
/** The coming maps publish their availability under prefixed names whose ids have moved: names only. */
const COMING_MAP_LAYERS: Record<'availability', LayerSpec> = {
  availability: { matches: (name) => name.toLowerCase().includes('availability'), check: typesProblem },
};
/**
 * CBRS prohibitions carry the date flood insurance became unavailable (`FI_Date`, a date field; a few rows hold it
 * as text, which no date clause matches); a redrawn unit's new areas carry the date of the new map.
 */
const CBRS_LAYERS = { prohibitions: layerNamed('CBRS Prohibitions', undefined, typesProblem) };

/** The calls of one report, counted as they are sent (retries included). */
const callsOfReport = new AsyncLocalStorage<{ calls: number }>();

/**
 * What FEMA published since a date, asked of its services by date rather than building by building: FIRM panels and
 * LOMRs by `EFF_DATE` (NFHL), the preliminary and pending maps' availability (each study's `PRELM_ISSUE_DATE`, and the
 * studies compared with the last copy, since a withdrawn one leaves nothing to ask for by date), CBRS prohibitions by
 * `FI_Date`, and the Community Status Book compared with its last copy. NFHL Availability and the flood zones carry no
 * date: a county's map that becomes effective publishes its panels with their date, and a zone changes only under a
 * new panel or LOMR. Each service is the lookup's own upstream (budget, breaker, byte cap, metrics). A sweep where
 * nothing changed costs one query per layer, a Status Book page per 10,000 rows (three for the real book), and each
 * service's layer list the first time.
 */
/** Listeners the scout's calls may hang on its signal at once (each layer's pages and retries, a few dozen at most). */
const SCOUT_LISTENERS = 64;

@Injectable()
export class FemaMapChangeScout implements MapChangeScout {
  private readonly nfhl: ArcGisMapServer<keyof typeof NFHL_LAYERS>;
  private readonly preliminary: ArcGisMapServer<'availability'>;
  private readonly pending: ArcGisMapServer<'availability'>;
  private readonly cbrs: ArcGisMapServer<keyof typeof CBRS_LAYERS>;
  private readonly statusBook: OpenFemaClient;

  constructor(
    http: HttpService,
    @Inject(NFHL_UPSTREAM) nfhl: ResilientUpstream,
    @Inject(PRELIMINARY_UPSTREAM) preliminary: ResilientUpstream,
    @Inject(PENDING_UPSTREAM) pending: ResilientUpstream,
    @Inject(CBRS_UPSTREAM) cbrs: ResilientUpstream,
    @Inject(OPENFEMA_UPSTREAM) openfema: ResilientUpstream,
    config: ConfigService<AppConfig, true>,
  ) {
    const counted = countedHttp(http);
    this.nfhl = new ArcGisMapServer(counted, nfhl, config.get('NFHL_BASE_URL', { infer: true }), NFHL_LAYERS);
    this.preliminary = new ArcGisMapServer(counted, preliminary, config.get('PRELIMINARY_NFHL_BASE_URL', { infer: true }), COMING_MAP_LAYERS);
    this.pending = new ArcGisMapServer(counted, pending, config.get('PENDING_NFHL_BASE_URL', { infer: true }), COMING_MAP_LAYERS);
    this.cbrs = new ArcGisMapServer(counted, cbrs, config.get('CBRS_BASE_URL', { infer: true }), CBRS_LAYERS);
    this.statusBook = new OpenFemaClient(counted, openfema, config.get('OPENFEMA_BASE_URL', { infer: true }));
  }

  changesSince(since: Date, previousStatusBook: StatusBookCopy | null, given: AbortSignal = new AbortController().signal): Promise<MapChangeReport> {
    const counter = { calls: 0 };
    // Every layer, page and retry of the scout waits on this one signal at once: more listeners than Node's warning expects, bounded by the layers asked.
    const signal = AbortSignal.any([given]);
    setMaxListeners(SCOUT_LISTENERS, signal);
    return callsOfReport.run(counter, async () => {
      const [panels, lomrs, preliminary, pending, barriers, rows] = await Promise.all([
        this.dated(this.nfhl, 'panels', 'firm_panel', 'FIRM_PAN', 'EFF_DATE', since, signal),
        this.dated(this.nfhl, 'lomrs', 'lomr', 'CASE_NO', 'EFF_DATE', since, signal),
        this.comingMap(this.preliminary, 'preliminary', previousStatusBook, since, signal),
        this.comingMap(this.pending, 'pending', previousStatusBook, since, signal),
        this.dated(this.cbrs, 'prohibitions', 'coastal_barrier', 'Unit', 'FI_Date', since, signal),
        this.statusBook.communityStatusBook(signal),
      ]);
      const communities = statusBookCopy(rows);
      return {
        areas: [...panels, ...lomrs, ...preliminary.areas, ...pending.areas, ...barriers],
        communities: previousStatusBook === null ? [] : changedCommunities(communitiesOf(previousStatusBook), communities),
        statusBook: { ...communities, ...preliminary.copy, ...pending.copy },
        upstreamCalls: counter.calls,
      };
    });
  }

  /** The features of a layer dated on or after `since`, as changed areas. */
  private async dated<L extends string>(
    map: ArcGisMapServer<L>,
    layer: L,
    kind: ChangedAreaKind,
    idField: string,
    dateField: string,
    since: Date,
    signal: AbortSignal,
  ): Promise<ChangedArea[]> {
    const features = await map.upstream.operation(() => map.queryWhere(layer, [idField, dateField], effectiveSince(dateField, since), OUTLINE, signal));
    return datedAreas(
      kind,
      features.map((feature) => datedFeature(feature, idField, dateField)),
      MARGIN_DEGREES,
    );
  }

  /** Every study of a coming map's availability, compared with the last copy. */
  private async comingMap(map: ArcGisMapServer<'availability'>, kind: ComingMapKind, previous: StatusBookCopy | null, since: Date, signal: AbortSignal) {
    const fields = ['DFIRM_ID', 'PRELM_ISSUE_DATE'];
    const features = await map.upstream.operation(() => map.queryWhere('availability', fields, '1=1', OUTLINE, signal));
    return comingMapChanges(
      kind,
      features.map((feature) => datedFeature(feature, 'DFIRM_ID', 'PRELM_ISSUE_DATE')),
      previous,
      since,
      MARGIN_DEGREES,
    );
  }
}

/** A feature of a dated answer: its id (text), its rings or paths, its date. */
function datedFeature(feature: ArcGisFeature<unknown>, idField: string, dateField: string): DatedFeature {
  const attributes = feature.attributes as Record<string, unknown>;
  const { rings, paths } = feature.geometry;
  const positions = isPositionLists(rings) ? rings : isPositionLists(paths) ? paths : [];
  return { id: String(attributes[idField] ?? ''), positions, date: attributes[dateField] };
}

/** The communities of a copy (which also keeps the coming maps' studies). */
function communitiesOf(copy: StatusBookCopy): StatusBookCopy {
  return Object.fromEntries(Object.entries(copy).filter(([key]) => isCommunityKey(key)));
}

/** The same HTTP client (its sockets, its limits), counting each request sent for a report. */
function countedHttp(http: HttpService): HttpService {
  const client = axios.create(http.axiosRef.defaults);
  client.interceptors.request.use((request) => {
    const counter = callsOfReport.getStore();
    if (counter) counter.calls += 1;
    return request;
  });
  return new HttpService(client);
}
