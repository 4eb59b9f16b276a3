import type { HttpService } from '@nestjs/axios';
import { AxiosResponse, isAxiosError } from 'axios';
import { AnswerOverCap, UpstreamFailure } from './resilient-upstream';

export interface UpstreamJson {
  status: number;
  body: unknown;
  /** The bytes of the body as read (what the byte cap counts). */
  bytes: number;
}

export interface UpstreamJsonOptions {
  /** The upstream's byte cap (its ResilientUpstream's maxBodyBytes): a longer body is cut off as it streams in, and fails. */
  maxBodyBytes: number;
  /**
   * The bytes already read of the same answer, its earlier pages: the cap holds for them and this body together, so
   * a server that pages on and on cannot pass it a page at a time.
   */
  bytesBefore?: number;
  /** A 404 means "nothing here" (Census outside its coverage): an answer whatever its body, returned without one. */
  notFoundMeansNone?: boolean;
  /**
   * A 2xx body of plain text means "nothing here" (the elevation service's `Call failed.`): returned without
   * one. Only plain text: a body begun as a JSON object or array that does not parse was cut or garbled, a failure.
   */
  plainTextMeansNone?: boolean;
}

/**
 * GETs a JSON document. Network errors, 5xx, 429 and HTML pages (front-end error pages, Census's
 * HTML 400s) are outages; a body that is not valid JSON, or longer than the upstream's byte cap, is a
 * failure, but not an outage. 2xx and other 4xx JSON answers are returned for the caller to judge.
 */
export async function getUpstreamJson(
  http: HttpService,
  url: string,
  params: Record<string, string>,
  signal: AbortSignal,
  options: UpstreamJsonOptions,
): Promise<UpstreamJson> {
  const bytesBefore = options.bytesBefore ?? 0;
  const response = await sendUpstream(
    http.axiosRef.get<string>(url, {
      params,
      signal,
      responseType: 'text',
      transformResponse: (data: string) => data,
      validateStatus: () => true,
      maxContentLength: options.maxBodyBytes - bytesBefore,
      headers: { Accept: 'application/json' },
    }),
    signal,
    bytesBefore > 0 ? `an answer over its cap of ${options.maxBodyBytes} bytes (its pages together)` : undefined,
  );
  const { status } = response;
  const text = typeof response.data === 'string' ? response.data : '';
  const bytes = Buffer.byteLength(text);
  rejectServerFailure(status);
  if (status === 404 && options.notFoundMeansNone) return { status, body: undefined, bytes };
  rejectHtmlPage(response, text, 'JSON');
  try {
    return { status, body: JSON.parse(text), bytes };
  } catch {
    if (options.plainTextMeansNone && status >= 200 && status < 300 && PLAIN_TEXT.test(text)) return { status, body: undefined, bytes };
    throw new UpstreamFailure(`malformed JSON (HTTP ${status})`, false);
  }
}

/** Text that is not even begun as a JSON object or array (nor empty, as a cut answer can be). */
const PLAIN_TEXT = /^\s*[^\s{[]/;

/**
 * Awaits one upstream request: a network error is an outage, a body over the request's `maxContentLength` a
 * failure (`overCap` says why, by default naming that length); an abort is the caller's own and propagates.
 * Requests go through the axios instance itself rather than HttpService's Observables, whose unsubscribe
 * after the answer cancels (building an error with its stack) every finished request.
 */
export async function sendUpstream<T>(request: Promise<AxiosResponse<T>>, signal: AbortSignal, overCap?: string): Promise<AxiosResponse<T>> {
  try {
    return await request;
  } catch (error) {
    if (signal.aborted) throw error;
    // axios's own words when a body outgrew maxContentLength (it destroyed the stream there): the same question
    // would get the same body, so this is no outage.
    if (isAxiosError(error) && error.message.startsWith('maxContentLength size of')) {
      throw new AnswerOverCap(overCap ?? `an answer over its cap of ${String(error.config?.maxContentLength)} bytes`);
    }
    const code = isAxiosError(error) ? (error.code ?? error.message) : String(error);
    throw new UpstreamFailure(`network error (${code})`, true);
  }
}

/** 5xx and 429 answers are outages. */
export function rejectServerFailure(status: number): void {
  if (status >= 500 || status === 429) throw new UpstreamFailure(`HTTP ${status}`, true);
}

/** An HTML page where data was expected (a front end's error page, Census's HTML 400s) is an outage. */
export function rejectHtmlPage(response: AxiosResponse<unknown>, text: string, expected: 'JSON' | 'CSV'): void {
  const contentType = String(response.headers['content-type'] ?? '');
  if (contentType.includes('html') || /^\s*</.test(text)) {
    throw new UpstreamFailure(`HTML page instead of ${expected} (HTTP ${response.status})`, true);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
