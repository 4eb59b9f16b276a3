import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { CacheableMemory } from 'cacheable';
import type { CachedRoute } from '../common/cache-hit-path';
import { CachedEntity, entityTag } from '../common/cached-entity';
import type { AppConfig } from '../config/app-config';
import { readLookupQuery } from './dto/lookup-parameters';
import type { LocationQuery } from './location-query';
import type { LookupAnswer } from './lookup.service';
import { NfipStatusPort } from '../parts/nfip-status/nfip-status-port';

export const LOOKUP_PATH = '/flood-zone';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Every parameter that shapes an answer's bytes: the location exactly as echoed in `query` (an address
 * as sent, a coordinate as its number), the parts asked for, in a fixed order, and the radius.
 */
export function answerKey(query: LocationQuery): string {
  const location = query.kind === 'address' ? `a:${query.address}` : `p:${query.lat},${query.lon}`;
  return `${location}|${[...query.include].sort().join(',')}|${query.radiusM}|${query.buildId ?? ''}`;
}

/**
 * Serialised fresh answers, so that a repeated lookup is answered without rebuilding, re-serialising
 * and re-hashing it. Bounded like the lookup cache (CACHE_MAX_ENTRIES, least recently used out); an
 * answer is kept only as long as its max-age, and only while the NFIP table it was joined with is the
 * one held (a table loaded or refreshed since shows at once). Never holds a STALE answer or an error.
 */
@Injectable()
export class AnswerCache {
  private readonly answers: CacheableMemory;

  constructor(
    config: ConfigService<AppConfig, true>,
    private readonly nfipStatus: NfipStatusPort,
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

/** Repeated lookups, from the AnswerCache. */
export function cachedLookups(cache: AnswerCache): CachedRoute {
  return {
    path: LOOKUP_PATH,
    find(raw) {
      let query: LocationQuery;
      try {
        query = readLookupQuery(raw);
      } catch {
        return undefined;
      }
      return cache.find(query);
    },
  };
}
