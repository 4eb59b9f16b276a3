/**
 * The area's record for a portfolio job, on the real app against the emulators: a job over many tracts of one county
 * asks OpenFEMA for its first tracts one by one, then downloads the whole county once (every page, the server capping
 * them at 50 rows) and answers every other tract from it, each row's record equal to what a single lookup answers
 * (a second app, asking per tract); afterwards a lookup in a tract of that county no row had asks OpenFEMA nothing. A
 * county whose download fails leaves its rows asking per tract, never answered as empty.
 */
import { TRACTS_BEFORE_COUNTY } from '../../../src/parts/history/tract-records.client';
import { demoClaims, demoPolicies } from '../../emulators';
import {
  type County,
  type CountyRows,
  HARRIS,
  KING,
  countyWide,
  filters,
  group,
  historyJob,
  recordCalls,
  rowsIn,
  serveCountyRows,
  singleLookups,
  tractAlone,
  tractCentres,
  tractOf,
} from '../../support/history-counties';
import type { RowLine } from '../../support/portfolio-jobs';
import { DisposableRedis } from '../../support/redis-server';
import { Stack, startStack } from '../../support/stack';

/** The server's pages: a county's claims and policies come in two each, a tract's in one. */
const PAGE_CAP = 50;

/**
 * The county's record: claims in 4 of the job's tracts (one with 3, withheld) and in the 9th, policies in force in 3; the
 * other 4 of the job's tracts have none. 61 claims and 56 records of policies in force (65 policies): two pages each of the county.
 */
function countyRecords(county: County): CountyRows {
  const tracts = tractCentres(county).map((centre) => tractOf(county, centre));
  return {
    claims: [
      ...demoClaims(tracts[0], county.postal, [group(10, 2017, 'AE', 'Hurricane Harvey'), group(4, 2019, 'X', null)]),
      ...demoClaims(tracts[1], county.postal, [group(3, 2016, 'AE', null)]),
      ...demoClaims(tracts[3], county.postal, [group(15, 2001, 'B', 'Tropical Storm Allison'), group(10, 2017, 'AE', 'Hurricane Harvey')]),
      ...demoClaims(tracts[5], county.postal, [group(11, 2015, 'AO', null)]),
      ...demoClaims(tracts[8], county.postal, [group(8, 2017, 'X', null)]),
    ],
    policies: [
      ...demoPolicies(tracts[0], county.postal, 20),
      ...demoPolicies(tracts[3], county.postal, 40, true),
      ...demoPolicies(tracts[5], county.postal, 5),
    ],
  };
}

let redis: DisposableRedis;
let jobs: Stack;
let single: Stack;

beforeAll(async () => {
  redis = await DisposableRedis.start();
  jobs = await startStack({ REDIS_URL: redis.url, JOBS_REDIS_URL: redis.url }, { openfema: { pageCap: PAGE_CAP } });
  single = await startStack({}, { openfema: { pageCap: PAGE_CAP } });
  serveCountyRows([jobs, single], [HARRIS, KING].map(countyRecords));
});
afterAll(async () => {
  await jobs?.close();
  await single?.close();
  await redis?.stop();
});
beforeEach(() => {
  jobs.emulators.clearFaults();
  jobs.emulators.resetCalls();
  single.emulators.resetCalls();
});

