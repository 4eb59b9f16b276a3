/**
 * Which building a lookup's point stands for. A geocoded address point is interpolated along the street's centre
 * line, often tens of metres from the house, and the nearest footprint may stand across the street; USA Structures
 * rarely carries an address (PROP_ADDR is null on whole cities). The Census geocoder puts the address in the census
 * block on its own side of the street, so a building is taken for an address only when it stands in that block.
 * Coordinates are the caller's exact point, so only a footprint containing them is taken. Pure functions.
 */
import CheapRuler from 'cheap-ruler';
import { metresToRings } from '../../common/arcgis-rings';
import type { GeoPoint } from '../../flood-hazard/flood-hazard.types';
import { roundToTenth } from '../../flood-hazard/nfhl-values';
import type { PartContext } from '../answer-part';
import { TRACT_DIGITS, buildingTract, structureText } from './structure-values';
import type { StructureFeature } from './structure.types';

/** The nearest building on the address's side is the address's only when the next house there is at least this much farther. */
export const NEAREST_LEAD_M = 10;

/** At most this many buildings are listed when none could be chosen. */
const MAX_CANDIDATES = 5;

/** Distances closer than this (a millimetre) are equal: shared walls come back with rounding noise. */
const TIE_TOLERANCE_M = 0.001;

/** Where the building is looked for: the lookup's point, how it was found, and what the geocoder said of the address. */
export interface BuildingSearchPoint {
  point: GeoPoint;
  locationSource: PartContext['locationSource'];
  /** The Census geocoder's matched address ("140 1ST ST, MENOMINEE, MI, 49858"); null for coordinates. */
  matchedAddress: string | null;
  /** The 2020 census block (15-digit GEOID) the geocoder put the address in, on its side of the street; null when unknown. */
  addressBlock: string | null;
}

/** The census block (15-digit GEOID) a building's interior point lies in; null or undefined when it is not known. */
export type BlockOfBuilding = (building: StructureFeature) => string | null | undefined;

/** A building near the point, and how far. */
export interface MeasuredCandidate {
  building: StructureFeature;
  distanceM: number;
}

export type BuildingChoice =
  | { match: 'contains' | 'address' | 'nearest' | 'chosen'; building: StructureFeature; distanceM: number }
  | { match: 'none' | 'ambiguous'; candidates: MeasuredCandidate[] };

interface MeasuredBuilding extends MeasuredCandidate {
  outbuilding: boolean;
  /** Its place in the layer's answer. */
  order: number;
}

/** Every spelling of "yes" the layer's OUTBLDG uses; anything else (null, blank, N, No, 0, false) is a main building. */
const OUTBUILDING_YES = new Set(['Y', 'YES', '1', 'T', 'TRUE']);

