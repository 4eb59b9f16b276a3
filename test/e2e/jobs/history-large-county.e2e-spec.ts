/**
 * The area's record for a portfolio job where a county's download passes OpenFEMA's byte cap, on the real app against
 * the emulators: the `openfema` cap here is 24 KiB (about 110 claims as a county is asked), standing for the real
 * 16 MiB that the 100,000 and more claims of a county such as Harris pass. The county is asked range by range of its
 * tracts' codes, each range within a cap of its own, and every row's record is what a single lookup answers (a second
 * app, with the real cap, asking per tract). A county too large even at its narrowest ranges (3 digits of the tract
 * code) leaves its rows asking per tract, never answered as empty, and a later job does not ask for it again.
 */
import { UPSTREAM_BY_NAME } from '../../../src/common/upstream/upstream-registry';
import { TRACTS_BEFORE_COUNTY } from '../../../src/parts/history/tract-records.client';
import { demoClaims, demoPolicies } from '../../emulators';
import {
  type County,
  type CountyRows,
  HARRIS,
  KING,
  blockGroupsAsked,
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

/** The server's pages, of about 11 kB of claims as a county is asked. */
const PAGE_CAP = 50;
const CAP_BYTES = 24 * 1024;

const tractsOf = (county: County) => tractCentres(county).map((centre) => tractOf(county, centre));

/**
 * Harris County's record: 150 claims, two ranges' worth. The job's tracts' codes all begin with 2, the first two
 * columns of them (and the 9th) with 22 and 23, 75 claims in each; 2 of the 8 tracts have none, one has 5 (withheld).
 */
function harrisRecords(): CountyRows {
  const tracts = tractsOf(HARRIS);
  const claims = (tract: number, ...groups: Parameters<typeof demoClaims>[2]) => demoClaims(tracts[tract]!, HARRIS.postal, groups);
  return {
    claims: [
      ...claims(0, group(20, 2017, 'AE', 'Hurricane Harvey'), group(10, 2001, 'B', 'Tropical Storm Allison')),
      ...claims(1, group(25, 2016, 'AE', null)),
      ...claims(5, group(20, 2019, 'X', null)),
      ...claims(2, group(30, 2017, 'AE', 'Hurricane Harvey')),
      ...claims(3, group(5, 2015, 'AO', null)),
      ...claims(7, group(25, 2017, 'X', 'Hurricane Harvey')),
      ...claims(8, group(15, 2017, 'AE', null)),
    ],
    policies: [...demoPolicies(tracts[0]!, HARRIS.postal, 20), ...demoPolicies(tracts[5]!, HARRIS.postal, 5), ...demoPolicies(tracts[7]!, HARRIS.postal, 12)],
  };
}

/**
 * King County's record: the 1st and 5th of the job's tracts, whose codes share their first 3 digits, 70 claims each
 * (each fits the cap alone, together they do not), two others a few.
 */
function kingRecords(): CountyRows {
  const tracts = tractsOf(KING);
  const claims = (tract: number, ...groups: Parameters<typeof demoClaims>[2]) => demoClaims(tracts[tract]!, KING.postal, groups);
  return {
    claims: [
      ...claims(0, group(40, 2009, 'AE', null), group(30, 1996, 'A', null)),
      ...claims(4, group(70, 2009, 'AE', null)),
      ...claims(1, group(12, 2020, 'X', null)),
      ...claims(3, group(4, 2009, 'AE', null)),
    ],
    policies: [...demoPolicies(tracts[0]!, KING.postal, 10), ...demoPolicies(tracts[1]!, KING.postal, 3)],
  };
}

let redis: DisposableRedis;
let jobs: Stack;
let single: Stack;

beforeAll(async () => {
  redis = await DisposableRedis.start();
  const cap = jest.replaceProperty(UPSTREAM_BY_NAME.openfema, 'bodyCapBytes', CAP_BYTES);
  try {
    jobs = await startStack({ REDIS_URL: redis.url, JOBS_REDIS_URL: redis.url }, { openfema: { pageCap: PAGE_CAP } });
  } finally {
    cap.restore();
  }
  single = await startStack({}, { openfema: { pageCap: PAGE_CAP } });
  serveCountyRows([jobs, single], [harrisRecords(), kingRecords()]);
});
afterAll(async () => {
  await jobs?.close();
  await single?.close();
  await redis?.stop();
});
beforeEach(() => {
  jobs.emulators.resetCalls();
  single.emulators.resetCalls();
});

/** The job's county-wide queries of the dataset, in order: the digits of the tract code each is narrowed to ('' for the whole county), and its $skip. */
const rangesAsked = (county: County, endpoint: string) =>
  jobs.emulators.openfema
    .callsMatching({ endpoint })
    .filter(({ query }) => countyWide(county)(query.$filter!))
    .map(({ query }) => `${blockGroupsAsked(query.$filter!)!.slice(5)}@${query.$skip}`);
/** The tracts the job asked alone. */
const tractsAlone = (county: County, endpoint: string) => new Set(filters(jobs, endpoint).filter((filter) => !countyWide(county)(filter)));
const all = (...ranges: string[]) => ranges.map((range) => `${range}@0`);

describe('a job over 8 tracts of a county whose download would pass the byte cap', () => {
  const points = rowsIn(HARRIS);
  const tracts = tractsOf(HARRIS);
  let rows: RowLine[];
  let calls: Record<string, number>;
  let claimRanges: string[];
  let policyRanges: string[];
  let alone: Set<string>;

  beforeAll(async () => {
    rows = await historyJob(jobs, points);
    calls = recordCalls(jobs);
    claimRanges = rangesAsked(HARRIS, 'NfipClaims');
    policyRanges = rangesAsked(HARRIS, 'NfipPolicies');
    alone = tractsAlone(HARRIS, 'NfipClaims');
  });

  it("asks its claims by ranges of the tracts' codes, one page of each range too large before narrowing it, every other range whole", () => {
    const before = TRACTS_BEFORE_COUNTY - 1;
    // The county and range 2 (150 claims each) narrowed after their first page; 22 and 23 (75 each) in two pages; every other range empty.
    expect(claimRanges).toEqual([
      ...all('', '0', '1', '2', '20', '21'),
      '22@0',
      '22@50',
      '23@0',
      '23@50',
      ...all('24', '25', '26', '27', '28', '29', '3', '4', '5', '6', '7', '8', '9'),
    ]);
    // Its policies in force, a page in all, asked for the whole county.
    expect(policyRanges).toEqual(['@0']);
    expect(calls).toEqual({ NfipClaims: before + claimRanges.length, NfipPolicies: before + 1, DisasterDeclarationsSummaries: 1 });
    expect(alone.size).toBe(before);
    for (const filter of alone) expect(tracts.slice(0, 8).map(tractAlone)).toContain(filter);
  });

  it("answers every row's record as a single lookup does, field for field", async () => {
    expect(rows.map(({ status }) => status)).toEqual(points.map(() => 200));
    expect(rows.map(({ body }) => body.result.history)).toEqual(await singleLookups(single, points));
    const shown = rows.map(({ body }): [string, unknown[]] => [
      body.result.history.area.geoid,
      [body.result.history.claims.count, body.result.history.policies.inForce],
    ]);
    expect(new Map(shown)).toEqual(
      new Map([
        [tracts[0], [30, 20]],
        [tracts[1], [25, 0]],
        [tracts[2], [30, 0]],
        [tracts[3], [null, 0]],
        [tracts[4], [0, 0]],
        [tracts[5], [20, null]],
        [tracts[6], [0, 0]],
        [tracts[7], [25, 12]],
      ]),
    );
  });
});

describe('a job over 8 tracts of a county too large even at its narrowest ranges', () => {
  const points = rowsIn(KING);
  const tracts = tractsOf(KING);

  it('asks every tract alone, each row answered as a single lookup, after narrowing the county down to 3 digits of the tract code once', async () => {
    const rows = await historyJob(jobs, points);
    expect(rows.map(({ body }) => body.result.unavailable)).toEqual(points.map(() => []));
    expect(rows.map(({ body }) => body.result.history)).toEqual(await singleLookups(single, points));
    expect(rows.map(({ body }) => body.result.history.claims.count)).toEqual([
      70,
      70,
      70,
      12,
      12,
      12,
      0,
      0,
      0,
      null,
      null,
      null,
      70,
      70,
      70,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
    ]);
    // Each first digit in turn, the one of all 8 tracts (8) narrowed, then 88, then 889 (140 claims): given up there.
    expect(rangesAsked(KING, 'NfipClaims')).toEqual(
      all(
        '',
        '0',
        '1',
        '2',
        '3',
        '4',
        '5',
        '6',
        '7',
        '8',
        '80',
        '81',
        '82',
        '83',
        '84',
        '85',
        '86',
        '87',
        '88',
        '880',
        '881',
        '882',
        '883',
        '884',
        '885',
        '886',
        '887',
        '888',
        '889',
      ),
    );
    expect(rangesAsked(KING, 'NfipPolicies')).toEqual(['@0']);
    expect(tractsAlone(KING, 'NfipClaims')).toEqual(new Set(tracts.slice(0, 8).map(tractAlone)));
    // The 8 tracts' claims alone (the two of 70 in two pages each), the county's 29 queries, once.
    expect(recordCalls(jobs)).toEqual({ NfipClaims: 8 + 2 + 29, NfipPolicies: 8 + 1, DisasterDeclarationsSummaries: 1 });
  });

  it('then a job over 4 other tracts of the county asks each alone, the county not again', async () => {
    const others = tractCentres(KING)
      .slice(0, 4)
      .map(({ lon, lat }) => ({ lon, lat: Number((lat + 0.04).toFixed(6)) }));
    expect(new Set(others.map((point) => tractOf(KING, point))).size).toBe(4);
    const rows = await historyJob(jobs, others);
    expect(rows.map(({ body }) => body.result.history)).toEqual(await singleLookups(single, others));
    expect(rangesAsked(KING, 'NfipClaims')).toEqual([]);
    expect(tractsAlone(KING, 'NfipClaims')).toEqual(new Set(others.map((point) => tractAlone(tractOf(KING, point)))));
    expect(recordCalls(jobs)).toEqual({ NfipClaims: 4, NfipPolicies: 4, DisasterDeclarationsSummaries: 0 });
  });
});
