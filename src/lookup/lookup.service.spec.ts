import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { PieceCache } from '../cache/piece-cache';
import { ApiError, UpstreamUnavailableError } from '../common/api-error';
import type { UpstreamName } from '../common/upstream/upstream-registry';
import type { GeoPoint } from '../common/geo-point';
import { CoastalBarrierData, CoastalBarrierPort } from '../parts/coastal-barrier/coastal-barrier-port';
import type { AppConfig } from '../config/app-config';
import { GroundElevationPort } from '../parts/ground-elevation/ground-elevation-port';
import { coastalBarrierAt } from '../parts/coastal-barrier/coastal-barrier';
import { BfeLinesWanted, EffectiveMapData, FloodHazardPort } from '../flood-hazard/flood-hazard-port';
import { MapChangeMaps, MapChangePort } from '../parts/map-change/map-change-port';
import type { ElevationReply } from '../parts/ground-elevation/ground-elevation';
import type { ZonePolygonFeature } from '../flood-hazard/flood-hazard.types';
import { AddressMatch, Geocoder, PlaceArea } from '../geocoding/geocoder';
import { ServiceMetrics } from '../metrics/service-metrics';
import type { FloodZoneResult } from './flood-zone-lookup';
import type { LocationQuery } from './location-query';
import { boundPartsProvider } from './bound-parts';
import { TractRecords } from '../parts/history/tract-records.client';
import { PolygonWork } from '../parts/structure/polygon-work.client';
import { BuildingSurvey } from '../parts/structure/building-survey.client';
import { LookupAnswer, LookupService } from './lookup.service';
import type { AnswerPart, IncludeItem } from '../parts/answer-parts';
import type { NfipStatus } from '../parts/nfip-status/nfip-status';
import { NfipStatusPort } from '../parts/nfip-status/nfip-status-port';
import { memoryTier } from '../../test/support/memory-cache-tier';

/**
 * The /flood-zone use case over in-memory ports: which parts an answer has, how it is cached, which address
 * is one place, what a lookup out of time names, and that every part is asked in one round. The HTTP side
 * (headers, the answer cache, the upstream clients) is tested end to end.
 */

/** One call a lookup makes to a port, by what it asks for. */
type PortCall = 'effectiveMap' | 'nearbyZones' | 'comingMaps' | 'coastalBarrier' | 'groundElevation' | 'geocode' | 'place';

/** How a port answers: with its data, failing as its upstream does, or never. */
type Behaviour = 'answer' | 'fail' | 'hang';

/** The effective map's supplementary layers, each of which may fail on its own (null). */
type SupplementaryLayer = 'jurisdictions' | 'lomrs' | 'lomas' | 'bfeLines';

const UPSTREAM_OF: Record<PortCall, UpstreamName> = {
  effectiveMap: 'flood_data',
  nearbyZones: 'flood_data',
  comingMaps: 'flood_data_preliminary',
  coastalBarrier: 'coastal_barrier',
  groundElevation: 'elevation',
  geocode: 'geocoder',
  place: 'geocoder',
};

const DAY_SECONDS = 86_400;
const WEEK_SECONDS = 604_800;
const HOUSTON: GeoPoint = { lat: 29.7604, lon: -95.3698 };
const PLACE: PlaceArea = { county: 'Harris County', countyFips: '48201', zip: '77002', tract: '48201312300' };
/** The place as `location` says it: the tract is the area's record's (result.history.area), not the location's. */
const { tract: _tract, ...PLACE_LOCATED } = PLACE;
const COMMUNITY_ID = '480296';
const NFIP: NfipStatus = {
  listed: true,
  participating: true,
  program: 'regular',
  floodInsuranceAvailable: true,
  crsClass: 5,
  sfhaDiscountPercent: 25,
  nonSfhaDiscountPercent: 10,
  currentEffectiveMapDate: '2007-06-18',
  programEntryDate: '1979-12-18',
  asOf: '2026-11-01',
  note: 'From the book.',
};
const NO_COASTAL_BARRIER: CoastalBarrierData = { prohibitions: [], inBufferZone: false };

