/**
 * What POST /flood-zone/batch asks of its upstreams (caching off, so every call shows in the emulators'
 * counts): addresses through the Census batch geocoder in chunks of at most 1,000 with one-line fallbacks,
 * one lookup per distinct point (one elevation call per distinct point with include=elevation), nothing new
 * once the client has gone, and at most BATCH_MAX_CONCURRENT batches at once.
 */
import { connect } from 'node:net';
import { DEMO_ADDRESSES, demoPlace } from '../../emulators';
import { NO_CACHE, Stack, expectErrorEnvelope, nfhlQueries, sleep, startStack } from '../../support/stack';

const BATCH = '/flood-zone/batch';
/** Thousands of rows, or waiting for upstream calls to settle: more than Jest's default 5 s on a busy machine. */
const HEAVY_TEST_MS = 60_000;

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ ...NO_CACHE });
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => stack.emulators.resetCalls());
afterEach(() => stack.emulators.clearFaults());

const send = (locations: unknown[], signal?: AbortSignal) =>
  fetch(`${stack.url}${BATCH}`, { method: 'POST', body: JSON.stringify({ locations }), headers: { 'content-type': 'application/json' }, signal });

async function rowsOf(locations: unknown[]): Promise<Array<{ index: number; status: number; body: any }>> {
  const res = await send(locations);
  expect(res.status).toBe(200);
  return (await res.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

const census = (endpoint: string) => stack.emulators.census.callCount({ endpoint });

/**
 * `count` spellings of one address that the geocoder reads alike (it ignores periods and apostrophes) but
 * the service keys apart (its cache normalises case and spaces only): nothing, ".", "'" or ".'" after each
 * word, by the base-4 digits of i.
 */
function spellings(address: string, count: number): string[] {
  const words = address.split(' ');
  const marks = ['', '.', "'", ".'"];
  return Array.from({ length: count }, (_, i) => words.map((word, digit) => `${word}${marks[Math.floor(i / 4 ** digit) % 4]}`).join(' '));
}

describe('the Census batch geocoder', () => {
  it(
    "gets the batch's distinct addresses in chunks of at most 1,000 (2,500 addresses: 3 calls), and no one-line call for a Match",
    async () => {
      const addresses = spellings(DEMO_ADDRESSES.whiteHouse, 2500);
      expect(new Set(addresses).size).toBe(2500);
      const rows = await rowsOf(addresses.map((address) => ({ address })));
      expect(rows.length).toBe(2500);
      expect(rows.every((r) => r.status === 200 && r.body.location.matchedAddress === rows[0].body.location.matchedAddress)).toBe(true);
      expect(census('addressbatch')).toBe(3);
      expect([...stack.emulators.census.batchRowsPerCall].sort((a, b) => b - a)).toEqual([1000, 1000, 500]);
      expect(census('onelineaddress')).toBe(0);
    },
    HEAVY_TEST_MS,
  );

  it('sends an address repeated in the batch once', async () => {
    await rowsOf([
      { address: DEMO_ADDRESSES.whiteHouse },
      { address: DEMO_ADDRESSES.whiteHouse },
      { address: `  ${DEMO_ADDRESSES.whiteHouse.toUpperCase()} ` },
    ]);
    expect(stack.emulators.census.batchRowsPerCall).toEqual([1]);
  });

  it('looks up a Tie and a No_Match row through the one-line endpoint, once each', async () => {
    const rows = await rowsOf([{ address: DEMO_ADDRESSES.ambiguous }, { address: DEMO_ADDRESSES.noMatch }, { address: DEMO_ADDRESSES.whiteHouse }]);
    expect(rows.map((r) => [r.status, r.body.code ?? null])).toEqual([
      [404, 'AMBIGUOUS_ADDRESS'],
      [404, 'ADDRESS_NOT_FOUND'],
      [200, null],
    ]);
    expect(census('addressbatch')).toBe(1);
    expect(census('onelineaddress')).toBe(2);
  });

  it("looks up every row of a failed chunk through the one-line endpoint, with GET's answers", async () => {
    stack.emulators.census.injectFault({ kind: 'html', status: 400, match: 'addressbatch' });
    const addresses = [DEMO_ADDRESSES.whiteHouse, DEMO_ADDRESSES.nearDuplicate, DEMO_ADDRESSES.noMatch];
    const rows = await rowsOf(addresses.map((address) => ({ address })));
    expect(census('addressbatch')).toBeGreaterThan(0);
    expect(census('onelineaddress')).toBe(3);
    for (const [i, address] of addresses.entries()) {
      const get = await stack.get(`/flood-zone?address=${encodeURIComponent(address)}`);
      expect({ status: rows[i].status, location: rows[i].body.location ?? rows[i].body.code }).toEqual({
        status: get.status,
        location: get.body.location ?? get.body.code,
      });
    }
  });
});

describe('one lookup per distinct point', () => {
  it('asks FEMA and Census about each rounded point once, even with caching off', async () => {
    const a = demoPlace('dc-white-house-ae');
    const b = demoPlace('houston-nearby-hazards');
    await stack.get(`/flood-zone?lat=${a.lat}&lon=${a.lon}`);
    await stack.get(`/flood-zone?lat=${b.lat}&lon=${b.lon}`);
    const nfhlPerTwoPoints = nfhlQueries(stack.emulators);
    const coordinatesPerTwoPoints = census('coordinates');
    expect(nfhlPerTwoPoints).toBeGreaterThan(0);
    stack.emulators.resetCalls();

    const rows = await rowsOf([
      { lat: a.lat, lon: a.lon },
      { lat: String(a.lat), lon: String(a.lon) },
      { lat: a.lat + 1e-8, lon: a.lon - 2e-8 },
      { lat: b.lat, lon: b.lon },
      { lat: a.lat, lon: a.lon },
      { lat: b.lat, lon: b.lon },
    ]);
    expect(rows.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(nfhlQueries(stack.emulators)).toBe(nfhlPerTwoPoints);
    expect(census('coordinates')).toBe(coordinatesPerTwoPoints);
  });
});

describe('include=elevation', () => {
  async function withElevation(locations: unknown[]): Promise<Array<{ status: number; body: any }>> {
    const res = await fetch(`${stack.url}${BATCH}?include=elevation`, {
      method: 'POST',
      body: JSON.stringify({ locations }),
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { results: Array<{ status: number; body: any }> }).results;
  }

  it('asks the elevation service about each rounded point once per batch, even with caching off', async () => {
    const a = demoPlace('dc-white-house-ae');
    const b = demoPlace('houston-ah-one-bfe-line');
    // Around b the service answers late, so that the rows there hold the batch's 16 running slots (UPSTREAM_MAX_CONCURRENCY)
    // and the last row, at a again, starts only after a's answer is in: found in the batch's memo, not asked again.
    stack.emulators.elevation.setPoints([
      { at: [a.lon, a.lat], valueFt: 590.04 },
      { at: [b.lon, b.lat], valueFt: 44.5, delayMs: 400 },
    ]);
    const nearB = Array.from({ length: 16 }, (_, i) => ({ lat: b.lat + (i + 1) * 1e-5, lon: b.lon }));
    const locations = [
      { lat: a.lat, lon: a.lon },
      { lat: String(a.lat), lon: String(a.lon) },
      { lat: a.lat + 1e-8, lon: a.lon - 2e-8 },
      ...nearB,
      { lat: a.lat, lon: a.lon },
      nearB[0],
    ];
    const results = await withElevation(locations);
    expect(results.map((r) => [r.status, r.body.result.groundElevation?.elevationFt])).toEqual([
      [200, 590],
      [200, 590],
      [200, 590],
      ...nearB.map(() => [200, 44.5]),
      [200, 590],
      [200, 44.5],
    ]);
    expect(stack.emulators.elevation.callCount({ endpoint: 'json' })).toBe(1 + nearB.length);
    // The service asks about the point rounded to 6 decimals (its cache key).
    const micro = (degrees: number) => Math.round(degrees * 1e6);
    const asked = (lon: number, lat: number) =>
      stack.emulators.elevation.callCount((call) => micro(Number(call.query.x)) === micro(lon) && micro(Number(call.query.y)) === micro(lat));
    expect(asked(a.lon, a.lat)).toBe(1);
    expect(nearB.map((p) => asked(p.lon, p.lat))).toEqual(nearB.map(() => 1));

    // The next batch asks again: the memo lives as long as its batch (and caching is off).
    stack.emulators.resetCalls();
    expect((await withElevation([{ lat: a.lat, lon: a.lon }]))[0].body.result.groundElevation.elevationFt).toBe(590);
    expect(stack.emulators.elevation.callCount({ endpoint: 'json' })).toBe(1);
  });
});

describe('a client that disconnects', () => {
  it(
    'cancels the rest of its batch: the upstream calls stop',
    async () => {
      const place = demoPlace('dc-white-house-ae');
      stack.emulators.nfhl.setLatency(50);
      try {
        const locations = Array.from({ length: 400 }, (_, i) => ({ lat: place.lat + i * 0.00001, lon: place.lon }));
        const gone = new AbortController();
        const res = await send(locations, gone.signal);
        const reader = res.body!.getReader();
        await reader.read();
        gone.abort();
        // Lookups under way when the client left may finish their own calls; then nothing more starts.
        let settled = -1;
        for (let seen = nfhlQueries(stack.emulators); seen !== settled; seen = nfhlQueries(stack.emulators)) {
          settled = seen;
          await sleep(500);
        }
        await sleep(1000);
        expect(nfhlQueries(stack.emulators)).toBe(settled);
        // The whole batch makes several calls per point; what was made is far less than one per point.
        expect(settled).toBeLessThan(locations.length);
      } finally {
        stack.emulators.nfhl.setLatency(0);
      }
    },
    HEAVY_TEST_MS,
  );
});

describe('concurrent batches', () => {
  it(
    'runs at most BATCH_MAX_CONCURRENT (2) at once: a third is a 429 BATCH_BUSY with Retry-After',
    async () => {
      const place = demoPlace('sacramento-d');
      stack.emulators.nfhl.injectFault({ kind: 'delay', ms: 1500, match: { near: [place.lon, place.lat] } });
      const slow = [{ lat: place.lat, lon: place.lon }];
      // Headers come once the body is read and the batch runs.
      const running = await Promise.all([send(slow), send(slow)]);
      expect(running.map((r) => r.status)).toEqual([200, 200]);

      const busy = await send([{ lat: place.lat, lon: place.lon }]);
      const body = await busy.json();
      expectErrorEnvelope({ status: busy.status, headers: busy.headers, body, text: JSON.stringify(body) }, 429, 'BATCH_BUSY');
      expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);

      await Promise.all(running.map((r) => r.text()));
      stack.emulators.clearFaults();
      expect((await send([{ lat: place.lat, lon: place.lon }])).status).toBe(200);
    },
    HEAVY_TEST_MS,
  );

  it('frees the slot of a client that leaves in the middle of its body', async () => {
    const { port } = new URL(stack.url);
    for (let i = 0; i < 3; i++) {
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(`POST ${BATCH} HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: 1000\r\n\r\nlat,lon\n1,`);
      await sleep(100);
      socket.destroy();
      await new Promise((resolve) => socket.once('close', resolve));
    }
    await sleep(200);
    const place = demoPlace('sacramento-d');
    expect((await send([{ lat: place.lat, lon: place.lon }])).status).toBe(200);
  });
});
