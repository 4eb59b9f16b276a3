import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { CachePolicy, PieceCache } from '../cache/piece-cache';
import type { GeoPoint, LonLatBox } from '../common/geo-point';
import { earliestAnswerTime, inJobWork } from '../common/upstream/resilient-upstream';
import type { AppConfig } from '../config/app-config';
import { ServiceMetrics } from '../metrics/service-metrics';
import { tileAt } from './held-layer';

/** How one layer is held: its grid, how a square of it is fetched and held, and how a point is answered from it. */
export interface HeldWay<S, H, R> {
  /** The grid squares' side and the overlap of neighbours (degrees). */
  sizeDeg: number;
  marginDeg: number;
  /**
   * How many of a portfolio's points must fall in a square before it is fetched whole (2 at least): the first ones are
   * asked at their point, so a lone point (a portfolio's nationwide tail) costs no more than its point query.
   */
  pointsBeforeFetch: number;
  /** Every feature of the layer intersecting the envelope, as kept in the shared cache (plain JSON). */
  fetch(envelope: LonLatBox, signal: AbortSignal): Promise<S>;
  /** The fetched features as held in memory, and the bytes they take. */
  hold(stored: S): { held: H; bytes: number };
  /** The point query's answer from the held features; undefined when they cannot tell. */
  answerAt(held: H, point: GeoPoint): R | undefined;
}

interface HeldSquare {
  held: unknown;
  bytes: number;
  /** When its features were fetched from FEMA (epoch ms), and until when they are fresh. */
  storedAt: number;
  freshUntil: number;
}

/** Squares whose points are being counted, at most (the oldest counts are dropped first). */
const COUNTED_SQUARES = 50_000;
/** After a square could not be fetched or held (too large, an upstream failure), its points are asked one by one for this long. */
const REFUSED_SQUARE_MS = 60_000;
/** A square larger than this share of the memory bound is not held: it would push out all the others. */
const LARGEST_SHARE = 0.25;

/**
 * The NFHL features held for whole grid squares, in this process: where a portfolio job's points are dense, each
 * square of a layer is fetched once (through the shared cache, so one replica fetches it for all, and every
 * replica's copy expires like a cached piece), and every point in it is answered from it. Interactive lookups
 * read what is held, never fetch a square: a cold lookup far from anything held is asked point by point, as
 * before, with nothing added to its wait. Bounded by HELD_POLYGONS_MAX_MB, the least recently used square first out.
 */
@Injectable()
export class HeldLayers {
  private readonly squares = new Map<string, HeldSquare>();
  private heldBytes = 0;
  private readonly maxBytes: number;
  private readonly ttlMs: number;
  private readonly policy: CachePolicy;
  private readonly pointsAsked = new Map<string, number>();
  private readonly refusedUntil = new Map<string, number>();

  constructor(
    private readonly pieces: PieceCache,
    private readonly metrics: ServiceMetrics,
    config: ConfigService<AppConfig, true>,
  ) {
    this.maxBytes = config.get('HELD_POLYGONS_MAX_MB', { infer: true }) * 1024 * 1024;
    const ttlSeconds = config.get('CACHE_TTL_SECONDS', { infer: true });
    this.ttlMs = ttlSeconds * 1000;
    // Shared through Redis when there is one (kept there only, see PieceCache); never in the in-process LRU, which
    // bounds entries, not bytes: without Redis each process fetches its own squares.
    this.policy = { ttlSeconds: config.get('REDIS_URL', { infer: true }) ? ttlSeconds : 0, staleIfErrorSeconds: 0 };
  }

