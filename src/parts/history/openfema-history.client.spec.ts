import { HttpService } from '@nestjs/axios';
import { ConfigService } from '@nestjs/config';
import axios from 'axios';
import { DEMO_AREA_RECORDS, OpenFemaRow, demoPolicies } from '../../../test/emulators/area-records';
import { OpenFemaEmulator } from '../../../test/emulators/openfema-emulator';
import { blockGroupsAsked } from '../../../test/support/history-counties';
import { upstreamUnderTest } from '../../../test/support/upstream-under-test';
import { UpstreamUnavailableError } from '../../common/api-error';
import { UpstreamOutageError, UpstreamOverCapError } from '../../common/upstream/resilient-upstream';
import { UPSTREAM_BY_NAME } from '../../common/upstream/upstream-registry';
import type { AppConfig } from '../../config/app-config';
import { areaClaims, claimCount, floodDeclarations, recordInCounty } from './area-history';
import { OpenFemaHistoryClient, restPassesCap } from './openfema-history.client';

const { houston, sacramento, menominee } = DEMO_AREA_RECORDS;

function claimsOf(tract: string, n: number, firstId = 9_000_000): OpenFemaRow[] {
  return Array.from({ length: n }, (_, i) => ({
    id: firstId + i,
    censusGeoid: `${tract}${i % 3}`,
    countyCode: tract.slice(0, 5),
    yearOfLoss: 2000 + (i % 20),
    ratedFloodZone: i % 4 === 0 ? 'X' : 'AE',
    amountPaidOnBuildingClaim: 1000,
    amountPaidOnContentsClaim: 0,
    amountPaidOnIncreasedCostOfComplianceClaim: 0,
    floodEvent: null,
  }));
}

/** The client of the OpenFEMA emulator at `baseUrl`, its `openfema` upstream with the byte cap given (by default the real one). */
function historyClient(baseUrl: string, capBytes = UPSTREAM_BY_NAME.openfema.bodyCapBytes): OpenFemaHistoryClient {
  const cap = jest.replaceProperty(UPSTREAM_BY_NAME.openfema, 'bodyCapBytes', capBytes);
  try {
    return new OpenFemaHistoryClient(
      new HttpService(axios.create()),
      upstreamUnderTest('openfema'),
      new ConfigService<AppConfig, true>({ OPENFEMA_BASE_URL: baseUrl }),
    );
  } finally {
    cap.restore();
  }
}

