import { CommunityStatusIndex } from '../../src/parts/nfip-status/nfip-status';
import {
  DEMO_COMMUNITY_STATUSES,
  DEMO_COMMUNITY_STATUS_BOOK,
  DEMO_COMMUNITY_STATUS_REFRESH,
  DEMO_UNLISTED_COMMUNITY_ID,
  type CommunityStatusBookRow,
} from './community-status-book';
import { OpenFemaEmulator } from './openfema-emulator';

const rowsNumbered = (n: number): CommunityStatusBookRow[] =>
  Array.from({ length: n }, (_, i) => ({
    communityIdNumber: String(100000 + i),
    communityName: `COMMUNITY ${i}`,
    participatingInNFIP: i % 2 === 0,
    classRating: String(i % 11),
    lastRefresh: DEMO_COMMUNITY_STATUS_REFRESH,
  }));

describe('OpenFemaEmulator: v1/NfipCommunityStatusBook', () => {
  let emulator: OpenFemaEmulator;
  const get = async (query: string, dataset = 'v1/NfipCommunityStatusBook') => {
    const res = await fetch(`${emulator.baseUrl}/${dataset}${query}`);
    const text = await res.text();
    return {
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      text,
      body: /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined,
    };
  };

  beforeAll(async () => {
    emulator = await OpenFemaEmulator.start({ rows: rowsNumbered(25) });
  });
  afterAll(() => emulator.close());
  beforeEach(() => {
    emulator.setRows(rowsNumbered(25));
    emulator.clearFaults();
    emulator.resetCalls();
  });

  it('serves the demo table by default, under /api/open', async () => {
    const demo = await OpenFemaEmulator.start();
    try {
      expect(demo.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/open$/);
      const res = await fetch(`${demo.baseUrl}/v1/NfipCommunityStatusBook`);
      const body = await res.json();
      expect(body.NfipCommunityStatusBook).toEqual(DEMO_COMMUNITY_STATUS_BOOK);
    } finally {
      await demo.close();
    }
  });

  it('answers the v1 envelope: metadata and the rows under the dataset name (default $top 1000)', async () => {
    const res = await get('');
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^application\/json/);
    expect(Object.keys(res.body)).toEqual(['metadata', 'NfipCommunityStatusBook']);
    expect(res.body.metadata).toEqual({
      skip: 0,
      top: 1000,
      count: 0,
      filter: '',
      format: 'json',
      orderby: {},
      select: null,
      entityname: 'NfipCommunityStatusBook',
      url: '/api/open/v1/NfipCommunityStatusBook',
    });
    expect(res.body.NfipCommunityStatusBook).toHaveLength(25);
  });

  it('pages with %24top and %24skip, and logs the query as sent', async () => {
    const pages = [];
    for (const skip of [0, 10, 20, 30])
      pages.push((await get(`?%24top=10&%24skip=${skip}`)).body.NfipCommunityStatusBook.map((r: CommunityStatusBookRow) => r.communityIdNumber));
    expect(pages.map((p) => p.length)).toEqual([10, 10, 5, 0]);
    expect(pages.flat()).toEqual(rowsNumbered(25).map((r) => r.communityIdNumber));
    expect(emulator.calls.map((c) => c.rawQuery)).toEqual(['%24top=10&%24skip=0', '%24top=10&%24skip=10', '%24top=10&%24skip=20', '%24top=10&%24skip=30']);
    expect(emulator.callCount({ endpoint: 'NfipCommunityStatusBook' })).toBe(4);
  });

  it('takes a literal $ too', async () => {
    const res = await get('?$top=3&$skip=1');
    expect(res.body.NfipCommunityStatusBook.map((r: CommunityStatusBookRow) => r.communityIdNumber)).toEqual(['100001', '100002', '100003']);
    expect(res.body.metadata).toMatchObject({ top: 3, skip: 1 });
  });

  it('$select keeps only the fields asked for, in that order', async () => {
    const res = await get('?%24select=communityIdNumber%2CclassRating&%24top=2');
    expect(res.body.NfipCommunityStatusBook).toEqual([
      { communityIdNumber: '100000', classRating: '0' },
      { communityIdNumber: '100001', classRating: '1' },
    ]);
    expect(res.body.metadata.select).toEqual(['communityIdNumber', 'classRating']);
  });

  it('$filter, $orderby and $inlinecount', async () => {
    const res = await get(
      `?%24filter=${encodeURIComponent("participatingInNFIP eq false and classRating ne '3'")}&%24orderby=communityIdNumber%20desc&%24inlinecount=allpages&%24top=3`,
    );
    expect(res.body.NfipCommunityStatusBook.map((r: CommunityStatusBookRow) => r.communityIdNumber)).toEqual(['100023', '100021', '100019']);
    expect(res.body.metadata).toMatchObject({
      count: 11,
      orderby: { communityIdNumber: 'desc' },
      filter: "participatingInNFIP eq false and classRating ne '3'",
    });
  });

  it('$metadata=false leaves the metadata out', async () => {
    expect(Object.keys((await get('?%24metadata=false&%24top=1')).body)).toEqual(['NfipCommunityStatusBook']);
  });

  it.each([
    ['%24top=10001', '$top must not exceed 10000'],
    ['%24top=-1', '$top must be a whole number, not "-1"'],
    ['%24skip=ten', '$skip must be a whole number, not "ten"'],
    ['%24select=communityIdNumber%2CfloodZone', '$select: unknown field(s) floodZone'],
    ['%24filter=communityIdNumber%20like%20%274802%25%27', '$filter: cannot read "communityIdNumber like \'4802%\'"'],
    ['%24orderby=nothing', '$orderby: cannot order by "nothing"'],
    ['%24expand=x', 'Unknown query option: $expand'],
    ['%24format=xml', '$format xml is not supported here; use json'],
  ])('a query it cannot run (%s): 400 {"error": [...]}', async (query, message) => {
    const res = await get(`?${query}`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { error: [message] } });
  });

  it('an unknown dataset: an HTML page (404)', async () => {
    const res = await get('', 'v1/NfipCommunityStatusBooks');
    expect(res.status).toBe(404);
    expect(res.contentType).toMatch(/^text\/html/);
    expect(res.text).toMatch(/^<!DOCTYPE html>/);
    expect(emulator.callCount({ endpoint: 'unknown' })).toBe(1);
  });

  it('setRows replaces the table (FEMA refreshed it)', async () => {
    emulator.setRows(rowsNumbered(3));
    expect((await get('')).body.NfipCommunityStatusBook).toHaveLength(3);
  });

  it('faults apply to the dataset like any upstream call', async () => {
    emulator.injectFault({ kind: 'http-status', status: 503, match: 'NfipCommunityStatusBook', times: 1 });
    expect((await get('')).status).toBe(503);
    expect((await get('')).status).toBe(200);
    expect(emulator.callCount({ endpoint: 'NfipCommunityStatusBook' })).toBe(2);
  });
});

