/**
 * `result.structure`: the building chosen (or the footprint given) with the flood zones over its whole footprint, and
 * one sentence on what they mean for the building. It never says more than the zones show: where part of the
 * footprint is off the map, a building not in the SFHA elsewhere is unknown, never "not in the SFHA". Pure functions.
 */
import { formatNfhlDate, roundToTenth } from '../../flood-hazard/nfhl-values';
import { type BuildingChoice, type BuildingSearchPoint, NEAREST_LEAD_M } from './building-choice';
import { footprintAreaSquareMetres, footprintOfRings, wholeSquareFeet } from './footprint-zones';
import { structureNumber, structureText } from './structure-values';
import type { Footprint, FootprintFloodZones, Structure, StructureCandidate, StructureFeature } from './structure.types';

export const USA_STRUCTURES_SOURCE = 'FEMA/ORNL USA Structures (CC BY 4.0)';
export const GIVEN_FOOTPRINT_SOURCE = 'Footprint given by the caller';

/** A building found among USA Structures' footprints. */
export type FoundBuilding = Extract<BuildingChoice, { building: StructureFeature }>;

/**
 * The building the answer is for: as chosen among USA Structures' footprints, or the footprint the caller gave; or none,
 * with the buildings near the point listed.
 */
export type StructureBuilding = FoundBuilding | { match: 'none' | 'ambiguous'; candidates: StructureCandidate[] } | { match: 'given'; footprint: Footprint };

/** How the building was looked for, which the note names when none could be chosen. */
export interface BuildingSearch {
  locationSource: BuildingSearchPoint['locationSource'];
  searchM: number;
}

/** A share for a sentence: "19%", "40.5%", or "less than 0.1%" for an entry too small to show. */
export function shareWords(sharePercent: number): string {
  return sharePercent < 0.1 ? 'less than 0.1%' : `${Number.isInteger(sharePercent) ? sharePercent : sharePercent.toFixed(1)}%`;
}

/** "zone AE", "zones VE and AE", "zones VE, AE and A": each zone code once, in the entries' order. */
function zoneWords(zones: string[]): string {
  const codes = [...new Set(zones)];
  if (codes.length === 1) return `zone ${codes[0]}`;
  return `zones ${codes.slice(0, -1).join(', ')} and ${codes[codes.length - 1]}`;
}