/** A match `metres` due north of `from` (a degree of latitude is about 111 km). */
function matchNorthOf(from: GeoPoint, metres: number, matchedAddress: string): AddressMatch {
  return { ...PLACE, matchedAddress, lat: from.lat + metres / 111_195, lon: from.lon };
}

/** Rejects, naming `upstream`, once `signal` aborts: a port held back stops as a real one does when its lookup stops waiting. */
function untilAborted(signal: AbortSignal, upstream: UpstreamName): Promise<never> {
  return new Promise((_resolve, reject) => {
    const abandoned = () => reject(new UpstreamUnavailableError(upstream, 'abandoned'));
    if (signal.aborted) abandoned();
    else signal.addEventListener('abort', abandoned, { once: true });
  });
}

/**
 * Every port of the lookup, in memory: each call is recorded in the order it starts and answers as told.
 * With a round set, each call of the round waits until all of them have started.
 */
class FakeUpstreams {
  readonly started: PortCall[] = [];
  readonly behaviour: Partial<Record<PortCall, Behaviour>> = {};
  readonly failingLayers = new Set<SupplementaryLayer>();
  matches: AddressMatch[] = [matchNorthOf(HOUSTON, 0, '901 BAGBY ST, HOUSTON, TX, 77002')];
  nfipTableHeld = true;
  private round?: { calls: ReadonlySet<PortCall>; allStarted: Promise<void>; open: () => void };

  /** From now on, each of `calls` answers only once every one of them has started. */
  holdRound(calls: PortCall[]): void {
    let open = () => {};
    const allStarted = new Promise<void>((resolve) => (open = resolve));
    this.round = { calls: new Set(calls), allStarted, open };
  }

  count(call: PortCall): number {
    return this.started.filter((started) => started === call).length;
  }

  async call<T>(call: PortCall, signal: AbortSignal, data: () => T): Promise<T> {
    this.started.push(call);
    const upstream = UPSTREAM_OF[call];
    const round = this.round;
    if (round?.calls.has(call)) {
      if ([...round.calls].every((member) => this.started.includes(member))) round.open();
      await Promise.race([round.allStarted, untilAborted(signal, upstream)]);
    }
    switch (this.behaviour[call] ?? 'answer') {
      case 'answer':
        return data();
      case 'fail':
        throw new UpstreamUnavailableError(upstream, 'HTTP 503');
      case 'hang':
        // Not even abandoning it settles it: the lookup must stop waiting on its own.
        return new Promise<never>(() => {});
    }
  }

  /** An AE zone without a printed BFE (so the BFE lines are asked for), its panel, and the layers around it. */
  effectiveMap(bfeLinesWanted: BfeLinesWanted): EffectiveMapData {
    const zones = [{ FLD_ZONE: 'AE', ZONE_SUBTY: null, SFHA_TF: 'T', STATIC_BFE: -9999, DEPTH: -9999, V_DATUM: null, LEN_UNIT: null, DFIRM_ID: '48201C' }];
    const layer = <T>(name: SupplementaryLayer, answer: T): T | null => (this.failingLayers.has(name) ? null : answer);
    return {
      zones,
      panels: [
        { FIRM_PAN: '48201C0690M', PANEL: '0690', SUFFIX: 'M', EFF_DATE: 1_389_225_600_000, PANEL_TYP: 'Countywide, Panel Printed', DFIRM_ID: '48201C' },
      ],
      lomrs: layer('lomrs', []),
      jurisdictions: layer('jurisdictions', [{ POL_NAME1: 'HOUSTON, CITY OF', CID: COMMUNITY_ID }]),
      inAvailability: null,
      lomas: layer('lomas', []),
      bfeLines: bfeLinesWanted(zones) ? layer('bfeLines', []) : undefined,
    };
  }
}

