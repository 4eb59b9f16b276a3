/**
 * Shared helpers of the end-to-end suites: the real app on loopback in front of the upstream
 * emulators, and assertions that every suite makes the same way (error envelope, lookup body shape).
 */
import { startEmulators, type RunningEmulators, type StartEmulatorsOptions, type DemoPlace } from '../emulators';
import { DEMO_COMMUNITY_STATUSES } from '../emulators/community-status-book';
import { startApp, type RunningApp } from './app-harness';
import { apiGet, type ApiResponse } from './api-client';

export interface Stack {
  emulators: RunningEmulators;
  app: RunningApp;
  url: string;
  /** GET through the schema-checking client. */
  get(pathAndQuery: string, headers?: Record<string, string>): Promise<ApiResponse>;
  close(): Promise<void>;
}

/** Caches off: every lookup reaches the upstreams, so call counts and faults are visible. */
export const NO_CACHE = { CACHE_TTL_SECONDS: '0', GEOCODE_CACHE_TTL_SECONDS: '0', HISTORY_TTL_SECONDS: '0' } as const;

/** Fast failure settings for the fault suites (short timeout and deadline, one retry, the breaker kept closed). */
export const FAST_FAULTS = {
  ...NO_CACHE,
  UPSTREAM_TIMEOUT_MS: '300',
  LOOKUP_DEADLINE_MS: '1500',
  UPSTREAM_RETRIES: '1',
  CIRCUIT_BREAKER_MIN_CALLS: '100000',
} as const;

export async function startStack(env: Record<string, string | undefined> = {}, emulatorOptions: StartEmulatorsOptions = {}): Promise<Stack> {
  const emulators = await startEmulators({ latencyMs: 0, ...emulatorOptions });
  let app: RunningApp;
  try {
    app = await startApp({ ...emulators.env, ...env });
  } catch (error) {
    await emulators.close();
    throw error;
  }
  return {
    emulators,
    app,
    url: app.url,
    get: (pathAndQuery, headers) => apiGet(app.url, pathAndQuery, headers),
    close: async () => {
      await app.close();
      await emulators.close();
    },
  };
}

export const ISO_UTC_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Every field of `result`, always present whatever the coverage (null or [] where it does not apply). */
export const RESULT_KEYS = [
  'coverage',
  'isMapped',
  'floodZone',
  'zoneSubtype',
  'isFloodway',
  'inSpecialFloodHazardArea',
  'riskLevel',
  'staticBaseFloodElevationFt',
  'verticalDatum',
  'depthFt',
  'meaning',
  'guidance',
  'firmPanel',
  'community',
  'communitiesAtPoint',
  'lomrs',
  'zonesAtPoint',
  'femaMapUrl',
  // the supplementary and opt-in parts, and which of them failed
  'lomas',
  'estimatedBaseFloodElevation',
  'nearby',
  'mapChange',
  'coastalBarrier',
  'groundElevation',
  'structure',
  'history',
  'determination',
  'unavailable',
].sort();

export const TOP_LEVEL_KEYS = ['query', 'location', 'result', 'source', 'retrievedAt', 'disclaimer'].sort();
export const LOCATION_KEYS = ['matchedAddress', 'lat', 'lon', 'county', 'countyFips', 'zip', 'source'].sort();
export const SOURCE_KEYS = ['floodData', 'floodService', 'geocoder'].sort();

export const FLOOD_DATA_NAME = 'FEMA National Flood Hazard Layer (NFHL)';
export const DEFAULT_GEOCODER_NAME = 'U.S. Census Bureau Geocoder (Public_AR_Current)';

export const pointQuery = (p: { lat: number; lon: number }) => `/flood-zone?lat=${p.lat}&lon=${p.lon}`;
export const addressQuery = (address: string) => `/flood-zone?address=${encodeURIComponent(address)}`;

/** The FEMA Map Service Center link of an answer: `AddressQuery=<lat>%2C<lon>`. */
export const femaMapUrlOf = (p: { lat: number; lon: number }) => `https://msc.fema.gov/portal/search?AddressQuery=${p.lat}%2C${p.lon}`;

/**
 * The opt-in parts a demo place pins down (`include` items). The building and the lender's form turn on the demo
 * buildings instead (test/emulators/structure-footprints.ts), so `expectedResult` has them null.
 */
export type IncludeItem = 'nearby' | 'preliminary' | 'cbrs' | 'elevation';

/**
 * The `result` object a lookup of a demo place must give (its `expect`, less the Census parts), for a lookup
 * with these `include` items and the default radius: a part not asked for is null.
 */
