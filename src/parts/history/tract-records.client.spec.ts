import { ConfigService } from '@nestjs/config';
import type { Cache } from 'cache-manager';
import { memoryTier } from '../../../test/support/memory-cache-tier';
import { PieceCache } from '../../cache/piece-cache';
import { UpstreamOutageError, UpstreamOverCapError, asJobWork } from '../../common/upstream/resilient-upstream';
import { UpstreamCallBudget } from '../../common/upstream/upstream-call-budget';
import type { AppConfig } from '../../config/app-config';
import type { ServiceMetrics } from '../../metrics/service-metrics';
import { CountyRecord, DeclarationRow, TractRecord, tallyClaims, tallyPolicies } from './area-history';
import { AreaRecordPort } from './area-record-port';
import { TRACTS_BEFORE_COUNTY, TractRecords } from './tract-records.client';

const HISTORY_TTL_SECONDS = 7 * 24 * 3600;
const MINUTE_MS = 60_000;
const COUNTY = '48201';
const ASKED_ALONE: TractRecord = { claims: tallyClaims([]), policies: tallyPolicies([], '2026-11-28') };

/** OpenFEMA as the records see it: every tract and county asked, the county answered as `countyAnswer` says. */
class CountedOpenFema extends AreaRecordPort {
  readonly tractsAsked: string[] = [];
  readonly countiesAsked: string[] = [];
  constructor(private readonly countyAnswer: (countyFips: string) => Promise<CountyRecord>) {
    super();
  }
  tractRecord(tract: string): Promise<TractRecord> {
    this.tractsAsked.push(tract);
    return Promise.resolve(ASKED_ALONE);
  }
  countyRecord(countyFips: string): Promise<CountyRecord> {
    this.countiesAsked.push(countyFips);
    return this.countyAnswer(countyFips);
  }
  countyDeclarations(): Promise<DeclarationRow[]> {
    return Promise.resolve([]);
  }
}

/** A budget that never holds a call back. */
class OpenBudget extends UpstreamCallBudget {
  async admit(): Promise<void> {}
}

const metrics = { cacheLookup: () => undefined } as unknown as ServiceMetrics;
/** A replica's records over the cache `shared` all replicas share (with REDIS_URL, as in production). */
const replicaOf = (openfema: AreaRecordPort, shared: Cache) =>
  new TractRecords(
    openfema,
    new PieceCache(shared, metrics),
    new ConfigService<AppConfig, true>({ HISTORY_TTL_SECONDS, REDIS_URL: 'redis://shared-by-the-replicas' }),
  );

/** The county's tracts a portfolio job asks for, one after another. */
async function jobAsks(records: TractRecords, tracts: string[]): Promise<void> {
  for (const tract of tracts) await asJobWork(new OpenBudget(), () => records.tractRecord(tract, AbortSignal.timeout(5_000)));
}
const tracts = (from: number, count: number) => Array.from({ length: count }, (_, i) => `${COUNTY}${String(from + i).padStart(6, '0')}`);

describe('TractRecords: a county that cannot be downloaded', () => {
  let now: number;
  beforeEach(() => {
    now = Date.UTC(2026, 10, 28, 12);
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => jest.restoreAllMocks());

  it('too large for the byte cap even range by range: its tracts asked one by one, the county not asked again for HISTORY_TTL_SECONDS, by this replica or another', async () => {
    const openfema = new CountedOpenFema(() => Promise.reject(new UpstreamOverCapError('openfema', 'NfipClaims: 900 rows would pass the cap')));
    const shared = memoryTier();
    const records = replicaOf(openfema, shared);
    await jobAsks(records, tracts(100, TRACTS_BEFORE_COUNTY));
    expect(openfema.countiesAsked).toEqual([COUNTY]);
    expect(openfema.tractsAsked).toEqual(tracts(100, TRACTS_BEFORE_COUNTY));

    // Long past the minute an outage is remembered for, and on another replica: every tract alone, the county never.
    now += 50 * MINUTE_MS;
    await jobAsks(records, tracts(200, 4));
    await jobAsks(replicaOf(openfema, shared), tracts(300, 4));
    expect(openfema.countiesAsked).toEqual([COUNTY]);
    expect(openfema.tractsAsked).toEqual([...tracts(100, TRACTS_BEFORE_COUNTY), ...tracts(200, 4), ...tracts(300, 4)]);

    // Once HISTORY_TTL_SECONDS have passed (OpenFEMA's records change monthly), the next tract asks for the county again.
    now += HISTORY_TTL_SECONDS * 1000;
    await jobAsks(records, tracts(400, 1));
    expect(openfema.countiesAsked).toEqual([COUNTY, COUNTY]);
  });

  it('in an outage: its tracts asked one by one for a minute, then the county asked again', async () => {
    const openfema = new CountedOpenFema(() => Promise.reject(new UpstreamOutageError('openfema', 'HTTP 503')));
    const records = replicaOf(openfema, memoryTier());
    await jobAsks(records, tracts(100, TRACTS_BEFORE_COUNTY));
    now += MINUTE_MS - 1;
    await jobAsks(records, tracts(200, 1));
    expect(openfema.countiesAsked).toEqual([COUNTY]);
    now += 2;
    await jobAsks(records, tracts(300, 1));
    expect(openfema.countiesAsked).toEqual([COUNTY, COUNTY]);
    expect(openfema.tractsAsked).toEqual([...tracts(100, TRACTS_BEFORE_COUNTY), ...tracts(200, 1), ...tracts(300, 1)]);
  });
});