function capitalised(sentence: string): string {
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** What the zones over the footprint mean for the building, in one sentence. */
function zonesNote(zones: FootprintFloodZones | null, footprint: string): string {
  if (zones === null) {
    return `The flood zones over ${footprint} could not be read from FEMA's flood map this time, so whether the building is in the SFHA is unknown.`;
  }
  if (zones.buildingInSfha === true) {
    const sfha = zones.zones.filter((zone) => zone.inSpecialFloodHazardArea);
    const share = roundToTenth(sfha.reduce((sum, zone) => sum + zone.sharePercent, 0));
    return capitalised(
      `${shareWords(share)} of ${footprint} lies in ${zoneWords(sfha.map((zone) => zone.floodZone))}: a building any part of which is in the SFHA is in the SFHA.`,
    );
  }
  if (zones.buildingInSfha === false) {
    return capitalised(`${footprint} lies wholly outside the SFHA, in ${zoneWords(zones.zones.map((zone) => zone.floodZone))}.`);
  }
  if (zones.zones.length === 0) {
    return `No part of ${footprint} lies in a flood zone of FEMA's digital flood map (it is off the map or in an area the map does not include), so whether the building is in the SFHA is unknown.`;
  }
  // A rest too small to show (its share rounds to 0.0) is said as such, never "100%" beside "the rest".
  if (zones.unmappedSharePercent >= 100) {
    return (
      `All but less than 0.1% of ${footprint} is off FEMA's digital flood map or in an area it does not include, and that little lies outside ` +
      'the SFHA, so whether the building is in the SFHA is unknown.'
    );
  }
  return (
    `${shareWords(zones.unmappedSharePercent)} of ${footprint} is off FEMA's digital flood map or in an area it does not include ` +
    'and the rest lies outside the SFHA, so whether the building is in the SFHA is unknown.'
  );
}

/** Why no building could be chosen, in one sentence. */
function noBuildingNote(match: 'none' | 'ambiguous', candidates: number, { locationSource, searchM }: BuildingSearch): string {
  if (match === 'ambiguous') {
    return (
      `No building was chosen: several building footprints lie within ${searchM} m of the address's point, none of them alone carries the address, ` +
      `and which stands on the address's side of the street cannot be told, or two houses there lie within ${NEAREST_LEAD_M} m of each other; so ` +
      'the answer is for the point alone and the nearest buildings are listed (choose one with buildId).'
    );
  }
  if (candidates > 0) {
    return (
      `No building was chosen: every building footprint within ${searchM} m of the address's point stands across the street from the address ` +
      '(outside its census block), so the answer is for the point alone and those buildings are listed (choose one with buildId).'
    );
  }
  if (locationSource === 'coordinates') {
    return 'No building was chosen: no building footprint contains the given coordinates (taken as the exact point), so the answer is for the point alone.';
  }
  return `No building was chosen: no building footprint lies within ${searchM} m of the address's point, so the answer is for the point alone.`;
}

/** The zone fields of the answer: all null when the zones could not be read. */
function zoneFields(zones: FootprintFloodZones | null): Pick<Structure, 'zones' | 'unmappedSharePercent' | 'buildingInSfha' | 'highestBfeFt' | 'firmPanels'> {
  return {
    zones: zones?.zones ?? null,
    unmappedSharePercent: zones?.unmappedSharePercent ?? null,
    buildingInSfha: zones?.buildingInSfha ?? null,
    highestBfeFt: zones?.highestBfeFt ?? null,
    firmPanels: zones?.firmPanels ?? null,
  };
}

/** Heights are single-precision floats in the layer: a centimetre is what they carry. */
function heightMetres(value: number | null): number | null {
  const height = structureNumber(value);
  return height === null ? null : Math.round(height * 100) / 100;
}

function foundBuilding({ building, match, distanceM }: FoundBuilding, zones: FootprintFloodZones | null): Structure {
  const footprint = footprintOfRings(building.rings);
  const { attributes } = building;
  return {
    match,
    distanceM,
    buildId: structureText(attributes.BUILD_ID),
    occupancy: structureText(attributes.OCC_CLS),
    primaryOccupancy: structureText(attributes.PRIM_OCC),
    footprintAreaSqFt: wholeSquareFeet(footprintAreaSquareMetres(footprint)),
    heightM: heightMetres(attributes.HEIGHT),
    imageDate: formatNfhlDate(structureNumber(attributes.IMAGE_DATE)),
    ...zoneFields(zones),
    candidates: [],
    source: USA_STRUCTURES_SOURCE,
    note: zonesNote(zones, "the building's footprint"),
    footprint,
  };
}

const NO_BUILDING = {
  distanceM: null,
  buildId: null,
  occupancy: null,
  primaryOccupancy: null,
  footprintAreaSqFt: null,
  heightM: null,
  imageDate: null,
} as const;

/**
 * `result.structure` for the building (chosen or given) and the zones over its footprint; `zones` is null when the
 * zone or panel query failed, and is not read when no building was chosen.
 */
export function structureAnswer(building: StructureBuilding, zones: FootprintFloodZones | null, search: BuildingSearch): Structure {
  switch (building.match) {
    case 'contains':
    case 'address':
    case 'nearest':
    case 'chosen':
      return foundBuilding(building, zones);
    case 'given':
      return {
        ...NO_BUILDING,
        match: 'given',
        distanceM: 0,
        footprintAreaSqFt: wholeSquareFeet(footprintAreaSquareMetres(building.footprint)),
        ...zoneFields(zones),
        candidates: [],
        source: GIVEN_FOOTPRINT_SOURCE,
        note: zonesNote(zones, 'the given footprint'),
        footprint: building.footprint,
      };
    case 'none':
    case 'ambiguous':
      return {
        ...NO_BUILDING,
        match: building.match,
        ...zoneFields(null),
        candidates: building.candidates,
        source: USA_STRUCTURES_SOURCE,
        note: noBuildingNote(building.match, building.candidates.length, search),
        footprint: null,
      };
  }
}
