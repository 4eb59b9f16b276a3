import { COMMUNITY_STATUS_FIELDS } from '../../../src/parts/nfip-status/nfip-status';
import { demoPlace, RunningEmulators, startEmulators, type StartEmulatorsOptions } from '../../emulators';
import { DEMO_COMMUNITY_STATUS_BOOK, type CommunityStatusBookRow } from '../../emulators/community-status-book';
import { apiGet, type ApiResponse } from '../../support/api-client';
import { RunningApp, startApp } from '../../support/app-harness';
import { closedPort, DisposableRedis, redisCli } from '../../support/redis-server';
import { expectedNfip, NOT_LISTED_NOTE, pointQuery, sleep } from '../../support/stack';

/**
 * `result.community.nfip`: the community's standing in the NFIP, from the Community Status Book the OpenFEMA
 * emulator serves (test/emulators/community-status-book.ts), end to end through the real app.
 */

const HOUR_MS = 3_600_000;
/** Fast failures and a short deadline, the caches on (the answers' max-age is what some tests check). */
const FAST = { UPSTREAM_TIMEOUT_MS: '300', LOOKUP_DEADLINE_MS: '1500', UPSTREAM_RETRIES: '1', CIRCUIT_BREAKER_MIN_CALLS: '100000' } as const;

/** Every timer API but Date: the app's own timers run for real while its clock is moved. */
const NOT_DATE = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

interface Running {
  emulators: RunningEmulators;
  app: RunningApp;
  get(pathAndQuery: string): Promise<ApiResponse>;
  close(): Promise<void>;
}

/** The emulators, `prepare`d (a fault from the very start), then the app. */
async function start(env: Record<string, string> = {}, prepare?: (e: RunningEmulators) => void, options: StartEmulatorsOptions = {}): Promise<Running> {
  const emulators = await startEmulators({ latencyMs: 0, ...options });
  prepare?.(emulators);
  const app = await startApp({ ...emulators.env, ...env }).catch(async (error: unknown) => {
    await emulators.close();
    throw error;
  });
  return {
    emulators,
    app,
    get: (pathAndQuery) => apiGet(app.url, pathAndQuery),
    close: async () => {
      await app.close();
      await emulators.close();
    },
  };
}

/** Waits (at most `withinMs`, by the real clock while Date is moved) for something that must happen. */
async function until(what: string, condition: () => Promise<boolean> | boolean, withinMs = 5000): Promise<void> {
  for (const started = performance.now(); !(await condition()); await sleep(25)) {
    if (performance.now() - started > withinMs) throw new Error(`${what} did not happen within ${withinMs} ms`);
  }
}

const tableDownloads = (e: RunningEmulators) => e.openfema.callCount({ endpoint: 'NfipCommunityStatusBook' });
const maxAgeOf = (res: ApiResponse) => Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1]);
const nfipAt = async (running: Running, placeId: string) => {
  const res = await running.get(pointQuery(demoPlace(placeId)));
  expect(res.status).toBe(200);
  return res.body.result.community.nfip as Record<string, unknown> | null;
};

/** Houston's row as a later Community Status Book would have it: CRS class 4, a bigger discount. */
const HOUSTON_CLASS_4: CommunityStatusBookRow[] = DEMO_COMMUNITY_STATUS_BOOK.map((row) =>
  row.communityIdNumber === '480296' ? { ...row, classRating: '4', sfhaDiscount: 30, nonSfhaDiscount: 10, lastRefresh: '2026-11-29T06:00:00.000Z' } : row,
);

