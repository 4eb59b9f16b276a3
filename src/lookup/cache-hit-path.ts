import type { Request, Response } from 'express';
import { ApiError } from '../common/api-error';
import { sendErrorEnvelope } from '../common/error-envelope';
import type { EdgeHeaders } from '../common/http-edge';
import { AnswerCache, LOOKUP_PATH, ServedAnswer, matchesEtag } from './answer-cache';
import { readLookupLocation, readLookupOptions } from './dto/lookup-parameters';
import type { LocationQuery } from './location-query';

/**
 * The cache-hit path: a repeated lookup answered from the AnswerCache before the router, with the same
 * parameter checks and rate limit as the controller, every header in one `writeHead`.
 */

/**
 * Writes a lookup's 200 (or 304 to a matching If-None-Match) with its cache headers. Given the edge's
 * headers (a cached answer, before the router), every header goes out in one `writeHead`.
 */
export function sendAnswer(req: Request, res: Response, served: ServedAnswer, cacheStatus: string, maxAgeSeconds: number, edge?: EdgeHeaders): void {
  res.locals.cacheStatus = cacheStatus;
  const notModified = matchesEtag(req.headers['if-none-match'], served.etag);
  const headers = ['X-Cache', cacheStatus, 'Cache-Control', `public, max-age=${maxAgeSeconds}`, 'ETag', served.etag];
  if (!notModified) headers.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(served.byteLength));
  if (edge) res.writeHead(notModified ? 304 : 200, [...edge.raw, 'X-Request-Id', edge.requestId, ...headers]);
  else res.writeHead(notModified ? 304 : 200, headers);
  res.end(notModified || req.method === 'HEAD' ? undefined : served.json);
}

/** Counts the request against the client's rate limit; throws the 429 ApiError when over it. */
export type ClientAdmission = (req: Request, res: Response) => Promise<void>;

/**
 * Answers a repeated lookup from the AnswerCache before the router, after the same parameter checks
 * and, when configured, the same rate limit as the controller. Anything else (an invalid query, an
 * answer not cached) goes on to the controller, which gives the error or does the lookup.
 */
export function serveCachedAnswers(cache: AnswerCache, admit?: ClientAdmission) {
  return (req: Request, res: Response, next: () => void, edge: EdgeHeaders): void => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path !== LOOKUP_PATH) return next();
    let query: LocationQuery;
    try {
      const raw = req.query as Record<string, unknown>;
      query = { ...readLookupLocation(raw), ...readLookupOptions(raw) };
    } catch {
      return next();
    }
    const served = cache.find(query);
    if (!served) return next();
    res.locals.route = LOOKUP_PATH;
    const send = () => sendAnswer(req, res, served, 'HIT', Math.max(0, Math.floor((served.expiresAt - Date.now()) / 1000)), edge);
    if (!admit) return send();
    admit(req, res).then(send, (error: unknown) => {
      if (!(error instanceof ApiError)) return next();
      edge.apply();
      sendErrorEnvelope(req, res, error.getStatus(), error.code, error.message, error.details);
    });
  };
}
