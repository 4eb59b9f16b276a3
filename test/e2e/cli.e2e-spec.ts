/**
 * The built `flood-zone` command (`node dist/cli/main.js`, the package's bin; build first: `npm run build`)
 * run as a child process on real files, against the real app and the upstream emulators (CONTRACT section 13).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { DEMO_ADDRESSES, DEMO_PLACES } from '../emulators';
import { closedPort } from '../support/redis-server';
import { addressQuery, ISO_UTC_MS, NO_CACHE, pointQuery, sleep, Stack, startStack } from '../support/stack';

const CLI = join(__dirname, '..', '..', 'dist', 'cli', 'main.js');

interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

function startCli(args: string[]): { child: ChildProcess; finished: Promise<Finished> } {
  const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (part: Buffer) => (stdout += part.toString()));
  child.stderr!.on('data', (part: Buffer) => (stderr += part.toString()));
  const finished = once(child, 'exit').then(([status]) => ({ status: status as number | null, stdout, stderr }));
  return { child, finished };
}

const runCli = (args: string[]) => startCli(args).finished;

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
async function endpointAnswer(stack: Stack, csv: string): Promise<string[][]> {
  const res = await fetch(`${stack.url}/flood-zone/batch`, { method: 'POST', headers: { 'content-type': 'text/csv', accept: 'text/csv' }, body: csv });
  expect(res.status).toBe(200);
  return parse(await res.text());
}

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

  it('batch: chunked and in parallel, the output is the endpoint\'s CSV answer for the same rows, renumbered over the whole file', async () => {
    const rows = portfolioRows();
    const input = join(dir, 'portfolio.csv');
    const output = join(dir, 'answer.csv');
    writeFileSync(input, stringify(rows));
    const result = await runCli(['batch', input, '-o', output, '--url', stack.url, '--chunk-size', '7', '--parallel', '2']);
    expect(result).toEqual({ status: 0, stdout: '', stderr: '' });
    const written = parse(readFileSync(output, 'utf8')) as string[][];
    expect(written).toHaveLength(rows.length);
    expect(written.slice(1).map((record) => record[0])).toEqual(rows.slice(1).map((_row, i) => String(i)));
    expect(withoutRetrievedAt(written)).toEqual(withoutRetrievedAt(await endpointAnswer(stack, stringify(rows))));
    const statuses = written.slice(1).map((record) => record[2]);
    expect(statuses.slice(-5)).toEqual(['404', '404', '422', '400', '400']);
   }, 60_000);

  it('batch: writes to stdout without -o, with include and radius applied to every row', async () => {
    const rows = [['id', 'lat', 'lon'], ...DEMO_PLACES.slice(0, 4).map((p) => [p.id, String(p.lat), String(p.lon)])];
    const input = join(dir, 'few.csv');
    writeFileSync(input, stringify(rows));
    const result = await runCli(['batch', input, '--url', stack.url, '--include', 'nearby', '--radius', '200']);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    const res = await fetch(`${stack.url}/flood-zone/batch?include=nearby&radius=200`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', accept: 'text/csv' },
      body: stringify(rows),
    });
    expect(withoutRetrievedAt(parse(result.stdout))).toEqual(withoutRetrievedAt(parse(await res.text())));
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
    expect(JSON.parse(noMatch.stdout)).toMatchObject({ statusCode: 404, code: 'ADDRESS_NOT_FOUND' });
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
      ['lookup'],
    ]) {
      const result = await runCli(args);
      expect({ args, status: result.status, stdout: result.stdout }).toEqual({ args, status: 2, stdout: '' });
      expect(result.stderr.length).toBeGreaterThan(0);
    }
    expect(stack.emulators.census.callCount({}) + stack.emulators.nfhl.callCount({})).toBe(0);
  });

  it('exits 1 with a message when the service cannot be reached', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const input = join(dir, 'portfolio.csv');
    writeFileSync(input, stringify(portfolioRows()));
    const batch = await runCli(['batch', input, '-o', join(dir, 'none.csv'), '--url', url]);
    expect(batch).toEqual({ status: 1, stdout: '', stderr: `flood-zone: could not reach the flood-zone service at ${url}: ECONNREFUSED\n` });
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
    const interrupted = parse(readFileSync(output, 'utf8'), { relax_column_count: true }) as string[][];
    expect(interrupted.length).toBeLessThan(rows.length);

    const resumed = await runCli([...args, '--resume']);
    expect(resumed).toEqual({ status: 0, stdout: '', stderr: '' });
    const written = parse(readFileSync(output, 'utf8')) as string[][];
    expect(written.map((record) => record[0])).toEqual(['index', ...rows.slice(1).map((_row, i) => String(i))]);
    expect(written.map((record) => record[1])).toEqual(rows.map((row) => row[0]));
    expect(withoutRetrievedAt(written)).toEqual(withoutRetrievedAt(await endpointAnswer(stack, stringify(rows))));
  }, 60_000);
});
