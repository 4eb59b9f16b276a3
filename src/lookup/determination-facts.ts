import CheapRuler from 'cheap-ruler';
import type { AmbiguousCommunity, Community, Loma } from '../flood-hazard/flood-hazard.types';
import type { PlacedLoma } from '../flood-hazard/loma-status';
import type { AnswerPart } from '../parts/answer-parts';
import {
  AmbiguousCommunityFacts,
  BuildingFacts,
  CommunityAt,
  CommunityFacts,
  DeterminationFacts,
  LomaFacts,
  SiteFacts,
  nfipStandingOf,
} from '../parts/determination/determination';
import type { NfipStatus } from '../parts/nfip-status/nfip-status';
import type { BuildingSurveyed } from '../parts/structure/building-survey.client';
import { metresToFootprint } from '../parts/structure/footprint-geometry';
import type { Footprint } from '../parts/structure/structure.types';
import type { FootprintCoastalBarrier, FootprintMapSite } from './building-site';
import type { FloodZoneLookup, FloodZoneResult } from './flood-zone-lookup';

/** Where a building stands as the lookup read it over its footprint: each map's answer, `unavailable` when it did not answer. */
export interface BuildingSiteRead {
  coastalBarrier: FootprintCoastalBarrier | 'unavailable';
  map: FootprintMapSite | 'unavailable';
}

/** The Community Status Book as the lookup holds it (each undefined while no book is held). */
export interface StatusBookView {
  lookup(communityId: string): Readonly<NfipStatus> | undefined;
  /** Whether the community's row dates a map; null when the book does not list it. */
  mapDated(communityId: string): boolean | null | undefined;
}

/** What the lookup hands the lender's form: its answer so far, the building part's data, and where each LOMA is. */
export interface DeterminationSources {
  result: FloodZoneResult;
  /** The parts missing so far. */
  missing: readonly AnswerPart[];
  location: FloodZoneLookup['location'];
  /** The building part's data; null when USA Structures did not answer. */
  building: BuildingSurveyed | null;
  /** Where the building stands, read over its footprint; null when there is no footprint to read it over. */
  site: BuildingSiteRead | null;
  /** Where each of `result.lomas` is, in the same order; undefined when not known (the distances from the point are used). */
  lomaPositions: ReadonlyArray<[number, number]> | null | undefined;
  statusBook: StatusBookView;
  /** When FEMA's data was read. */
  retrievedAt: string;
}

/** The facts of the lender's form from a lookup's answer: a missing input is said to be missing, never filled in. */
export function determinationFacts({
  result,
  missing,
  location,
  building,
  site,
  lomaPositions,
  statusBook,
  retrievedAt,
}: DeterminationSources): DeterminationFacts {
  const pointCommunity: CommunityAt = missing.includes('community')
    ? 'unavailable'
    : result.community
      ? {
          name: result.community.name,
          number: result.community.communityId,
          // Joined by the lookup already: the standing the answer shows.
          nfip: nfipStandingOf(result.community.nfip ?? 'unavailable'),
          mapInStatusBook: mapInStatusBook(statusBook, result.community.communityId),
        }
      : ambiguousAmong(result.communitiesAtPoint ?? []);
  const lomas = result.lomas === null ? 'unavailable' : lomaFacts(result.lomas, lomaPositions, null, location);
  return {
    point: {
      coverage: result.coverage,
      inSfha: result.inSpecialFloodHazardArea,
      zones: result.zonesAtPoint.map((zone) => ({ floodZone: zone.floodZone, inSfha: zone.inSpecialFloodHazardArea })),
      panel: result.firmPanel && { panel: result.firmPanel.panel, effectiveDate: result.firmPanel.effectiveDate },
    },
    building: buildingFacts(building, () => siteFacts(site, building?.structure.footprint ?? null, { result, lomaPositions, location, statusBook })),
    community: pointCommunity,
    county: { name: location.county, fips: location.countyFips },
    coastalBarrier: result.coastalBarrier ?? 'unavailable',
    lomrs: result.lomrs ?? 'unavailable',
    lomas,
    determinedAt: retrievedAt,
  };
}

