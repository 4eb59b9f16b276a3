import { HttpService } from '@nestjs/axios';
import { Logger } from '@nestjs/common';
import axios from 'axios';
import { Keyv } from 'keyv';
import { DEMO_COMMUNITY_STATUS_BOOK, type CommunityStatusBookRow } from '../../test/emulators/community-status-book';
import { OpenFemaEmulator } from '../../test/emulators/openfema-emulator';
import { SOCKET_BUFFERS_BYTES } from '../../test/support/upstream-under-test';
import { UpstreamUnavailableError } from '../common/api-error';
import { ResilientUpstream, UpstreamPolicyOptions } from '../common/upstream/resilient-upstream';
import { UPSTREAM_BY_NAME } from '../common/upstream/upstream-registry';
import { COMMUNITY_STATUS_FIELDS } from '../parts/nfip-status/nfip-status';
import { CommunityStatusBook, FAILED_LOAD_RETRY_MS, SHARED_TABLE_KEY } from './community-status-book';
import { OpenFemaClient } from './openfema.client';

const POLICY: UpstreamPolicyOptions = {
  timeoutMs: 5000,
  // no retries: a retry's backoff pause would wait on faked timers
  retries: 0,
  maxConcurrency: 4,
  breakerFailureRate: 100,
  breakerWindowMs: 10_000,
  breakerMinCalls: 1000,
  halfOpenAfterMs: 1000,
};
const HOUR_MS = 3_600_000;
const never = new AbortController().signal;

const numbered = (n: number, classRating = '5'): CommunityStatusBookRow[] =>
  Array.from({ length: n }, (_, i) => ({
    communityIdNumber: String(480000 + i),
    communityName: `COMMUNITY ${i}`,
    participatingInNFIP: true,
    classRating,
    sfhaDiscount: 25,
    nonSfhaDiscount: 10,
    currentlyEffectiveMapDate: '06/18/07',
    regularEmergencyProgramDate: '09/28/79',
    initialFloodInsuranceRateMap: '1979-09-28T00:00:00.000Z',
    lastRefresh: '2026-11-22T06:12:45.123Z',
    state: 'TX',
  }));

describe('OpenFemaClient against the OpenFEMA emulator', () => {
  let openfema: OpenFemaEmulator;
  const client = (pageRows?: number, baseUrl = openfema.baseUrl) =>
    new OpenFemaClient(new HttpService(axios.create()), new ResilientUpstream('openfema', POLICY), baseUrl, pageRows);

  beforeAll(async () => {
    openfema = await OpenFemaEmulator.start();
  });
  afterAll(() => openfema.close());
  beforeEach(() => {
    openfema.setRows(DEMO_COMMUNITY_STATUS_BOOK);
    openfema.clearFaults();
    openfema.resetCalls();
  });

  it('pages through the whole table with %24top / %24skip, asking only for the fields it uses', async () => {
    openfema.setRows(numbered(25));
    const rows = await client(10).communityStatusBook(never);
    expect(rows.map((r) => r.communityIdNumber)).toEqual(numbered(25).map((r) => r.communityIdNumber));
    // $select: the fields used, no others
    expect(Object.keys(rows[0]).sort()).toEqual([...COMMUNITY_STATUS_FIELDS].sort());
    const select = `%24select=${COMMUNITY_STATUS_FIELDS.join('%2C')}`;
    expect(openfema.calls.map((c) => [c.path, c.rawQuery])).toEqual([
      ['/api/open/v1/NfipCommunityStatusBook', `${select}&%24top=10&%24skip=0`],
      ['/api/open/v1/NfipCommunityStatusBook', `${select}&%24top=10&%24skip=10`],
      ['/api/open/v1/NfipCommunityStatusBook', `${select}&%24top=10&%24skip=20`],
    ]);
  });

  it('a table that ends on a page boundary takes one more, empty, page', async () => {
    openfema.setRows(numbered(20));
    expect(await client(10).communityStatusBook(never)).toHaveLength(20);
    expect(openfema.calls.map((c) => c.query.$skip)).toEqual(['0', '10', '20']);
  });

  it('asks for 10,000 rows a page by default: the demo table in one call', async () => {
    expect(await client().communityStatusBook(never)).toHaveLength(DEMO_COMMUNITY_STATUS_BOOK.length);
    expect(openfema.calls.map((c) => c.query.$top)).toEqual(['10000']);
  });

  it.each([
    ['an HTML page (unknown dataset, or a front end)', { kind: 'html' as const }, /HTML page instead of JSON/],
    ['a 503', { kind: 'http-status' as const, status: 503 }, /HTTP 503/],
    ['a reset connection', { kind: 'reset' as const }, /network error/],
    [
      'a 400 {"error": [...]}',
      { kind: 'http-status' as const, status: 400, body: { error: ['$top must not exceed 10000'] } },
      /HTTP 400: \$top must not exceed 10000/,
    ],
    ['JSON without the dataset', { kind: 'empty-object' as const }, /answer without NfipCommunityStatusBook/],
    ['malformed JSON', { kind: 'malformed-json' as const }, /malformed JSON/],
  ])('%s is an upstream failure of openfema', async (_what, fault, reason) => {
    openfema.injectFault({ ...fault, times: 1 });
    const failure = await client()
      .communityStatusBook(never)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamUnavailableError);
    expect((failure as UpstreamUnavailableError).upstream).toBe('openfema');
    expect((failure as UpstreamUnavailableError).reason).toMatch(reason);
  });

  it('a page that never ends is a failure of openfema, read no further than its byte cap, not asked again', async () => {
    openfema.injectFault({ kind: 'endless-body', times: 1 });
    const failure = await client()
      .communityStatusBook(never)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamUnavailableError);
    expect(failure).toMatchObject({ upstream: 'openfema', reason: `an answer over its cap of ${UPSTREAM_BY_NAME.openfema.bodyCapBytes} bytes` });
    await openfema.endlessBodiesStopped();
    expect(openfema.callCount()).toBe(1);
    expect(openfema.calls[0].bodyBytes).toBeGreaterThan(UPSTREAM_BY_NAME.openfema.bodyCapBytes);
    expect(openfema.calls[0].bodyBytes).toBeLessThan(UPSTREAM_BY_NAME.openfema.bodyCapBytes + SOCKET_BUFFERS_BYTES);
  });

  it('an unknown dataset path answers the HTML page, a failure', async () => {
    const failure = await client(10, `${openfema.origin}/api/open/v0`)
      .communityStatusBook(never)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamUnavailableError);
    expect((failure as UpstreamUnavailableError).reason).toMatch(/HTML page instead of JSON \(HTTP 404\)/);
  });

  it('an empty table is a failure, never a table that lists nobody', async () => {
    openfema.setRows([]);
    const failure = await client()
      .communityStatusBook(never)
      .catch((error: unknown) => error);
    expect((failure as UpstreamUnavailableError).reason).toBe('the Community Status Book came back empty');
  });
});

