import type { Request, Response } from 'express';
import { ApiError } from '../common/api-error';
import { sendErrorEnvelope } from '../common/error-envelope';
import type { EdgeHeaders } from '../common/http-edge';
import { AnswerCache, CachedEntity, LOOKUP_PATH, matchesEtag } from './answer-cache';
import { readLookupLocation, readLookupOptions } from './dto/lookup-parameters';
import type { LocationQuery } from './location-query';

/**
 * The cache-hit path: a repeated answer (a lookup, a map picture) served from its cache before the router,
 * with the same parameter checks and rate limit as its controller, every header in one `writeHead`.
 */

/**
 * Writes a cached entity's 200 (or 304 to a matching If-None-Match) with its cache headers. Given the edge's
 * headers (an answer before the router), every header goes out in one `writeHead`.
 */
export function sendCachedEntity(req: Request, res: Response, entity: CachedEntity, cacheStatus: string, maxAgeSeconds: number, edge?: EdgeHeaders): void {
  res.locals.cacheStatus = cacheStatus;
  const notModified = matchesEtag(req.headers['if-none-match'], entity.etag);
  const headers = ['X-Cache', cacheStatus, 'Cache-Control', `public, max-age=${maxAgeSeconds}`, 'ETag', entity.etag];
  if (entity.headers) headers.push(...entity.headers);
  if (!notModified) headers.push('Content-Type', entity.contentType, 'Content-Length', String(entity.byteLength));
  if (edge) res.writeHead(notModified ? 304 : 200, [...edge.raw, 'X-Request-Id', edge.requestId, ...headers]);
  else res.writeHead(notModified ? 304 : 200, headers);
  res.end(notModified || req.method === 'HEAD' ? undefined : entity.body);
}

/** A path whose repeated answers are served before the router. */
export interface CachedRoute {
  path: string;
  /**
   * The cached answer to this query, read with the controller's own checks; undefined for a query the controller
   * refuses or an answer not cached (the controller then gives the error or makes the answer).
   */
  find(query: Record<string, unknown>): CachedEntity | undefined;
  /** Called as a cached answer goes out (after the rate limit), to count the hit. */
  served?(): void;
}

/** Repeated lookups, from the AnswerCache. */
export function cachedLookups(cache: AnswerCache): CachedRoute {
  return {
    path: LOOKUP_PATH,
    find(raw) {
      let query: LocationQuery;
      try {
        query = { ...readLookupLocation(raw), ...readLookupOptions(raw) };
      } catch {
        return undefined;
      }
      return cache.find(query);
    },
  };
}

/** Counts the request against the client's rate limit; throws the 429 ApiError when over it. */
export type ClientAdmission = (req: Request, res: Response) => Promise<void>;

/**
 * Answers a repeated request of one of `routes` from its cache before the router, after the same parameter checks
 * and, when configured, the same rate limit as its controller. Anything else (another path, an invalid query, an
 * answer not cached) goes on to the router.
 */
export function serveCachedAnswers(routes: readonly CachedRoute[], admit?: ClientAdmission) {
  const byPath = new Map(routes.map((route) => [route.path, route]));
  return (req: Request, res: Response, next: () => void, edge: EdgeHeaders): void => {
    const route = req.method === 'GET' || req.method === 'HEAD' ? byPath.get(req.path) : undefined;
    const entity = route?.find(req.query as Record<string, unknown>);
    if (!route || !entity) return next();
    res.locals.route = route.path;
    const send = () => {
      route.served?.();
      sendCachedEntity(req, res, entity, 'HIT', Math.max(0, Math.floor((entity.expiresAt - Date.now()) / 1000)), edge);
    };
    if (!admit) return send();
    admit(req, res).then(send, (error: unknown) => {
      if (!(error instanceof ApiError)) return next();
      edge.apply();
      sendErrorEnvelope(req, res, error.getStatus(), error.code, error.message, error.details);
    });
  };
}
