import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { CachePolicy } from '../cache/piece-cache';
import { PieceCache } from '../cache/piece-cache';
import { asBatchWork } from '../common/upstream/resilient-upstream';
import type { AppConfig } from '../config/app-config';
import { BatchGeocoder } from '../geocoding/census-batch-geocoder';
import { geocodePolicyOf } from '../geocoding/geocode-cache';
import { Geocoder } from '../geocoding/geocoder';
import type { LookupOptions } from '../lookup/location-query';
import { BatchRowLookup, LookupService } from '../lookup/lookup.service';
import { PolygonWork } from '../parts/structure/polygon-work.client';
import { BatchAddresses } from './batch-addresses';
import { BatchMemo } from './batch-memo';
import { readBatchRow, rowLookup } from './batch-row';
import { inInputOrder, OrderLimits } from './input-order';
import type { RowAnswer } from './row-answer';
import { errorAnswerOf } from '../common/filters/api-exception.filter';
import { LOOKUP_PATH } from '../lookup/answer-cache';

/** Finished rows waiting for a slower earlier one: bounds the memory a batch holds for ordering. */
const ROWS_AHEAD = 1024;

/** The row of its batch that the work under way answers. */
const rowUnderWay = new AsyncLocalStorage<number>();

/** Runs `run` as the work of the row at `index` in its batch's locations (see batchRowUnderWay). */
export function asBatchRow<T>(index: number, run: () => Promise<T>): Promise<T> {
  return rowUnderWay.run(index, run);
}

/**
 * The index (in its batch's locations) of the row whose answer the work under way is for, across awaits: a piece
 * loaded for several rows is the work of the row that started its load. Undefined outside any row.
 */
export function batchRowUnderWay(): number | undefined {
  return rowUnderWay.getStore();
}

/**
 * The POST /flood-zone/batch use case: every row answered exactly as GET /flood-zone answers it (the same
 * lookup, cache, single-flight and resilience policies), each distinct piece looked up once per batch,
 * addresses geocoded by the Census batch geocoder, and the answers handed out in input order as they finish.
 */
@Injectable()
export class BatchLookupService {
  private readonly limits: OrderLimits;
  private readonly geocodePolicy: CachePolicy;
  private readonly deadlineMs: number;

  constructor(
    private readonly lookups: LookupService,
    private readonly geocoder: Geocoder,
    private readonly batchGeocoder: BatchGeocoder,
    private readonly cache: PieceCache,
    private readonly polygons: PolygonWork,
    config: ConfigService<AppConfig, true>,
  ) {
    // Twice the batch's share of each upstream keeps that share busy while rows wait on each other.
    this.limits = { running: config.get('UPSTREAM_MAX_CONCURRENCY', { infer: true }), ahead: ROWS_AHEAD };
    this.geocodePolicy = geocodePolicyOf(config);
    this.deadlineMs = config.get('LOOKUP_DEADLINE_MS', { infer: true });
  }

  /**
   * Answers each of `locations` and hands the answers to `send` in input order, one at a time. All of it
   * is batch work: its upstream calls use at most half of each upstream's concurrency. Once `cancelled` is
   * aborted (the client is gone) no row starts, the rows under way stop waiting, and a piece being loaded
   * for the batch alone is abandoned (one a GET also waits for goes on). Once `stopRows` is aborted (the
   * service is shutting down) no row starts, but the rows under way finish and are handed to `send`.
   * Consumes `locations`: each element is let go once its row starts, so that memory holds only the rows
   * still to come (every MB kept through a batch costs several MB of RSS, as V8 sizes its heap after it).
   */
  run(
    locations: unknown[],
    options: LookupOptions,
    requestId: string,
    cancelled: AbortSignal,
    send: (answer: RowAnswer) => Promise<void>,
    stopRows?: AbortSignal,
  ): Promise<void> {
    return asBatchWork(async () => {
      const memo = new BatchMemo(this.cache);
      const addresses = new BatchAddresses(addressesOf(locations, options), {
        batchGeocoder: this.batchGeocoder,
        geocoder: this.geocoder,
        memo,
        geocodePolicy: this.geocodePolicy,
        deadlineMs: this.deadlineMs,
        cancelled,
      });
      // Each row is GET's lookup, over the batch's memo of the shared cache and with the batch's geocodes.
      const batchRow: BatchRowLookup = { geocode: addresses.geocode, pieces: memo, cancelled };

      /** A row's answer; undefined once the client is gone (nobody will read it). */
      const answer = async (index: number): Promise<RowAnswer | undefined> => {
        const row = readBatchRow(locations[index], options);
        const { id, asked } = row;
        locations[index] = undefined;
        try {
          // Its footprint checked as its turn comes: a large one in the polygon pool, whose being full is this row's 503.
          const query = await rowLookup(row, this.polygons, cancelled);
          if (query.kind === 'address') await addresses.ready(query.address);
          const { body } = await this.lookups.lookup(query, batchRow);
          return { index, id, asked, status: 200, body };
        } catch (failure) {
          // Nobody reads a row once the client is gone (the rows under way fail at once with its cancellation).
          if (cancelled.aborted) return undefined;
          // The very envelope GET /flood-zone would send for this row, with the batch request's id.
          const { status, body } = errorAnswerOf(failure, { id: requestId, method: 'GET', path: LOOKUP_PATH });
          return { index, id, asked, status, body };
        }
      };
      const noNewRow = stopRows ? AbortSignal.any([cancelled, stopRows]) : cancelled;
      const answerAsRow = (index: number) => asBatchRow(index, () => answer(index));
      for await (const row of inInputOrder(locations.length, answerAsRow, this.limits, noNewRow)) {
        if (!row || cancelled.aborted) return;
        await send(row);
      }
    });
  }
}

/** The addresses of the valid address rows, read the way each row will be read when its turn comes. */
function* addressesOf(locations: unknown[], options: LookupOptions): Generator<string> {
  for (const location of locations) {
    const { query } = readBatchRow(location, options);
    if (query?.kind === 'address') yield query.address;
  }
}
