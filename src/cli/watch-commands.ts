import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { badArguments, CommandFailure, serviceFailed } from './command-failure';
import { errorResponseText, FloodZoneApi } from './flood-zone-api';

const WATCHES_PATH = '/flood-zone/watches';
/** How often `watch events --follow` asks for new events. */
export const WATCH_FOLLOW_POLL_MS = 5000;

/** How many "ask again later" answers in a row `watch events --follow` rides out, each after its Retry-After. */
const FOLLOW_UNAVAILABLE_RETRIES = 24;
const askAgainLater = (response: Response) => (response.status === 429 || response.status === 503) && response.headers.has('retry-after');

const watchUrl = (api: FloodZoneApi, id: string, rest = '') => `${api.baseUrl}${WATCHES_PATH}/${encodeURIComponent(id)}${rest}`;

/** A refused request as the command's failure: a 400/413/415/422 about the input is a bad argument (2), anything else 1. */
async function refused(response: Response): Promise<CommandFailure> {
  const why = await errorResponseText(response);
  return [400, 413, 415, 422].includes(response.status) ? badArguments(why) : serviceFailed(why);
}

/**
 * `watch create --from-job ID | --input FILE [--webhook URL] [--name NAME]`: creates a watch of a completed job's rows or
 * of a CSV file's locations; prints the watch as the service answers it (its id, and the webhook's secret, shown this once).
 */
export async function createWatch(
  source: { fromJob?: string; input?: string; webhook?: string; name?: string },
  api: FloodZoneApi,
  stdout: Writable,
): Promise<number> {
  if ((source.fromJob === undefined) === (source.input === undefined)) throw badArguments('give one of --from-job ID and --input FILE.');
  let response: Response;
  if (source.fromJob !== undefined) {
    const body = { fromJob: source.fromJob, ...(source.name ? { name: source.name } : {}), ...(source.webhook ? { webhook: { url: source.webhook } } : {}) };
    response = await api.request(api.urlOf(WATCHES_PATH), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  } else {
    const input = source.input as string;
    try {
      await stat(input);
    } catch {
      throw badArguments(`cannot read ${input}.`);
    }
    const query: Record<string, string> = {};
    if (source.webhook) query.webhook = source.webhook;
    if (source.name) query.name = source.name;
    const body = Readable.toWeb(createReadStream(input)) as ReadableStream;
    response = await api.request(api.urlOf(WATCHES_PATH, query), {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body,
      duplex: 'half',
    } as RequestInit);
  }
  if (response.status !== 201) throw await refused(response);
  stdout.write(`${JSON.stringify(await response.json(), null, 2)}\n`);
  return 0;
}

/** `watch status ID`: the watch's status document as JSON. */
export async function showWatchStatus(id: string, api: FloodZoneApi, stdout: Writable): Promise<number> {
  const response = await api.request(watchUrl(api, id), {});
  if (!response.ok) throw await refused(response);
  stdout.write(`${JSON.stringify(await response.json(), null, 2)}\n`);
  return 0;
}

/** `watch stop ID`. */
export async function stopWatch(id: string, api: FloodZoneApi, stdout: Writable): Promise<number> {
  const response = await api.request(watchUrl(api, id), { method: 'DELETE' });
  if (!response.ok) throw await refused(response);
  stdout.write(`stopped ${id}\n`);
  return 0;
}

/**
 * `watch events ID [--after EVENT] [--follow]`: the watch's events, one JSON line each, in order from the first (or after
 * EVENT); with --follow it keeps asking for new ones, until stopped or `signal` aborts.
 */
export async function watchEvents(
  id: string,
  api: FloodZoneApi,
  stdout: Writable,
  { after, follow = false, pollMs = WATCH_FOLLOW_POLL_MS, signal }: { after?: string; follow?: boolean; pollMs?: number; signal?: AbortSignal } = {},
): Promise<number> {
  let cursor = after ?? null;
  for (;;) {
    const query = cursor === null ? '?limit=1000' : `?limit=1000&after=${encodeURIComponent(cursor)}`;
    // Following, a service that says "later" (its jobs Redis away) is asked again after its Retry-After.
    const response = await api.requestPatiently(
      watchUrl(api, id, `/events${query}`),
      {},
      { retries: follow ? FOLLOW_UNAVAILABLE_RETRIES : 0, later: askAgainLater },
    );
    if (!response.ok) throw await refused(response);
    const page = (await response.json()) as { events: unknown[]; next: string | null };
    for (const event of page.events) stdout.write(`${JSON.stringify(event)}\n`);
    cursor = page.next;
    if (page.events.length === 1000) continue;
    if (!follow || signal?.aborted) return 0;
    try {
      await sleep(pollMs, undefined, { signal });
    } catch {
      return 0;
    }
  }
}
