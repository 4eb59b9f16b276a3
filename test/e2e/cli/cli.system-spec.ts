/**
 * The built `flood-zone` command (`node dist/cli/main.js`, the package's bin; build first: `npm run build`)
 * run as a child process on real files, against the real app and the upstream emulators.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { CSV_ANSWER_COLUMNS } from '../../../src/batch/csv-answer';
import { DEMO_ADDRESSES, DEMO_PLACES, RunningEmulators, demoPlace, startEmulators } from '../../emulators';
import { CLI, runCli, startCli } from '../../support/built-cli';
import { MENOMINEE_HOUSE_POINT, footprintAround } from '../batch/demo-building-rows';
import { BuiltService } from '../../support/built-service';
import { closedPort } from '../../support/redis-server';
import { addressQuery, FAST_FAULTS, ISO_UTC_MS, NO_CACHE, pointQuery, sleep, Stack, startStack } from '../../support/stack';

/** A portfolio of every demo place, by address where it has one, plus rows the service answers with errors. */
function portfolioRows(): string[][] {
  const rows: string[][] = [['id', 'address', 'lat', 'lon']];
  for (const place of DEMO_PLACES) {
    rows.push([`${place.id}-point`, '', String(place.lat), String(place.lon)]);
    if (place.address) rows.push([`${place.id}-address`, place.address, '', '']);
  }
  rows.push(['no-match', DEMO_ADDRESSES.noMatch, '', ''], ['ambiguous', DEMO_ADDRESSES.ambiguous, '', '']);
  rows.push(['out-of-range', '', '95', '-90'], ['both', 'x', '1', '2'], ['', '', '', '']);
  return rows;
}

/** The endpoint's own CSV answer for the whole file in one request. */
async function endpointAnswer(url: string, csv: string, query = ''): Promise<string[][]> {
  const res = await fetch(`${url}/flood-zone/batch${query}`, { method: 'POST', headers: { 'content-type': 'text/csv', accept: 'text/csv' }, body: csv });
  expect(res.status).toBe(200);
  return parse(await res.text());
}

/** The endpoint's NDJSON answer: each row's error envelope message and candidates, as the output's error columns hold them. */
async function endpointErrorColumns(url: string, csv: string): Promise<string[][]> {
  const res = await fetch(`${url}/flood-zone/batch`, { method: 'POST', headers: { 'content-type': 'text/csv', accept: 'application/x-ndjson' }, body: csv });
  expect(res.status).toBe(200);
  const rows = (await res.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { status: number; body: { error?: string; candidates?: unknown } });
  return rows.map(({ status, body }) => (status === 200 ? ['', ''] : [body.error!, body.candidates ? JSON.stringify(body.candidates) : '']));
}

const ANSWER_WIDTH = CSV_ANSWER_COLUMNS.length;
/** The columns of the output that are the endpoint's CSV answer. */
const answerPart = (records: string[][]) => records.map((record) => record.slice(0, ANSWER_WIDTH));