describe('OpenFemaHistoryClient against the OpenFEMA emulator', () => {
  let openfema: OpenFemaEmulator;
  beforeAll(async () => {
    openfema = await OpenFemaEmulator.start();
  });
  afterAll(() => openfema.close());
  beforeEach(() => {
    openfema.clearFaults();
    openfema.resetCalls();
  });

  const client = (baseUrl = openfema.baseUrl) => historyClient(baseUrl);
  const deadline = () => AbortSignal.timeout(10_000);

  it("asks the tract's claims and policies in force by block-group range, with the fields it reads, and tallies them", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const record = await client().tractRecord(houston.tract, deadline());
    expect(claimCount(record.claims)).toBe(214);
    expect(areaClaims(record.claims, [])).toMatchObject(houston.claims);
    expect(record.policies).toEqual({ inForce: houston.inForce, asOf: today });
    const inTract = `censusGeoid ge '${houston.tract}0' and censusGeoid le '${houston.tract}9'`;
    const [claims] = openfema.callsMatching({ endpoint: 'NfipClaims' });
    expect(claims!.path).toBe('/api/open/v3/NfipClaims');
    expect(claims!.rawQuery).toContain('%24filter=');
    expect(claims!.query).toEqual({
      $filter: inTract,
      $select: 'yearOfLoss,ratedFloodZone,amountPaidOnBuildingClaim,amountPaidOnContentsClaim,amountPaidOnIncreasedCostOfComplianceClaim,floodEvent',
      $orderby: 'id',
      $top: '10000',
      $skip: '0',
      $inlinecount: 'allpages',
    });
    const [policies] = openfema.callsMatching({ endpoint: 'NfipPolicies' });
    expect(policies!.query.$filter).toBe(`${inTract} and policyEffectiveDate le '${today}' and policyTerminationDate gt '${today}'`);
    expect(policies!.query.$select).toBe('policyCount');
    expect(openfema.callCount()).toBe(2);
  });

  it('says 0 for a tract OpenFEMA has nothing for', async () => {
    const record = await client().tractRecord(menominee.tract, deadline());
    expect(claimCount(record.claims)).toBe(0);
    expect(record.policies.inForce).toBe(0);
  });

  it('asks every declaration of the county by its state and county codes, newest first', async () => {
    const rows = await client().countyDeclarations('48201', deadline());
    expect(floodDeclarations(rows).map(({ disasterNumber }) => disasterNumber)).toEqual(houston.declarations);
    const [call] = openfema.calls;
    expect(call!.path).toBe('/api/open/v2/DisasterDeclarationsSummaries');
    expect(call!.query).toMatchObject({ $filter: "fipsStateCode eq '48' and fipsCountyCode eq '201'", $orderby: 'declarationDate desc' });
    expect(floodDeclarations(await client().countyDeclarations(sacramento.countyFips, deadline())).map(({ disasterNumber }) => disasterNumber)).toEqual(
      sacramento.declarations,
    );
  });

  it('pages to the end by the count, even where the server serves fewer rows than asked', async () => {
    const tract = '48201999999';
    const capped = await OpenFemaEmulator.start({ claims: claimsOf(tract, 25), pageCap: 10 });
    try {
      const record = await client(capped.baseUrl).tractRecord(tract, deadline());
      expect(claimCount(record.claims)).toBe(25);
      expect(capped.callsMatching({ endpoint: 'NfipClaims' }).map((call) => call.query.$skip)).toEqual(['0', '10', '20']);
    } finally {
      await capped.close();
    }
  });

  it("downloads a county: its claims by county code, its policies in force by its block groups' range, every tract as its own query tallies it", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const county = await client().countyRecord('48201', deadline());
    expect(Object.keys(county.tracts)).toEqual([houston.tract]);
    expect(county).toEqual({ countyFips: '48201', asOf: today, tracts: { [houston.tract]: await client().tractRecord(houston.tract, deadline()) } });
    const [claims, policies] = ['NfipClaims', 'NfipPolicies'].map((endpoint) => openfema.callsMatching({ endpoint })[0]!.query);
    expect(claims).toEqual({
      $filter: "countyCode eq '48201' and censusGeoid ge '482010000000' and censusGeoid le '482019999999'",
      $select:
        'yearOfLoss,ratedFloodZone,amountPaidOnBuildingClaim,amountPaidOnContentsClaim,amountPaidOnIncreasedCostOfComplianceClaim,floodEvent,censusGeoid',
      $orderby: 'id',
      $top: '10000',
      $skip: '0',
      $inlinecount: 'allpages',
    });
    expect(policies).toMatchObject({
      $filter: `censusGeoid ge '482010000000' and censusGeoid le '482019999999' and policyEffectiveDate le '${today}' and policyTerminationDate gt '${today}'`,
      $select: 'policyCount,censusGeoid',
    });
  });

  it('pages through a county to the end by the count, each of its tracts as asked alone, one with none too', async () => {
    const [a, b] = ['48201999991', '48201999992'];
    const capped = await OpenFemaEmulator.start({ claims: [...claimsOf(a, 14), ...claimsOf(b, 11, 9_100_000)], pageCap: 10 });
    try {
      const county = await client(capped.baseUrl).countyRecord('48201', deadline());
      expect(capped.callsMatching({ endpoint: 'NfipClaims' }).map((call) => call.query.$skip)).toEqual(['0', '10', '20']);
      for (const tract of [a, b, sacramento.tract.replace(/^06067/, '48201')]) {
        expect(recordInCounty(county, tract)).toEqual(await client(capped.baseUrl).tractRecord(tract, deadline()));
      }
      expect([claimCount(county.tracts[a]!.claims), claimCount(county.tracts[b]!.claims)]).toEqual([14, 11]);
    } finally {
      await capped.close();
    }
  });

  it('fails, never a partial record, when a page comes back empty before the count', async () => {
    const tract = '48201999993';
    const capped = await OpenFemaEmulator.start({ claims: claimsOf(tract, 25), pageCap: 10 });
    try {
      capped.injectFault({
        kind: 'http-status',
        status: 200,
        body: { metadata: { skip: 10, top: 10000, count: 25 }, NfipClaims: [] },
        contentType: 'application/json',
        match: (call) => call.endpoint === 'NfipClaims' && call.query.$skip === '10',
      });
      const failure = client(capped.baseUrl).countyRecord('48201', deadline());
      await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
      await expect(failure).rejects.toMatchObject({ upstream: 'openfema', reason: 'NfipClaims ended after 10 of the 25 rows it counted' });
    } finally {
      await capped.close();
    }
  });

  it("fails as the openfema upstream when a tract's rows do not end within its 20 pages", async () => {
    const tract = '48201999994';
    const capped = await OpenFemaEmulator.start({ claims: claimsOf(tract, 21), pageCap: 1 });
    try {
      const failure = client(capped.baseUrl).tractRecord(tract, deadline());
      await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
      await expect(failure).rejects.toMatchObject({ upstream: 'openfema', reason: 'NfipClaims did not end within 20 pages' });
      expect(capped.callCount({ endpoint: 'NfipClaims' })).toBe(20);
    } finally {
      await capped.close();
    }
  });

  it.each([
    ['a 500', { kind: 'http-status' as const, status: 500 }, UpstreamOutageError],
    ['an HTML page', { kind: 'html' as const }, UpstreamOutageError],
    ['an ArcGIS-style error in a 200', { kind: 'arcgis-error' as const }, UpstreamUnavailableError],
    ['malformed JSON', { kind: 'malformed-json' as const }, UpstreamUnavailableError],
  ])('fails as the openfema upstream on %s', async (_, fault, kind) => {
    openfema.injectFault({ ...fault, match: 'NfipClaims' });
    const failure = client().tractRecord(houston.tract, deadline());
    await expect(failure).rejects.toBeInstanceOf(kind);
    await expect(failure).rejects.toMatchObject({ upstream: 'openfema' });
  });

  it('fails on a 400 error answer, naming what OpenFEMA said, without a retry', async () => {
    // An emulator of its own: a call another test left in flight cannot land here.
    const own = await OpenFemaEmulator.start();
    try {
      own.injectFault({
        kind: 'http-status',
        status: 400,
        body: '{"error":[{"code":"OF_OQP_002","message":"Field not found"}]}',
        contentType: 'application/json',
        match: 'NfipPolicies',
      });
      const failure = client(own.baseUrl).tractRecord(houston.tract, deadline());
      await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
      await expect(failure).rejects.toMatchObject({ upstream: 'openfema', reason: expect.stringContaining('OF_OQP_002') });
      expect(own.callCount({ endpoint: 'NfipPolicies' })).toBe(1);
    } finally {
      await own.close();
    }
  });

  it('fails on a row whose value is not a number, a string or null', async () => {
    const tract = '48201999998';
    const odd = await OpenFemaEmulator.start({ claims: [{ ...claimsOf(tract, 1)[0]!, ratedFloodZone: ['AE'] as unknown as string }] });
    try {
      await expect(client(odd.baseUrl).tractRecord(tract, deadline())).rejects.toMatchObject({
        upstream: 'openfema',
        reason: 'OpenFEMA field ratedFloodZone is an array',
      });
    } finally {
      await odd.close();
    }
  });

  it('reads no further than the byte cap of an endless body', async () => {
    openfema.injectFault({ kind: 'endless-body', match: 'DisasterDeclarationsSummaries' });
    await expect(client().countyDeclarations('48201', deadline())).rejects.toMatchObject({
      upstream: 'openfema',
      reason: expect.stringContaining('over its cap'),
    });
    await openfema.endlessBodiesStopped();
  });
});