/** The lookup's ports, each answering through the fake upstreams. */
function portsOver(upstreams: FakeUpstreams) {
  const flood: FloodHazardPort = {
    serviceUrl: 'https://nfhl.test/arcgis/rest/services/public/NFHL/MapServer',
    pointData: (_point, signal, bfeLinesWanted) => upstreams.call('effectiveMap', signal, () => upstreams.effectiveMap(bfeLinesWanted)),
    zonePolygonsNear: (_point, _radiusM, signal) => upstreams.call('nearbyZones', signal, (): ZonePolygonFeature[] => []),
    footprintLayers: () => Promise.reject(new Error('no building is asked for here')),
    zonesOver: () => Promise.reject(new Error('no building is asked for here')),
    footprintSurroundings: () => Promise.reject(new Error('no building is asked for here')),
    exportFloodZones: () => Promise.reject(new Error('a lookup draws no map')),
  };
  const comingMaps: MapChangePort = {
    mapsAt: (_point, signal) =>
      upstreams.call('comingMaps', signal, (): MapChangeMaps => ({ pending: { availability: [], zones: [] }, preliminary: { availability: [], zones: [] } })),
  };
  const coastalBarrier: CoastalBarrierPort = {
    coastalBarrierAt: (_point, signal) => upstreams.call('coastalBarrier', signal, () => NO_COASTAL_BARRIER),
    coastalBarrierOver: () => Promise.reject(new Error('no building is asked for here')),
  };
  const elevation: GroundElevationPort = { groundAt: (_point, signal) => upstreams.call('groundElevation', signal, (): ElevationReply => null) };
  const geocoder: Geocoder = {
    description: 'Census test geocoder',
    geocodeAddress: (_address, signal) => upstreams.call('geocode', signal, () => upstreams.matches),
    describePoint: (_point, signal) => upstreams.call('place', signal, () => PLACE),
    blockAt: () => Promise.reject(new Error('no building is asked for here')),
  };
  const nfipStatus: NfipStatusPort = {
    lookup: (communityId) => (upstreams.nfipTableHeld && communityId === COMMUNITY_ID ? NFIP : undefined),
    mapDated: (communityId) => (upstreams.nfipTableHeld && communityId === COMMUNITY_ID ? true : undefined),
    get tableVersion() {
      return 1;
    },
    loadInProgress: () => Promise.resolve(),
    heldSince: () => Promise.resolve(),
  };
  return { flood, comingMaps, coastalBarrier, elevation, geocoder, nfipStatus };
}

type LookupSettings = Pick<AppConfig, 'CACHE_TTL_SECONDS' | 'STALE_IF_ERROR_SECONDS' | 'GEOCODE_CACHE_TTL_SECONDS' | 'LOOKUP_DEADLINE_MS'>;

/** Generous enough that only a lookup meant to wait for a port that never answers runs out of time. */
const SETTINGS: LookupSettings = {
  CACHE_TTL_SECONDS: DAY_SECONDS,
  STALE_IF_ERROR_SECONDS: 0,
  GEOCODE_CACHE_TTL_SECONDS: WEEK_SECONDS,
  LOOKUP_DEADLINE_MS: 5_000,
};

/** The use case as the application wires it, its ports replaced by the fakes, over a real piece cache in memory. */
async function lookupServiceOver(upstreams: FakeUpstreams, settings: Partial<LookupSettings> = {}): Promise<LookupService> {
  const values: LookupSettings = { ...SETTINGS, ...settings };
  const ports = portsOver(upstreams);
  const module = await Test.createTestingModule({
    providers: [
      LookupService,
      boundPartsProvider,
      PieceCache,
      { provide: CACHE_MANAGER, useValue: memoryTier() },
      { provide: ServiceMetrics, useValue: { cacheLookup: () => undefined } },
      { provide: ConfigService, useValue: { get: (key: keyof LookupSettings) => values[key] } },
      { provide: FloodHazardPort, useValue: ports.flood },
      { provide: MapChangePort, useValue: ports.comingMaps },
      { provide: CoastalBarrierPort, useValue: ports.coastalBarrier },
      { provide: GroundElevationPort, useValue: ports.elevation },
      // The building's survey has its own specs (src/parts/structure/); these lookups do not ask for it.
      { provide: BuildingSurvey, useValue: { survey: () => Promise.reject(new Error('no building is asked for here')) } },
      { provide: Geocoder, useValue: ports.geocoder },
      { provide: NfipStatusPort, useValue: ports.nfipStatus },
      // Polygon work has its own specs (src/parts/structure/); these lookups give no footprint to check.
      { provide: PolygonWork, useValue: { run: () => Promise.reject(new Error('no polygon is checked here')) } },
      // The area's record has its own specs (src/parts/history/, test/e2e/parts/history.e2e-spec.ts); these lookups do not ask for it.
      { provide: TractRecords, useValue: { tractRecord: () => Promise.reject(new Error('no record is asked for here')) } },
    ],
  }).compile();
  return module.get(LookupService);
}

