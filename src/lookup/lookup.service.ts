import { once } from 'node:events';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { unknownOnFailure } from '../common/api-error';
import { GeoPoint, pointKey, roundPoint } from '../common/geo-point';
import type { UpstreamName } from '../common/upstream/upstream-registry';
import { asLookup, deadlineExceeded, lookupDeadline } from '../common/upstream/resilient-upstream';
import type { AppConfig } from '../config/app-config';
import { CachePolicy, CacheRead, CacheStatus, PieceCache, PieceLoad, PieceReader, PieceWait } from '../cache/piece-cache';
import { femaMapUrl } from '../flood-hazard/classification';
import { FloodHazardPort } from '../flood-hazard/flood-hazard-port';
import type { Community } from '../flood-hazard/flood-hazard.types';
import { addressMatches, geocodePolicyOf, placeAt, singlePlace } from '../geocoding/geocode-cache';
import { AddressMatch, Geocoder, PlaceArea } from '../geocoding/geocoder';
import type { LocationQuery, LookupOptions } from './location-query';
import { CommunityWithNfip, DISCLAIMER, FLOOD_DATA_NAME, FloodZoneLookup, FloodZoneResult } from './flood-zone-lookup';
import { INCOMPLETE_ANSWER_MAX_AGE_SECONDS, PartArea, PartContext, PartRequest, SharedPiece } from '../parts/answer-part';
import { AnswerPart, INCLUDED_PARTS, IncludeItem, OptionalFields, inDocumentedOrder, withImpliedParts } from '../parts/answer-parts';
import { CoastalBarrierPort } from '../parts/coastal-barrier/coastal-barrier-port';
import { determinationPart } from '../parts/determination/determination.part';
import type { BuildingSurveyed } from '../parts/structure/building-survey.client';
import { PolygonWork } from '../parts/structure/polygon-work.client';
import { footprintKey } from '../parts/structure/footprint-geometry';
import type { Footprint } from '../parts/structure/structure.types';
import { structurePart } from '../parts/structure/structure.part';
import { FootprintCoastalBarrier, FootprintMapSite, loadCoastalBarrierOver, loadMapSiteOver, lomaEnvelopeOf } from './building-site';
import { BuildingSiteRead, determinationFacts } from './determination-facts';
import { refuseFootprintFarFrom } from './dto/footprint-lookup-body';
import { BOUND_PARTS, BoundPart } from './bound-parts';
import { answerFreshness, PieceRead } from './answer-freshness';
import { EFFECTIVE_MAP_UPSTREAM, EffectiveMapPiece, loadEffectiveMap } from './effective-map';
import { NfipStatusPort } from '../parts/nfip-status/nfip-status-port';
import { areaOfBuilding, partAreaOf } from './part-area';

/** Every opt-in field as it is when its part was not asked for. */
const NOT_ASKED = Object.fromEntries(INCLUDED_PARTS.map((part) => [part.field, null])) as OptionalFields;

export interface LookupAnswer {
  body: FloodZoneLookup;
  cacheStatus: CacheStatus;
  /** Seconds until the oldest cached part of the answer expires (at most 60 when a part is missing). */
  maxAgeSeconds: number;
}

/** Geocodes a one-line address (the batch endpoint brings its own, fed by the Census batch geocoder). */
export type AddressGeocode = (address: string, signal: AbortSignal) => Promise<AddressMatch[]>;

/** What a batch brings to each of its rows' lookups (GET brings none of it). */
export interface BatchRowLookup {
  /** Replaces the one-line geocoder as the loader of the shared cached geocode. */
  geocode: AddressGeocode;
  /** The batch's memo over the shared cache. */
  pieces: PieceReader;
  /** Aborted once the client is gone: the row stops waiting at once, failing with this signal's reason. */
  cancelled: AbortSignal;
}

/** One lookup's wait for a piece coming from `upstream`. */
type WaitFor = (upstream: UpstreamName) => PieceWait;

/** An opt-in part as read for one lookup: undefined `read` when its query failed. */
interface OptionalRead {
  part: BoundPart;
  read?: CacheRead<unknown>;
}

/** Where a building stands, read for the lender's form over its footprint: undefined `read`s when their query failed. */
interface SiteRead {
  coastalBarrier?: CacheRead<FootprintCoastalBarrier>;
  map?: CacheRead<FootprintMapSite>;
}

