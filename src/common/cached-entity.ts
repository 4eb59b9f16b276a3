import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { EdgeHeaders } from './http-edge';

/** A 200 as it went out, to be sent again: its bytes, their entity tag, and until when it may be served as is. */
export interface CachedEntity {
  body: string | Buffer;
  byteLength: number;
  contentType: string;
  etag: string;
  expiresAt: number;
  /** Name, value, ...: headers of its own, sent with a 304 too (a picture's legend). */
  headers?: readonly string[];
}

/** Strong entity tag of an answer's bytes. */
export function entityTag(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** A weak entity tag: the same for entities that differ only in what does not change their meaning (RFC 9110 8.8.1). */
export function weakEntityTag(body: string | Buffer): string {
  return `W/${entityTag(body)}`;
}

/** If-None-Match may list several tags or `*`; weak comparison is allowed for GET (RFC 9110 13.1.2). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}

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