const ALL_INCLUDES: IncludeItem[] = ['nearby', 'preliminary', 'cbrs', 'elevation'];
const atPoint = (point: GeoPoint, include: IncludeItem[] = []): LocationQuery => ({ kind: 'point', ...point, include: new Set(include), radiusM: 500 });
const atAddress = (address: string, include: IncludeItem[] = []): LocationQuery => ({ kind: 'address', address, include: new Set(include), radiusM: 500 });

/** The error a lookup failed with. */
async function failureOf(lookup: Promise<LookupAnswer>): Promise<unknown> {
  return lookup.then(
    (answer) => {
      throw new Error(`expected a failure, got ${JSON.stringify(answer.body.result.unavailable)}`);
    },
    (error: unknown) => error,
  );
}

/** Every part of the answer at HOUSTON, none failing: what a failing part is compared against. */
async function completeResult(): Promise<FloodZoneResult> {
  const { body } = await (await lookupServiceOver(new FakeUpstreams())).lookup(atPoint(HOUSTON, ALL_INCLUDES));
  expect(body.result.unavailable).toEqual([]);
  return body.result;
}

let clock: number;
beforeEach(() => {
  // The piece cache and the answer's max-age read Date.now: held still, moved on only where a test says so.
  clock = Date.UTC(2026, 10, 27, 12);
  jest.spyOn(Date, 'now').mockImplementation(() => clock);
});
afterEach(() => jest.restoreAllMocks());

