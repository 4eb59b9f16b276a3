import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../common/api-error';
import { readLookupOptions } from '../lookup/dto/lookup-parameters';
import { badArguments, serviceFailed } from './command-failure';

export const DEFAULT_SERVICE_URL = 'http://localhost:3000';

/** The options every command shares: where the service is, and the opt-in parts of each answer. */
export interface ServiceOptions {
  url: string;
  include?: string;
  radius?: string;
}

/** An HTTP client of the flood-zone service, with the `include` / `radius` query every request carries. */
export class FloodZoneApi {
  private constructor(
    readonly baseUrl: string,
    private readonly parts: URLSearchParams,
  ) {}

  /**
   * Checks the options before any request: `include` and `radius` with the service's own rules (see
   * docs/api.md), so a typo is a bad argument (exit 2) even when the service is down.
   */
  static fromOptions({ url, include, radius }: ServiceOptions): FloodZoneApi {
    let base: URL;
    try {
      base = new URL(url);
    } catch {
      throw badArguments(`--url must be an http or https URL, got "${url}".`);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw badArguments(`--url must be an http or https URL, got "${url}".`);
    try {
      readLookupOptions({ include, radius });
    } catch (error) {
      if (error instanceof ApiError) throw badArguments(error.message);
      throw error;
    }
    const parts = new URLSearchParams();
    if (include !== undefined) parts.set('include', include);
    if (radius !== undefined) parts.set('radius', radius);
    return new FloodZoneApi(base.href.replace(/\/+$/, ''), parts);
  }

  /** `path` under the base URL, with `query` and then the opt-in parts. */
  urlOf(path: string, query: Record<string, string> = {}): string {
    const search = new URLSearchParams(query);
    for (const [name, value] of this.parts) search.set(name, value);
    const text = search.toString();
    return `${this.baseUrl}${path}${text ? `?${text}` : ''}`;
  }

  /** The opt-in parts as fields of a JSON body (POST /flood-zone reads no query parameter): `include` as a list. */
  partsAsFields(): { include?: string[]; radius?: string } {
    const include = this.parts.get('include');
    const radius = this.parts.get('radius');
    return { ...(include === null ? {} : { include: include.split(',') }), ...(radius === null ? {} : { radius }) };
  }

  /** fetch, with a connection failure as exit status 1 naming the service. */
  async request(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (init.signal?.aborted) throw error;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw serviceFailed(`could not reach the flood-zone service at ${this.baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    }
  }

  /**
   * `request`, asked again after the service's Retry-After while `later` reads its answer as "ask again later", at
   * most `retries` times: the last answer is returned whatever it says.
   */
  async requestPatiently(url: string, init: RequestInit, { retries, later }: { retries: number; later: (response: Response) => boolean }): Promise<Response> {
    for (let attempt = 0; ; attempt += 1) {
      const response = await this.request(url, init);
      if (attempt >= retries || !later(response)) return response;
      await response.body?.cancel();
      await sleep(retryAfterMs(response.headers.get('retry-after')), undefined, { signal: init.signal ?? undefined });
    }
  }
}

const RETRY_AFTER_DEFAULT_S = 1;
const RETRY_AFTER_MAX_S = 60;

/** How long a service that answered "ask again later" (429, 503) asked to be left: its Retry-After seconds, within a minute. */
function retryAfterMs(header: string | null): number {
  const seconds = Number(header);
  const wait = Number.isFinite(seconds) && seconds >= 0 ? seconds : RETRY_AFTER_DEFAULT_S;
  return Math.min(wait, RETRY_AFTER_MAX_S) * 1000;
}

/** What an error response says: the envelope's code and message when it has one, else its status. */
export async function errorResponseText(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const envelope = JSON.parse(text) as { code?: unknown; error?: unknown };
    if (typeof envelope.code === 'string' && typeof envelope.error === 'string') return `${response.status} ${envelope.code}: ${envelope.error}`;
  } catch {
    // not an error envelope: a proxy's page, say
  }
  return `HTTP ${response.status}`;
}
