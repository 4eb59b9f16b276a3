import type { UpstreamName } from '../../common/api-error';
import type { AnswerPart, FloodDetermination, FloodZoneResult, GeoPoint } from '../../flood-hazard/flood-hazard.types';
import type { OptionalPart } from '../dto/flood-zone-query.pipe';

/**
 * An answer with a missing part is served and cached at most this long: a
 * transient failure must not stand for a day.
 */
export const INCOMPLETE_ANSWER_MAX_AGE_SECONDS = 60;

/** `unavailable` lists parts in the order the API documents them. */
const PART_ORDER: readonly AnswerPart[] = ['community', 'lomrs', 'lomas', 'estimatedBaseFloodElevation', 'nearby', 'mapChange', 'coastalBarrier'];

export function inContractOrder(parts: Iterable<AnswerPart>): AnswerPart[] {
  const named = new Set(parts);
  return PART_ORDER.filter((part) => named.has(part));
}

/** The parts only an `include` item asks for; each is a field of `result` named like the part. */
export type OptionalField = Extract<AnswerPart, 'nearby' | 'mapChange' | 'coastalBarrier'>;

/**
 * One opt-in part of an answer: when it is asked for, what it asks its upstream (`load`, cached under
 * `cacheKey`; throws UpstreamUnavailableError when the upstream failed, and a failure is never cached),
 * and how its rule reads that answer for the point.
 */
export interface OptionalAnswerPart<F extends OptionalField, D> {
  field: F;
  askedBy: OptionalPart;
  /** Named by the error of a lookup that stopped waiting for this part (which then is simply unavailable). */
  upstream: UpstreamName;
  cacheKey(point: GeoPoint, radiusM: number): string;
  load(point: GeoPoint, radiusM: number, signal: AbortSignal): Promise<D>;
  read(data: D, effective: FloodDetermination): FloodZoneResult[F];
}

/** A point rounded to 6 decimals (about 0.1 m): every query rounding alike shares one answer. */
export function roundPoint(point: GeoPoint): GeoPoint {
  return { lat: Math.round(point.lat * 1e6) / 1e6, lon: Math.round(point.lon * 1e6) / 1e6 };
}

/** The cache key of a point already rounded by `roundPoint`. */
export function pointKey(point: GeoPoint): string {
  return `${point.lat.toFixed(6)},${point.lon.toFixed(6)}`;
}