describe('LookupService: the parts of an answer', () => {
  it('a complete answer: every part asked for present, nothing unavailable, sources cited', async () => {
    const upstreams = new FakeUpstreams();
    const { body } = await (await lookupServiceOver(upstreams)).lookup(atPoint(HOUSTON, ALL_INCLUDES));
    expect(body.result.unavailable).toEqual([]);
    expect(body.result.floodZone).toBe('AE');
    expect(body.result.community).toEqual({ name: 'HOUSTON, CITY OF', communityId: COMMUNITY_ID, nfip: NFIP });
    expect(body.result.lomas).toEqual([]);
    expect(body.result.coastalBarrier).toEqual(coastalBarrierAt([], false));
    expect(body.location).toEqual({ matchedAddress: null, ...HOUSTON, ...PLACE_LOCATED, source: 'coordinates' });
    expect(body.source).toEqual({
      floodData: 'FEMA National Flood Hazard Layer (NFHL)',
      floodService: 'https://nfhl.test/arcgis/rest/services/public/NFHL/MapServer',
      geocoder: 'Census test geocoder',
    });
    expect(body.retrievedAt).toBe(new Date(clock).toISOString());
  });

  it.each<[SupplementaryLayer, AnswerPart]>([
    ['jurisdictions', 'community'],
    ['lomrs', 'lomrs'],
    ['lomas', 'lomas'],
    ['bfeLines', 'estimatedBaseFloodElevation'],
  ])('the %s layer failing alone: %s null and named, the rest intact', async (layer, field) => {
    const upstreams = new FakeUpstreams();
    upstreams.failingLayers.add(layer);
    const { body } = await (await lookupServiceOver(upstreams)).lookup(atPoint(HOUSTON, ALL_INCLUDES));
    // The communities at the point are the same layer's: unknown with it.
    const alsoNull = field === 'community' ? { communitiesAtPoint: null } : {};
    expect(body.result).toEqual({ ...(await completeResult()), [field]: null, ...alsoNull, unavailable: [field] });
  });

  it('no Community Status Book held: community.nfip null and nfipStatus named, the community itself kept', async () => {
    const upstreams = new FakeUpstreams();
    upstreams.nfipTableHeld = false;
    const { body } = await (await lookupServiceOver(upstreams)).lookup(atPoint(HOUSTON));
    expect(body.result.unavailable).toEqual(['nfipStatus']);
    expect(body.result.community).toEqual({ name: 'HOUSTON, CITY OF', communityId: COMMUNITY_ID, nfip: null });
    expect(body.result.communitiesAtPoint).toEqual([{ name: 'HOUSTON, CITY OF', communityId: COMMUNITY_ID, nfip: null }]);
  });

  it.each<[PortCall, AnswerPart]>([
    ['nearbyZones', 'nearby'],
    ['comingMaps', 'mapChange'],
    ['coastalBarrier', 'coastalBarrier'],
    ['groundElevation', 'groundElevation'],
  ])('the %s port failing alone: %s null and named, the rest intact', async (call, field) => {
    const upstreams = new FakeUpstreams();
    upstreams.behaviour[call] = 'fail';
    const { body } = await (await lookupServiceOver(upstreams)).lookup(atPoint(HOUSTON, ALL_INCLUDES));
    expect(body.result).toEqual({ ...(await completeResult()), [field]: null, unavailable: [field] });
  });

  it("several missing at once are named in the order of the answer's fields", async () => {
    const upstreams = new FakeUpstreams();
    upstreams.behaviour.coastalBarrier = 'fail';
    upstreams.failingLayers.add('lomas').add('jurisdictions');
    const { body } = await (await lookupServiceOver(upstreams)).lookup(atPoint(HOUSTON, ALL_INCLUDES));
    expect(body.result.unavailable).toEqual(['community', 'lomas', 'coastalBarrier']);
  });

  it('a part not asked for is null and not named, and its port is never asked', async () => {
    const upstreams = new FakeUpstreams();
    upstreams.behaviour.coastalBarrier = 'fail';
    upstreams.behaviour.comingMaps = 'fail';
    const { body } = await (await lookupServiceOver(upstreams)).lookup(atPoint(HOUSTON, ['nearby']));
    expect(body.result.unavailable).toEqual([]);
    expect([body.result.mapChange, body.result.coastalBarrier, body.result.groundElevation]).toEqual([null, null, null]);
    expect([upstreams.count('comingMaps'), upstreams.count('coastalBarrier'), upstreams.count('groundElevation')]).toEqual([0, 0, 0]);
  });

  it("the county failing leaves the location's county, FIPS and ZIP unknown, never the flood answer", async () => {
    const upstreams = new FakeUpstreams();
    upstreams.behaviour.place = 'fail';
    const { body } = await (await lookupServiceOver(upstreams)).lookup(atPoint(HOUSTON));
    expect(body.location).toEqual({ matchedAddress: null, ...HOUSTON, county: null, countyFips: null, zip: null, source: 'coordinates' });
    expect(body.result.unavailable).toEqual([]);
  });

  it('the essential effective map failing fails the lookup, naming flood_data', async () => {
    const upstreams = new FakeUpstreams();
    upstreams.behaviour.effectiveMap = 'fail';
    const error = await failureOf((await lookupServiceOver(upstreams)).lookup(atPoint(HOUSTON, ALL_INCLUDES)));
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ upstream: 'flood_data', reason: 'HTTP 503' });
  });
});

