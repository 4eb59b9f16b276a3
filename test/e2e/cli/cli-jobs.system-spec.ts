/**
 * The built `flood-zone job` commands (`node dist/cli/main.js`; build first: `npm run build`) run as child
 * processes against the real app, the emulators and a Redis of the test's own: submit, status, wait -o
 * (resumable after it is killed), cancel, and their exit statuses.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { DEMO_ADDRESSES, DEMO_PLACES } from '../../emulators';
import { runCli, startCli } from '../../support/built-cli';
import { DisposableRedis } from '../../support/redis-server';
import { sleep, Stack, startStack } from '../../support/stack';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let redis: DisposableRedis;
let stack: Stack;
let dir: string;

beforeAll(async () => {
  redis = await DisposableRedis.start();
  stack = await startStack({ JOBS_REDIS_URL: redis.url, JOB_UPSTREAM_RATE_PER_SECOND: '400' });
  dir = mkdtempSync(join(tmpdir(), 'cli-jobs-'));
});
afterAll(async () => {
  await stack?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => stack.emulators.nfhl.setLatency(0));

/** A CSV of `count` points near the demo places, each a place of its own for the caches (from `first` on). */
function portfolioFile(name: string, count: number, first: number): string {
  const rows = Array.from({ length: count }, (_, i) => {
    const place = DEMO_PLACES[i % DEMO_PLACES.length];
    return `r${i},${place.lat},${(place.lon + (first + i) * 0.0001).toFixed(6)}`;
  });
  const path = join(dir, name);
  writeFileSync(path, `id,lat,lon\n${rows.join('\n')}\n`);
  return path;
}

/** A job's results as `job wait` writes them: the CSV answer with the input's columns. */
const resultsCsv = async (id: string) => (await fetch(`${stack.url}/flood-zone/jobs/${id}/results?columns=all`, { headers: { accept: 'text/csv' } })).text();

it('job submit prints the id; job wait -o writes the results CSV; job status prints the status', async () => {
  const input = portfolioFile('small.csv', 30, 0);
  const submitted = await runCli(['job', 'submit', input, '--url', stack.url, '--include', 'cbrs']);
  expect(submitted).toEqual({ status: 0, stdout: expect.stringMatching(/^[0-9a-f-]{36}\n$/), stderr: '' });
  const id = submitted.stdout.trim();
  expect(id).toMatch(UUID);

  const output = join(dir, 'small-results.csv');
  const waited = await runCli(['job', 'wait', id, '-o', output, '--url', stack.url]);
  expect(waited).toEqual({ status: 0, stdout: '', stderr: '' });
  expect(readFileSync(output, 'utf8')).toBe(await resultsCsv(id));
  expect(readFileSync(output, 'utf8').trimEnd().split('\n')).toHaveLength(31);
  const [header, first] = readFileSync(output, 'utf8').split('\n');
  expect(header.startsWith('index,id,status,')).toBe(true);
  expect(first.startsWith('0,r0,200,')).toBe(true);

  const status = await runCli(['job', 'status', id, '--url', stack.url]);
  expect(status.status).toBe(0);
  expect(JSON.parse(status.stdout)).toEqual(expect.objectContaining({ id, status: 'completed', total: 30, done: 30, errors: 0, etaSeconds: 0 }));
});

