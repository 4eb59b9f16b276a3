import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** A client's id is reused only when it is a short, harmless token: it ends up in logs and headers. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@\-]{1,128}$/;

function requestIdFor(req: Request): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Gives every request an id, echoed in `X-Request-Id`, in the error envelope and in the request's log line. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  req.id = requestIdFor(req);
  res.setHeader('X-Request-Id', req.id);
  next();
}
