/**
 * POST /flood-zone/batch against clients that misbehave, over real sockets: one that hangs up in the middle
 * of its answer, one that never reads it, uploads that drip, a compressed body. None of them may keep a
 * batch slot from the clients that behave.
 */
import { gzipSync } from 'node:zlib';
import { demoPlace } from '../../emulators';
import { chunkedAnswer, jsonAnswer, openRaw, postHead } from '../../support/raw-connection';
import { expectErrorEnvelope, NO_CACHE, Stack, sleep, startStack } from '../../support/stack';

const BATCH = '/flood-zone/batch';
const place = demoPlace('dc-white-house-ae');
/** Short bounds, so that each misbehaving client is dealt with in a second or two. */
const UPLOAD_GRACE_MS = 1000;
const ANSWER_STALL_MS = 1000;

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    ...NO_CACHE,
    BATCH_MAX_CONCURRENT: '2',
    BATCH_UPLOAD_GRACE_MS: String(UPLOAD_GRACE_MS),
    BATCH_ANSWER_STALL_MS: String(ANSWER_STALL_MS),
  });
});
afterAll(async () => {
  await stack?.close();
});
afterEach(() => stack.emulators.nfhl.setLatency(0));

/** `count` distinct points near one demo place (each its own lookup). */
const points = (count: number) => Array.from({ length: count }, (_, i) => ({ lat: place.lat + i * 0.00001, lon: place.lon }));

const post = (locations: unknown[]) =>
  fetch(`${stack.url}${BATCH}`, { method: 'POST', body: JSON.stringify({ locations }), headers: { 'content-type': 'application/json' } });

/** BATCH_MAX_CONCURRENT (2) batches at once: the statuses they get, with their answers read to the end. */
async function twoBatchesAtOnce(): Promise<number[]> {
  const answers = await Promise.all([post(points(1)), post(points(1))]);
  await Promise.all(answers.map((a) => a.text()));
  return answers.map((a) => a.status);
}

const jsonHead = (contentLength: number) => postHead(BATCH, 'application/json', contentLength);

/** Resolves when `done` comes true (checked every 100 ms), or rejects after `withinMs`: a hang is the bug. */
async function within(withinMs: number, done: () => Promise<boolean> | boolean): Promise<void> {
  const giveUpAt = Date.now() + withinMs;
  while (!(await done())) {
    if (Date.now() > giveUpAt) throw new Error(`not done within ${withinMs} ms`);
    await sleep(100);
  }
}

describe('a client that hangs up in the middle of its answer', () => {
  it('gives its slot back: the next BATCH_MAX_CONCURRENT batches are all 200', async () => {
    stack.emulators.nfhl.setLatency(300);
    const body = JSON.stringify({ locations: points(200) });
    const client = await openRaw(stack.url, jsonHead(Buffer.byteLength(body)) + body);
    await within(10_000, () => client.received().includes('"index":0'));
    client.socket.destroy();
    stack.emulators.nfhl.setLatency(0);
    expect(await twoBatchesAtOnce()).toEqual([200, 200]);
  });
});

describe('a client that never reads its answer', () => {
  it('is abandoned once nothing it is sent drains for BATCH_ANSWER_STALL_MS: its slot is freed and its answer cut', async () => {
    // Far more answer than the socket buffers hold (about 1.3 KB a row), so the service's writes wait on the client.
    const body = JSON.stringify({ locations: Array.from({ length: 10_000 }, () => ({ lat: place.lat, lon: place.lon })) });
    const client = await openRaw(stack.url, jsonHead(Buffer.byteLength(body)) + body);
    // Its answer has begun (so it holds a slot); from now on it reads nothing.
    await within(10_000, () => client.received().includes('HTTP/1.1 200 OK'));
    client.socket.pause();
    try {
      // The rows written before the socket filled (a few seconds on a busy machine), the stall bound, and room.
      await within(15_000 + ANSWER_STALL_MS, async () => (await twoBatchesAtOnce()).every((status) => status === 200));
      client.socket.resume();
      await client.closed;
    } finally {
      client.socket.destroy();
    }
    const answer = chunkedAnswer(client.received());
    expect(answer.status).toBe(200);
    expect(answer.complete).toBe(false);
  });
});

describe('uploads that drip', () => {
  it('hold no slot while they drip, and get a 408 REQUEST_TIMEOUT (connection closed) once below 1 KiB/s after BATCH_UPLOAD_GRACE_MS', async () => {
    const body = JSON.stringify({ locations: points(1) });
    const drips = await Promise.all([0, 1].map(() => openRaw(stack.url, jsonHead(Buffer.byteLength(body)))));
    let closed = 0;
    for (const drip of drips) void drip.closed.then(() => closed++);
    let sentBytes = 0;
    // A byte every 0.5 s from each, never the whole body.
    const dripping = setInterval(() => {
      for (const drip of drips) if (!drip.socket.destroyed) drip.socket.write(body[sentBytes]);
      sentBytes = Math.min(sentBytes + 1, body.length - 2);
    }, 500);
    try {
      await sleep(300);
      expect(await twoBatchesAtOnce()).toEqual([200, 200]);
      await within(UPLOAD_GRACE_MS + 3000, () => closed === drips.length);
    } finally {
      clearInterval(dripping);
      for (const drip of drips) drip.socket.destroy();
    }
    for (const drip of drips) {
      const answer = jsonAnswer(drip.received());
      expectErrorEnvelope(answer, 408, 'REQUEST_TIMEOUT');
      expect(answer.headers.get('connection')).toBe('close');
      expect(answer.body.error).toMatch(/slower than 1024 bytes per second/);
    }
    expect(await twoBatchesAtOnce()).toEqual([200, 200]);
  });
});

describe('a compressed batch body', () => {
  it.each(['gzip', 'br', 'deflate, gzip'])('is a 415 UNSUPPORTED_MEDIA_TYPE with Content-Encoding: %s', async (encoding) => {
    const res = await fetch(`${stack.url}${BATCH}`, {
      method: 'POST',
      body: gzipSync(JSON.stringify({ locations: points(1) })),
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    });
    const text = await res.text();
    const answer = { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
    expectErrorEnvelope(answer, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(answer.body.error).toBe(`A batch body is sent uncompressed, not with Content-Encoding: ${encoding}.`);
  });

  it('is read as usual with Content-Encoding: identity', async () => {
    const res = await fetch(`${stack.url}${BATCH}`, {
      method: 'POST',
      body: JSON.stringify({ locations: points(1) }),
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(await res.text())).toEqual(expect.objectContaining({ index: 0, status: 200 }));
  });
});