/** Answers compared cell by cell, except `retrieved_at` (when each lookup ran), which must be a timestamp or empty. */
function withoutRetrievedAt(records: string[][]): string[][] {
  const column = records[0].indexOf('retrieved_at');
  expect(column).toBeGreaterThan(0);
  for (const record of records.slice(1)) expect(record[column]).toMatch(record[2] === '200' ? ISO_UTC_MS : /^$/);
  return records.map((record) => record.filter((_cell, i) => i !== column));
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npm run build)`);
});

describe('flood-zone command line, built, against the app and the emulators', () => {
  let stack: Stack;
  let dir: string;
  beforeAll(async () => {
    stack = await startStack();
    dir = mkdtempSync(join(tmpdir(), 'flood-zone-cli-e2e-'));
  });
  afterAll(async () => {
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("batch: chunked and in parallel, the output is the endpoint's CSV answer for the same rows, renumbered over the whole file", async () => {
    const rows = portfolioRows();
    const input = join(dir, 'portfolio.csv');
    const output = join(dir, 'answer.csv');
    writeFileSync(input, stringify(rows));
    const result = await runCli(['batch', input, '-o', output, '--url', stack.url, '--chunk-size', '7', '--parallel', '2']);
    const rowCount = rows.length - 1;
    expect(result).toEqual({
      status: 0,
      stdout: '',
      stderr: `flood-zone: ${rowCount} of ${rowCount} rows in ${output}; by status 200: ${rowCount - 5}, 400: 2, 404: 2, 422: 1\n`,
    });
    const written = parse(readFileSync(output, 'utf8')) as string[][];
    expect(written).toHaveLength(rows.length);
    expect(written[0]).toEqual([...CSV_ANSWER_COLUMNS, 'error_message', 'candidates']);
    expect(written.slice(1).map((record) => record[0])).toEqual(rows.slice(1).map((_row, i) => String(i)));
    expect(withoutRetrievedAt(answerPart(written))).toEqual(withoutRetrievedAt(await endpointAnswer(stack.url, stringify(rows))));
    expect(written.slice(1).map((record) => record.slice(ANSWER_WIDTH))).toEqual(await endpointErrorColumns(stack.url, stringify(rows)));
    const statuses = written.slice(1).map((record) => record[2]);
    expect(statuses.slice(-5)).toEqual(['404', '404', '422', '400', '400']);
    const ambiguous = written.find((record) => record[1] === 'ambiguous')!;
    expect(JSON.parse(ambiguous[ANSWER_WIDTH + 1])).toEqual([
      { matchedAddress: expect.any(String), lat: expect.any(Number), lon: expect.any(Number) },
      { matchedAddress: expect.any(String), lat: expect.any(Number), lon: expect.any(Number) },
    ]);
  }, 60_000);

  it('batch: writes to stdout without -o, with include and radius applied to every row', async () => {
    const rows = [['id', 'lat', 'lon'], ...DEMO_PLACES.slice(0, 4).map((p) => [p.id, String(p.lat), String(p.lon)])];
    const input = join(dir, 'few.csv');
    writeFileSync(input, stringify(rows));
    const result = await runCli(['batch', input, '--url', stack.url, '--include', 'nearby', '--radius', '200']);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: 'flood-zone: 4 of 4 rows written; by status 200: 4\n' });
    const expected = await endpointAnswer(stack.url, stringify(rows), '?include=nearby&radius=200');
    expect(withoutRetrievedAt(answerPart(parse(result.stdout)))).toEqual(withoutRetrievedAt(expected));
  });

  it("batch --include elevation: the ground and its difference from the BFE beside the community's NFIP standing", async () => {
    const place = demoPlace('houston-ah-one-bfe-line');
    stack.emulators.elevation.setPoints([{ at: [place.lon, place.lat], valueFt: 44.5, resolution: 1 }]);
    const rows = [
      ['id', 'lat', 'lon'],
      [place.id, String(place.lat), String(place.lon)],
    ];
    const input = join(dir, 'elevation.csv');
    writeFileSync(input, stringify(rows));
    const result = await runCli(['batch', input, '--url', stack.url, '--include', 'elevation']);
    expect(result.status).toBe(0);
    const [header, written] = parse(result.stdout) as string[][];
    const columns = ['nfip_participating', 'crs_class', 'sfha_discount_percent', 'ground_elevation_ft', 'ground_minus_bfe_ft'];
    expect(columns.map((name) => written[header.indexOf(name)])).toEqual(['true', '5', '25', '44.5', '-2.5']);
    expect(withoutRetrievedAt(answerPart([header, written]))).toEqual(
      withoutRetrievedAt(await endpointAnswer(stack.url, stringify(rows), '?include=elevation')),
    );
  });

  it('batch --include structure,determination: the building and form columns, a footprint column sent with its rows', async () => {
    const { lat, lon } = MENOMINEE_HOUSE_POINT;
    const rows = [
      ['id', 'lat', 'lon', 'footprint', 'Ref'],
      ['found', String(lat), String(lon), '', 'R1'],
      ['given-x', String(lat), String(lon), JSON.stringify(footprintAround(-20)), 'R2'],
      ['bad', String(lat), String(lon), '{"type": "Point"}', 'R3'],
    ];
    const input = join(dir, 'buildings.csv');
    writeFileSync(input, stringify(rows));
    const result = await runCli(['batch', input, '--url', stack.url, '--include', 'structure,determination']);
    expect(result.status).toBe(0);
    const [header, ...written] = parse(result.stdout) as string[][];
    const columns = [
      'id',
      'status',
      'error_code',
      'building_match',
      'building_in_sfha',
      'building_sfha_share_percent',
      'building_zones',
      'determination_basis',
      'flood_insurance_required',
      'error_message',
      'Ref',
    ];
    expect(written.map((record) => columns.map((name) => record[header.indexOf(name)]))).toEqual([
      ['found', '200', '', 'contains', 'true', '40.1', 'AE 40.1; X 59.9', 'building', '', '', 'R1'],
      ['given-x', '200', '', 'given', 'false', '0', 'X 100.0', 'building', 'false', '', 'R2'],
      [
        'bad',
        '400',
        'INVALID_FOOTPRINT',
        '',
        '',
        '',
        '',
        '',
        '',
        'footprint: must be a GeoJSON Polygon, MultiPolygon, or a Feature of one; got a "Point"',
        'R3',
      ],
    ]);
    expect(withoutRetrievedAt(answerPart([header, ...written]))).toEqual(
      withoutRetrievedAt(await endpointAnswer(stack.url, stringify(rows), '?include=structure,determination')),
    );
  });

  it('lookup --footprint FILE: POST /flood-zone with the GeoJSON outline, include as a list; a file that is no footprint exits 2, nothing asked', async () => {
    const { lat, lon } = MENOMINEE_HOUSE_POINT;
    const footprint = footprintAround(10);
    const file = join(dir, 'house.geojson');
    writeFileSync(file, JSON.stringify({ type: 'Feature', properties: {}, geometry: footprint }));
    const result = await runCli(['lookup', String(lat), String(lon), '--footprint', file, '--include', 'determination', '--url', stack.url]);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    const answer = JSON.parse(result.stdout);
    const post = await fetch(`${stack.url}/flood-zone`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lat, lon, footprint, include: ['determination'] }),
    });
    expect(answer).toEqual(await post.json());
    expect([answer.result.structure.match, answer.result.structure.buildingInSfha, answer.result.determination.basis]).toEqual(['given', true, 'building']);

    const notClosed = join(dir, 'open.geojson');
    writeFileSync(notClosed, JSON.stringify({ type: 'Polygon', coordinates: [footprint.coordinates[0].slice(0, 4)] }));
    expect(await runCli(['lookup', String(lat), String(lon), '--footprint', notClosed, '--url', stack.url])).toEqual({
      status: 2,
      stdout: '',
      stderr: `flood-zone: ${notClosed}: footprint: ring 1 is not closed (its first and last positions differ).\n`,
    });
  });

  it('lookup: prints the GET answer as JSON and exits 0; an address with no match prints the envelope and exits 1', async () => {
    const place = DEMO_PLACES.find((p) => p.address)!;
    const byAddress = await runCli(['lookup', place.address!, '--url', stack.url]);
    expect({ status: byAddress.status, stderr: byAddress.stderr }).toEqual({ status: 0, stderr: '' });
    const get = await stack.get(addressQuery(place.address!));
    expect({ ...JSON.parse(byAddress.stdout), retrievedAt: null }).toEqual({ ...get.body, retrievedAt: null });

    const byPoint = await runCli(['lookup', String(place.lat), String(place.lon), '--url', stack.url, '--include', 'cbrs']);
    expect(byPoint.status).toBe(0);
    const getPoint = await stack.get(`${pointQuery(place)}&include=cbrs`);
    expect({ ...JSON.parse(byPoint.stdout), retrievedAt: null }).toEqual({ ...getPoint.body, retrievedAt: null });

    const noMatch = await runCli(['lookup', DEMO_ADDRESSES.noMatch, '--url', stack.url]);
    expect(noMatch.status).toBe(1);
    const envelope = JSON.parse(noMatch.stdout) as { error: string };
    expect(envelope).toEqual({ error: expect.any(String), statusCode: 404, code: 'ADDRESS_NOT_FOUND', requestId: expect.any(String) });
    expect(noMatch.stderr).toBe(`flood-zone: 404 ADDRESS_NOT_FOUND: ${envelope.error}\n`);
  });

  it('lookup: a lone number is a usage error (exit 2, nothing asked), not an address to geocode', async () => {
    stack.emulators.resetCalls();
    const result = await runCli(['lookup', '29.95', '--url', stack.url]);
    expect(result).toEqual({
      status: 2,
      stdout: '',
      stderr: 'flood-zone: "29.95" is a lone number, not an address: give LAT LON (two numbers), or an address in quotes.\n',
    });
    expect(stack.emulators.census.callCount({})).toBe(0);
  });

  it('batch: a messy real-world CSV (BOM, CRLF, quoted commas, aliases, extra columns, ragged rows, formula cells) keeps what was given', async () => {
    const [a, b, c] = DEMO_PLACES;
    const withAddress = DEMO_PLACES.find((p) => p.address)!;
    const input = join(dir, 'messy.csv');
    const lines = [
      'Loan,ID,Address,Latitude,LNG,Notes',
      `L1,p1,,${a.lat},${a.lon},"Riverside, flood-prone"`,
      `L2,p2,"${withAddress.address}",,,"=HYPERLINK(""http://x"")"`,
      `L3,p3,,${b.lat},${b.lon}`,
      '',
      `L4,@p4,,${c.lat},${c.lon},-12`,
      `L5,p5,,${c.lat},${c.lon},+1,extra`,
    ];
    writeFileSync(input, `\ufeff${lines.join('\r\n')}\r\n`);
    const result = await runCli(['batch', input, '--url', stack.url, '--chunk-size', '2']);
    expect(result).toEqual({
      status: 0,
      stdout: expect.any(String),
      stderr:
        'flood-zone: "Loan", "Notes" are not read as a location (id, address, lat or latitude, lon or longitude, lng, long); copied to the output as given.\n' +
        'flood-zone: 5 of 5 rows written; by status 200: 3, 400: 2\n',
    });
    const written = parse(result.stdout) as string[][];
    expect(written[0]).toEqual([...CSV_ANSWER_COLUMNS, 'error_message', 'candidates', 'Loan', 'Notes']);
    const named = written.slice(1).map((record) => Object.fromEntries(written[0].map((name, i) => [name, record[i]])));
    expect(named.map((r) => [r.index, r.id, r.status, r.error_code, r.query_lat, r.error_message, r.Loan, r.Notes])).toEqual([
      ['0', 'p1', '200', '', String(a.lat), '', 'L1', 'Riverside, flood-prone'],
      ['1', 'p2', '200', '', '', '', 'L2', `'=HYPERLINK("http://x")`],
      ['2', 'p3', '400', 'INVALID_PARAMETERS', String(b.lat), 'Line 4 has 5 cells; the header row has 6.', 'L3', ''],
      ['3', "'@p4", '200', '', String(c.lat), '', 'L4', '-12'],
      ['4', 'p5', '400', 'INVALID_PARAMETERS', String(c.lat), 'Line 7 has 7 cells; the header row has 6.', 'L5', "'+1"],
    ]);
    // the rows sent are answered as the endpoint answers them (its index aside: the output numbers the whole file)
    const sent = [
      ['id', 'address', 'lat', 'lon'],
      ['p1', '', String(a.lat), String(a.lon)],
      ['p2', withAddress.address!, '', ''],
      ['@p4', '', String(c.lat), String(c.lon)],
    ];
    const endpoint = withoutRetrievedAt(await endpointAnswer(stack.url, stringify(sent))).map((record) => record.slice(1));
    const output = withoutRetrievedAt(answerPart([written[0], written[1], written[2], written[4]])).map((record) => record.slice(1));
    expect(output).toEqual(endpoint);
  });

  it('batch --resume refuses an output written for another input (exit 2, nothing sent, output unchanged)', async () => {
    const first = join(dir, 'first.csv');
    const second = join(dir, 'second.csv');
    const output = join(dir, 'first-answer.csv');
    const rowsOf = (prefix: string) => [['id', 'lat', 'lon'], ...DEMO_PLACES.slice(0, 3).map((p) => [`${prefix}-${p.id}`, String(p.lat), String(p.lon)])];
    writeFileSync(first, stringify(rowsOf('first')));
    writeFileSync(second, stringify(rowsOf('second')));
    expect((await runCli(['batch', first, '-o', output, '--url', stack.url])).status).toBe(0);
    const before = readFileSync(output, 'utf8');
    stack.emulators.resetCalls();
    const refused = await runCli(['batch', second, '-o', output, '--url', stack.url, '--resume']);
    expect(refused).toEqual({
      status: 2,
      stdout: '',
      stderr:
        `flood-zone: cannot resume: ${output} is not the output for ${second} (its row 1 is not the input's row at line 2); ` +
        'give another -o OUTPUT, or leave out --resume to start over.\n',
    });
    expect(readFileSync(output, 'utf8')).toBe(before);
    expect(stack.emulators.nfhl.callCount({})).toBe(0);
  });

  it('exits 2 for bad arguments, before any request', async () => {
    const input = join(dir, 'portfolio.csv');
    writeFileSync(input, stringify(portfolioRows()));
    stack.emulators.resetCalls();
    for (const args of [
      ['batch', join(dir, 'missing.csv'), '--url', stack.url],
      ['batch', input, '--url', stack.url, '--include', 'floods'],
      ['batch', input, '--url', stack.url, '--radius', '100'],
      ['batch', input, '--url', stack.url, '--resume'],
      ['lookup', '91', '-90', '--url', stack.url],
      ['lookup', '-90.07', '--url', stack.url],
      ['lookup'],
    ]) {
      const result = await runCli(args);
      expect({ args, status: result.status, stdout: result.stdout }).toEqual({ args, status: 2, stdout: '' });
      expect(result.stderr.length).toBeGreaterThan(0);
    }
    expect(stack.emulators.census.callCount({}) + stack.emulators.nfhl.callCount({})).toBe(0);
  }, 30_000);

  it('exits 1 with a message when the service cannot be reached', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const input = join(dir, 'portfolio.csv');
    writeFileSync(input, stringify(portfolioRows()));
    const batch = await runCli(['batch', input, '-o', join(dir, 'none.csv'), '--url', url]);
    expect(batch).toEqual({ status: 1, stdout: '', stderr: `flood-zone: could not reach the flood-zone service at ${url}: ECONNREFUSED\n` });
    expect(existsSync(join(dir, 'none.csv'))).toBe(false);
    const lookup = await runCli(['lookup', '29.763', '-95.39', '--url', url]);
    expect(lookup).toEqual({ status: 1, stdout: '', stderr: `flood-zone: could not reach the flood-zone service at ${url}: ECONNREFUSED\n` });
  });
});