/** The flood side of an answer: the result and how each of its cached pieces was read. */
interface FloodRead {
  effective: CacheRead<EffectiveMapPiece>;
  optional: OptionalRead[];
  /** Where the building stands, when the form was asked for and there is a footprint; else null. */
  site: SiteRead | null;
  /** The parts asked for, with those the asked ones bring. */
  include: ReadonlySet<IncludeItem>;
}

/**
 * The /flood-zone use case: geocode if needed, then read every part of the answer at the point at once
 * (the effective map, the opt-in parts, the county), each cached on its own, and cite the sources.
 */
@Injectable()
export class LookupService {
  private readonly effectivePolicy: CachePolicy<EffectiveMapPiece>;
  private readonly partPolicy: CachePolicy;
  /** An opt-in part's piece that is incomplete lives no longer than an incomplete answer. */
  private readonly partPolicyOf: (part: BoundPart) => CachePolicy;
  /** FEMA's map around a footprint with a layer unread lives no longer than an incomplete answer. */
  private readonly mapSitePolicy: CachePolicy<FootprintMapSite>;
  private readonly geocodePolicy: CachePolicy;
  private readonly deadlineMs: number;
  /** Whether the start-up wait for the Community Status Book is over: only the lookups before its end wait for the table. */
  private nfipStartUpWaitOver = false;

  constructor(
    private readonly floodHazard: FloodHazardPort,
    private readonly geocoder: Geocoder,
    private readonly cache: PieceCache,
    private readonly nfipStatus: NfipStatusPort,
    private readonly coastalBarrier: CoastalBarrierPort,
    private readonly polygons: PolygonWork,
    config: ConfigService<AppConfig, true>,
    @Inject(BOUND_PARTS) private readonly optionalParts: BoundPart[],
  ) {
    this.partPolicy = {
      ttlSeconds: config.get('CACHE_TTL_SECONDS', { infer: true }),
      staleIfErrorSeconds: config.get('STALE_IF_ERROR_SECONDS', { infer: true }),
    };
    this.effectivePolicy = {
      ...this.partPolicy,
      ttlSecondsOf: (answer) => (answer.unavailable.length > 0 ? INCOMPLETE_ANSWER_MAX_AGE_SECONDS : this.partPolicy.ttlSeconds),
    };
    this.partPolicyOf = ({ incomplete, ttlSecondsVariable }) => {
      const policy = ttlSecondsVariable ? { ...this.partPolicy, ttlSeconds: config.get(ttlSecondsVariable, { infer: true }) } : this.partPolicy;
      return incomplete ? { ...policy, ttlSecondsOf: (data: unknown) => (incomplete(data) ? INCOMPLETE_ANSWER_MAX_AGE_SECONDS : policy.ttlSeconds) } : policy;
    };
    this.mapSitePolicy = {
      ...this.partPolicy,
      ttlSecondsOf: (site) => (Object.values(site).includes('unavailable') ? INCOMPLETE_ANSWER_MAX_AGE_SECONDS : this.partPolicy.ttlSeconds),
    };
    this.geocodePolicy = geocodePolicyOf(config);
    this.deadlineMs = config.get('LOOKUP_DEADLINE_MS', { infer: true });
  }

  /**
   * One lookup, waiting at most LOOKUP_DEADLINE_MS for its answer (a 502 naming the upstream it waited
   * for; a portfolio job's row does not count its calls' wait for their turn), or, for a batch row, until its
   * batch is cancelled.
   */
  async lookup(query: LocationQuery, batchRow?: BatchRowLookup): Promise<LookupAnswer> {
    const deadline = lookupDeadline(this.deadlineMs);
    const outOfTime = deadline.signal;
    const waitEnds = batchRow ? AbortSignal.any([outOfTime, batchRow.cancelled]) : outOfTime;
    // Out of time, the 502 names the upstream of the piece still awaited, as when the lookup's own call runs out.
    const waitFor: WaitFor = (upstream) => ({ signal: waitEnds, gaveUp: () => (outOfTime.aborted ? deadlineExceeded(upstream) : waitEnds.reason) });
    const pieces = batchRow?.pieces ?? this.cache;
    const geocode = batchRow?.geocode ?? ((address, signal) => this.geocoder.geocodeAddress(address, signal));
    const nfipTable = this.nfipTableAtStartUp(waitEnds);
    // Its upstream attempts are started only while it has time enough left for them.
    const answer = await asLookup(deadline, () =>
      query.kind === 'address'
        ? this.lookupAddress(query.address, query, pieces, waitFor, geocode, nfipTable)
        : this.lookupPoint(query, query, pieces, waitFor, nfipTable),
    );
    // Answered, it waited for everything it asked for. (A failed lookup keeps its deadline: a wait it left
    // behind, such as its county's beside a failed flood answer, still ends on time.)
    deadline.end();
    return answer;
  }