describe('the demo Community Status Book', () => {
  const index = new CommunityStatusIndex(DEMO_COMMUNITY_STATUS_BOOK);

  it.each(DEMO_COMMUNITY_STATUSES.map((c) => [c.communityId, c]))('community %s answers its expectation', (communityId, demo) => {
    expect(index.lookup(communityId)).toEqual({
      ...demo.expect,
      floodInsuranceAvailable: demo.expect.participating,
      asOf: '2026-11-22',
      note: expect.any(String),
    });
  });

  it('a demo-map community is left out of the table', () => {
    expect(index.lookup(DEMO_UNLISTED_COMMUNITY_ID)).toMatchObject({ listed: false });
  });

  it('holds every oddity: suffixed ids, both date forms, CRS 10, 0 and missing, text beside a date', () => {
    const rows = DEMO_COMMUNITY_STATUS_BOOK;
    expect(rows.some((r) => String(r.communityIdNumber).endsWith('#'))).toBe(true);
    expect(rows.some((r) => /^\d{6}[A-Z]$/.test(String(r.communityIdNumber)))).toBe(true);
    expect(rows.some((r) => /^\d{4}-\d\d-\d\d/.test(String(r.currentlyEffectiveMapDate)))).toBe(true);
    expect(rows.some((r) => /^\d\d\/\d\d\/\d\d$/.test(String(r.currentlyEffectiveMapDate)))).toBe(true);
    expect(rows.map((r) => r.classRating)).toEqual(expect.arrayContaining(['10', '0', '']));
    expect(rows.some((r) => !('classRating' in r))).toBe(true);
    expect(rows.some((r) => /\d\s*\(\w\)$/.test(String(r.regularEmergencyProgramDate)) || /\d\s*\(\w\)$/.test(String(r.currentlyEffectiveMapDate)))).toBe(true);
  });
});