describe('CommunityStatusBook: the table held, loaded in the background and refreshed', () => {
  let openfema: OpenFemaEmulator;
  let book: CommunityStatusBook | undefined;
  const start = (refreshHours = 24, pageRows = 10, shared?: Keyv) => {
    const client = new OpenFemaClient(new HttpService(axios.create()), new ResilientUpstream('openfema', POLICY), openfema.baseUrl, pageRows);
    book = new CommunityStatusBook(client, refreshHours * HOUR_MS, shared);
    book.onModuleInit();
    return book;
  };
  let warnings: string[];

  beforeAll(async () => {
    openfema = await OpenFemaEmulator.start();
  });
  afterAll(() => openfema.close());
  beforeEach(() => {
    openfema.setRows(numbered(25));
    openfema.clearFaults();
    openfema.resetCalls();
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((_fields: unknown, message?: unknown) => {
      warnings.push(String(message));
    });
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'performance', 'Date', 'hrtime'] });
  });
  afterEach(() => {
    book?.onModuleDestroy();
    book = undefined;
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('no table before the first download: undefined (unknown), then the join on every row', async () => {
    const loading = start();
    expect(loading.lookup('480003')).toBeUndefined();
    await loading.loadInProgress();
    expect(openfema.callCount()).toBe(3);
    expect(loading.lookup('480003')).toMatchObject({ listed: true, participating: true, crsClass: 5, sfhaDiscountPercent: 25, asOf: '2026-11-22' });
    expect(loading.lookup('480024')).toMatchObject({ listed: true });
    expect(loading.lookup('999999')).toMatchObject({ listed: false, note: expect.stringMatching(/not in FEMA's Community Status Book/) });
  });

  it('with a shared cache: a download is kept there for the refresh period, and the next replica takes it without downloading', async () => {
    const shared = new Keyv();
    await start(24, 10, shared).loadInProgress();
    expect(openfema.callCount()).toBe(3);
    const stored = await shared.get<{ fields: string[]; rows: unknown[][] }>(SHARED_TABLE_KEY);
    expect(stored?.fields).toEqual([...COMMUNITY_STATUS_FIELDS]);
    expect(stored?.rows).toHaveLength(25);
    book?.onModuleDestroy();

    openfema.setRows(numbered(25, '10'));
    const replica = start(24, 10, shared);
    await replica.loadInProgress();
    expect(openfema.callCount()).toBe(3);
    expect(replica.lookup('480003')).toMatchObject({ listed: true, crsClass: 5 });
  });

  it.each([
    ['older than the refresh period', (downloadedAt: number) => ({ downloadedAt: downloadedAt - 25 * HOUR_MS, fields: [...COMMUNITY_STATUS_FIELDS] })],
    ['written with other fields (another version of the service)', (downloadedAt: number) => ({ downloadedAt, fields: ['communityIdNumber'] })],
  ])('a shared copy %s is not used: the table is downloaded', async (_what, copy) => {
    const shared = new Keyv();
    const row = COMMUNITY_STATUS_FIELDS.map((field) => numbered(1, '7')[0][field] ?? null);
    await shared.set(SHARED_TABLE_KEY, { ...copy(Date.now()), rows: [row] });
    const held = start(24, 10, shared);
    await held.loadInProgress();
    expect(openfema.callCount()).toBe(3);
    expect(held.lookup('480000')).toMatchObject({ crsClass: 5 });
  });

  it("heldSince: a table downloaded before the time asked is downloaded again at once (a watch's sweep found the book changed); one since is kept", async () => {
    const held = start(24);
    await held.loadInProgress();
    const downloaded = Date.now();
    await held.heldSince(downloaded - 1000);
    expect(openfema.callCount()).toBe(3);

    openfema.setRows(numbered(30, '10'));
    await held.heldSince(Date.now() + 1);
    // 30 rows in pages of 10: four more calls.
    expect(openfema.callCount()).toBe(7);
    expect(held.lookup('480029')).toMatchObject({ listed: true });
  });

  it('refreshes every COMMUNITY_STATUS_REFRESH_HOURS: not before, and the new table replaces the old', async () => {
    const held = start(6);
    await held.loadInProgress();
    openfema.setRows(numbered(30, '10'));
    jest.advanceTimersByTime(6 * HOUR_MS - 1);
    await held.loadInProgress();
    expect(openfema.callCount()).toBe(3);
    expect(held.lookup('480003')).toMatchObject({ crsClass: 5 });
    expect(held.lookup('480029')).toMatchObject({ listed: false });

    jest.advanceTimersByTime(1);
    await held.loadInProgress();
    // 30 rows by pages of 10: the fourth page comes back empty
    expect(openfema.callCount()).toBe(3 + 4);
    expect(held.lookup('480003')).toMatchObject({ crsClass: null, sfhaDiscountPercent: null });
    expect(held.lookup('480029')).toMatchObject({ listed: true });

    // and again 6 hours later
    jest.advanceTimersByTime(6 * HOUR_MS);
    await held.loadInProgress();
    expect(openfema.callCount()).toBe(3 + 4 + 4);
  });

  it('a failed refresh keeps the old table (one warning), and the next refresh replaces it', async () => {
    const held = start(24);
    await held.loadInProgress();
    openfema.setRows(numbered(30, '9'));
    openfema.injectFault({ kind: 'http-status', status: 503, times: 1 });
    jest.advanceTimersByTime(24 * HOUR_MS);
    await held.loadInProgress();
    expect(held.lookup('480003')).toMatchObject({ listed: true, crsClass: 5 });
    expect(warnings).toEqual(['NFIP Community Status Book could not be downloaded (HTTP 503); the table already held is kept']);

    // the retry after a failure comes sooner than the regular refresh
    jest.advanceTimersByTime(FAILED_LOAD_RETRY_MS);
    await held.loadInProgress();
    expect(held.lookup('480003')).toMatchObject({ crsClass: 9 });
  });

  it('a failure mid-table (second page) keeps the old table whole', async () => {
    const held = start(24);
    await held.loadInProgress();
    openfema.setRows(numbered(25, '9'));
    openfema.injectFault({ kind: 'reset', match: (call) => call.query.$skip === '10', times: 1 });
    jest.advanceTimersByTime(24 * HOUR_MS);
    await held.loadInProgress();
    expect(held.lookup('480003')).toMatchObject({ crsClass: 5 });
    expect(held.lookup('480020')).toMatchObject({ crsClass: 5 });
  });

  it('no table could ever be had: undefined, one warning, and a retry after FAILED_LOAD_RETRY_MS', async () => {
    openfema.injectFault({ kind: 'http-status', status: 503, times: 1 });
    const failing = start(24);
    await failing.loadInProgress();
    expect(failing.lookup('480003')).toBeUndefined();
    expect(warnings).toEqual(['NFIP Community Status Book could not be downloaded (HTTP 503); the NFIP status of communities is unknown until it loads']);

    jest.advanceTimersByTime(FAILED_LOAD_RETRY_MS);
    await failing.loadInProgress();
    expect(failing.lookup('480003')).toMatchObject({ listed: true });
  });

  it('shutdown clears the refresh timer: nothing more is downloaded', async () => {
    const held = start(1);
    await held.loadInProgress();
    held.onModuleDestroy();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(10 * HOUR_MS);
    await held.loadInProgress();
    expect(openfema.callCount()).toBe(3);
  });

  it('a refresh never keeps the process alive: its timer is unref()d', async () => {
    jest.useRealTimers();
    const held = start(24);
    await held.loadInProgress();
    const timer = (held as unknown as { timer: NodeJS.Timeout }).timer;
    expect(timer.hasRef()).toBe(false);
  });
});
