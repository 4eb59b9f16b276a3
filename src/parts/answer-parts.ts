import type { IncludedPart, OptionalAnswerPart } from './answer-part';
import { coastalBarrierPart } from './coastal-barrier/coastal-barrier.part';
import { determinationPart } from './determination/determination.part';
import { groundElevationPart } from './ground-elevation/ground-elevation.part';
import { historyPart } from './history/history.part';
import { mapChangePart } from './map-change/map-change.part';
import { nearbyPart } from './nearby/nearby.part';
import { structurePart } from './structure/structure.part';

/**
 * Every opt-in part of an answer with data of its own, in the order `result` and `unavailable` list them. Everything
 * else reads its parts from this list and the next: the `include` values and their types, the OpenAPI text and schema of
 * each field, the modules the lookup imports and what it asks, the CSV columns, the report's words and the /health
 * catalogue. Adding a part is its folder beside these and one line here.
 */
export const OPTIONAL_PARTS = [nearbyPart, mapChangePart, coastalBarrierPart, groundElevationPart, structurePart, historyPart] as const;

/** The opt-in parts worked out from the others (each brings the parts it reads), after them in `result`. */
export const DERIVED_PARTS = [determinationPart] as const;

type AnyOptionalPart = (typeof OPTIONAL_PARTS)[number];
type AnyDerivedPart = (typeof DERIVED_PARTS)[number];
type AnyIncludedPart = AnyOptionalPart | AnyDerivedPart;

/** An `include` item: the name that asks for an opt-in part. */
export type IncludeItem = AnyIncludedPart['include'];

/** The field of `result` an opt-in part fills (null when it was not asked for or its query failed). */
export type OptionalField = AnyIncludedPart['field'];

/** Every part `include` asks for, in the documented order: what the documentation, the CSV columns and the report go over. */
export const INCLUDED_PARTS: readonly RegisteredIncludedPart[] = [...OPTIONAL_PARTS, ...DERIVED_PARTS];

/** The `include` items, in the documented order. */
export const INCLUDE_ITEMS: readonly IncludeItem[] = INCLUDED_PARTS.map((part) => part.include as IncludeItem);

/** Any part `include` asks for, its value type widened: how code that goes over every part sees one. */
export type RegisteredIncludedPart = IncludedPart<IncludeItem, OptionalField, unknown>;

/** Any opt-in part of the registry with data of its own, its data and value types widened. */
export type RegisteredPart = OptionalAnswerPart<AnyOptionalPart['include'], AnyOptionalPart['field'], unknown, unknown, unknown>;

/** The fields of `result` the opt-in parts fill, each typed by what its rule gives. */
export type OptionalFields = { [P in AnyOptionalPart as P['field']]: ReturnType<P['read']> | null } & {
  [P in AnyDerivedPart as P['field']]: ReturnType<P['derive']>['value'] | null;
};

/** The items asked, with those the derived parts asked for read (`include=determination` brings `structure` and `cbrs`). */
export function withImpliedParts(include: Iterable<IncludeItem>): Set<IncludeItem> {
  const asked = new Set(include);
  for (const part of DERIVED_PARTS) if (asked.has(part.include)) for (const implied of part.implies) asked.add(implied as IncludeItem);
  return asked;
}

/**
 * The supplementary parts every lookup looks up, with the effective map: their failure leaves them null and named.
 * `nfipStatus` (the community's NFIP standing, `result.community.nfip`) follows the community it belongs to.
 */
export const SUPPLEMENTARY_PARTS = ['community', 'nfipStatus', 'lomrs', 'lomas', 'estimatedBaseFloodElevation'] as const;

/** A part of an answer that may be missing, by its name in `unavailable`. */
export type AnswerPart = (typeof SUPPLEMENTARY_PARTS)[number] | AnyOptionalPart['field'];

/** Every name `unavailable` may hold, in the order it lists them (a derived part names the inputs it lacked, never itself). */
export const ANSWER_PARTS: readonly AnswerPart[] = [...SUPPLEMENTARY_PARTS, ...OPTIONAL_PARTS.map((part) => part.field)];

/** The parts named, in the documented order. */
export function inDocumentedOrder(parts: Iterable<AnswerPart>): AnswerPart[] {
  const named = new Set(parts);
  return ANSWER_PARTS.filter((part) => named.has(part));
}

/** The Nest modules providing the opt-in parts' ports, each once, in the parts' order. */
export const OPTIONAL_PART_MODULES = [...new Set(OPTIONAL_PARTS.map((part) => part.module))];