export function expectedResult(place: DemoPlace, include: readonly IncludeItem[] = []): Record<string, unknown> {
  const {
    county: _county,
    countyFips: _countyFips,
    zcta: _zcta,
    nearby,
    nearbyAtOtherRadii: _otherRadii,
    mapChange,
    coastalBarrier,
    estimatedBaseFloodElevation,
    groundElevation,
    ...flood
  } = place.expect;
  void _county;
  void _countyFips;
  void _zcta;
  void _otherRadii;
  if (include.includes('nearby') && nearby === undefined) throw new Error(`demo place ${place.id} does not pin down result.nearby`);
  // Notes are sentences in the service's own words; the demo map leaves them out.
  const withNote = <T extends object>(part: T | null) => (part === null ? null : { ...part, note: expect.any(String) });
  return {
    ...flood,
    community: flood.community === null ? null : { ...flood.community, nfip: expectedNfip(flood.community.communityId) },
    communitiesAtPoint: flood.communitiesAtPoint.map((community) => ({ ...community, nfip: expectedNfip(community.communityId) })),
    isMapped: place.expect.coverage !== 'unmapped',
    femaMapUrl: femaMapUrlOf(place),
    meaning: expect.any(String),
    guidance: place.expect.coverage === 'mapped' ? null : expect.any(String),
    estimatedBaseFloodElevation: withNote(estimatedBaseFloodElevation),
    nearby: include.includes('nearby') ? withNote(nearby!) : null,
    mapChange: include.includes('preliminary') ? withNote(mapChange) : null,
    coastalBarrier: include.includes('cbrs') ? withNote(coastalBarrier) : null,
    groundElevation: include.includes('elevation') ? withNote(groundElevation) : null,
    structure: null,
    history: null,
    determination: null,
    unavailable: [],
  };
}

/** Said of a community the demo Community Status Book lacks. */
export const NOT_LISTED_NOTE = "This community is not in FEMA's Community Status Book; whether federal flood insurance is available here is unknown.";

/**
 * `result.community.nfip` of a demo community, read from the demo table's stated expectations (not by the service's
 * rule): insurance is available exactly where the community participates, every row is as of the table's refresh
 * date, and the note names the CRS class and its discounts.
 */
export function expectedNfip(communityId: string | null): Record<string, unknown> {
  const status = DEMO_COMMUNITY_STATUSES.find((c) => c.communityId === communityId);
  if (status === undefined) {
    return {
      listed: false,
      participating: null,
      program: null,
      floodInsuranceAvailable: null,
      crsClass: null,
      sfhaDiscountPercent: null,
      nonSfhaDiscountPercent: null,
      currentEffectiveMapDate: null,
      programEntryDate: null,
      asOf: null,
      note: NOT_LISTED_NOTE,
    };
  }
  const { crsClass, sfhaDiscountPercent, nonSfhaDiscountPercent, participating } = status.expect;
  const note =
    participating === false
      ? expect.stringMatching(/not available/)
      : crsClass === null
        ? expect.stringMatching(/^Federal flood insurance \(NFIP\) is available.*not in the Community Rating System/)
        : expect.stringMatching(
            new RegExp(`^Federal flood insurance \\(NFIP\\) is available.*class ${crsClass} .*${sfhaDiscountPercent}%.*${nonSfhaDiscountPercent}%`),
          );
  return { ...status.expect, floodInsuranceAvailable: participating, asOf: '2026-11-22', note };
}

/** The meaning is in the service's own words, but names the risk: coastal, 1%, 0.2%, minimal, undetermined or unknown. */
export const MEANING_BY_RISK: Record<string, RegExp> = {
  very_high: /coastal/i,
  high: /1%/,
  moderate: /0\.2%/,
  minimal: /minimal/i,
  undetermined: /undetermined/i,
  unknown: /unknown/i,
};

/** One envelope for every error, never cached. */
export function expectErrorEnvelope(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String), statusCode: status, code, requestId: expect.any(String) }));
  expect(res.body.error.trim().length).toBeGreaterThan(0);
  expect(res.body.requestId.length).toBeGreaterThan(0);
  expect(res.body.requestId).toBe(res.headers.get('x-request-id'));
  expect(res.headers.get('cache-control')).toBe('no-store');
  // never internals: no stack trace, source path or module
  expect(res.text).not.toMatch(/\n\s+at |\.ts:\d+|node_modules/);
}

/** Point queries the NFHL emulator received, all layers together. */
export function nfhlQueries(emulators: RunningEmulators): number {
  return emulators.nfhl.callCount({ endpoint: 'query' });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