  /**
   * The layer's answer at the point: from the held square when it holds the point and can tell, else (for a
   * portfolio job, once the square's points are dense) from the square fetched now, else from `pointQuery`.
   * `fetchedAt` is told when a held answer's features were fetched.
   */
  async answer<S, H, R>(
    layer: string,
    point: GeoPoint,
    way: HeldWay<S, H, R>,
    deadline: AbortSignal,
    fetchedAt: (epochMs: number) => void,
    pointQuery: () => Promise<R>,
  ): Promise<R> {
    if (this.maxBytes === 0 || this.ttlMs === 0) return pointQuery();
    const tile = tileAt(point.lon, point.lat, way.sizeDeg, way.marginDeg);
    const key = `${layer}/${tile.key}`;
    const held = this.heldSquare(key);
    if (held && held.storedAt >= earliestAnswerTime()) return this.answered(layer, held, way, point, fetchedAt) ?? pointQuery();
    if (!inJobWork() || !this.denseEnough(key, way.pointsBeforeFetch)) return pointQuery();
    const fetched = await this.fetchSquare(key, tile.envelope, way, deadline);
    return (fetched && this.answered(layer, fetched, way, point, fetchedAt)) ?? pointQuery();
  }

  private answered<S, H, R>(layer: string, square: HeldSquare, way: HeldWay<S, H, R>, point: GeoPoint, fetchedAt: (epochMs: number) => void): R | undefined {
    const found = way.answerAt(square.held as H, point);
    if (found === undefined) return undefined;
    fetchedAt(square.storedAt);
    this.metrics.heldAnswer(layer);
    return found;
  }

  /** The fresh square held under `key`, now the most recently used. */
  private heldSquare(key: string): HeldSquare | undefined {
    const square = this.squares.get(key);
    if (!square) return undefined;
    this.squares.delete(key);
    if (square.freshUntil <= Date.now()) {
      this.heldBytes -= square.bytes;
      this.metrics.heldMemory(this.heldBytes);
      return undefined;
    }
    this.squares.set(key, square);
    return square;
  }

  /**
   * Whether enough of a portfolio's points fell in the square, counting this one, for the whole square to pay. The
   * count stays: the points after it join the square's fetch under way, and fetch it again once it has expired.
   */
  private denseEnough(key: string, pointsBeforeFetch: number): boolean {
    if ((this.refusedUntil.get(key) ?? 0) > Date.now()) return false;
    const asked = (this.pointsAsked.get(key) ?? 0) + 1;
    // Re-inserted: the most recently counted square is the last to be dropped.
    this.pointsAsked.delete(key);
    this.pointsAsked.set(key, asked);
    if (this.pointsAsked.size > COUNTED_SQUARES) this.pointsAsked.delete(this.pointsAsked.keys().next().value as string);
    return asked >= pointsBeforeFetch;
  }

  /** The square fetched (once for every waiting row and replica, see PieceCache) and held; undefined when it could not be. */
  private async fetchSquare<S, H, R>(key: string, envelope: LonLatBox, way: HeldWay<S, H, R>, deadline: AbortSignal): Promise<HeldSquare | undefined> {
    try {
      const read = await this.pieces.getOrLoad<S>('held', key, this.policy as CachePolicy<S>, (signal) => way.fetch(envelope, signal), {
        signal: deadline,
        gaveUp: () => deadline.reason as unknown,
      });
      // Fetched meanwhile for another row of this process.
      const already = this.heldSquare(key);
      if (already && already.storedAt >= earliestAnswerTime()) return already;
      const { held, bytes } = way.hold(read.piece.value);
      const square: HeldSquare = { held, bytes, storedAt: read.piece.storedAt, freshUntil: read.piece.storedAt + this.ttlMs };
      if (bytes > this.maxBytes * LARGEST_SHARE) {
        this.refuse(key);
        return square;
      }
      this.keep(key, square);
      return square;
    } catch {
      // The rows ask FEMA point by point; an outage fails them there, as it would have. A row that ran out of time
      // waiting says nothing against the square.
      if (!deadline.aborted) this.refuse(key);
      return undefined;
    }
  }

  private refuse(key: string): void {
    this.refusedUntil.set(key, Date.now() + REFUSED_SQUARE_MS);
    for (const [refused, until] of this.refusedUntil) if (until <= Date.now()) this.refusedUntil.delete(refused);
  }

  private keep(key: string, square: HeldSquare): void {
    this.squares.set(key, square);
    this.heldBytes += square.bytes;
    for (const [oldest, { bytes }] of this.squares) {
      if (this.heldBytes <= this.maxBytes) break;
      this.squares.delete(oldest);
      this.heldBytes -= bytes;
    }
    this.metrics.heldMemory(this.heldBytes);
  }
}
