import type { OptionalAnswerPart } from './answer-part';
import { coastalBarrierPart } from './coastal-barrier/coastal-barrier.part';
import { groundElevationPart } from './ground-elevation/ground-elevation.part';
import { mapChangePart } from './map-change/map-change.part';
import { nearbyPart } from './nearby/nearby.part';

/**
 * Every opt-in part of an answer, in the order `result` and `unavailable` list them. Everything else reads its
 * parts from this list: the `include` values and their types, the OpenAPI text and schema of each field, the
 * modules the lookup imports and what it asks, the CSV columns, the report's words and the /health catalogue.
 * Adding a part is its folder beside these and one line here.
 */
export const OPTIONAL_PARTS = [nearbyPart, mapChangePart, coastalBarrierPart, groundElevationPart] as const;

type AnyOptionalPart = (typeof OPTIONAL_PARTS)[number];

/** An `include` item: the name that asks for an opt-in part. */
export type IncludeItem = AnyOptionalPart['include'];

/** The field of `result` an opt-in part fills (null when it was not asked for or its query failed). */
export type OptionalField = AnyOptionalPart['field'];

/** The `include` items, in the documented order. */
export const INCLUDE_ITEMS: readonly IncludeItem[] = OPTIONAL_PARTS.map((part) => part.include);

/** Any opt-in part of the registry, its data and value types widened: how code that goes over every part sees one. */
export type RegisteredPart = OptionalAnswerPart<IncludeItem, OptionalField, unknown, unknown, unknown>;

/** The fields of `result` the opt-in parts fill, each typed by what its rule reads. */
export type OptionalFields = { [P in AnyOptionalPart as P['field']]: ReturnType<P['read']> | null };

/**
 * The supplementary parts every lookup looks up, with the effective map: their failure leaves them null and named.
 * `nfipStatus` (the community's NFIP standing, `result.community.nfip`) follows the community it belongs to.
 */
export const SUPPLEMENTARY_PARTS = ['community', 'nfipStatus', 'lomrs', 'lomas', 'estimatedBaseFloodElevation'] as const;

/** A part of an answer that may be missing, by its name in `unavailable`. */
export type AnswerPart = (typeof SUPPLEMENTARY_PARTS)[number] | OptionalField;

/** Every name `unavailable` may hold, in the order it lists them. */
export const ANSWER_PARTS: readonly AnswerPart[] = [...SUPPLEMENTARY_PARTS, ...OPTIONAL_PARTS.map((part) => part.field)];

/** The parts named, in the documented order. */
export function inDocumentedOrder(parts: Iterable<AnswerPart>): AnswerPart[] {
  const named = new Set(parts);
  return ANSWER_PARTS.filter((part) => named.has(part));
}

/** The Nest modules providing the opt-in parts' ports, each once, in the parts' order. */
export const OPTIONAL_PART_MODULES = [...new Set(OPTIONAL_PARTS.map((part) => part.module))];
