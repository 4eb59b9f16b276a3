import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { CSV_ANSWER_COLUMNS } from '../batch/csv-answer';
import { runFloodZoneCli } from './flood-zone-program';

/** One batch request the fake service received. */
interface BatchCall {
  query: URLSearchParams;
  contentType?: string;
  accept?: string;
  header: string[];
  ids: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CANDIDATES = [
  { matchedAddress: '1 MAIN ST, A, TX', lat: 29.1, lon: -95.1 },
  { matchedAddress: '1 MAIN ST, B, TX', lat: 30.2, lon: -96.2 },
];

/**
 * One row's NDJSON answer as the endpoint gives it, by the row's id: "amb…" an ambiguous address (404 with
 * candidates), "down…" a failed upstream (502), any other a 200 whose flood zone is "Z-" and the id.
 */
function rowAnswer(index: number, id: string) {
  if (id.startsWith('amb'))
    return { index, id, status: 404, body: { error: 'Several places match.', statusCode: 404, code: 'AMBIGUOUS_ADDRESS', candidates: CANDIDATES } };
  if (id.startsWith('down'))
    return { index, id, status: 502, body: { error: 'The flood data is unavailable.', statusCode: 502, code: 'UPSTREAM_UNAVAILABLE' } };
  return { index, id, status: 200, body: { location: {}, result: { floodZone: `Z-${id}`, unavailable: [] }, retrievedAt: null } };
}

/**
 * A tiny stand-in for the flood-zone service on loopback: POST /flood-zone/batch answers NDJSON like the
 * endpoint (rows numbered within the request, streamed one by one), GET /flood-zone answers JSON.
 * `answer` may delay or fail a request by the id of its first row.
 */
class FakeFloodZoneService {
  readonly calls: BatchCall[] = [];
  readonly finishedFirstIds: string[] = [];
  inFlight = 0;
  mostInFlight = 0;
  answer: (firstId: string, call: BatchCall) => Promise<'ok' | 'fail' | 'busy' | 'cut' | 'short'> = () => Promise.resolve('ok');

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
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const index of rows.keys()) {
        if (index === Math.floor(rows.length / 2)) {
          // cut: the connection breaks off mid-line; short: the answer ends cleanly, rows missing
          if (verdict === 'cut') return void res.end('{"index":', () => res.destroy());
          if (verdict === 'short') return void res.end();
        }
        res.write(`${JSON.stringify(rowAnswer(index, call.ids[index]))}\n`);
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

const OUTPUT_HEADER = [...CSV_ANSWER_COLUMNS, 'error_message', 'candidates', 'portfolio_ref', 'notes'];

/** An output row: the named cells given, every other cell empty. */
const outputRow = (cells: Record<string, string>) => OUTPUT_HEADER.map((name) => cells[name] ?? '');

/** What a clean run writes for rows r0..r(n-1) of `writeInput`: what every finished run must equal. */
function expectedOutput(rows: number): string {
  const records = [OUTPUT_HEADER];
  for (let i = 0; i < rows; i += 1) {
    const location: Record<string, string> = i % 2 ? { query_lat: `29.${i}`, query_lon: '-95.4', notes: `note, ${i}` } : { query_address: `Street ${i}` };
    records.push(outputRow({ index: String(i), id: `r${i}`, status: '200', flood_zone: `Z-r${i}`, portfolio_ref: `P${i}`, ...location }));
  }
  return stringify(records);
}

const UNREAD_WARNING =
  'flood-zone: "portfolio_ref", "notes" are not read as a location (id, address, lat or latitude, lon or longitude, lng, long); copied to the output as given.\n';

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
  const summary = (rows: number, of: number, where = `in ${output}`, rest = '') =>
    `flood-zone: ${rows} of ${of} rows ${where}; by status 200: ${rows}${rest}\n`;

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
    expect(result).toEqual({ status: 0, stdout: '', stderr: UNREAD_WARNING + summary(25, 25) });
    expect(readFileSync(output, 'utf8')).toBe(expectedOutput(25));
    expect(fake.calls.map((c) => c.ids.length)).toEqual([10, 10, 5]);
    expect(fake.calls.map((c) => c.ids[0]).sort()).toEqual(['r0', 'r10', 'r20']);
    expect(fake.mostInFlight).toBe(2);
    for (const call of fake.calls) {
      expect({ contentType: call.contentType, accept: call.accept, header: call.header }).toEqual({
        contentType: 'text/csv',
        accept: 'application/x-ndjson',
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
    expect(result).toEqual({ status: 0, stdout: expectedOutput(30), stderr: UNREAD_WARNING + summary(30, 30, 'written') });
    expect(fake.mostInFlight).toBe(3);
    expect(fake.finishedFirstIds[fake.finishedFirstIds.length - 1]).toBe('r0');
  });

  it('asks again after Retry-After when the service is busy with other batches', async () => {
    writeInput(5);
    let busy = 2;
    fake.answer = () => Promise.resolve(busy-- > 0 ? 'busy' : 'ok');
    const result = await run(['batch', input, '-o', output, '--url', fake.url]);
    expect(result.status).toBe(0);
    expect(fake.calls).toHaveLength(3);
    expect(readFileSync(output, 'utf8')).toBe(expectedOutput(5));
  });

  it('exits 1 when a chunk fails as a whole, keeping the rows before it; --resume sends only the rest and completes the file', async () => {
    writeInput(45);
    fake.answer = (firstId) => Promise.resolve(firstId === 'r20' ? 'fail' : 'ok');
    const failed = await run(['batch', input, '-o', output, '--url', fake.url, '--chunk-size', '10', '--parallel', '1']);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toBe(
      UNREAD_WARNING +
        summary(20, 45, `in ${output}`, '; run again with --resume for the rest') +
        'flood-zone: the service did not answer rows 21-30: 503 UPSTREAM_UNAVAILABLE: The flood data is unavailable.\n',
    );
    expect(readFileSync(output, 'utf8')).toBe(expectedOutput(20));
    // the chunks after the failed one were never sent
    expect(fake.calls.map((c) => c.ids[0])).toEqual(['r0', 'r10', 'r20']);

    fake.calls.length = 0;
    fake.answer = () => Promise.resolve('ok');
    const resumed = await run(['batch', input, '-o', output, '--url', fake.url, '--chunk-size', '10', '--resume']);
    expect(resumed).toEqual({ status: 0, stdout: '', stderr: `${UNREAD_WARNING}flood-zone: 45 of 45 rows in ${output} (25 by this run); by status 200: 45\n` });
    expect(fake.calls.map((c) => c.ids)).toEqual([
      Array.from({ length: 10 }, (_, i) => `r${20 + i}`),
      Array.from({ length: 10 }, (_, i) => `r${30 + i}`),
      Array.from({ length: 5 }, (_, i) => `r${40 + i}`),
    ]);
    expect(readFileSync(output, 'utf8')).toBe(expectedOutput(45));
  });

  it('--resume discards a last line cut off mid-write and asks again from that row', async () => {
    writeInput(12);
    const complete = expectedOutput(12);
    const cutAt = complete.indexOf('\n7,r7,') + 7;
    writeFileSync(output, complete.slice(0, cutAt));
    const resumed = await run(['batch', input, '-o', output, '--url', fake.url, '--resume']);
    expect(resumed.status).toBe(0);
    expect(fake.calls.map((c) => c.ids[0])).toEqual(['r7']);
    expect(readFileSync(output, 'utf8')).toBe(complete);
  });

  it('--resume on a finished output sends nothing; on a missing OUTPUT it starts from the first row', async () => {
    writeInput(6);
    writeFileSync(output, expectedOutput(6));
    expect((await run(['batch', input, '-o', output, '--url', fake.url, '--resume'])).status).toBe(0);
    expect(fake.calls).toHaveLength(0);
    expect(readFileSync(output, 'utf8')).toBe(expectedOutput(6));

    rmSync(output);
    expect((await run(['batch', input, '-o', output, '--url', fake.url, '--resume'])).status).toBe(0);
    expect(readFileSync(output, 'utf8')).toBe(expectedOutput(6));
  });

  it('--resume refuses (exit 2, nothing sent, OUTPUT unchanged) an output written for another input', async () => {
    writeInput(6);
    const other = expectedOutput(6).replace('Street 4', 'Street 44');
    writeFileSync(output, other);
    const result = await run(['batch', input, '-o', output, '--url', fake.url, '--resume']);
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: '' });
    expect(result.stderr).toBe(
      `${UNREAD_WARNING}flood-zone: cannot resume: ${output} is not the output for ${input} (its row 5 is not the input's row at line 6); ` +
        'give another -o OUTPUT, or leave out --resume to start over.\n',
    );
    expect(fake.calls).toHaveLength(0);
    expect(readFileSync(output, 'utf8')).toBe(other);

    writeFileSync(output, expectedOutput(6).replace(',notes\n', ',remarks\n'));
    expect((await run(['batch', input, '-o', output, '--url', fake.url, '--resume'])).stderr).toMatch(/its columns differ from those this input gives/);
    writeFileSync(output, expectedOutput(7));
    expect((await run(['batch', input, '-o', output, '--url', fake.url, '--resume'])).stderr).toMatch(/it has 7 rows, the input 6/);
    expect(fake.calls).toHaveLength(0);
  });

