/**
 * Request bodies are held to the pace rule (docs/api.md, "Slow uploads"), not to a fixed time for the whole request:
 * a body that keeps coming is read however long it takes; one that drips is cut off once its grace is over, on every
 * route that reads a body and after any answer given without reading it. Over real sockets.
 */
import { demoPlace } from '../../emulators';
import { chunkedAnswer, jsonAnswer, openRaw, postHead, type RawConnection } from '../../support/raw-connection';
import { expectErrorEnvelope, NO_CACHE, Stack, sleep, startStack } from '../../support/stack';

/** A short grace, so that a dripping client is dealt with in a second or two. */
const UPLOAD_GRACE_MS = 1000;
const place = demoPlace('dc-white-house-ae');

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ ...NO_CACHE, BATCH_UPLOAD_GRACE_MS: String(UPLOAD_GRACE_MS) });
});
afterAll(async () => {
  await stack?.close();
});

/** Resolves when `done` comes true (checked every 100 ms), or rejects after `withinMs`: a hang is the bug. */
async function within(withinMs: number, done: () => boolean): Promise<void> {
  const giveUpAt = Date.now() + withinMs;
  while (!done()) {
    if (Date.now() > giveUpAt) throw new Error(`not done within ${withinMs} ms`);
    await sleep(100);
  }
}

/** Writes a byte of `body` every 200 ms (never its last), until the connection closes. */
function drip(client: RawConnection, body: string): () => void {
  let sent = 0;
  const dripping = setInterval(() => {
    if (!client.socket.destroyed && sent < body.length - 1) client.socket.write(body[sent++]);
  }, 200);
  return () => clearInterval(dripping);
}

/** How long the service may take to see a drip, after its grace: two windows' worth of checks on a busy machine. */
const CUT_WITHIN_MS = UPLOAD_GRACE_MS + 10_000;

describe('a body that keeps coming', () => {
  it('is read whole at 16 KiB/s for longer than 30 s (which a fixed whole-request timeout answered 408)', async () => {
    // A batch of one location, the body padded with JSON whitespace to 33 s of sending at 16 KiB/s.
    const head = `{"locations":[{"id":"steady","lat":${place.lat},"lon":${place.lon}}]`;
    const chunk = ' '.repeat(4096);
    const chunks = 33 * 4;
    const length = Buffer.byteLength(head) + chunks * chunk.length + 1;
    const client = await openRaw(stack.url, postHead('/flood-zone/batch', 'application/json', length) + head);
    const started = Date.now();
    try {
      // 4 KiB every 250 ms: sixteen times the least pace, so a busy machine slowing the sender cannot bring it near it.
      for (let sent = 0; sent < chunks && !client.socket.destroyed; sent += 1) {
        client.socket.write(chunk);
        await sleep(250);
      }
      expect(Date.now() - started).toBeGreaterThan(30_000);
      client.socket.write('}');
      await within(30_000, () => client.socket.destroyed || (client.received().length > 0 && chunkedAnswer(client.received()).complete));
    } finally {
      client.socket.destroy();
    }
    const answer = chunkedAnswer(client.received());
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.trim())).toMatchObject({ index: 0, id: 'steady', status: 200 });
  });
});

describe('a body that drips', () => {
  it.each([
    ['POST /flood-zone (a footprint)', '/flood-zone', 'application/json', JSON.stringify({ lat: place.lat, lon: place.lon, footprint: null })],
    ['POST /mcp', '/mcp', 'application/json', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })],
    ['POST /flood-zone/batch', '/flood-zone/batch', 'application/json', JSON.stringify({ locations: [{ lat: place.lat, lon: place.lon }] })],
  ])('%s: 408 REQUEST_TIMEOUT once its grace is over, the connection closed', async (_route, path, type, body) => {
    const client = await openRaw(stack.url, postHead(path, type, Buffer.byteLength(body), 'Accept: application/json, text/event-stream\r\n'));
    const stop = drip(client, body);
    try {
      await within(CUT_WITHIN_MS, () => client.socket.destroyed || client.socket.readableEnded);
    } finally {
      stop();
      client.socket.destroy();
    }
    const answer = jsonAnswer(client.received());
    expectErrorEnvelope(answer, 408, 'REQUEST_TIMEOUT');
    expect(answer.headers.get('connection')).toBe('close');
    expect(answer.body.error).toMatch(/slower than 1024 bytes per second/);
  });

  it('after an answer given without reading it (405): the connection is closed', async () => {
    const body = 'x'.repeat(10_000);
    const client = await openRaw(stack.url, postHead('/health', 'text/plain', body.length));
    const stop = drip(client, body);
    try {
      await within(CUT_WITHIN_MS, () => client.socket.destroyed || client.socket.readableEnded);
    } finally {
      stop();
      client.socket.destroy();
    }
    expect(jsonAnswer(client.received()).status).toBe(405);
  });

  it('after a fast start, once a window passes without enough: 408', async () => {
    const body = JSON.stringify({ locations: [{ lat: place.lat, lon: place.lon }] }).padEnd(200_000, ' ');
    // nearly all of it at once (far more than the grace asks), then a byte at a time
    const client = await openRaw(stack.url, postHead('/flood-zone/batch', 'application/json', body.length) + body.slice(0, 150_000));
    const stop = drip(client, body.slice(150_000));
    try {
      await within(CUT_WITHIN_MS + 10_000, () => client.socket.destroyed || client.socket.readableEnded);
    } finally {
      stop();
      client.socket.destroy();
    }
    expectErrorEnvelope(jsonAnswer(client.received()), 408, 'REQUEST_TIMEOUT');
  });
});