  /**
   * The Community Status Book is downloaded in the background from start-up: the lookups that come before the
   * first of them has stopped waiting for that download wait for it, each at most until `signal` (its deadline);
   * every later lookup answers with the table held, never waiting for a download.
   */
  private async nfipTableAtStartUp(signal: AbortSignal): Promise<void> {
    if (this.nfipStartUpWaitOver) return;
    try {
      if (!signal.aborted) await Promise.race([this.nfipStatus.loadInProgress(), once(signal, 'abort')]);
    } finally {
      this.nfipStartUpWaitOver = true;
    }
  }

  private async lookupAddress(
    address: string,
    options: LookupOptions,
    pieces: PieceReader,
    waitFor: WaitFor,
    geocode: AddressGeocode,
    nfipTable: Promise<void>,
  ): Promise<LookupAnswer> {
    const load = (signal: AbortSignal) => geocode(address, signal);
    const geocoded = await addressMatches(pieces, this.geocodePolicy, address, load, waitFor('geocoder'));
    const match = singlePlace(geocoded.piece.value);
    const area = Promise.resolve(partAreaOf(match));
    const [flood] = await Promise.all([this.floodAt(match, match, area, options, pieces, waitFor), nfipTable]);
    return this.answer({ address, lat: null, lon: null }, locationOf(match.matchedAddress, match, match, 'census_geocoder'), flood, [geocoded]);
  }

  private async lookupPoint(point: GeoPoint, options: LookupOptions, pieces: PieceReader, waitFor: WaitFor, nfipTable: Promise<void>): Promise<LookupAnswer> {
    // County, ZCTA and tract are context: their failure leaves them unknown (and the area's record unavailable), never the flood answer.
    const placeRead = placeAt(pieces, this.geocoder, this.geocodePolicy, point, waitFor('geocoder')).catch(() => undefined);
    const [flood, place] = await Promise.all([
      this.floodAt(
        point,
        null,
        placeRead.then((read) => (read ? partAreaOf(read.piece.value) : null)),
        options,
        pieces,
        waitFor,
      ),
      placeRead,
      nfipTable,
    ]);
    const area: PlaceArea = place?.piece.value ?? { county: null, countyFips: null, zip: null, tract: null };
    return this.answer({ address: null, lat: point.lat, lon: point.lon }, locationOf(null, point, area, 'coordinates'), flood, [place ?? { status: 'MISS' }]);
  }