  it.each([
    ['broken off mid-line', 'cut' as const, /^flood-zone: the answer to rows 11-20 was cut off: /m],
    ['ended early', 'short' as const, /^flood-zone: the answer to rows 11-20 ended after 5 of the 10 rows sent\.$/m],
  ])('exits 1 when an answer is %s, keeping the rows that arrived whole; --resume completes it', async (_case, verdict, message) => {
    writeInput(20);
    fake.answer = (firstId) => Promise.resolve(firstId === 'r10' ? verdict : 'ok');
    const result = await run(['batch', input, '-o', output, '--url', fake.url, '--chunk-size', '10', '--parallel', '1']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain(summary(15, 20, `in ${output}`, '; run again with --resume for the rest'));
    expect(readFileSync(output, 'utf8')).toBe(expectedOutput(15));

    fake.answer = () => Promise.resolve('ok');
    const resumed = await run(['batch', input, '-o', output, '--url', fake.url, '--chunk-size', '10', '--resume']);
    expect(resumed.status).toBe(0);
    expect(readFileSync(output, 'utf8')).toBe(expectedOutput(20));
  });

  it('exits 1 when the service cannot be reached, creating no output file and leaving an existing one as it was', async () => {
    writeInput(3);
    const url = fake.url;
    await fake.close();
    const result = await run(['batch', input, '-o', output, '--url', url]);
    expect(result).toEqual({ status: 1, stdout: '', stderr: `${UNREAD_WARNING}flood-zone: could not reach the flood-zone service at ${url}: ECONNREFUSED\n` });
    expect(existsSync(output)).toBe(false);
    writeFileSync(output, 'kept');
    expect((await run(['batch', input, '-o', output, '--url', url])).status).toBe(1);
    expect(readFileSync(output, 'utf8')).toBe('kept');
    fake = await FakeFloodZoneService.start();
  });

  it('writes no output file when the first chunk fails as a whole', async () => {
    writeInput(3);
    fake.answer = () => Promise.resolve('fail');
    expect((await run(['batch', input, '-o', output, '--url', fake.url])).status).toBe(1);
    expect(existsSync(output)).toBe(false);
  });

  it('takes the service URL from FLOOD_ZONE_URL', async () => {
    writeInput(2);
    const result = await run(['batch', input], { FLOOD_ZONE_URL: fake.url });
    expect(result).toEqual({ status: 0, stdout: expectedOutput(2), stderr: UNREAD_WARNING + summary(2, 2, 'written') });
  });

  it("exits 3 when rows got a 5xx, says so, and writes each error row's message and an ambiguous address's candidates", async () => {
    writeFileSync(input, 'id,address\nok1,1 Elm St\namb1,1 Main St\ndown1,2 Oak St\ndown2,3 Oak St\n');
    const result = await run(['batch', input, '-o', output, '--url', fake.url]);
    expect(result).toEqual({
      status: 3,
      stdout: '',
      stderr:
        `flood-zone: 4 of 4 rows in ${output}; by status 200: 1, 404: 1, 502: 2\n` +
        'flood-zone: 2 rows got a 5xx status (the service or a data source failed): exit status 3.\n',
    });
    const records = parse(readFileSync(output, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(records.map((r) => [r.id, r.status, r.error_code, r.error_message, r.candidates])).toEqual([
      ['ok1', '200', '', '', ''],
      ['amb1', '404', 'AMBIGUOUS_ADDRESS', 'Several places match.', JSON.stringify(CANDIDATES)],
      ['down1', '502', 'UPSTREAM_UNAVAILABLE', 'The flood data is unavailable.', ''],
      ['down2', '502', 'UPSTREAM_UNAVAILABLE', 'The flood data is unavailable.', ''],
    ]);
    // rows with a 5xx already in OUTPUT count too when --resume has nothing left to send
    const resumed = await run(['batch', input, '-o', output, '--url', fake.url, '--resume']);
    expect(resumed.status).toBe(3);
    expect(resumed.stderr).toBe(
      `flood-zone: 4 of 4 rows in ${output} (0 by this run); by status 200: 1, 404: 1, 502: 2\n` +
        'flood-zone: 2 rows got a 5xx status (the service or a data source failed): exit status 3.\n',
    );
  });

  it('reads latitude, longitude, lng and long as lat and lon in any case, warns about the columns it does not read, and passes them through', async () => {
    writeFileSync(input, ' ID ,Latitude,LNG,Lattitude,status\nr1,29.5,-95.1,x,open\n');
    const result = await run(['batch', input, '--url', fake.url]);
    expect(result.stderr).toBe(
      'flood-zone: "Lattitude", "status" are not read as a location (id, address, lat or latitude, lon or longitude, lng, long); copied to the output as given.\n' +
        'flood-zone: 1 of 1 rows written; by status 200: 1\n',
    );
    expect(fake.calls.map((c) => [c.header, c.ids])).toEqual([[['id', 'lat', 'lon'], ['r1']]]);
    const [header, row] = parse(result.stdout) as string[][];
    expect(header.slice(-4)).toEqual(['error_message', 'candidates', 'Lattitude', 'input_status']);
    expect(row.slice(0, 7)).toEqual(['0', 'r1', '200', '', '', '29.5', '-95.1']);
    expect(row.slice(-2)).toEqual(['x', 'open']);
    writeFileSync(input, 'id,long,lon,lat\nr1,1,2,3\n');
    const twice = await run(['batch', input, '--url', fake.url]);
    expect(twice).toEqual({ status: 2, stdout: '', stderr: `flood-zone: ${input}: the header row names lon twice ("long" and "lon"); keep one.\n` });
  });

  it("answers a ragged row itself as that row's 400 naming its line, and sends the others", async () => {
    writeFileSync(
      input,
      '\ufeffid,address,notes\r\nr0,"1 Main St, Houston",a\r\n\r\nr1,2 Elm St\r\nr2,"3 Oak\r\nSt",b\r\nr3,4 Ash St,c,extra\r\nr4,5 Fir St,d\r\n',
    );
    const result = await run(['batch', input, '--url', fake.url, '--chunk-size', '3']);
    expect(result.status).toBe(0);
    expect(fake.calls.map((c) => c.ids)).toEqual([['r0', 'r2'], ['r4']]);
    const records = parse(result.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(records.map((r) => [r.index, r.id, r.status, r.error_code, r.query_address, r.error_message, r.notes])).toEqual([
      ['0', 'r0', '200', '', '1 Main St, Houston', '', 'a'],
      ['1', 'r1', '400', 'INVALID_PARAMETERS', '2 Elm St', 'Line 4 has 2 cells; the header row has 3.', ''],
      ['2', 'r2', '200', '', '3 Oak\r\nSt', '', 'b'],
      ['3', 'r3', '400', 'INVALID_PARAMETERS', '4 Ash St', 'Line 7 has 4 cells; the header row has 3.', 'c'],
      ['4', 'r4', '200', '', '5 Fir St', '', 'd'],
    ]);
    expect(result.stderr).toMatch(/; by status 200: 3, 400: 2\n$/);
    // a chunk of ragged rows only sends nothing
    fake.calls.length = 0;
    const oneByOne = await run(['batch', input, '--url', fake.url, '--chunk-size', '1']);
    expect(oneByOne.stdout).toBe(result.stdout);
    expect(fake.calls.map((c) => c.ids)).toEqual([['r0'], ['r2'], ['r4']]);
  });

  it("writes cells a spreadsheet would run as a formula as text, the input's own cells included", async () => {
    writeFileSync(input, 'id,address,notes,score\n"=HYPERLINK(""x"")",1 Main St,@SUM(A1),-12.5\n+r2,\t2 Elm St,-x,+1\n');
    const result = await run(['batch', input, '--url', fake.url]);
    const records = parse(result.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(records.map((r) => [r.id, r.query_address, r.notes, r.score])).toEqual([
      ['\'=HYPERLINK("x")', '1 Main St', "'@SUM(A1)", '-12.5'],
      ["'+r2", "'\t2 Elm St", "'-x", "'+1"],
    ]);
    // the service is sent the cells as given
    expect(fake.calls[0].ids).toEqual(['=HYPERLINK("x")', '+r2']);
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
    [['batch', '{input}', '-o', '/no-such-dir/out.csv'], /^flood-zone: cannot write \/no-such-dir\/out\.csv: ENOENT\n$/],
    [['batch', '{input}', '--url', 'localhost:3000'], /^flood-zone: --url must be an http or https URL/],
    [['batch', '{input}', '--frobnicate'], /unknown option '--frobnicate'/],
    [['lookup'], /missing required argument 'location'/],
    [['lookup', '29.7', '-195.4'], /^flood-zone: .*lon/],
    [['lookup', '29.95'], /^flood-zone: "29\.95" is a lone number, not an address: give LAT LON \(two numbers\), or an address in quotes\.\n$/],
    [['lookup', '1600', 'Pennsylvania', 'Ave'], /^flood-zone: give one address \(in quotes\) or LAT LON/],
    [['lookup', '200 Main St', 'Houston'], /^flood-zone: .*\(an address goes in quotes, as one argument\)/],
    [['launch'], /unknown command 'launch'/],
  ])('exits 2 for bad arguments: %j', async (argv, message) => {
    writeFileSync(input, 'id,address\nr1,1 Main St\n');
    const args = argv.map((a) => a.replace('{input}', input));
    if (!args.includes('--url')) args.push('--url', fake.url);
    const result = await run(args);
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: '' });
    expect(result.stderr).toMatch(message);
    expect(fake.calls).toHaveLength(0);
  });

  it.each([
    [
      'no usable column',
      'name,street\nA,B\n',
      /: the header row names none of the columns id, address, lat \(or latitude\), lon \(or longitude, lng, long\)\.\n/,
    ],
    ['no rows', 'id,address\n', /has a header row but no rows/],
    ['empty', '', /is empty/],
    ['an open quote', 'id,address\nr1,ok\n\n\nr2,"open quote\nr3,x\nr4,y\n', /is not valid CSV: the record starting at line 5: Quote Not Closed/],
    ['a stray quote, far down', 'id,address\r\nr1,"two\r\nlines"\r\nr2,"bad"x\r\n', /is not valid CSV: the record starting at line 4: Invalid Closing Quote/],
  ])('exits 2 before any request for an input file it cannot use (%s)', async (_case, content, message) => {
    writeFileSync(input, content);
    const result = await run(['batch', input, '-o', output, '--url', fake.url]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(fake.calls).toHaveLength(0);
    expect(existsSync(output)).toBe(false);
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    expect(await run(['--version'])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('--help names every include value the service accepts', async () => {
    for (const command of ['batch', 'lookup']) {
      const result = await run([command, '--help']);
      expect(result.status).toBe(0);
      expect(result.stdout.replace(/\s+/g, ' ')).toContain('opt-in parts, comma-separated: nearby, preliminary, cbrs, elevation');
    }
  });

  it('--help names every exit status', async () => {
    const result = await run(['batch', '--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Exit status:\n {2}0 {2}every.*\n {2}1 .*\n {2}2 .*\n {2}3 {2}every row is in the output, but some got a 5xx status/);
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

  it('sends include=elevation as given', async () => {
    const result = await run(['lookup', '29.763', '-95.39', '--url', fake.url, '--include', 'elevation,nearby']);
    expect(result).toEqual({
      status: 0,
      stdout: `${JSON.stringify({ query: { lat: '29.763', lon: '-95.39', include: 'elevation,nearby' } }, null, 2)}\n`,
      stderr: '',
    });
  });

  it('prints the error envelope as JSON, its code and message on stderr, and exits 1 for a 404', async () => {
    const result = await run(['lookup', 'nowhere', '--url', fake.url]);
    expect(result).toEqual({
      status: 1,
      stdout: `${JSON.stringify({ error: 'No match.', statusCode: 404, code: 'ADDRESS_NOT_FOUND' }, null, 2)}\n`,
      stderr: 'flood-zone: 404 ADDRESS_NOT_FOUND: No match.\n',
    });
  });

  it('tells a lone number (a usage error) from an address with numbers in it (sent)', async () => {
    expect((await run(['lookup', '1600 Main St', '--url', fake.url])).status).toBe(0);
    expect((await run(['lookup', ' -29.5 ', '--url', fake.url])).status).toBe(2);
  });
});