describe('a job over 8 tracts of one county', () => {
  const points = rowsIn(HARRIS);
  const tracts = tractCentres(HARRIS).map((centre) => tractOf(HARRIS, centre));
  let rows: RowLine[];
  let jobCalls: Record<string, number>;
  /** The job's calls of each dataset: their $filter and $skip. */
  let jobQueries: Record<'NfipClaims' | 'NfipPolicies', Array<{ $filter: string; $skip: string }>>;

  beforeAll(async () => {
    jobs.emulators.resetCalls();
    rows = await historyJob(jobs, points);
    jobCalls = recordCalls(jobs);
    jobQueries = {
      NfipClaims: jobs.emulators.openfema.callsMatching({ endpoint: 'NfipClaims' }).map(({ query }) => ({ $filter: query.$filter, $skip: query.$skip })),
      NfipPolicies: jobs.emulators.openfema.callsMatching({ endpoint: 'NfipPolicies' }).map(({ query }) => ({ $filter: query.$filter, $skip: query.$skip })),
    };
  });

  it('asks its first tracts alone, then the whole county once, every page of it', () => {
    expect(new Set(points.map((p) => tractOf(HARRIS, p))).size).toBe(8);
    // The tracts before the county alone (one page each of claims and policies), the county's claims and policies in two pages each, its declarations once.
    const before = TRACTS_BEFORE_COUNTY - 1;
    expect(jobCalls).toEqual({ NfipClaims: before + 2, NfipPolicies: before + 2, DisasterDeclarationsSummaries: 1 });
    for (const dataset of ['NfipClaims', 'NfipPolicies'] as const) {
      const alone = jobQueries[dataset].filter(({ $filter }) => !countyWide(HARRIS)($filter));
      expect(alone.length).toBe(before);
      for (const { $filter } of alone) expect(tracts.slice(0, 8).map(tractAlone)).toContain($filter.slice(0, tractAlone(tracts[0]).length));
      expect(jobQueries[dataset].filter(({ $filter }) => countyWide(HARRIS)($filter)).map(({ $skip }) => $skip)).toEqual(['0', '50']);
    }
  });

  it("answers every row's record as a single lookup does, field for field, the tracts without any row in the county's download with none", async () => {
    expect(rows.map(({ status }) => status)).toEqual(points.map(() => 200));
    const expected = await singleLookups(single, points);
    expect(rows.map(({ body }) => body.result.history)).toEqual(expected);
    // Single lookups asked each of the 8 tracts alone, never the county.
    expect(new Set(filters(single, 'NfipClaims'))).toEqual(new Set(tracts.slice(0, 8).map(tractAlone)));
    const counts = rows.map(({ body }) => [body.result.history.area.geoid, body.result.history.claims.count, body.result.history.policies.inForce]);
    expect(new Map(counts.map(([tract, ...shown]) => [tract, shown]))).toEqual(
      new Map([
        [tracts[0], [14, 20]],
        [tracts[1], [null, 0]],
        [tracts[2], [0, 0]],
        [tracts[3], [25, 40]],
        [tracts[4], [0, 0]],
        [tracts[5], [11, null]],
        [tracts[6], [0, 0]],
        [tracts[7], [0, 0]],
      ]),
    );
  });

  it('then answers a lookup in a tract of the county no row had from the county held, asking OpenFEMA nothing', async () => {
    jobs.emulators.resetCalls();
    const [ninth] = tractCentres(HARRIS).slice(8);
    const answer = await jobs.get(`/flood-zone?lat=${ninth.lat}&lon=${ninth.lon}&include=history`);
    expect(answer.body.result.history).toEqual((await singleLookups(single, [ninth]))[0]);
    expect(answer.body.result.history.claims).toMatchObject({ count: null, fewerThan: 10 });
    expect(recordCalls(jobs)).toEqual({ NfipClaims: 0, NfipPolicies: 0, DisasterDeclarationsSummaries: 0 });
  });
});

describe('a job over 8 tracts of a county whose download fails', () => {
  it('asks every tract alone, each row answered as a single lookup, never as empty', async () => {
    const points = rowsIn(KING);
    const tracts = new Set(points.map((p) => tractOf(KING, p)));
    // An error answer (not retried) to each of the county's queries.
    jobs.emulators.openfema.injectFault({
      kind: 'http-status',
      status: 400,
      body: '{"error":[{"code":"OF_OQP_001","message":"Query too large"}]}',
      contentType: 'application/json',
      match: (found) => typeof found.query.$filter === 'string' && countyWide(KING)(found.query.$filter),
    });
    const rows = await historyJob(jobs, points);
    expect(rows.map(({ body }) => body.result.unavailable)).toEqual(points.map(() => []));
    expect(rows.map(({ body }) => body.result.history)).toEqual(await singleLookups(single, points));
    // Every tract alone (the first before the download, the others after it failed), and the county's download once.
    expect(recordCalls(jobs)).toEqual({ NfipClaims: tracts.size + 1, NfipPolicies: tracts.size + 1, DisasterDeclarationsSummaries: 1 });
    expect(new Set(filters(jobs, 'NfipClaims').filter((filter) => !countyWide(KING)(filter)))).toEqual(new Set([...tracts].map(tractAlone)));
    expect(rows.some(({ body }) => (body.result.history.claims.count ?? 1) > 0)).toBe(true);
  });
});
