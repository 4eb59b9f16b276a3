import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { CacheableMemory } from 'cacheable';
import type { AppConfig } from '../config/app-config';
import type { LocationQuery } from './location-query';
import type { LookupAnswer } from './lookup.service';
import { NfipStatusSource } from '../parts/nfip-status/nfip-status-source';

export const LOOKUP_PATH = '/flood-zone';

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

const JSON_TYPE = 'application/json; charset=utf-8';

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
 * Every parameter that shapes an answer's bytes: the location exactly as echoed in `query` (an address
 * as sent, a coordinate as its number), the parts asked for, in a fixed order, and the radius.
 */
export function answerKey(query: LocationQuery): string {
  const location = query.kind === 'address' ? `a:${query.address}` : `p:${query.lat},${query.lon}`;
  return `${location}|${[...query.include].sort().join(',')}|${query.radiusM}`;
}

/**
 * Serialised fresh answers, so that a repeated lookup is answered without rebuilding, re-serialising
 * and re-hashing it. Bounded like the lookup cache (CACHE_MAX_ENTRIES, least recently used out); an
 * entry lives only as long as the answer's max-age, and only while the NFIP table it was joined with is the
 * one held (a table loaded or refreshed since shows at once). Never holds a STALE answer or an error.
 */
@Injectable()
export class AnswerCache {
  private readonly answers: CacheableMemory;

  constructor(
    config: ConfigService<AppConfig, true>,
    private readonly nfipStatus: NfipStatusSource,
  ) {
    this.answers = new CacheableMemory({ lruSize: config.get('CACHE_MAX_ENTRIES', { infer: true }), useClone: false });
  }

  /** Keeps a fresh answer; returns what is sent for it. */
  remember(query: LocationQuery, answer: LookupAnswer): CachedEntity {
    const json = JSON.stringify(answer.body);
    const served: CachedEntity = {
      body: json,
      byteLength: Buffer.byteLength(json),
      contentType: JSON_TYPE,
      etag: entityTag(json),
      expiresAt: Date.now() + answer.maxAgeSeconds * 1000,
    };
    if (answer.cacheStatus !== 'STALE' && answer.maxAgeSeconds > 0) this.answers.set(this.keyOf(query), served, answer.maxAgeSeconds * 1000);
    return served;
  }

  find(query: LocationQuery): CachedEntity | undefined {
    const served = this.answers.get<CachedEntity>(this.keyOf(query));
    return served && served.expiresAt > Date.now() ? served : undefined;
  }

  private keyOf(query: LocationQuery): string {
    return `${answerKey(query)}|nfip-table:${this.nfipStatus.tableVersion}`;
  }
}