  /**
   * Every part of the flood answer at a point, all asked at once, each its own cached piece (by the
   * point rounded to 6 decimals, about 0.1 m): the effective map, then the parts `include` asks for.
   * `address` is the geocoder's match for an address, null for coordinates.
   */
  private async floodAt(
    point: GeoPoint,
    address: AddressMatch | null,
    area: Promise<PartArea | null>,
    options: LookupOptions,
    pieces: PieceReader,
    waitFor: WaitFor,
  ): Promise<FloodRead> {
    // The footprint must lie near the location, known here for an address too (once geocoded): else a 400, asking nothing.
    if (options.footprint) refuseFootprintFarFrom(options.footprint, point);
    const rounded = roundPoint(point);
    const request: PartRequest = {
      point: rounded,
      radiusM: options.radiusM,
      matchedAddress: address?.matchedAddress ?? null,
      addressBlock: address?.block ?? null,
      footprint: options.footprint ?? null,
      buildId: options.buildId ?? null,
      area: null,
    };
    // A footprint given, or a building chosen, is a building to answer for; the lender's form reads the building and the coastal barrier.
    const include = withImpliedParts(options.footprint || options.buildId ? [...options.include, structurePart.include] : options.include);
    const loadEffective: PieceLoad<EffectiveMapPiece> = (signal, layers) => loadEffectiveMap(this.floodHazard, rounded, signal, layers);
    const asked = this.optionalParts.filter((part) => include.has(part.include));
    const reads = new Map(asked.filter((part) => !part.readsArea).map((part) => [part, this.readOptional(part, request, area, pieces, waitFor)]));
    const buildingRead = [...reads].find(([part]) => part.field === structurePart.field)?.[1];
    const readingArea = asked.filter((part) => part.readsArea);
    if (readingArea.length > 0) {
      // Where the building part is asked, a part that reads the area waits for it: the building's tract, when it names one, is the area's.
      const partArea = buildingRead ? Promise.all([area, buildingRead]).then(([geocoded, { read }]) => areaOfBuilding(geocoded, tractRead(read))) : area;
      for (const part of readingArea) reads.set(part, this.readOptional(part, request, partArea, pieces, waitFor));
    }
    const optionalReads = asked.map((part) => reads.get(part)!);
    // The form is judged where the building is: a footprint given is known at once, a building found once the building part has it.
    const footprint = include.has(determinationPart.include) ? (request.footprint ?? buildingRead!.then(({ read }) => footprintRead(read))) : null;
    const [effective, site, ...optional] = await Promise.all([
      pieces.getOrLoad('flood', pointKey(rounded), this.effectivePolicy, loadEffective, waitFor(EFFECTIVE_MAP_UPSTREAM)),
      Promise.resolve(footprint).then((known) => (known ? this.readSite(known, rounded, pieces, waitFor) : null)),
      ...optionalReads,
    ]);
    return { effective, optional, site, include };
  }

  /**
   * Where the building stands, each map its own cached piece (by the footprint's key): the coastal barrier over it (its
   * failure not kept), and FEMA's communities and letters around it (a layer unread kept 60 s).
   */
  private async readSite(footprint: Footprint, point: GeoPoint, pieces: PieceReader, waitFor: WaitFor): Promise<SiteRead> {
    const key = footprintKey(footprint);
    const lomaEnvelope = lomaEnvelopeOf(footprint, point);
    const loadBarrier = (signal: AbortSignal) => loadCoastalBarrierOver(this.coastalBarrier, this.polygons, footprint, signal);
    const loadMap = (signal: AbortSignal) => loadMapSiteOver(this.floodHazard, this.polygons, footprint, lomaEnvelope, signal);
    const [coastalBarrier, map] = await Promise.all([
      unknownOnFailure(pieces.getOrLoad('flood', `building-site:cbrs:${key}`, this.partPolicy, loadBarrier, waitFor('coastal_barrier'))),
      unknownOnFailure(
        pieces.getOrLoad('flood', `building-site:map:${key}:${lomaEnvelope ? 'lomas' : 'none'}`, this.mapSitePolicy, loadMap, waitFor(EFFECTIVE_MAP_UPSTREAM)),
      ),
    ]);
    return { ...(coastalBarrier ? { coastalBarrier } : {}), ...(map ? { map } : {}) };
  }

  /**
   * An opt-in part; its upstream's failure makes it unavailable, never the lookup (and is not cached). A part that reads
   * the point's area waits for it; without what it needs (no tract named) it is unavailable, asking nothing.
   */
  private async readOptional(
    part: BoundPart,
    asked: PartRequest,
    area: Promise<PartArea | null>,
    pieces: PieceReader,
    waitFor: WaitFor,
  ): Promise<OptionalRead> {
    const request = part.readsArea ? { ...asked, area: await area } : asked;
    if (part.answerable && !part.answerable(request)) return { part };
    const policy = this.partPolicyOf(part);
    const shared: SharedPiece = async (key, loadShared) => (await pieces.getOrLoad('flood', key, policy, loadShared, waitFor(part.upstream))).piece.value;
    const load = (signal: AbortSignal) => part.load(request, signal, shared);
    const read = await unknownOnFailure(pieces.getOrLoad('flood', part.cacheKey(request), policy, load, waitFor(part.upstream)));
    return read ? { part, read } : { part };
  }