it('a loan book headed Loan ID,Address,Latitude,Longitude,Balance: job submit warns as batch does, job wait -o writes what batch -o writes', async () => {
  const places = DEMO_PLACES.filter((place) => !place.address).slice(0, 3);
  const rows = [
    `L1,"${DEMO_ADDRESSES.whiteHouse}",,,"250,000"`,
    ...places.map((place, i) => `L${i + 2},,${place.lat},${(place.lon + 0.00002).toFixed(6)},${i}000`),
    `L8,"${DEMO_ADDRESSES.ambiguous}",,,7`,
    'L9,,91,10,=1+1',
    'L10,,,,',
    'L11,,1,2',
  ];
  const input = join(dir, 'loans.csv');
  writeFileSync(input, `Loan ID,Address,Latitude,Longitude,Balance\n${rows.join('\n')}\n`);
  const warning = 'flood-zone: "Loan ID", "Balance" are not read as a location (id, address, lat or latitude, lon or longitude, lng, long)';

  const batchOutput = join(dir, 'loans-batch.csv');
  const batch = await runCli(['batch', input, '-o', batchOutput, '--url', stack.url]);
  expect([batch.status, batch.stderr.split('\n')[0]]).toEqual([0, `${warning}; copied to the output as given.`]);

  const submitted = await runCli(['job', 'submit', input, '--url', stack.url]);
  expect([submitted.status, submitted.stderr]).toEqual([0, `${warning}.\n`]);
  const jobOutput = join(dir, 'loans-job.csv');
  expect(await runCli(['job', 'wait', submitted.stdout.trim(), '-o', jobOutput, '--url', stack.url])).toEqual({ status: 0, stdout: '', stderr: '' });

  const records = (path: string) => parse(readFileSync(path, 'utf8'), { columns: true }) as Array<Record<string, string>>;
  const fromBatch = records(batchOutput);
  const fromJob = records(jobOutput);
  expect(readFileSync(jobOutput, 'utf8').split('\n')[0]).toBe(readFileSync(batchOutput, 'utf8').split('\n')[0]);
  expect(Object.keys(fromJob[0]).slice(-4)).toEqual(['error_message', 'candidates', 'Loan ID', 'Balance']);
  const withoutTime = (record: Record<string, string>) => ({ ...record, retrieved_at: undefined });
  expect(fromJob.map(withoutTime)).toEqual(fromBatch.map(withoutTime));
  expect(fromJob.map((record) => [record.status, record['Loan ID'], record.Balance])).toEqual([
    ['200', 'L1', '250,000'],
    ['200', 'L2', '0000'],
    ['200', 'L3', '1000'],
    ['200', 'L4', '2000'],
    ['404', 'L8', '7'],
    ['422', 'L9', "'=1+1"],
    ['400', 'L10', ''],
    ['400', 'L11', ''],
  ]);
  expect(fromJob[4].candidates).not.toBe('');
});

it('job wait, killed mid-wait, run again: goes on waiting, then writes the whole results once', async () => {
  stack.emulators.nfhl.setLatency(150);
  const input = portfolioFile('slow.csv', 200, 1000);
  const id = (await runCli(['job', 'submit', input, '--url', stack.url])).stdout.trim();
  const output = join(dir, 'slow-results.csv');

  const first = startCli(['job', 'wait', id, '-o', output, '--url', stack.url]);
  await sleep(1500);
  first.child.kill('SIGKILL');
  expect((await first.finished).status).toBeNull();
  expect(existsSync(output)).toBe(false);

  const again = await runCli(['job', 'wait', id, '-o', output, '--url', stack.url]);
  expect(again).toEqual({ status: 0, stdout: '', stderr: '' });
  expect(readFileSync(output, 'utf8')).toBe(await resultsCsv(id));
  expect(readFileSync(output, 'utf8').trimEnd().split('\n')).toHaveLength(201);
  expect(existsSync(`${output}.part`)).toBe(false);
});

it('job cancel stops the job; waiting for it then fails (exit 1); a bad file or an unknown job say so', async () => {
  stack.emulators.nfhl.setLatency(200);
  const input = portfolioFile('cancel.csv', 300, 2000);
  const id = (await runCli(['job', 'submit', input, '--url', stack.url])).stdout.trim();
  expect(await runCli(['job', 'cancel', id, '--url', stack.url])).toEqual({ status: 0, stdout: `cancelled ${id}\n`, stderr: '' });
  const status = JSON.parse((await runCli(['job', 'status', id, '--url', stack.url])).stdout);
  expect(status.status).toBe('cancelled');

  const waited = await runCli(['job', 'wait', id, '--url', stack.url]);
  expect(waited.status).toBe(1);
  expect(waited.stderr).toContain(`job ${id} cancelled`);

  const missing = await runCli(['job', 'submit', join(dir, 'no-such.csv'), '--url', stack.url]);
  expect(missing.status).toBe(2);
  expect(missing.stderr).toContain('cannot read');

  const empty = join(dir, 'empty.csv');
  writeFileSync(empty, '');
  const refused = await runCli(['job', 'submit', empty, '--url', stack.url]);
  expect(refused.status).toBe(2);
  expect(refused.stderr).toContain('400 INVALID_BATCH');

  const unknown = await runCli(['job', 'status', '3f2b9c1e-7a4d-4e8b-9c61-0d5e2a7b4f18', '--url', stack.url]);
  expect(unknown.status).toBe(1);
  expect(unknown.stderr).toContain('404 JOB_NOT_FOUND');
});
