/**
 * Watches (/flood-zone/watches) as the end-to-end suites drive them: a watch polled until it reaches a state (its
 * work is done by workers, there is no push), its events read by cursor, a change published on an emulator as FEMA
 * publishes one, a sweep asked for through the sweep queue as the schedule asks for one.
 */
import { Queue } from 'bullmq';
import { WATCH_SWEEP_QUEUE } from '../../src/watches/watch-queues';
import { call } from './portfolio-jobs';
import { sleep } from './stack';

export const WATCHES = '/flood-zone/watches';

/**
 * Polls the watch until `done` holds for its status. A 503 (the jobs Redis away a moment) is asked again, as a client
 * told to retry would.
 */
export async function watchUntil(base: string, id: string, done: (status: any) => boolean, what = 'the state waited for'): Promise<any> {
  for (let attempt = 0; attempt < 1200; attempt++) {
    const { status, body } = await call(base, `${WATCHES}/${id}`).catch(() => ({ status: 0, body: undefined }));
    if (status === 200 && done(body)) return body;
    await sleep(100);
  }
  throw new Error(`watch ${id} never reached ${what}`);
}

/** Every event of the watch in order, paged by cursor. */
export async function allEvents(base: string, id: string): Promise<any[]> {
  const events: any[] = [];
  let after: string | null = null;
  for (;;) {
    const query: string = after === null ? '?limit=1000' : `?limit=1000&after=${after}`;
    const { status, body } = await call(base, `${WATCHES}/${id}/events${query}`);
    if (status !== 200) throw new Error(`the events of watch ${id} answered ${status}`);
    events.push(...body.events);
    if (body.events.length < 1000) return events;
    after = body.next;
  }
}

/** Publishes a map change on an emulator, as FEMA publishes one (POST /_emulator/publish). */
export async function publish(emulatorBaseUrl: string, change: Record<string, unknown>): Promise<void> {
  const answer = await fetch(`${new URL(emulatorBaseUrl).origin}/_emulator/publish`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(change),
  });
  if (answer.status !== 201) throw new Error(`the emulator refused the change (${answer.status}): ${await answer.text()}`);
}

/** The sweep queue of the watches in the jobs Redis at `redisUrl`: `add('sweep', { full })` asks for a sweep. */
export function sweepQueue(redisUrl: string): Queue {
  const queue = new Queue(WATCH_SWEEP_QUEUE, { connection: { url: redisUrl } });
  // A suite that restarts Redis expects its connection to fail meanwhile; it reconnects by itself.
  queue.on('error', () => undefined);
  return queue;
}
