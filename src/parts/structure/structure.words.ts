/** The building on the report page and in the CSV answer. Pure: the same structure always gives the same words. */
import { html } from '../../common/markup';
import type { PartColumn, ReportSection } from '../answer-part';
import type { Structure, StructureCandidate, StructureZone } from './structure.types';

/** `AE 19.0; X 81.0`: each zone over the footprint with its share, in the answer's order. */
export function zoneShares(zones: readonly StructureZone[]): string {
  return zones.map((zone) => `${zone.floodZone} ${zone.sharePercent.toFixed(1)}`).join('; ');
}

/**
 * The footprint's share in the SFHA, one decimal; null when it is unknown: the zones over it unread, or part of it off
 * FEMA's map and none of the rest in the SFHA (the part off the map may be in it: never a share of 0).
 */
export function sfhaSharePercent(structure: Structure): number | null {
  if (structure.zones === null || structure.buildingInSfha === null) return null;
  const share = structure.zones.filter((zone) => zone.inSpecialFloodHazardArea).reduce((sum, zone) => sum + zone.sharePercent, 0);
  return Math.round(share * 10) / 10;
}

export const STRUCTURE_COLUMNS: ReadonlyArray<PartColumn<Structure>> = [
  { name: 'building_match', cell: (structure) => structure?.match },
  { name: 'building_in_sfha', cell: (structure) => structure?.buildingInSfha },
  { name: 'building_sfha_share_percent', cell: (structure) => (structure ? sfhaSharePercent(structure) : null) },
  { name: 'building_zones', cell: (structure) => (structure?.zones ? zoneShares(structure.zones) : null) },
  { name: 'building_unmapped_share_percent', cell: (structure) => structure?.unmappedSharePercent },
];

const MATCH_WORDS: Record<Structure['match'], string> = {
  contains: 'The building whose footprint contains the point',
  address: 'The building near the address point that carries its address',
  nearest: "The building nearest the address point on the address's side of the street",
  chosen: 'The building chosen with the request (buildId)',
  given: 'The footprint given with the request',
  none: 'No building found at the location',
  ambiguous: 'Several buildings near the address point: none could be chosen',
};

/** Whether a listed building would be in the SFHA, in words: unknown is never "no". */
const CANDIDATE_SFHA: Record<string, string> = { true: 'in the SFHA', false: 'outside the SFHA', null: 'in the SFHA: unknown' };

/** "USA Structures building 53030001, 7.5 m away: outside the SFHA": one listed building, and how to choose it. */
export function candidateWords({ buildId, distanceM, address, buildingInSfha }: StructureCandidate): string {
  const name = [`USA Structures building ${buildId ?? 'without a BUILD_ID'}`, address].filter((part) => part !== null).join(', ');
  return `${name}, ${distanceM} m away: ${CANDIDATE_SFHA[String(buildingInSfha)]}${buildId === null ? '' : ` (buildId=${buildId})`}`;
}

export const STRUCTURE_ON_REPORT: ReportSection<Structure> = {
  title: () => 'The building',
  content: (structure) => {
    const facts = [
      structure.buildId && `USA Structures building ${structure.buildId}`,
      structure.primaryOccupancy,
      structure.footprintAreaSqFt !== null && `${structure.footprintAreaSqFt.toLocaleString('en-US')} sq ft footprint`,
    ].filter((fact): fact is string => typeof fact === 'string' && fact.length > 0);
    const zones =
      structure.zones && structure.zones.length > 0
        ? html`<table class="zones">
            <tr>
              <th>Zone</th>
              <th>Share of the footprint</th>
              <th>Area</th>
            </tr>
            ${structure.zones.map(
              (zone) =>
                html`<tr>
                  <td>${zone.floodZone}${zone.zoneSubtype ? ` (${zone.zoneSubtype.toLowerCase()})` : ''}</td>
                  <td>${zone.sharePercent.toFixed(1)}%</td>
                  <td>${zone.areaSqFt.toLocaleString('en-US')} sq ft</td>
                </tr>`,
            )}
          </table>`
        : '';
    const candidates =
      structure.candidates.length > 0
        ? html`<ul class="candidates">
            ${structure.candidates.map((candidate) => html`<li>${candidateWords(candidate)}</li>`)}
          </ul>`
        : '';
    return html`<p>${MATCH_WORDS[structure.match]}${facts.length > 0 ? `: ${facts.join(', ')}` : ''}.</p>
      ${zones}${candidates}
      <p class="small">${structure.note}</p>`;
  },
};