describe('LookupService: cache status and max-age', () => {
  it('a first lookup is a MISS fresh for CACHE_TTL_SECONDS; the same point later is a HIT for the seconds left, its upstreams not asked again', async () => {
    const upstreams = new FakeUpstreams();
    const service = await lookupServiceOver(upstreams);
    const first = await service.lookup(atPoint(HOUSTON, ALL_INCLUDES));
    expect([first.cacheStatus, first.maxAgeSeconds]).toEqual(['MISS', DAY_SECONDS]);

    clock += 1_000_500;
    const later = await service.lookup(atPoint(HOUSTON, ALL_INCLUDES));
    expect([later.cacheStatus, later.maxAgeSeconds]).toEqual(['HIT', DAY_SECONDS - 1_001]);
    expect(later.body.retrievedAt).toBe(first.body.retrievedAt);
    expect(upstreams.started.length).toBe(6);
  });

  it('queries rounding to the same point (6 decimals) share the cached parts', async () => {
    const upstreams = new FakeUpstreams();
    const service = await lookupServiceOver(upstreams);
    await service.lookup(atPoint(HOUSTON));
    const close = await service.lookup(atPoint({ lat: HOUSTON.lat + 0.0000004, lon: HOUSTON.lon }));
    expect(close.cacheStatus).toBe('HIT');
    expect(upstreams.count('effectiveMap')).toBe(1);
  });

  it('the oldest part sets the max-age: an opt-in part cached later keeps the answer to what the effective map has left', async () => {
    const upstreams = new FakeUpstreams();
    const service = await lookupServiceOver(upstreams);
    await service.lookup(atPoint(HOUSTON));
    clock += 3_600_000;
    const withNearby = await service.lookup(atPoint(HOUSTON, ['nearby']));
    expect([withNearby.cacheStatus, withNearby.maxAgeSeconds]).toEqual(['MISS', DAY_SECONDS - 3_600]);
    expect([upstreams.count('effectiveMap'), upstreams.count('nearbyZones')]).toEqual([1, 1]);
  });

  it('an answer missing an effective-map part is fresh for at most 60 s, then asked again', async () => {
    const upstreams = new FakeUpstreams();
    upstreams.failingLayers.add('lomrs');
    const service = await lookupServiceOver(upstreams);
    const first = await service.lookup(atPoint(HOUSTON));
    expect([first.cacheStatus, first.maxAgeSeconds]).toEqual(['MISS', 60]);

    clock += 20_000;
    const cached = await service.lookup(atPoint(HOUSTON));
    expect([cached.cacheStatus, cached.maxAgeSeconds]).toEqual(['HIT', 40]);

    upstreams.failingLayers.clear();
    clock += 41_000;
    const later = await service.lookup(atPoint(HOUSTON));
    expect([later.cacheStatus, later.maxAgeSeconds, later.body.result.unavailable]).toEqual(['MISS', DAY_SECONDS, []]);
    expect(upstreams.count('effectiveMap')).toBe(2);
  });

  it('an answer missing an opt-in part is capped at 60 s and a MISS, though the effective map keeps its day; only the failed part is asked again', async () => {
    const upstreams = new FakeUpstreams();
    const service = await lookupServiceOver(upstreams);
    await service.lookup(atPoint(HOUSTON));
    upstreams.behaviour.coastalBarrier = 'fail';
    const failed = await service.lookup(atPoint(HOUSTON, ['cbrs']));
    expect([failed.cacheStatus, failed.maxAgeSeconds, failed.body.result.unavailable]).toEqual(['MISS', 60, ['coastalBarrier']]);

    clock += 10_000;
    const again = await service.lookup(atPoint(HOUSTON, ['cbrs']));
    expect([again.cacheStatus, again.maxAgeSeconds]).toEqual(['MISS', 60]);
    expect([upstreams.count('effectiveMap'), upstreams.count('coastalBarrier')]).toEqual([1, 2]);
  });

  it('no Community Status Book held caps a fresh answer at 60 s', async () => {
    const upstreams = new FakeUpstreams();
    upstreams.nfipTableHeld = false;
    const service = await lookupServiceOver(upstreams);
    await service.lookup(atPoint(HOUSTON));
    const cached = await service.lookup(atPoint(HOUSTON));
    expect([cached.cacheStatus, cached.maxAgeSeconds]).toEqual(['HIT', 60]);
  });

  it('the county failing leaves nothing to cache the answer by: max-age 0', async () => {
    const upstreams = new FakeUpstreams();
    upstreams.behaviour.place = 'fail';
    const answer = await (await lookupServiceOver(upstreams)).lookup(atPoint(HOUSTON));
    expect([answer.cacheStatus, answer.maxAgeSeconds]).toEqual(['MISS', 0]);
  });

  it('an expired answer whose upstream fails within STALE_IF_ERROR_SECONDS is served STALE with max-age 0 and its first retrievedAt', async () => {
    const upstreams = new FakeUpstreams();
    const service = await lookupServiceOver(upstreams, { STALE_IF_ERROR_SECONDS: 3_600 });
    const first = await service.lookup(atPoint(HOUSTON));
    clock += (DAY_SECONDS + 60) * 1000;
    upstreams.behaviour.effectiveMap = 'fail';
    const stale = await service.lookup(atPoint(HOUSTON));
    expect([stale.cacheStatus, stale.maxAgeSeconds]).toEqual(['STALE', 0]);
    expect(stale.body.retrievedAt).toBe(first.body.retrievedAt);
  });

  it('without STALE_IF_ERROR_SECONDS an expired answer whose upstream fails is a failure', async () => {
    const upstreams = new FakeUpstreams();
    const service = await lookupServiceOver(upstreams);
    await service.lookup(atPoint(HOUSTON));
    clock += (DAY_SECONDS + 60) * 1000;
    upstreams.behaviour.effectiveMap = 'fail';
    expect(await failureOf(service.lookup(atPoint(HOUSTON)))).toMatchObject({ upstream: 'flood_data' });
  });

  it("an address's answer lasts no longer than its geocode", async () => {
    const upstreams = new FakeUpstreams();
    const service = await lookupServiceOver(upstreams, { GEOCODE_CACHE_TTL_SECONDS: 600 });
    const first = await service.lookup(atAddress('901 Bagby St, Houston TX'));
    expect([first.cacheStatus, first.maxAgeSeconds]).toEqual(['MISS', 600]);
    const spelledOtherwise = await service.lookup(atAddress('  901 BAGBY  st, houston tx'));
    expect([spelledOtherwise.cacheStatus, spelledOtherwise.body.query.address]).toEqual(['HIT', '  901 BAGBY  st, houston tx']);
    expect(upstreams.count('geocode')).toBe(1);
  });
});

