import type { HttpService } from '@nestjs/axios';
import { isAxiosError } from 'axios';
import { firstValueFrom } from 'rxjs';
import { UpstreamFailure } from './resilient-upstream';

export interface UpstreamJson {
  status: number;
  body: unknown;
}

export interface UpstreamJsonOptions {
  /** A 404 means "nothing here" (Census outside its coverage): an answer whatever its body, returned without one. */
  notFoundIsAnswer?: boolean;
}

/**
 * GETs a JSON document. Network errors, 5xx, 429 and HTML pages (front-end error pages, Census's
 * HTML 400s) are outages; a body that is not valid JSON is a failure, but not an outage. 2xx and other
 * 4xx JSON answers are returned for the caller to judge.
 */
export async function getUpstreamJson(
  http: HttpService,
  url: string,
  params: Record<string, string>,
  signal: AbortSignal,
  options: UpstreamJsonOptions = {},
): Promise<UpstreamJson> {
  let response;
  try {
    response = await firstValueFrom(
      http.get<string>(url, {
        params,
        signal,
        responseType: 'text',
        transformResponse: (data: string) => data,
        validateStatus: () => true,
        headers: { Accept: 'application/json' },
      }),
    );
  } catch (error) {
    if (signal.aborted) throw error;
    const code = isAxiosError(error) ? (error.code ?? error.message) : String(error);
    throw new UpstreamFailure(`network error (${code})`, true);
  }
  const { status } = response;
  const text = typeof response.data === 'string' ? response.data : '';
  if (status >= 500 || status === 429) throw new UpstreamFailure(`HTTP ${status}`, true);
  if (status === 404 && options.notFoundIsAnswer) return { status, body: undefined };
  const contentType = String(response.headers['content-type'] ?? '');
  if (contentType.includes('html') || /^\s*</.test(text)) {
    throw new UpstreamFailure(`HTML page instead of JSON (HTTP ${status})`, true);
  }
  try {
    return { status, body: JSON.parse(text) };
  } catch {
    throw new UpstreamFailure(`malformed JSON (HTTP ${status})`, false);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
