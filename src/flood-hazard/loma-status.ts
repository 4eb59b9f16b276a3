/**
 * Letters of Map Amendment near a point: FEMA's own status rule and the
 * choice of LOMAs within reach of the point. Pure functions: no I/O, no clock, no locale.
 */
import CheapRuler from 'cheap-ruler';
import { formatNfhlDate, nfhlText } from './nfhl-values';
import { GeoPoint, Loma, LomaFeature, LomaStatus } from './flood-hazard.types';

/** OUTCOME values (trimmed, lower case) that FEMA's layer-34 renderer draws as "Denied". */
const DENIED_OUTCOMES: ReadonlySet<string> = new Set([
  'denied',
  'denied-in floodway',
  'portion of property denied',
  'portion of property denied and in floodway',
  'property denied',
  'property denied and in floodway',
  'structure denied',
  'structure denied and in floodway',
]);

/** REVAL_STAT values (trimmed, lower case) the renderer draws as their own class; anything else is valid. */
const REVALIDATION_STATUS: ReadonlyMap<string, LomaStatus> = new Map<string, LomaStatus>([
  ['incorporated', 'incorporated'],
  ['superseded', 'superseded'],
  ['contact community', 'contact_community'],
  ['reevaluation needed', 'reevaluation_needed'],
]);

/** Trim and lower case, as the renderer's Arcade `Trim(Lower(...))` does; inner text is compared as is. */
function rendererKey(value: string | null): string {
  return (value ?? '').trim().toLowerCase();
}

/**
 * FEMA's renderer rule for layer 34 "LOMAs": a denied outcome wins over any revalidation status,
 * and a LOMA with neither is valid.
 */
export function lomaStatus(outcome: string | null, revalStat: string | null): LomaStatus {
  if (DENIED_OUTCOMES.has(rendererKey(outcome))) return 'denied';
  return REVALIDATION_STATUS.get(rendererKey(revalStat)) ?? 'valid';
}

/** A LOMA is located by its own geocode, so one within this distance may be about the queried lot. */
export const LOMA_REACH_M = 100;

/**
 * The LOMAs within `withinM` metres of the point (the layer is queried by an envelope, which also
 * holds points in its corners), nearest first; equally near ones by case number, so the order never
 * depends on the order NFHL returned them.
 */
export function lomasNear(features: LomaFeature[], point: GeoPoint, withinM = LOMA_REACH_M): Loma[] {
  return placedLomasNear(features, point, withinM).map(({ loma }) => loma);
}

/** A LOMA near the point, with where its own geocode puts it ([lon, lat]): a building's distance to it is measured from there. */
export interface PlacedLoma {
  loma: Loma;
  position: [number, number];
}

/** `lomasNear`, each LOMA with its position. */
export function placedLomasNear(features: LomaFeature[], point: GeoPoint, withinM = LOMA_REACH_M): PlacedLoma[] {
  const ruler = new CheapRuler(point.lat, 'meters');
  const origin: [number, number] = [point.lon, point.lat];
  return features
    .filter((feature) => Number.isFinite(feature.lon) && Number.isFinite(feature.lat))
    .map((feature) => ({ feature, distance: ruler.distance(origin, [feature.lon, feature.lat]) }))
    .filter(({ distance }) => distance <= withinM)
    .map(({ feature, distance }) => ({ distance, loma: toLoma(feature, distance), position: [feature.lon, feature.lat] as [number, number] }))
    .sort((a, b) => a.distance - b.distance || byCaseNumber(a.loma, b.loma))
    .map(({ loma, position }) => ({ loma, position }));
}

/** Code-unit order, not a locale's: the same on every machine. */
function byCaseNumber(a: Loma, b: Loma): number {
  const left = a.caseNumber ?? '';
  const right = b.caseNumber ?? '';
  return left < right ? -1 : left > right ? 1 : 0;
}

function toLoma({ attributes }: LomaFeature, distance: number): Loma {
  return {
    caseNumber: nfhlText(attributes.CASENUMBER),
    effectiveDate: formatNfhlDate(attributes.DATEENDED),
    status: lomaStatus(attributes.OUTCOME, attributes.REVAL_STAT),
    outcome: nfhlText(attributes.OUTCOME),
    category: nfhlText(attributes.PROJECTCATEGORY),
    distanceM: Math.round(distance),
  };
}
