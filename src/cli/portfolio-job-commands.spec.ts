import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { CommandFailure } from './command-failure';
import { FloodZoneApi } from './flood-zone-api';
import { JOB_UNAVAILABLE_RETRIES, waitForJob } from './portfolio-job-commands';

const ID = '3f2b9c1e-7a4d-4e8b-9c61-0d5e2a7b4f18';
const RESULTS = 'index,id,status\n0,r0,200\n';
const UNAVAILABLE = {
  error: 'The Redis that holds portfolio jobs (JOBS_REDIS_URL, else REDIS_URL) is not answering; retry shortly. Lookups and batches work as usual.',
  statusCode: 503,
  code: 'JOBS_UNAVAILABLE',
};

/** A stand-in for the job endpoints: each request is answered by the next of `answers` for its path, the last one repeated. */
class FakeJobService {
  readonly asked: string[] = [];
  private constructor(
    private readonly server: Server,
    private readonly answers: Record<'status' | 'results', Array<'running' | 'completed' | 'unavailable' | 'csv'>>,
  ) {}

  static async start(answers: FakeJobService['answers']): Promise<FakeJobService> {
    const server = createServer();
    const fake = new FakeJobService(server, answers);
    server.on('request', (req, res) => {
      const which = req.url!.includes('/results') ? 'results' : 'status';
      fake.asked.push(which);
      const queue = fake.answers[which];
      const answer = queue.length > 1 ? queue.shift()! : queue[0];
      if (answer === 'unavailable') {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end(JSON.stringify(UNAVAILABLE));
      } else if (answer === 'csv') {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.end(RESULTS);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: ID, status: answer, total: 1, done: answer === 'completed' ? 1 : 0, errors: 0, etaSeconds: null }));
      }
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return fake;
  }

  get api(): FloodZoneApi {
    return FloodZoneApi.fromOptions({ url: `http://127.0.0.1:${(this.server.address() as AddressInfo).port}` });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function waited(fake: FakeJobService): Promise<{ status: number | CommandFailure; stdout: string }> {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (part: Buffer) => (text += part.toString()));
  const status = await waitForJob(ID, fake.api, { stdout, pollMs: 0 }).catch((failure: CommandFailure) => failure);
  return { status, stdout: text };
}

describe('job wait (against a fake service on loopback)', () => {
  it('rides out the jobs Redis away for a while (503 with Retry-After), polling and downloading alike', async () => {
    const fake = await FakeJobService.start({
      status: ['unavailable', 'running', 'unavailable', 'unavailable', 'completed'],
      results: ['unavailable', 'csv'],
    });
    try {
      expect(await waited(fake)).toEqual({ status: 0, stdout: RESULTS });
      expect(fake.asked).toEqual(['status', 'status', 'status', 'status', 'status', 'results', 'results']);
    } finally {
      await fake.close();
    }
  });

  it(`fails with the service's words once it has been unavailable ${JOB_UNAVAILABLE_RETRIES + 1} times in a row`, async () => {
    const fake = await FakeJobService.start({ status: ['running', 'unavailable'], results: ['csv'] });
    try {
      const { status, stdout } = await waited(fake);
      expect(stdout).toBe('');
      expect(status).toBeInstanceOf(CommandFailure);
      expect((status as CommandFailure).message).toBe(`503 JOBS_UNAVAILABLE: ${UNAVAILABLE.error}`);
      expect(fake.asked).toEqual(Array.from({ length: 1 + JOB_UNAVAILABLE_RETRIES + 1 }, () => 'status'));
    } finally {
      await fake.close();
    }
  });
});