  private answer(query: FloodZoneLookup['query'], location: FloodZoneLookup['location'], flood: FloodRead, others: PieceRead[]): LookupAnswer {
    const { determination, lomas, estimatedBaseFloodElevation, unavailable } = flood.effective.piece.value;
    const result: FloodZoneResult = {
      ...determination,
      // Joined here, not in the cached effective-map piece: a table loaded or refreshed later shows at once.
      community: determination.community && this.withNfipStatus(determination.community),
      communitiesAtPoint: determination.communitiesAtPoint && determination.communitiesAtPoint.map((community) => this.withNfipStatus(community)),
      // The flood answer is shared by every query rounding to the same point; the map link is this query's own.
      femaMapUrl: femaMapUrl(location),
      lomas,
      estimatedBaseFloodElevation,
      ...NOT_ASKED,
      unavailable: [],
    };
    const missing: AnswerPart[] = [...unavailable];
    if (result.communitiesAtPoint?.some(({ nfip }) => nfip === null)) missing.push('nfipStatus');
    const point = { lat: location.lat, lon: location.lon };
    const context: PartContext = { determination, estimatedBaseFloodElevation, point, locationSource: location.source, countyFips: location.countyFips };
    for (const { part, read } of flood.optional) {
      if (read) Object.assign(result, { [part.field]: part.read(read.piece.value, context) });
      if (!read || part.incomplete?.(read.piece.value)) missing.push(part.field);
    }
    const retrievedAt = new Date(flood.effective.piece.storedAt).toISOString();
    if (flood.include.has(determinationPart.include)) {
      const building = flood.optional.find(({ part }) => part.field === structurePart.field)?.read?.piece.value as BuildingSurveyed | undefined;
      const lomaPositions = flood.effective.piece.value.lomaPositions;
      const site: BuildingSiteRead | null = flood.site && {
        coastalBarrier: flood.site.coastalBarrier?.piece.value ?? 'unavailable',
        map: flood.site.map?.piece.value ?? 'unavailable',
      };
      const derived = determinationPart.derive(
        determinationFacts({ result, missing, location, building: building ?? null, site, lomaPositions, statusBook: this.nfipStatus, retrievedAt }),
      );
      result.determination = derived.value;
      missing.push(...derived.unavailable);
    }
    result.unavailable = inDocumentedOrder(missing);

    // A failed opt-in part has no piece: it was not cached; it, like a missing NFIP table, caps the answer's life at 60 s.
    const siteReads = flood.site ? [flood.site.coastalBarrier, flood.site.map] : [];
    const reads: PieceRead[] = [
      flood.effective,
      ...flood.optional.flatMap(({ read }) => (read ? [read] : [])),
      ...siteReads.flatMap((read) => (read ? [read] : [])),
      ...others,
    ];
    const partFailed = flood.optional.some(({ read }) => !read) || siteReads.some((read) => !read);
    return {
      body: {
        query,
        location,
        result,
        source: { floodData: FLOOD_DATA_NAME, floodService: this.floodHazard.serviceUrl, geocoder: this.geocoder.description },
        retrievedAt,
        disclaimer: DISCLAIMER,
      },
      ...answerFreshness(reads, { partFailed, incomplete: result.unavailable.length > 0, now: Date.now() }),
    };
  }

  /** The community with its NFIP standing; `nfip` null while no Community Status Book is held. */
  private withNfipStatus(community: Community): CommunityWithNfip {
    // A community without an id cannot be found in the book: as for an id the book lacks, its standing is unknown.
    const nfip = this.nfipStatus.lookup(community.communityId ?? '');
    return { ...community, nfip: nfip ?? null };
  }
}

function locationOf(
  matchedAddress: string | null,
  point: GeoPoint,
  area: PlaceArea,
  source: FloodZoneLookup['location']['source'],
): FloodZoneLookup['location'] {
  return { matchedAddress, lat: point.lat, lon: point.lon, county: area.county, countyFips: area.countyFips, zip: area.zip, source };
}

/** The footprint of the building the building part found; null when it found none or did not answer. */
function footprintRead(read: CacheRead<unknown> | undefined): Footprint | null {
  return (read?.piece.value as BuildingSurveyed | undefined)?.structure.footprint ?? null;
}

/** The tract of the building the building part found; null when it found none, did not answer, or the building names none. */
function tractRead(read: CacheRead<unknown> | undefined): string | null {
  // A building kept before its tract was read has none.
  return (read?.piece.value as BuildingSurveyed | undefined)?.tract ?? null;
}
