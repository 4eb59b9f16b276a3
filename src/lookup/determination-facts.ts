import CheapRuler from 'cheap-ruler';
import type { Loma } from '../flood-hazard/flood-hazard.types';
import type { AnswerPart } from '../parts/answer-parts';
import { BuildingFacts, DeterminationFacts, LomaFacts, nfipStandingOf } from '../parts/determination/determination';
import type { BuildingSurveyed } from '../parts/structure/building-survey.client';
import { metresToFootprint } from '../parts/structure/footprint-geometry';
import type { Footprint } from '../parts/structure/structure.types';
import type { FloodZoneLookup, FloodZoneResult } from './flood-zone-lookup';

/** What the lookup hands the lender's form: its answer so far, the building part's data, and where each LOMA is. */
export interface DeterminationSources {
  result: FloodZoneResult;
  /** The parts missing so far. */
  missing: readonly AnswerPart[];
  location: FloodZoneLookup['location'];
  /** The building part's data; null when USA Structures did not answer. */
  building: BuildingSurveyed | null;
  /** Where each of `result.lomas` is, in the same order; undefined when not known (the distances from the point are used). */
  lomaPositions: ReadonlyArray<[number, number]> | null | undefined;
  /** When FEMA's data was read. */
  retrievedAt: string;
}

/** The facts of the lender's form from a lookup's answer: a missing input is said to be missing, never filled in. */
export function determinationFacts({ result, missing, location, building, lomaPositions, retrievedAt }: DeterminationSources): DeterminationFacts {
  const community = missing.includes('community') ? 'unavailable' : result.community && { name: result.community.name, number: result.community.communityId };
  return {
    point: {
      coverage: result.coverage,
      inSfha: result.inSpecialFloodHazardArea,
      zones: result.zonesAtPoint.map((zone) => ({ floodZone: zone.floodZone, inSfha: zone.inSpecialFloodHazardArea })),
      panel: result.firmPanel && { panel: result.firmPanel.panel, effectiveDate: result.firmPanel.effectiveDate },
    },
    building: buildingFacts(building),
    community,
    county: { name: location.county, fips: location.countyFips },
    // Without the community there is no standing to look up: unknown, the community named as missing (the Book was not).
    nfip: nfipStandingOf(community === 'unavailable' || result.community === null ? null : (result.community.nfip ?? 'unavailable')),
    coastalBarrier: result.coastalBarrier ?? 'unavailable',
    lomrs: result.lomrs ?? 'unavailable',
    lomas: result.lomas === null ? 'unavailable' : lomaFacts(result.lomas, lomaPositions, building?.structure.footprint ?? null, location),
    determinedAt: retrievedAt,
  };
}

function buildingFacts(building: BuildingSurveyed | null): BuildingFacts {
  if (building === null) return { status: 'unavailable' };
  const { structure, governingPanel } = building;
  if (structure.match === 'none' || structure.match === 'ambiguous') return { status: 'not_found' };
  if (structure.zones === null) return { status: 'footprint_unread' };
  return {
    status: 'found',
    zones: structure.zones.map((zone) => ({ floodZone: zone.floodZone, inSfha: zone.inSpecialFloodHazardArea })),
    inSfha: structure.buildingInSfha,
    governingPanel,
  };
}

/** Each LOMA with its distance from the building's footprint where there is one and the LOMA's place is known, else from the point. */
function lomaFacts(
  lomas: readonly Loma[],
  positions: ReadonlyArray<[number, number]> | null | undefined,
  footprint: Footprint | null,
  point: { lat: number; lon: number },
): LomaFacts[] {
  const ruler = new CheapRuler(point.lat, 'meters');
  return lomas.map((loma, index) => {
    const position = positions?.[index];
    const distanceM = footprint && position ? metresToFootprint(ruler, { lon: position[0], lat: position[1] }, footprint) : loma.distanceM;
    return { caseNumber: loma.caseNumber, effectiveDate: loma.effectiveDate, status: loma.status, distanceM };
  });
}