describe('the package bin as npm runs it (npx flood-zone)', () => {
  it('is built executable, with a node shebang, and runs on its own', async () => {
    expect(readFileSync(CLI, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    expect(statSync(CLI).mode & 0o111).toBe(0o111);
    const help = spawn(CLI, ['--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    help.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const [code] = (await once(help, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(out).toMatch(/^Usage: flood-zone /);
    expect(out).toMatch(/\bbatch\b/);
    expect(out).toMatch(/\blookup\b/);
  });
});

describe('flood-zone batch --resume after an interrupted run (slow upstreams)', () => {
  let stack: Stack;
  let dir: string;
  beforeAll(async () => {
    stack = await startStack(NO_CACHE, { latencyMs: 40 });
    dir = mkdtempSync(join(tmpdir(), 'flood-zone-cli-resume-'));
  });
  afterAll(async () => {
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('killed mid-run, then resumed: every row exactly once, in order, as the endpoint answers it', async () => {
    const rows = [['id', 'lat', 'lon'], ...DEMO_PLACES.map((p) => [p.id, String(p.lat), String(p.lon)])];
    const input = join(dir, 'portfolio.csv');
    const output = join(dir, 'answer.csv');
    writeFileSync(input, stringify(rows));
    const args = ['batch', input, '-o', output, '--url', stack.url, '--chunk-size', '4', '--parallel', '1'];

    const first = startCli(args);
    let linesWritten = 0;
    while (linesWritten < 9) {
      await sleep(20);
      linesWritten = existsSync(output) && statSync(output).size > 0 ? readFileSync(output, 'utf8').split('\n').length - 1 : 0;
    }
    first.child.kill('SIGKILL');
    const killed = await first.finished;
    expect(killed.status).toBeNull();
    const interruptedText = readFileSync(output, 'utf8');
    const interrupted = parse(interruptedText, { relax_column_count: true }) as string[][];
    expect(interrupted.length).toBeLessThan(rows.length);
    // every cell here fits on one line: the rows complete are the lines ended
    const done = interruptedText.split('\n').length - 2;

    const resumed = await runCli([...args, '--resume']);
    const total = DEMO_PLACES.length;
    expect(resumed).toEqual({
      status: 0,
      stdout: '',
      stderr: `flood-zone: ${total} of ${total} rows in ${output} (${total - done} by this run); by status 200: ${total}\n`,
    });
    const written = parse(readFileSync(output, 'utf8')) as string[][];
    expect(written.map((record) => record[0])).toEqual(['index', ...rows.slice(1).map((_row, i) => String(i))]);
    expect(written.map((record) => record[1])).toEqual(rows.map((row) => row[0]));
    expect(withoutRetrievedAt(answerPart(written))).toEqual(withoutRetrievedAt(await endpointAnswer(stack.url, stringify(rows))));
  }, 60_000);
});

describe('flood-zone batch when rows get a 5xx (an upstream failing for them)', () => {
  let stack: Stack;
  let dir: string;
  beforeAll(async () => {
    stack = await startStack(FAST_FAULTS);
    dir = mkdtempSync(join(tmpdir(), 'flood-zone-cli-5xx-'));
  });
  afterAll(async () => {
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 3 and says why, every row written; --resume with nothing left to send exits 3 too', async () => {
    const places = DEMO_PLACES.slice(0, 3);
    const input = join(dir, 'portfolio.csv');
    const output = join(dir, 'answer.csv');
    writeFileSync(input, stringify([['id', 'lat', 'lon'], ...places.map((p) => [p.id, String(p.lat), String(p.lon)])]));
    stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 500, match: { near: [places[1].lon, places[1].lat] } });
    try {
      const failed = `flood-zone: 1 row got a 5xx status (the service or a data source failed): exit status 3.\n`;
      const result = await runCli(['batch', input, '-o', output, '--url', stack.url]);
      expect(result).toEqual({ status: 3, stdout: '', stderr: `flood-zone: 3 of 3 rows in ${output}; by status 200: 2, 502: 1\n${failed}` });
      const written = parse(readFileSync(output, 'utf8'), { columns: true }) as Array<Record<string, string>>;
      expect(written.map((r) => [r.id, r.status, r.error_code, r.error_message === '' ? '' : 'message'])).toEqual([
        [places[0].id, '200', '', ''],
        [places[1].id, '502', 'UPSTREAM_UNAVAILABLE', 'message'],
        [places[2].id, '200', '', ''],
      ]);

      const resumed = await runCli(['batch', input, '-o', output, '--url', stack.url, '--resume']);
      expect(resumed).toEqual({ status: 3, stdout: '', stderr: `flood-zone: 3 of 3 rows in ${output} (0 by this run); by status 200: 2, 502: 1\n${failed}` });
    } finally {
      stack.emulators.clearFaults();
    }
  });
});

describe('flood-zone batch when the service shuts down mid-batch', () => {
  let emulators: RunningEmulators;
  let dir: string;
  beforeAll(async () => {
    emulators = await startEmulators();
    dir = mkdtempSync(join(tmpdir(), 'flood-zone-cli-shutdown-'));
  });
  afterAll(async () => {
    await emulators?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the answer cut off by the shutdown fails its chunk (exit 1, the rows before it kept); --resume against another instance completes it', async () => {
    const rows = [['id', 'lat', 'lon'], ...DEMO_PLACES.slice(0, 12).map((p) => [p.id, String(p.lat), String(p.lon)])];
    const input = join(dir, 'portfolio.csv');
    const output = join(dir, 'answer.csv');
    writeFileSync(input, stringify(rows));
    const env = { ...emulators.env, ...NO_CACHE, SHUTDOWN_GRACE_MS: '300', LOG_LEVEL: 'warn' };
    const first = await BuiltService.start(env);
    const second = await BuiltService.start(env);
    try {
      // every flood-zone query of the first chunks slow, so a chunk is under way when the service stops
      emulators.nfhl.injectFault({ kind: 'delay', ms: 1500, match: 'Flood Hazard Zones' });
      const run = startCli(['batch', input, '-o', output, '--url', first.url, '--chunk-size', '4', '--parallel', '1']);
      let exited = false;
      void run.finished.then(() => (exited = true));
      while (!exited && (!existsSync(output) || readFileSync(output, 'utf8').split('\n').length < 3)) await sleep(20);
      expect(exited).toBe(false);
      await sleep(200);
      first.process.kill('SIGTERM');
      const cut = await run.finished;
      expect(cut.status).toBe(1);
      expect(cut.stderr).toMatch(
        /^flood-zone: \d+ of 12 rows in .*; by status 200: \d+; run again with --resume for the rest\nflood-zone: the answer to rows 5-8 (was cut off: |ended after )/,
      );
      const kept = parse(readFileSync(output, 'utf8')) as string[][];
      expect(kept.length - 1).toBeGreaterThanOrEqual(4);
      expect(kept.length - 1).toBeLessThan(8);

      emulators.clearFaults();
      const resumed = await runCli(['batch', input, '-o', output, '--url', second.url, '--chunk-size', '4', '--resume']);
      expect(resumed).toEqual({
        status: 0,
        stdout: '',
        stderr: `flood-zone: 12 of 12 rows in ${output} (${13 - kept.length} by this run); by status 200: 12\n`,
      });
      const written = parse(readFileSync(output, 'utf8')) as string[][];
      expect(written.map((record) => record[1])).toEqual(rows.map((row) => row[0]));
      expect(withoutRetrievedAt(answerPart(written))).toEqual(withoutRetrievedAt(await endpointAnswer(second.url, stringify(rows))));
    } finally {
      emulators.clearFaults();
      await first.stop();
      await second.stop();
    }
  }, 60_000);
});
