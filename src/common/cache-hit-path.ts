import type { Request, Response } from 'express';
import { ApiError } from './api-error';
import { inOwnLoopTurn } from './event-loop-turns';
import { CachedEntity, sendCachedEntity } from './cached-entity';
import { sendErrorEnvelope } from './error-envelope';
import type { EdgeHeaders } from './http-edge';

/**
 * The cache-hit path: a repeated answer (a lookup, a map picture) served from its cache before the router,
 * with the same parameter checks and rate limit as its controller, every header in one `writeHead`.
 */

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
    if (!route) return next();
    const entity = route.find(req.query as Record<string, unknown>);
    // An answer still to be made goes on to the router in a loop turn of its own: cold lookups arriving together
    // are then started one per turn, and a cheap request read with them (/health) is answered before, not after, all of them.
    if (!entity) return inOwnLoopTurn(next);
    res.locals.route = route.path;
    const send = () => {
      route.served?.();
      sendCachedEntity(req, res, entity, 'HIT', Math.max(0, Math.floor((entity.expiresAt - Date.now()) / 1000)), edge);
    };
    if (!admit) return send();
    admit(req, res).then(send, (error: unknown) => {
      if (!(error instanceof ApiError)) return next();
      edge.apply();
      sendErrorEnvelope(req, res, error.getStatus(), error.code, error.message, error.details, error.headers);
    });
  };
}