function buildingFacts(building: BuildingSurveyed | null, site: () => SiteFacts): BuildingFacts {
  if (building === null) return { status: 'unavailable' };
  const { structure, governingPanel } = building;
  if (structure.match === 'none' || structure.match === 'ambiguous') return { status: 'not_found' };
  if (structure.zones === null) return { status: 'footprint_unread', site: site() };
  return {
    status: 'found',
    zones: structure.zones.map((zone) => ({ floodZone: zone.floodZone, inSfha: zone.inSpecialFloodHazardArea })),
    inSfha: structure.buildingInSfha,
    governingPanel,
    site: site(),
  };
}

/** Where the building stands: what was read over its footprint, the LOMAs measured from it (those around the point where they reach it all). */
function siteFacts(
  site: BuildingSiteRead | null,
  footprint: Footprint | null,
  point: Pick<DeterminationSources, 'result' | 'lomaPositions' | 'location' | 'statusBook'>,
): SiteFacts {
  // A building found has a footprint, read over whenever the form is asked: unread, nothing is known of where it stands.
  const map = site?.map ?? 'unavailable';
  const coastalBarrier = site?.coastalBarrier ?? 'unavailable';
  if (map === 'unavailable') return { community: 'unavailable', coastalBarrier, lomrs: 'unavailable', lomas: 'unavailable' };
  const aroundPoint = point.result.lomas === null ? 'unavailable' : lomaFacts(point.result.lomas, point.lomaPositions, footprint, point.location);
  return {
    community: communityAt(map.community, point.statusBook),
    coastalBarrier,
    lomrs: map.lomrs,
    lomas: map.lomas === null ? aroundPoint : map.lomas === 'unavailable' ? 'unavailable' : placedLomaFacts(map.lomas, footprint, point.location),
  };
}

function communityAt(community: Community | AmbiguousCommunity | null | 'unavailable', statusBook: StatusBookView): CommunityAt {
  if (community === null || community === 'unavailable') return community;
  return 'ambiguousAmong' in community ? ambiguousAmong(community.ambiguousAmong) : communityFacts(community, statusBook);
}

/** The community with its standing as the book gives it (as `result.community.nfip` is joined). */
function communityFacts(community: Community, statusBook: StatusBookView): CommunityFacts {
  const id = community.communityId;
  // A community without an id cannot be found in the book: as for an id the book lacks, its standing is unknown.
  return {
    name: community.name,
    number: id,
    nfip: nfipStandingOf(statusBook.lookup(id ?? '') ?? 'unavailable'),
    mapInStatusBook: mapInStatusBook(statusBook, id),
  };
}

/** Several communities at a place, none its own; null when there are none (one alone is the place's, said before). */
function ambiguousAmong(communities: readonly Community[]): AmbiguousCommunityFacts | null {
  return communities.length > 1 ? { ambiguousAmong: communities.map(({ name, communityId }) => ({ name, number: communityId })) } : null;
}

function mapInStatusBook(statusBook: StatusBookView, communityId: string | null): boolean | null {
  return statusBook.mapDated(communityId ?? '') ?? null;
}

/** Each LOMA with its distance from the building's footprint where there is one and the LOMA's place is known, else from the point. */
function lomaFacts(
  lomas: readonly Loma[],
  positions: ReadonlyArray<[number, number]> | null | undefined,
  footprint: Footprint | null,
  point: { lat: number; lon: number },
): LomaFacts[] {
  return lomas.map((loma, index) => measuredLoma(loma, positions?.[index], footprint, point));
}

function placedLomaFacts(lomas: readonly PlacedLoma[], footprint: Footprint | null, point: { lat: number; lon: number }): LomaFacts[] {
  return lomas.map(({ loma, position }) => measuredLoma(loma, position, footprint, point));
}

function measuredLoma(loma: Loma, position: [number, number] | undefined, footprint: Footprint | null, point: { lat: number; lon: number }): LomaFacts {
  const fromFootprint =
    footprint && position ? metresToFootprint(new CheapRuler(point.lat, 'meters'), { lon: position[0], lat: position[1] }, footprint) : null;
  return {
    caseNumber: loma.caseNumber,
    effectiveDate: loma.effectiveDate,
    status: loma.status,
    distanceM: fromFootprint ?? loma.distanceM,
    inFootprint: fromFootprint === 0,
  };
}
