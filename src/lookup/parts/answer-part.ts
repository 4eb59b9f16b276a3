import type { UpstreamName } from '../../common/upstream/upstream-registry';
import type { EstimatedBaseFloodElevation, FloodDetermination, GeoPoint } from '../../flood-hazard/flood-hazard.types';

/**
 * An answer with a missing part is served and cached at most this long: a
 * transient failure must not stand for a day.
 */
export const INCOMPLETE_ANSWER_MAX_AGE_SECONDS = 60;

/** A provider token of the injected source a part asks (an abstract class such as FloodHazardSource). */
export type SourceToken<S> = abstract new (...args: never[]) => S;

/** What the rest of the answer tells an opt-in part's rule when it reads its data for one lookup. */
export interface PartContext {
  /** The effective map's answer at the point. */
  determination: FloodDetermination;
  estimatedBaseFloodElevation: EstimatedBaseFloodElevation | null;
  /** The lookup's point, as located (not rounded). */
  point: GeoPoint;
  /** How the point was found: geocoded from an address (along its street), or given as coordinates. */
  locationSource: 'census_geocoder' | 'coordinates';
  /** The point's 5-digit county FIPS code, null when unknown. */
  countyFips: string | null;
}

/**
 * One opt-in part of an answer, whole: the `include` item that asks for it, its field of `result` (also its
 * name in `unavailable`), what it is (for the API documentation), the source it asks (`load`, cached under
 * `cacheKey`; throws UpstreamUnavailableError when the upstream failed, and a failure is never cached), and
 * how its rule reads that data for the point, given the rest of the answer.
 */
export interface OptionalAnswerPart<I extends string, F extends string, S, D, V> {
  include: I;
  field: F;
  description: string;
  /** Named by the error of a lookup that stopped waiting for this part (which then is simply unavailable). */
  upstream: UpstreamName;
  source: SourceToken<S>;
  cacheKey(point: GeoPoint, radiusM: number): string;
  load(source: S, point: GeoPoint, radiusM: number, signal: AbortSignal): Promise<D>;
  read(data: D, context: PartContext): V;
}

/** Declares an opt-in part (the identity, with the types inferred from the definition). */
export function optionalPart<I extends string, F extends string, S, D, V>(part: OptionalAnswerPart<I, F, S, D, V>): OptionalAnswerPart<I, F, S, D, V> {
  return part;
}
