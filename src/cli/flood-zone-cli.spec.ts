import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { runFloodZoneCli } from './flood-zone-program';

/** One batch request the fake service received. */
interface BatchCall {
  query: URLSearchParams;
  contentType?: string;
  accept?: string;
  header: string[];
  ids: string[];
}

const ANSWER_HEADER = ['index', 'id', 'status', 'error_code', 'query_address', 'query_lat', 'query_lon', 'flood_zone'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A tiny stand-in for the flood-zone service on loopback: POST /flood-zone/batch answers CSV like the
 * endpoint (rows numbered within the request, streamed one by one), GET /flood-zone answers JSON.
 * `answer` may delay or fail a request by the id of its first row.
 */
class FakeFloodZoneService {
  readonly calls: BatchCall[] = [];
  readonly finishedFirstIds: string[] = [];
  inFlight = 0;
  mostInFlight = 0;
  answer: (firstId: string, call: BatchCall) => Promise<'ok' | 'fail' | 'busy' | 'cut'> = async () => 'ok';

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeFloodZoneService> {
    const server = createServer();
    const fake = new FakeFloodZoneService(server);
    server.on('request', (req, res) => void fake.handle(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/flood-zone') {
      const notFound = url.searchParams.get('address') === 'nowhere';
      res.writeHead(notFound ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(notFound ? { error: 'No match.', statusCode: 404, code: 'ADDRESS_NOT_FOUND' } : { query: Object.fromEntries(url.searchParams) }));
      return;
    }
    let body = '';
    for await (const part of req) body += part;
    const [header, ...rows] = parse(body) as string[][];
    const idColumn = header.indexOf('id');
    const call: BatchCall = {
      query: url.searchParams,
      contentType: req.headers['content-type'],
      accept: req.headers.accept,
      header,
      ids: rows.map((row) => row[idColumn]),
    };
    this.calls.push(call);
    this.inFlight += 1;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    try {
      const verdict = await this.answer(call.ids[0], call);
      if (verdict === 'busy') {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end(JSON.stringify({ error: 'Busy.', statusCode: 429, code: 'BATCH_BUSY' }));
        return;
      }
      if (verdict === 'fail') {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'The flood data is unavailable.', statusCode: 503, code: 'UPSTREAM_UNAVAILABLE' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write(`${ANSWER_HEADER.join(',')}\n`);
      const column = (name: string) => header.indexOf(name);
      for (const [index, row] of rows.entries()) {
        if (verdict === 'cut' && index === Math.floor(rows.length / 2)) {
          res.destroy();
          return;
        }
        const [address, lat, lon] = ['address', 'lat', 'lon'].map((name) => row[column(name)] ?? '');
        res.write(`${index},${row[idColumn]},200,,"${address}",${lat},${lon},Z-${row[idColumn]}\n`);
        await sleep(1);
      }
      res.end();
      this.finishedFirstIds.push(call.ids[0]);
    } finally {
      this.inFlight -= 1;
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (part: Buffer) => (out += part.toString()));
  stderr.on('data', (part: Buffer) => (err += part.toString()));
  const status = await runFloodZoneCli(argv, { stdout, stderr, env });
  return { status, stdout: out, stderr: err };
}

/** The answer a clean run gives for rows r0..r(n-1): what every finished run must equal. */
function expectedAnswer(rows: number): string {
  const lines = [ANSWER_HEADER.join(',')];
  for (let i = 0; i < rows; i += 1) lines.push(`${i},r${i},200,,${i % 2 ? '' : `Street ${i}`},${i % 2 ? `29.${i}` : ''},${i % 2 ? '-95.4' : ''},Z-r${i}`);
  return `${lines.join('\n')}\n`;
}

describe('flood-zone batch (against a fake service on loopback)', () => {
  let fake: FakeFloodZoneService;
  let dir: string;
  let input: string;
  let output: string;

  const writeInput = (rows: number) => {
    const lines = ['portfolio_ref,id,address,lat,lon,notes'];
    for (let i = 0; i < rows; i += 1) lines.push(i % 2 ? `P${i},r${i},,29.${i},-95.4,"note, ${i}"` : `P${i},r${i},Street ${i},,,`);
    writeFileSync(input, `${lines.join('\r\n')}\r\n`);
  };

  beforeEach(async () => {
    fake = await FakeFloodZoneService.start();
    dir = mkdtempSync(join(tmpdir(), 'flood-zone-cli-'));
    input = join(dir, 'portfolio.csv');
    output = join(dir, 'answer.csv');
  });
  afterEach(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends chunks of at most --chunk-size rows, two at a time, and writes one header then every row in input order', async () => {
    writeInput(25);
    const result = await run(['batch', input, '-o', output, '--url', fake.url, '--chunk-size', '10', '--include', 'nearby,cbrs', '--radius', '250']);
    expect(result).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(readFileSync(output, 'utf8')).toBe(expectedAnswer(25));
    expect(fake.calls.map((c) => c.ids.length)).toEqual([10, 10, 5]);
    expect(fake.calls.map((c) => c.ids[0]).sort()).toEqual(['r0', 'r10', 'r20']);
    expect(fake.mostInFlight).toBe(2);
    for (const call of fake.calls) {
      expect({ contentType: call.contentType, accept: call.accept, header: call.header }).toEqual({
        contentType: 'text/csv',
        accept: 'text/csv',
        // only the columns the service reads are sent
        header: ['id', 'address', 'lat', 'lon'],
      });
      expect(Object.fromEntries(call.query)).toEqual({ include: 'nearby,cbrs', radius: '250' });
    }
  });

  it('keeps input order when a later chunk finishes first', async () => {
    writeInput(30);
    fake.answer = async (firstId) => {
      if (firstId === 'r0') await sleep(300);
      return 'ok';
    };
    const result = await run(['batch', input, '--url', fake.url, '--chunk-size', '10', '--parallel', '3']);
    expect(result).toEqual({ status: 0, stdout: expectedAnswer(30), stderr: '' });
    expect(fake.mostInFlight).toBe(3);
    expect(fake.finishedFirstIds[fake.finishedFirstIds.length - 1]).toBe('r0');
  });

  it('asks again after Retry-After when the service is busy with other batches', async () => {
    writeInput(5);
    let busy = 2;
    fake.answer = async () => (busy-- > 0 ? 'busy' : 'ok');
    const result = await run(['batch', input, '-o', output, '--url', fake.url]);
    expect(result.status).toBe(0);
    expect(fake.calls).toHaveLength(3);
    expect(readFileSync(output, 'utf8')).toBe(expectedAnswer(5));
  });

  it('exits 1 when a chunk fails as a whole, keeping the rows before it; --resume sends only the rest and completes the file', async () => {
    writeInput(45);
    fake.answer = async (firstId) => (firstId === 'r20' ? 'fail' : 'ok');
    const failed = await run(['batch', input, '-o', output, '--url', fake.url, '--chunk-size', '10', '--parallel', '1']);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toBe('flood-zone: the service did not answer rows 21-30: 503 UPSTREAM_UNAVAILABLE: The flood data is unavailable.\n');
    expect(readFileSync(output, 'utf8')).toBe(expectedAnswer(20));
    // the chunks after the failed one were never sent
    expect(fake.calls.map((c) => c.ids[0])).toEqual(['r0', 'r10', 'r20']);

    fake.calls.length = 0;
    fake.answer = async () => 'ok';
    const resumed = await run(['batch', input, '-o', output, '--url', fake.url, '--chunk-size', '10', '--resume']);
    expect(resumed).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(fake.calls.map((c) => c.ids)).toEqual([
      Array.from({ length: 10 }, (_, i) => `r${20 + i}`),
      Array.from({ length: 10 }, (_, i) => `r${30 + i}`),
      Array.from({ length: 5 }, (_, i) => `r${40 + i}`),
    ]);
    expect(readFileSync(output, 'utf8')).toBe(expectedAnswer(45));
  });

  it('--resume discards a last line cut off mid-write and asks again from that row', async () => {
    writeInput(12);
    const complete = expectedAnswer(12);
    const cutAt = complete.indexOf('7,r7,') + 6;
    writeFileSync(output, complete.slice(0, cutAt));
    const resumed = await run(['batch', input, '-o', output, '--url', fake.url, '--resume']);
    expect(resumed.status).toBe(0);
    expect(fake.calls.map((c) => c.ids[0])).toEqual(['r7']);
    expect(readFileSync(output, 'utf8')).toBe(complete);
  });

  it('--resume on a finished answer sends nothing; on a missing OUTPUT it starts from the first row', async () => {
    writeInput(6);
    writeFileSync(output, expectedAnswer(6));
    expect((await run(['batch', input, '-o', output, '--url', fake.url, '--resume'])).status).toBe(0);
    expect(fake.calls).toHaveLength(0);
    expect(readFileSync(output, 'utf8')).toBe(expectedAnswer(6));

    rmSync(output);
    expect((await run(['batch', input, '-o', output, '--url', fake.url, '--resume'])).status).toBe(0);
    expect(readFileSync(output, 'utf8')).toBe(expectedAnswer(6));
  });

  it('exits 1 when an answer is cut off mid-stream, keeping only the complete chunks before it', async () => {
    writeInput(20);
    fake.answer = async (firstId) => (firstId === 'r10' ? 'cut' : 'ok');
    const result = await run(['batch', input, '-o', output, '--url', fake.url, '--chunk-size', '10', '--parallel', '1']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^flood-zone: the answer to rows 11-20 was cut off: /);
    // the first chunk in full; of the cut chunk, whole rows only (those that arrived)
    const written = readFileSync(output, 'utf8');
    const rows = written.split('\n').length - 2;
    expect(rows).toBeGreaterThanOrEqual(10);
    expect(rows).toBeLessThanOrEqual(15);
    expect(written).toBe(expectedAnswer(rows));
  });

  it('exits 1 when the service cannot be reached', async () => {
    writeInput(3);
    const url = fake.url;
    await fake.close();
    const result = await run(['batch', input, '-o', output, '--url', url]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`flood-zone: could not reach the flood-zone service at ${url}: ECONNREFUSED\n`);
    fake = await FakeFloodZoneService.start();
  });

  it('takes the service URL from FLOOD_ZONE_URL', async () => {
    writeInput(2);
    const result = await run(['batch', input], { FLOOD_ZONE_URL: fake.url });
    expect(result).toEqual({ status: 0, stdout: expectedAnswer(2), stderr: '' });
  });

  it.each([
    [['batch'], /missing required argument 'input'/],
    [['batch', 'no-such-file.csv'], /^flood-zone: cannot read no-such-file\.csv: ENOENT\n$/],
    [['batch', '{input}', '--include', 'nearby,floods'], /^flood-zone: .*nearby.*preliminary.*cbrs/],
    [['batch', '{input}', '--radius', '300'], /^flood-zone: .*radius/],
    [['batch', '{input}', '--include', 'nearby', '--radius', '5000'], /^flood-zone: .*radius/],
    [['batch', '{input}', '--chunk-size', '0'], /--chunk-size.*must be a whole number from 1/],
    [['batch', '{input}', '--parallel', 'two'], /--parallel.*must be a whole number from 1/],
    [['batch', '{input}', '--resume'], /^flood-zone: --resume needs -o OUTPUT/],
    [['batch', '{input}', '--url', 'localhost:3000'], /^flood-zone: --url must be an http or https URL/],
    [['batch', '{input}', '--frobnicate'], /unknown option '--frobnicate'/],
    [['lookup'], /missing required argument 'location'/],
    [['lookup', '29.7', '-195.4'], /^flood-zone: .*lon/],
    [['lookup', '1600', 'Pennsylvania', 'Ave'], /^flood-zone: give one address \(in quotes\) or LAT LON/],
    [['lookup', '200 Main St', 'Houston'], /^flood-zone: .*\(an address goes in quotes, as one argument\)/],
    [['launch'], /unknown command 'launch'/],
  ])('exits 2 for bad arguments: %j', async (argv, message) => {
    writeInput(2);
    const args = argv.map((a) => a.replace('{input}', input));
    if (!args.includes('--url')) args.push('--url', fake.url);
    const result = await run(args);
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: '' });
    expect(result.stderr).toMatch(message);
    expect(fake.calls).toHaveLength(0);
  });

  it.each([
    ['no usable column', 'name,street\nA,B\n', /has no column named id, address, lat, lon/],
    ['no rows', 'id,address\n', /has a header row but no rows/],
    ['empty', '', /is empty/],
    ['malformed', 'id,address\nr1,"open quote\n', /is not valid CSV at line/],
  ])('exits 2 for an input file it cannot use (%s)', async (_case, content, message) => {
    writeFileSync(input, content);
    const result = await run(['batch', input, '-o', output, '--url', fake.url]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(fake.calls).toHaveLength(0);
  });
});

describe('flood-zone lookup (against a fake service on loopback)', () => {
  let fake: FakeFloodZoneService;
  beforeAll(async () => (fake = await FakeFloodZoneService.start()));
  afterAll(() => fake.close());

  it('prints the answer as JSON and exits 0 for a 200, sending include and radius', async () => {
    const result = await run(['lookup', '29.763', '-95.39', '--url', fake.url, '--include', 'nearby', '--radius', '100']);
    expect(result).toEqual({
      status: 0,
      stdout: `${JSON.stringify({ query: { lat: '29.763', lon: '-95.39', include: 'nearby', radius: '100' } }, null, 2)}\n`,
      stderr: '',
    });
  });

  it('prints the error envelope and exits 1 for a 404', async () => {
    const result = await run(['lookup', 'nowhere', '--url', fake.url]);
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ error: 'No match.', statusCode: 404, code: 'ADDRESS_NOT_FOUND' });
  });
});
