import { once } from 'node:events';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { CommandFailure } from './command-failure';
import { FloodZoneApi } from './flood-zone-api';
import { createWatch, watchEvents } from './watch-commands';

const ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const event = (n: number) => ({ id: `${n}-0`, watchId: ID, locationId: `loan-${n}`, kind: 'entered_sfha' });

/** A stand-in for the watch endpoints: records each request (method, URL, content type, body) and answers with `answer`. */
async function fakeService(answer: (req: IncomingMessage, body: string) => { status: number; body: unknown }) {
  const asked: Array<{ method: string; url: string; type: string | undefined; body: string }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      asked.push({ method: req.method!, url: req.url!, type: req.headers['content-type'], body });
      const { status, body: json } = answer(req, body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    asked,
    api: FloodZoneApi.fromOptions({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const output = () => {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
};

describe('watch create', () => {
  it('sends a CSV file with the webhook and name as query parameters, and prints the watch with its secret', async () => {
    const created = { id: ID, status: 'baselining', total: 1, webhook: { url: 'https://example.com/h', secret: 'whsec_abc' } };
    const fake = await fakeService(() => ({ status: 201, body: created }));
    const file = join(mkdtempSync(join(tmpdir(), 'watch-')), 'book.csv');
    writeFileSync(file, 'id,lat,lon\nloan-1,29.7,-95.3\n');
    const out = output();
    try {
      expect(await createWatch({ input: file, webhook: 'https://example.com/h', name: 'Book' }, fake.api, out.stream)).toBe(0);
    } finally {
      await fake.close();
    }
    expect(fake.asked).toEqual([
      { method: 'POST', url: '/flood-zone/watches?webhook=https%3A%2F%2Fexample.com%2Fh&name=Book', type: 'text/csv', body: 'id,lat,lon\nloan-1,29.7,-95.3\n' },
    ]);
    expect(JSON.parse(out.text())).toEqual(created);
  });

  it('sends a job id as JSON; a refused webhook is a bad argument (exit 2) saying why', async () => {
    const fake = await fakeService(() => ({ status: 422, body: { error: 'webhook.url is refused: not https', statusCode: 422, code: 'WEBHOOK_URL_REFUSED' } }));
    const failure = await createWatch({ fromJob: 'job-1', webhook: 'http://example.com/h' }, fake.api, output().stream).catch((error: unknown) => error);
    await fake.close();
    expect(fake.asked[0]).toEqual({
      method: 'POST',
      url: '/flood-zone/watches',
      type: 'application/json',
      body: JSON.stringify({ fromJob: 'job-1', webhook: { url: 'http://example.com/h' } }),
    });
    expect(failure).toBeInstanceOf(CommandFailure);
    expect([(failure as CommandFailure).exitStatus, (failure as CommandFailure).message]).toEqual([2, expect.stringContaining('not https')]);
  });

  it('needs exactly one of --from-job and --input', async () => {
    const api = FloodZoneApi.fromOptions({ url: 'http://127.0.0.1:9' });
    await expect(createWatch({}, api, output().stream)).rejects.toThrow('give one of --from-job ID and --input FILE.');
    await expect(createWatch({ fromJob: 'a', input: 'b' }, api, output().stream)).rejects.toThrow('give one of --from-job ID and --input FILE.');
  });
});

describe('watch events', () => {
  it('prints every event once, in order, paging with the cursor; --follow asks again after the last page until stopped', async () => {
    const pages: Record<string, { events: unknown[]; next: string | null }> = {
      '': { events: Array.from({ length: 1000 }, (_, n) => event(n + 1)), next: '1000-0' },
      '1000-0': { events: [event(1001)], next: '1001-0' },
    };
    const stop = new AbortController();
    let asksAfterLast = 0;
    const fake = await fakeService((req) => {
      const after = new URL(req.url!, 'http://x').searchParams.get('after') ?? '';
      if (after === '1001-0' && ++asksAfterLast === 2) stop.abort();
      return { status: 200, body: pages[after] ?? { events: [], next: after } };
    });
    const out = output();
    try {
      expect(await watchEvents(ID, fake.api, out.stream, { follow: true, pollMs: 1, signal: stop.signal })).toBe(0);
    } finally {
      await fake.close();
    }
    const lines = out
      .text()
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(lines).toEqual(Array.from({ length: 1001 }, (_, n) => `${n + 1}-0`));
    expect(fake.asked.map(({ url }) => url)).toEqual([
      `/flood-zone/watches/${ID}/events?limit=1000`,
      `/flood-zone/watches/${ID}/events?limit=1000&after=1000-0`,
      `/flood-zone/watches/${ID}/events?limit=1000&after=1001-0`,
      `/flood-zone/watches/${ID}/events?limit=1000&after=1001-0`,
    ]);
  });
});