/** Whether the layer marks the building as an outbuilding (a shed, a garage), in whichever spelling it uses. */
export function isOutbuilding(value: unknown): boolean {
  if (value === true || value === 1) return true;
  return typeof value === 'string' && OUTBUILDING_YES.has(value.trim().toUpperCase());
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

function measuredFrom(buildings: StructureFeature[], point: GeoPoint): MeasuredBuilding[] {
  const ruler = new CheapRuler(point.lat, 'meters');
  return buildings
    .map((building, order): MeasuredBuilding => ({
      building,
      distanceM: metresToRings(ruler, point, building.rings),
      outbuilding: isOutbuilding(building.attributes.OUTBLDG),
      order,
    }))
    .sort(nearestFirst);
}

function chosen(match: 'contains' | 'address' | 'nearest' | 'chosen', { building, distanceM }: MeasuredCandidate): BuildingChoice {
  return { match, building, distanceM: roundToTenth(distanceM) };
}

function listed(match: 'none' | 'ambiguous', buildings: MeasuredBuilding[]): BuildingChoice {
  return { match, candidates: buildings.slice(0, MAX_CANDIDATES).map(({ building, distanceM }) => ({ building, distanceM: roundToTenth(distanceM) })) };
}

/** Which side of the street a building stands on, against the address's block: its tract alone may already tell. */
type Side = 'same' | 'other' | 'unknown';

function sideOf(building: StructureFeature, addressBlock: string, blockOf: BlockOfBuilding): Side {
  const tract = buildingTract(building.attributes);
  if (tract !== null && tract !== addressBlock.slice(0, TRACT_DIGITS)) return 'other';
  const block = blockOf(building);
  if (block === null || block === undefined) return 'unknown';
  return block === addressBlock ? 'same' : 'other';
}

/** What (1) and (2) decide alone, before any building's block is needed: a footprint containing the point, or the one carrying the address. */
function decidedWithoutBlocks(measured: MeasuredBuilding[], at: BuildingSearchPoint, searchM: number): BuildingChoice | null {
  const containing = withoutTiedOutbuildings(measured.filter((building) => building.distanceM === 0));
  if (containing.length > 0) return chosen('contains', containing[0]);
  if (at.locationSource === 'coordinates') return { match: 'none', candidates: [] };
  const street = streetLine(at.matchedAddress);
  const within = measured.filter((building) => building.distanceM <= searchM);
  const addressed = street === null ? [] : withoutTiedOutbuildings(within.filter((building) => carriesAddress(building, street)));
  return addressed.length === 1 ? chosen('address', addressed[0]) : null;
}

/**
 * The buildings whose census block chooseBuilding needs for this point: none when a footprint contains it, one carries
 * the address or the address's block is unknown; else every building within `searchM` not told apart by its tract
 * alone (CENSUSCODE, another tract being across a tract boundary, so not the address's side).
 */
export function buildingsToPlace(buildings: StructureFeature[], at: BuildingSearchPoint, searchM: number): StructureFeature[] {
  const measured = measuredFrom(buildings, at.point);
  const { addressBlock } = at;
  if (addressBlock === null || decidedWithoutBlocks(measured, at, searchM) !== null) return [];
  return withoutTiedOutbuildings(measured.filter((building) => building.distanceM <= searchM))
    .filter(({ building }) => sideOf(building, addressBlock, () => undefined) === 'unknown')
    .map(({ building }) => building);
}

/**
 * The building the point stands for, in this order: (1) a footprint containing the point; for an address only,
 * (2) the one footprint within `searchM` carrying the matched address's house number and street, then (3) the
 * nearest within `searchM` standing in the address's census block (its side of the street), when the next house
 * there is at least NEAREST_LEAD_M farther. Otherwise none (nothing within reach, coordinates in no footprint, or
 * every building within reach across the street, listed) or ambiguous (the sides cannot be told, or two houses
 * within NEAREST_LEAD_M of each other on the address's side), with the nearest buildings listed.
 */
export function chooseBuilding(
  buildings: StructureFeature[],
  at: BuildingSearchPoint,
  searchM: number,
  blockOf: BlockOfBuilding = () => undefined,
): BuildingChoice {
  const measured = measuredFrom(buildings, at.point);
  const decided = decidedWithoutBlocks(measured, at, searchM);
  if (decided !== null) return decided;

  const within = withoutTiedOutbuildings(measured.filter((building) => building.distanceM <= searchM));
  if (within.length === 0) return { match: 'none', candidates: [] };
  const { addressBlock } = at;
  if (addressBlock === null) return listed('ambiguous', within);
  const sides = new Map(within.map((building) => [building, sideOf(building.building, addressBlock, blockOf)]));
  const eligible = within.filter((building) => sides.get(building) !== 'other');
  if (eligible.length === 0) return listed('none', within);
  const [nearest, ...farther] = eligible;
  if (sides.get(nearest) === 'unknown') return listed('ambiguous', within);
  // Only another main building competes: a shed beside the house is no second house.
  const rival = farther.find((building) => !building.outbuilding);
  if (rival !== undefined && rival.distanceM - nearest.distanceM < NEAREST_LEAD_M - TIE_TOLERANCE_M) return listed('ambiguous', within);
  return chosen('nearest', nearest);
}

/** The building the caller chose by its BUILD_ID among those found (`match` `chosen`), or null when it is not among them. */
export function buildingChosenById(buildings: StructureFeature[], point: GeoPoint, buildId: string): BuildingChoice | null {
  const found = measuredFrom(buildings, point).find(({ building }) => structureText(building.attributes.BUILD_ID) === buildId);
  return found === undefined ? null : chosen('chosen', found);
}

/** A point inside the footprint, for the census block it stands in: the centre of the widest span across its middle latitude. */
export function interiorPoint(rings: number[][][]): GeoPoint {
  const vertices = rings.flat().filter((vertex) => vertex.length >= 2 && Number.isFinite(vertex[0]) && Number.isFinite(vertex[1]));
  const lats = vertices.map(([, lat]) => lat);
  const lat = (Math.min(...lats) + Math.max(...lats)) / 2;
  // Where each edge crosses the latitude, west to east: inside and outside alternate (the even-odd rule, holes included).
  const crossings: number[] = [];
  for (const ring of rings) {
    for (let i = 1; i < ring.length; i++) {
      const [[x0, y0], [x1, y1]] = [ring[i - 1], ring[i]];
      if (y0 > lat !== y1 > lat) crossings.push(x0 + ((lat - y0) * (x1 - x0)) / (y1 - y0));
    }
  }
  crossings.sort((a, b) => a - b);
  let best = { lon: vertices[0]?.[0] ?? NaN, width: -1 };
  for (let i = 0; i + 1 < crossings.length; i += 2) {
    const width = crossings[i + 1] - crossings[i];
    if (width > best.width) best = { lon: (crossings[i] + crossings[i + 1]) / 2, width };
  }
  return { lat, lon: best.lon };
}