describe('result.community.nfip with the Community Status Book loaded', () => {
  let running: Running;
  beforeAll(async () => {
    running = await start();
    await until('the table download', () => running.emulators.openfema.callCount() > 0);
  });
  afterAll(() => running?.close());

  it('participating, with a CRS class: the discounts, the dates, asOf the table refresh, the note naming them', async () => {
    const res = await running.get(pointQuery(demoPlace('houston-a')));
    expect(res.status).toBe(200);
    expect(res.body.result.community).toStrictEqual({
      name: 'City of Houston',
      communityId: '480296',
      nfip: {
        listed: true,
        participating: true,
        program: 'regular',
        floodInsuranceAvailable: true,
        crsClass: 5,
        sfhaDiscountPercent: 25,
        nonSfhaDiscountPercent: 10,
        currentEffectiveMapDate: '2007-06-18',
        programEntryDate: '1979-09-28',
        asOf: '2026-11-22',
        note: 'Federal flood insurance (NFIP) is available: the community participates. Its Community Rating System class 5 gives a 25% discount in the SFHA and 10% outside it.',
      },
    });
    expect(res.body.result.unavailable).toEqual([]);
  });

  it('participating, not in the CRS (class 10): insurance available, no class, no discount', async () => {
    const nfip = await nfipAt(running, 'dc-white-house-ae');
    expect(nfip).toStrictEqual({
      listed: true,
      participating: true,
      program: 'regular',
      floodInsuranceAvailable: true,
      crsClass: null,
      sfhaDiscountPercent: null,
      nonSfhaDiscountPercent: null,
      currentEffectiveMapDate: '2010-09-27',
      programEntryDate: '1985-11-15',
      asOf: '2026-11-22',
      note: expect.stringMatching(/^Federal flood insurance \(NFIP\) is available: the community participates\. .*not in the Community Rating System/),
    });
  });

  it.each([
    ['480287 (published as "480287#")', 'houston-area-not-included', 7, 15, 5],
    ['120172 (published as "120172B")', 'fernandina-cbrs-outside', 6, 20, 10],
  ])('a suffixed published id is matched on its first six digits: %s', async (_what, placeId, crsClass, sfha, nonSfha) => {
    const nfip = await nfipAt(running, placeId);
    expect(nfip).toMatchObject({
      listed: true,
      participating: true,
      floodInsuranceAvailable: true,
      crsClass,
      sfhaDiscountPercent: sfha,
      nonSfhaDiscountPercent: nonSfha,
    });
    expect(nfip).toStrictEqual(expectedNfip(demoPlace(placeId).expect.community?.communityId ?? null));
  });

  it.each([['emergency-program-ae'], ['emergency-program-x']])(
    'participating without an initial FIRM (%s): the emergency program, insurance available with lower coverage limits',
    async (placeId) => {
      expect(await nfipAt(running, placeId)).toStrictEqual({
        listed: true,
        participating: true,
        program: 'emergency',
        floodInsuranceAvailable: true,
        crsClass: null,
        sfhaDiscountPercent: null,
        nonSfhaDiscountPercent: null,
        currentEffectiveMapDate: '1978-03-14',
        programEntryDate: '1983-05-02',
        asOf: '2026-11-22',
        note:
          "Federal flood insurance (NFIP) is available: the community participates, in the program's emergency phase, where coverage limits are " +
          'lower. It is not in the Community Rating System, so policies here get no community discount.',
      });
    },
  );

  it('not participating: federal flood insurance not available, as the book says', async () => {
    const nfip = await nfipAt(running, 'charleston-no-coming-map');
    expect(nfip).toMatchObject({
      listed: true,
      participating: false,
      program: null,
      floodInsuranceAvailable: false,
      crsClass: null,
      currentEffectiveMapDate: null,
    });
    expect(nfip?.note).toMatch(/not available/);
  });

  it('a community the book lacks (260151): listed false, every other field null, unknown rather than "not available"', async () => {
    const res = await running.get(pointQuery(demoPlace('menominee-ve')));
    expect(res.body.result.community).toStrictEqual({
      name: expect.any(String),
      communityId: '260151',
      nfip: {
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
      },
    });
    expect(res.body.result.unavailable).toEqual([]);
  });

  it('no community at the point: community null, no nfip anywhere, nothing unavailable', async () => {
    const res = await running.get(pointQuery(demoPlace('outside-us-atlantic')));
    expect(res.status).toBe(200);
    expect(res.body.result.community).toBeNull();
    expect(res.text).not.toContain('"nfip"');
    expect(res.body.result.unavailable).toEqual([]);
  });

  it('the table is downloaded once at start-up, not per lookup; /health and /metrics report openfema', async () => {
    expect(tableDownloads(running.emulators)).toBe(1);
    const health = await running.get('/health');
    expect(health.body.upstreams.openfema).toMatchObject({ state: 'answering', circuit: 'closed', lastCall: 'ok' });
    const metrics = await fetch(`${running.app.url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/^upstream_request_duration_seconds_count\{upstream="openfema",outcome="success"\} 1$/m);
    expect(metrics).toMatch(/^upstream_circuit_state\{upstream="openfema"\} 0$/m);
  });
});

describe('OpenFEMA down from start-up', () => {
  let running: Running;
  beforeAll(async () => {
    running = await start(FAST, (e) => e.openfema.injectFault({ kind: 'http-status', status: 503 }));
  });
  afterAll(async () => {
    jest.useRealTimers();
    await running?.close();
  });

  it('nfip null and nfipStatus unavailable, still HTTP 200 with the rest of the answer, cached at most 60 s', async () => {
    const res = await running.get(pointQuery(demoPlace('houston-a')));
    expect(res.status).toBe(200);
    expect(res.body.result.floodZone).toBe('A');
    expect(res.body.result.community).toStrictEqual({ name: 'City of Houston', communityId: '480296', nfip: null });
    expect(res.body.result.unavailable).toEqual(['nfipStatus']);
    expect(maxAgeOf(res)).toBeGreaterThan(0);
    expect(maxAgeOf(res)).toBeLessThanOrEqual(60);
    // no community, nothing to join: complete
    const atSea = await running.get(pointQuery(demoPlace('outside-us-atlantic')));
    expect(atSea.body.result.unavailable).toEqual([]);
  });

  it('/health shows openfema failing and /metrics its failed attempts', async () => {
    const health = await running.get('/health');
    expect(health.body.upstreams.openfema).toMatchObject({ state: 'failing', lastCall: 'failed' });
    const metrics = await fetch(`${running.app.url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/^upstream_request_duration_seconds_count\{upstream="openfema",outcome="failure"\} [1-9]\d*$/m);
  });

  it('once OpenFEMA is back, the retry after a failure loads the table (time moved, not waited for) and the same query shows it at once', async () => {
    const query = pointQuery(demoPlace('houston-a'));
    expect((await running.get(query)).body.result.unavailable).toEqual(['nfipStatus']);
    running.emulators.openfema.clearFaults();
    const downloads = tableDownloads(running.emulators);
    // past the retry after a failed download (10 minutes): only the clock moves
    jest.useFakeTimers({ doNotFake: [...NOT_DATE], now: Date.now() + 11 * 60 * 1000 });
    await running.get(query);
    await until('the retry download', () => tableDownloads(running.emulators) > downloads);
    await until('the table held', async () => (await running.get(query)).body.result.community.nfip !== null);
    const res = await running.get(query);
    expect(res.body.result.community.nfip).toStrictEqual(expectedNfip('480296'));
    expect(res.body.result.unavailable).toEqual([]);
  });
});

describe('the first lookup after start-up waits for the table, at most its deadline; later lookups never wait', () => {
  it('a download shorter than the deadline: the first lookup waits for it and has the table', async () => {
    const running = await start({}, undefined, { openfema: { latencyMs: 1000 } });
    try {
      const res = await running.get(pointQuery(demoPlace('houston-a')));
      expect(res.body.result.community.nfip).toStrictEqual(expectedNfip('480296'));
      expect(res.body.result.unavailable).toEqual([]);
    } finally {
      await running.close();
    }
  });

  it('a download longer than the deadline: the first lookup answers at its deadline without it; the next does not wait; then the table shows', async () => {
    // the download takes 2.5 s (within the upstream timeout), the deadline is 1.5 s
    const running = await start({ LOOKUP_DEADLINE_MS: '1500' }, undefined, { openfema: { latencyMs: 2500 } });
    try {
      const first = await running.get(pointQuery(demoPlace('houston-a')));
      expect(first.status).toBe(200);
      expect(first.body.result.community.nfip).toBeNull();
      expect(first.body.result.unavailable).toEqual(['nfipStatus']);
      // had it waited (until its own deadline, 1.5 s on), it would have had the table, loaded 2.5 s after start-up
      const second = await running.get(pointQuery(demoPlace('dc-white-house-ae')));
      expect(second.body.result.community.nfip).toBeNull();
      expect(second.body.result.unavailable).toEqual(['nfipStatus']);
      expect(tableDownloads(running.emulators)).toBe(1);
      // the same query again, once the table is held: not the cached answer without it
      await until('the table held', async () => (await running.get(pointQuery(demoPlace('houston-a')))).body.result.community.nfip !== null);
      const later = await running.get(pointQuery(demoPlace('houston-a')));
      expect(later.body.result.community.nfip).toStrictEqual(expectedNfip('480296'));
      expect(later.body.result.unavailable).toEqual([]);
    } finally {
      await running.close();
    }
  });
});

describe('refresh every COMMUNITY_STATUS_REFRESH_HOURS', () => {
  let running: Running;
  beforeAll(async () => {
    running = await start();
    await until('the table held', async () => (await nfipAt(running, 'houston-a')) !== null);
  });
  afterAll(async () => {
    jest.useRealTimers();
    await running?.close();
  });

  it('a day on (time moved, not waited for), a lookup is answered from the table held while the new one downloads; then the new values show', async () => {
    const query = pointQuery(demoPlace('houston-a'));
    expect((await running.get(query)).body.result.community.nfip).toMatchObject({ crsClass: 5, asOf: '2026-11-22' });
    running.emulators.openfema.setRows(HOUSTON_CLASS_4);
    // not yet due: nothing is downloaded
    jest.useFakeTimers({ doNotFake: [...NOT_DATE], now: Date.now() + 23 * HOUR_MS });
    expect((await running.get(query)).body.result.community.nfip).toMatchObject({ crsClass: 5 });
    expect(tableDownloads(running.emulators)).toBe(1);

    jest.setSystemTime(Date.now() + 2 * HOUR_MS);
    const during = await running.get(query);
    expect(during.body.result.community.nfip).toMatchObject({ crsClass: 5, asOf: '2026-11-22' });
    await until('the refresh download', () => tableDownloads(running.emulators) === 2);
    await until('the new table held', async () => (await running.get(query)).body.result.community.nfip.crsClass === 4);
    expect((await running.get(query)).body.result.community.nfip).toStrictEqual({
      listed: true,
      participating: true,
      program: 'regular',
      floodInsuranceAvailable: true,
      crsClass: 4,
      sfhaDiscountPercent: 30,
      nonSfhaDiscountPercent: 10,
      currentEffectiveMapDate: '2007-06-18',
      programEntryDate: '1979-09-28',
      asOf: '2026-11-29',
      note: 'Federal flood insurance (NFIP) is available: the community participates. Its Community Rating System class 4 gives a 30% discount in the SFHA and 10% outside it.',
    });
    expect(tableDownloads(running.emulators)).toBe(2);
  });
});

describe('the table in the shared cache (REDIS_URL)', () => {
  let emulators: RunningEmulators;
  let redis: DisposableRedis;
  const apps: RunningApp[] = [];
  const replica = async (env: Record<string, string> = {}) => {
    const app = await startApp({ ...emulators.env, REDIS_URL: redis.url, ...env });
    apps.push(app);
    return app;
  };
  const houstonNfip = async (app: RunningApp) => (await apiGet(app.url, pointQuery(demoPlace('houston-a')))).body.result.community.nfip;
  const sharedKeys = () => redisCli(redis.port, '--scan', '--pattern', `*nfip-community-status-book*`).split('\n').filter(Boolean);

  beforeAll(async () => {
    redis = await DisposableRedis.start();
    emulators = await startEmulators({ latencyMs: 0 });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await emulators?.close();
    await redis?.stop();
  });

  it('a download is kept there, compact (the used fields only), for the refresh period', async () => {
    const first = await replica();
    expect(await houstonNfip(first)).toStrictEqual(expectedNfip('480296'));
    await until('the shared copy', () => sharedKeys().length === 1);
    const [key] = sharedKeys();
    const stored = JSON.parse(redisCli(redis.port, 'GET', key)) as { value: { fields: string[]; rows: unknown[][]; downloadedAt: number } };
    expect(stored.value.fields).toEqual([...COMMUNITY_STATUS_FIELDS]);
    expect(stored.value.rows).toHaveLength(DEMO_COMMUNITY_STATUS_BOOK.length);
    expect(stored.value.rows.every((row) => row.length === COMMUNITY_STATUS_FIELDS.length)).toBe(true);
    // only the used fields: the demo rows' state, county and tribal columns are not kept
    expect(JSON.stringify(stored.value)).not.toContain('Harris County');
    const ttlMs = Number(redisCli(redis.port, 'PTTL', key));
    expect(ttlMs).toBeGreaterThan(23 * HOUR_MS);
    expect(ttlMs).toBeLessThanOrEqual(24 * HOUR_MS);
    expect(tableDownloads(emulators)).toBe(1);
  });

  it('a new replica has the table from the shared cache at once, even with OpenFEMA down, without downloading it', async () => {
    emulators.openfema.injectFault({ kind: 'http-status', status: 503 });
    try {
      const second = await replica();
      const res = await apiGet(second.url, pointQuery(demoPlace('houston-a')));
      expect(res.body.result.community.nfip).toStrictEqual(expectedNfip('480296'));
      expect(res.body.result.unavailable).toEqual([]);
      expect(tableDownloads(emulators)).toBe(1);
    } finally {
      emulators.openfema.clearFaults();
    }
  });

  it('Redis away: a new replica downloads the table itself, its start-up and lookups not held up', async () => {
    const third = await replica({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    expect(await houstonNfip(third)).toStrictEqual(expectedNfip('480296'));
    expect(tableDownloads(emulators)).toBe(2);
  });
});
