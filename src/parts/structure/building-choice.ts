/**
 * Which building a lookup's point stands for. A geocoded address point is interpolated along the street, often tens
 * of metres from the house, so for an address the building is also found by its address or as the clearly nearest
 * one; coordinates are the caller's exact point, so only a footprint containing them is taken. Pure functions.
 */
import CheapRuler from 'cheap-ruler';
import { metresToRings } from '../../common/arcgis-rings';
import type { GeoPoint } from '../../flood-hazard/flood-hazard.types';
import { roundToTenth } from '../../flood-hazard/nfhl-values';
import type { PartContext } from '../answer-part';
import { structureText } from './structure-values';
import type { StructureCandidate, StructureFeature } from './structure.types';

/** The nearest building is the address's only when the next one is at least this much farther. */
export const NEAREST_LEAD_M = 10;

/** At most this many buildings are listed when none could be chosen. */
const MAX_CANDIDATES = 5;

/** Distances closer than this (a millimetre) are equal: shared walls come back with rounding noise. */
const TIE_TOLERANCE_M = 0.001;

/** Where the building is looked for: the lookup's point, how it was found, and the geocoder's address for it. */
export interface BuildingSearchPoint {
  point: GeoPoint;
  locationSource: PartContext['locationSource'];
  /** The Census geocoder's matched address ("140 1ST ST, MENOMINEE, MI, 49858"); null for coordinates. */
  matchedAddress: string | null;
}

export type BuildingChoice =
  | { match: 'contains' | 'address' | 'nearest'; building: StructureFeature; distanceM: number }
  | { match: 'none' | 'ambiguous'; candidates: StructureCandidate[] };

interface MeasuredBuilding {
  building: StructureFeature;
  distanceM: number;
  outbuilding: boolean;
  /** Its place in the layer's answer. */
  order: number;
}

/** Upper case, single spaces: how addresses are compared. */
function normaliseAddress(text: string): string {
  return text.toUpperCase().replace(/\s+/g, ' ').trim();
}

/** A house number: digits, perhaps a letter after them, or two such joined by a hyphen (Queens' "123-45"). */
const HOUSE_NUMBER = /^\d+[A-Z]?(-\d+[A-Z]?)? \S/;

/** The house number and street of a geocoder's matched address (its first part), or null when it has no house number. */
function streetLine(matchedAddress: string | null): string | null {
  if (matchedAddress === null) return null;
  const line = normaliseAddress(matchedAddress.split(',')[0]);
  return HOUSE_NUMBER.test(line) ? line : null;
}

/** Whether the building's PROP_ADDR is that house number and street (a unit after them still matches). */
function carriesAddress({ building }: MeasuredBuilding, street: string): boolean {
  const address = structureText(building.attributes.PROP_ADDR);
  if (address === null) return false;
  const normalised = normaliseAddress(address);
  return normalised === street || normalised.startsWith(`${street} `);
}

/** Nearest first; at the same distance a main building before an outbuilding, then the layer's order. */
function nearestFirst(a: MeasuredBuilding, b: MeasuredBuilding): number {
  if (Math.abs(a.distanceM - b.distanceM) > TIE_TOLERANCE_M) return a.distanceM - b.distanceM;
  return Number(a.outbuilding) - Number(b.outbuilding) || a.order - b.order;
}

/** The buildings (nearest first) less every outbuilding as near as a main building: it is never chosen over one. */
function withoutTiedOutbuildings(buildings: MeasuredBuilding[]): MeasuredBuilding[] {
  const mains = buildings.filter((building) => !building.outbuilding);
  return buildings.filter((building) => !building.outbuilding || !mains.some((main) => Math.abs(main.distanceM - building.distanceM) <= TIE_TOLERANCE_M));
}

function chosen(match: 'contains' | 'address' | 'nearest', { building, distanceM }: MeasuredBuilding): BuildingChoice {
  return { match, building, distanceM: roundToTenth(distanceM) };
}

function candidateOf({ building, distanceM }: MeasuredBuilding): StructureCandidate {
  return {
    buildId: structureText(building.attributes.BUILD_ID),
    distanceM: roundToTenth(distanceM),
    address: structureText(building.attributes.PROP_ADDR),
  };
}

/**
 * The building the point stands for, in this order: (1) a footprint containing the point; for an address only,
 * (2) the one footprint within `searchM` carrying the matched address's house number and street, then (3) the
 * nearest within `searchM` when the next is at least NEAREST_LEAD_M farther. Otherwise none (nothing within reach,
 * or coordinates in no footprint) or ambiguous, with the nearest buildings listed.
 */
export function chooseBuilding(buildings: StructureFeature[], at: BuildingSearchPoint, searchM: number): BuildingChoice {
  const ruler = new CheapRuler(at.point.lat, 'meters');
  const measured = buildings
    .map((building, order): MeasuredBuilding => ({
      building,
      distanceM: metresToRings(ruler, at.point, building.rings),
      outbuilding: structureText(building.attributes.OUTBLDG)?.toUpperCase() === 'Y',
      order,
    }))
    .sort(nearestFirst);
  const containing = withoutTiedOutbuildings(measured.filter((building) => building.distanceM === 0));
  if (containing.length > 0) return chosen('contains', containing[0]);
  if (at.locationSource === 'coordinates') return { match: 'none', candidates: [] };

  const within = measured.filter((building) => building.distanceM <= searchM);
  if (within.length === 0) return { match: 'none', candidates: [] };
  const street = streetLine(at.matchedAddress);
  const addressed = street === null ? [] : withoutTiedOutbuildings(within.filter((building) => carriesAddress(building, street)));
  if (addressed.length === 1) return chosen('address', addressed[0]);
  const [nearest, next] = withoutTiedOutbuildings(within);
  if (next === undefined || next.distanceM - nearest.distanceM >= NEAREST_LEAD_M - TIE_TOLERANCE_M) return chosen('nearest', nearest);
  return { match: 'ambiguous', candidates: within.slice(0, MAX_CANDIDATES).map(candidateOf) };
}