describe('LookupService: which place an address is', () => {
  const lookupOf = async (matches: AddressMatch[]) => {
    const upstreams = new FakeUpstreams();
    upstreams.matches = matches;
    const service = await lookupServiceOver(upstreams);
    return { upstreams, lookup: service.lookup(atAddress('100 Main St')) };
  };

  it('one match: located there, by the geocoder', async () => {
    const match = matchNorthOf(HOUSTON, 0, '100 MAIN ST, HOUSTON, TX, 77002');
    const { lookup } = await lookupOf([match]);
    const { tract: _matchTract, ...located } = match;
    expect((await lookup).body.location).toEqual({ ...located, source: 'census_geocoder' });
  });

  it('near-duplicates (all within 100 m of each other) are one place: the first match', async () => {
    const first = matchNorthOf(HOUSTON, 0, '100 MAIN ST, HOUSTON, TX, 77002');
    const { lookup } = await lookupOf([first, matchNorthOf(HOUSTON, 95, '100 MAIN ST, HOUSTON, TX, 77002'), matchNorthOf(HOUSTON, 40, '100 N MAIN ST')]);
    const { body } = await lookup;
    const { tract: _firstTract, ...located } = first;
    expect(body.location).toEqual({ ...located, source: 'census_geocoder' });
    expect(body.query).toEqual({ address: '100 Main St', lat: null, lon: null });
  });

  it.each([
    ['two matches 150 m apart', [0, 150]],
    ['three matches each within 100 m of the first but 160 m from each other', [0, 80, -80]],
  ])('%s → 404 AMBIGUOUS_ADDRESS with every match as a candidate, the flood map not asked', async (_what, offsets) => {
    const matches = offsets.map((metres, i) => matchNorthOf(HOUSTON, metres, `${i + 1} MAIN ST`));
    const { upstreams, lookup } = await lookupOf(matches);
    const error = await failureOf(lookup);
    expect(error).toBeInstanceOf(ApiError);
    const { code, details } = error as ApiError;
    expect([(error as ApiError).getStatus(), code]).toEqual([404, 'AMBIGUOUS_ADDRESS']);
    expect(details).toEqual({ candidates: matches.map(({ matchedAddress, lat, lon }) => ({ matchedAddress, lat, lon })) });
    expect(upstreams.count('effectiveMap')).toBe(0);
  });

  it('no match → 404 ADDRESS_NOT_FOUND, the flood map not asked', async () => {
    const { upstreams, lookup } = await lookupOf([]);
    const error = await failureOf(lookup);
    expect(error).toBeInstanceOf(ApiError);
    expect([(error as ApiError).getStatus(), (error as ApiError).code, (error as ApiError).details]).toEqual([404, 'ADDRESS_NOT_FOUND', {}]);
    expect(upstreams.count('effectiveMap')).toBe(0);
  });
});