describe('restPassesCap: whether the rows a count says are left cannot come within the byte cap', () => {
  it.each([
    ['the rest at the bytes a row took so far fills the cap exactly', 100, 10, 1_000, 10_000, false],
    ['a byte more than the cap leaves', 100, 10, 1_000, 9_999, true],
    ['every row read', 10, 10, 1_000, 1_000, false],
    ['no row read yet: nothing to tell from', 100, 0, 600, 1_000, false],
  ])('%s (count %d, %d rows in %d bytes, cap %d): %s', (_, count, rowsRead, bytesRead, capBytes, passes) => {
    expect(restPassesCap(count, rowsRead, bytesRead, capBytes)).toBe(passes);
  });
});

describe("a county's download larger than the byte cap, asked range by range of its tracts", () => {
  /** A cap of a few pages of 10 claims (about 2.8 kB each with its envelope): a range of 20 claims fits, one of 40 does not. */
  const CAP = 8 * 1024;
  const today = new Date().toISOString().slice(0, 10);
  const started: OpenFemaEmulator[] = [];
  afterAll(() => Promise.all(started.map((emulator) => emulator.close())));
  async function emulatorOf(claims: OpenFemaRow[], policies: OpenFemaRow[] = []): Promise<OpenFemaEmulator> {
    const emulator = await OpenFemaEmulator.start({ claims, policies, pageCap: 10 });
    started.push(emulator);
    return emulator;
  }
  const deadline = () => AbortSignal.timeout(10_000);
  const capped = (emulator: OpenFemaEmulator) => historyClient(emulator.baseUrl, CAP);
  /** Each query of the county: the digits of the tract code its range is narrowed to ('' for the whole county), and its $skip. */
  const rangesAsked = (emulator: OpenFemaEmulator, endpoint = 'NfipClaims') =>
    emulator.callsMatching({ endpoint }).map(({ query }) => `${blockGroupsAsked(query.$filter!)!.slice(5)}@${query.$skip}`);
  const all = (...ranges: string[]) => ranges.map((range) => `${range}@0`);

  it("reads one page of a county its count says will not fit, then each range of its tracts' first digit whole, narrowing a range again where it will not fit either", async () => {
    const [alone, first, second, none] = ['48201100100', '48201510100', '48201520100', '48201530100'];
    const emulator = await emulatorOf(
      [...claimsOf(alone, 20, 1_000), ...claimsOf(first, 20, 2_000), ...claimsOf(second, 20, 3_000)],
      [...demoPolicies(alone, 'TX', 4), ...demoPolicies(second, 'TX', 3)],
    );
    const county = await capped(emulator).countyRecord('48201', deadline());
    expect(rangesAsked(emulator)).toEqual([
      '@0',
      ...all('0'),
      '1@0',
      '1@10',
      ...all('2', '3', '4', '5', '50'),
      '51@0',
      '51@10',
      '52@0',
      '52@10',
      ...all('53', '54', '55', '56', '57', '58', '59', '6', '7', '8', '9'),
    ]);
    // The policies in force, far fewer bytes, in one query of the whole county.
    expect(rangesAsked(emulator, 'NfipPolicies')).toEqual(['@0']);
    expect(emulator.callsMatching({ endpoint: 'NfipClaims' })[3]!.query.$filter).toBe(
      "countyCode eq '48201' and censusGeoid ge '482011000000' and censusGeoid le '482011999999'",
    );
    expect(Object.keys(county.tracts).sort()).toEqual([alone, first, second]);
    expect(county.asOf).toBe(today);
    for (const tract of [alone, first, second, none]) expect(recordInCounty(county, tract)).toEqual(await capped(emulator).tractRecord(tract, deadline()));
    expect([alone, first, second].map((tract) => claimCount(county.tracts[tract]!.claims))).toEqual([20, 20, 20]);
    expect(county.tracts[second]!.policies.inForce).toBe(3);
  });

  it('narrows the county where a later page passes the cap its first page said it would keep to', async () => {
    const [small, large] = ['48201100100', '48201510100'];
    const long = claimsOf(large, 10, 2_000).map((row) => ({ ...row, floodEvent: `Storm ${'x'.repeat(400)}` }));
    const emulator = await emulatorOf([...claimsOf(small, 10, 1_000), ...long]);
    const county = await capped(emulator).countyRecord('48201', deadline());
    expect(rangesAsked(emulator)).toEqual(['@0', '@10', ...all('0', '1', '2', '3', '4', '5', '6', '7', '8', '9')]);
    for (const tract of [small, large]) expect(recordInCounty(county, tract)).toEqual(await capped(emulator).tractRecord(tract, deadline()));
    expect(claimCount(county.tracts[large]!.claims)).toBe(10);
  });

  it('fails as over the cap, naming the range, where even the narrowest range (3 digits of the tract code) will not fit', async () => {
    const emulator = await emulatorOf(claimsOf('48201512340', 40));
    const failure = capped(emulator).countyRecord('48201', deadline());
    await expect(failure).rejects.toBeInstanceOf(UpstreamOverCapError);
    await expect(failure).rejects.toMatchObject({ upstream: 'openfema', reason: expect.stringContaining('block groups 48201512') });
    expect(rangesAsked(emulator)).toEqual(all('', '0', '1', '2', '3', '4', '5', '50', '51', '510', '511', '512'));
  });

  it('fails a tract after one page where its count says its rows will not fit', async () => {
    const emulator = await emulatorOf(claimsOf('48201100100', 60));
    const failure = capped(emulator).tractRecord('48201100100', deadline());
    await expect(failure).rejects.toBeInstanceOf(UpstreamOverCapError);
    await expect(failure).rejects.toMatchObject({ upstream: 'openfema', reason: expect.stringMatching(/^NfipClaims: 60 rows/) });
    expect(emulator.callCount({ endpoint: 'NfipClaims' })).toBe(1);
  });
});
