import type { Type } from '@nestjs/common';
import type { UpstreamName } from '../common/upstream/upstream-registry';
import type { Markup } from '../common/markup';
import type { Footprint } from './structure/structure.types';
import type { Coverage, EstimatedBaseFloodElevation, FloodDetermination, GeoPoint } from '../flood-hazard/flood-hazard.types';

/**
 * An answer with a missing part is served and cached at most this long: a
 * transient failure must not stand for a day.
 */
export const INCOMPLETE_ANSWER_MAX_AGE_SECONDS = 60;

/** The provider token of the port a part asks (an abstract class such as FloodHazardPort), provided by the part's module. */
export type PortToken<S> = abstract new (...args: never[]) => S;

/** A cell of the batch's CSV answer: null and undefined are an empty cell. */
export type CsvCell = string | number | boolean | null | undefined;

/** A column of the CSV answer that an opt-in part fills: its name, and its cell read from the part's field. */
export interface PartColumn<V> {
  name: string;
  cell(value: V | null): CsvCell;
}

/**
 * A part's section of the report page: its title (given the part's value, null when there is none) and what it says
 * of a value; the report itself says when the part was not asked for or did not answer. `coverage` is the effective
 * map's: where there is no digital map, what a part did not find is unknown, never "none".
 */
export interface ReportSection<V> {
  title(value: V | null): string;
  content(value: V, coverage: Coverage): Markup;
}

/**
 * Where the point lies administratively, as the Census geocoder named it (each null when it did not); where the building
 * part found a building whose record names its census tract, that tract and its county instead.
 */
export interface PartArea {
  county: string | null;
  countyFips: string | null;
  /** The 11-digit census tract GEOID. */
  tract: string | null;
}

/** What a lookup asks an opt-in part for: the point, rounded to 6 decimals (about 0.1 m), and what else the query said. */
export interface PartRequest {
  point: GeoPoint;
  radiusM: number;
  /** The Census geocoder's matched address when the point was geocoded from an address; null for coordinates. */
  matchedAddress: string | null;
  /** The census block the geocoder put the address in (its side of the street); null for coordinates or when not said. */
  addressBlock: string | null;
  /** The footprint the caller gave; null when none was. */
  footprint: Footprint | null;
  /** The USA Structures BUILD_ID the caller chose the building by; null when none was. */
  buildId: string | null;
  /**
   * The point's county and tract, for a part that `readsArea` (asked once the geocoder has named them: for an address
   * with its match, for coordinates with the county; and, when the building part is asked too, once it has answered);
   * null for the others, asked at once, and when neither the geocoder nor a building named them.
   */
  area: PartArea | null;
}

/** A piece shared more widely than a part's own key (a county's data under each of its tracts), cached like the part's. */
export type SharedPiece = <T>(key: string, load: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/** What the rest of the answer tells an opt-in part's rule when it reads its data for one lookup. */
export interface PartContext {
  /** The effective map's determination at the point. */
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
 * What every part `include` asks for declares: the `include` item, its field of `result` (also its name in
 * `unavailable`), what it is (for the API documentation and, in a few words, for /health), the schema of its field,
 * its columns in the batch's CSV answer, and its words for the report.
 */
export interface IncludedPart<I extends string, F extends string, V> {
  include: I;
  field: F;
  description: string;
  /** The part in a few words, after its `include` item in the /health catalogue. */
  summary: string;
  /** `result.<field>` in the OpenAPI document: its schema (a DTO class), nullable, and what it says. */
  dto: { type: Type<unknown>; description: string };
  /**
   * Its columns of the CSV answer, each read from the field (null when not asked for or unavailable), and the column
   * they follow: a column's place is public, and the answer's own columns are not all before the parts'.
   */
  csv: { after: string; columns: ReadonlyArray<PartColumn<V>> };
  /** Where the part comes from, as said within a sentence when it did not answer ("… did not answer this time"). */
  comesFrom: string;
  /** Its section of the report page, in the registry's order after the effective map's; null when its words are among those. */
  report: ReportSection<V> | null;
}

/**
 * One opt-in part of an answer with data of its own: the Nest module providing the port it asks (`load`, cached under
 * `cacheKey`; throws UpstreamUnavailableError when the upstream failed, and a failure is never cached), and how its
 * rule reads that data for the point given the rest of the answer.
 */
export interface OptionalAnswerPart<I extends string, F extends string, S, D, V> extends IncludedPart<I, F, V> {
  /** Named by the error of a lookup that stopped waiting for this part (which then is simply unavailable). */
  upstream: UpstreamName;
  /** The other upstreams its load asks, if any (a portfolio job's status lists every upstream its rows ask). */
  alsoAsks?: readonly UpstreamName[];
  module: Type<unknown>;
  port: PortToken<S>;
  /** Whether it waits for the point's county and tract (`request.area`). */
  readsArea?: boolean;
  /** Whether the request holds what it needs (a tract, say); when not, the part is unavailable without asking anything. */
  answerable?(request: PartRequest): boolean;
  /** The configuration variable of how long its pieces are kept, when not CACHE_TTL_SECONDS. */
  ttlSecondsVariable?: 'HISTORY_TTL_SECONDS';
  cacheKey(request: PartRequest): string;
  load(port: S, request: PartRequest, signal: AbortSignal, shared: SharedPiece): Promise<D>;
  read(data: D, context: PartContext): V;
  /**
   * Whether data loaded whole-heartedly still lacks something (the building found, the zones over it not read): the
   * field is then answered and named in `unavailable`, and the piece kept no longer than an incomplete answer.
   */
  incomplete?(data: D): boolean;
}

/**
 * A part worked out from other parts of the answer, with no upstream of its own: asking for it asks for the parts it
 * reads (`implies`), and a part it reads that is missing leaves what depends on it unknown, never guessed.
 */
export interface DerivedAnswerPart<I extends string, F extends string, X, V, U extends string> extends IncludedPart<I, F, V> {
  /** The `include` items of the parts it reads. */
  implies: readonly string[];
  /** Its value from the facts the lookup gathers, and the inputs among them that were unavailable (named in `unavailable`). */
  derive(facts: X): { value: V; unavailable: readonly U[] };
}

/** Declares a derived part (the identity, with the types inferred from the definition). */
export function derivedPart<I extends string, F extends string, X, V, U extends string>(
  part: DerivedAnswerPart<I, F, X, V, U>,
): DerivedAnswerPart<I, F, X, V, U> {
  return part;
}

/** Declares an opt-in part (the identity, with the types inferred from the definition). */
export function optionalPart<I extends string, F extends string, S, D, V>(part: OptionalAnswerPart<I, F, S, D, V>): OptionalAnswerPart<I, F, S, D, V> {
  return part;
}

/** Said on the report of a hazard or a change where FEMA has no digital map at the point: unknown, never "none". */
export const NO_DIGITAL_MAP = 'Unknown: no digital flood map here';