describe('LookupService: LOOKUP_DEADLINE_MS', () => {
  /** Short, so that a port that never answers ends the test soon; nothing here measures it. */
  const SHORT_DEADLINE = { LOOKUP_DEADLINE_MS: 50 };

  it.each<{ what: string; call: PortCall; query: LocationQuery; upstream: UpstreamName }>([
    { what: 'the effective map', call: 'effectiveMap', query: atPoint(HOUSTON, ALL_INCLUDES), upstream: 'flood_data' },
    { what: "an address's geocode", call: 'geocode', query: atAddress('901 Bagby St'), upstream: 'geocoder' },
  ])('$what never answering → a failure naming $upstream, the upstream awaited', async ({ call, query, upstream }) => {
    const upstreams = new FakeUpstreams();
    upstreams.behaviour[call] = 'hang';
    const error = await failureOf((await lookupServiceOver(upstreams, SHORT_DEADLINE)).lookup(query));
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ upstream, reason: 'no answer within the lookup deadline' });
  });

  it.each<[PortCall, string]>([
    ['coastalBarrier', 'coastalBarrier'],
    ['groundElevation', 'groundElevation'],
  ])('the %s port never answering leaves only %s unavailable at the deadline', async (call, field) => {
    const upstreams = new FakeUpstreams();
    upstreams.behaviour[call] = 'hang';
    const answer = await (await lookupServiceOver(upstreams, SHORT_DEADLINE)).lookup(atPoint(HOUSTON, ALL_INCLUDES));
    expect([answer.body.result.unavailable, answer.maxAgeSeconds]).toEqual([[field], 60]);
  });

  it('the county never answering leaves it unknown at the deadline', async () => {
    const upstreams = new FakeUpstreams();
    upstreams.behaviour.place = 'hang';
    const { body } = await (await lookupServiceOver(upstreams, SHORT_DEADLINE)).lookup(atPoint(HOUSTON));
    expect([body.location.county, body.result.unavailable]).toEqual([null, []]);
  });
});

describe('LookupService: one parallel round', () => {
  const FIRST_ROUND: PortCall[] = ['effectiveMap', 'nearbyZones', 'comingMaps', 'coastalBarrier', 'groundElevation'];

  it('a lat/lon lookup asks the effective map, every opt-in part and the county at once: none answers before all have been asked', async () => {
    const upstreams = new FakeUpstreams();
    upstreams.holdRound([...FIRST_ROUND, 'place']);
    const { body } = await (await lookupServiceOver(upstreams)).lookup(atPoint(HOUSTON, ALL_INCLUDES));
    expect(body.result.unavailable).toEqual([]);
    expect(body.location.county).toBe(PLACE.county);
    expect([...upstreams.started].sort()).toEqual([...FIRST_ROUND, 'place'].sort());
  });

  it('an address lookup geocodes first, then asks every part of the answer at once', async () => {
    const upstreams = new FakeUpstreams();
    upstreams.holdRound(FIRST_ROUND);
    const { body } = await (await lookupServiceOver(upstreams)).lookup(atAddress('901 Bagby St', ALL_INCLUDES));
    expect(body.result.unavailable).toEqual([]);
    expect(upstreams.started[0]).toBe('geocode');
    expect(upstreams.started.slice(1).sort()).toEqual([...FIRST_ROUND].sort());
  });
});
