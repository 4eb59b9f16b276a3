import { STRUCTURE_COLUMNS, STRUCTURE_ON_REPORT, candidateWords, sfhaSharePercent, zoneShares } from './structure.words';
import type { Structure, StructureZone } from './structure.types';

const zone = (floodZone: string, inSpecialFloodHazardArea: boolean, sharePercent: number): StructureZone => ({
  floodZone,
  zoneSubtype: null,
  inSpecialFloodHazardArea,
  staticBaseFloodElevationFt: null,
  areaSqFt: Math.round(sharePercent * 20),
  sharePercent,
});

/** A building found, with the zones over it: what each case changes. */
function building(zones: StructureZone[] | null, unmappedSharePercent: number | null, buildingInSfha: boolean | null): Structure {
  return {
    match: 'contains',
    distanceM: 0,
    buildId: '26010001',
    occupancy: 'Residential',
    primaryOccupancy: 'Single Family Dwelling',
    footprintAreaSqFt: 2000,
    heightM: null,
    imageDate: null,
    zones,
    unmappedSharePercent,
    buildingInSfha,
    highestBfeFt: null,
    firmPanels: zones && [],
    candidates: [],
    source: 'FEMA/ORNL USA Structures (CC BY 4.0)',
    note: '',
    footprint: null,
  };
}

const cells = (structure: Structure | null) => STRUCTURE_COLUMNS.map((column) => column.cell(structure));

describe('the building columns of the CSV answers', () => {
  it('are named as published, in order', () => {
    expect(STRUCTURE_COLUMNS.map((column) => column.name)).toEqual([
      'building_match',
      'building_in_sfha',
      'building_sfha_share_percent',
      'building_zones',
      'building_unmapped_share_percent',
    ]);
  });

  it.each<[string, Structure | null, unknown[]]>([
    ['across an AE edge', building([zone('AE', true, 40.1), zone('X', false, 59.9)], 0, true), ['contains', true, 40.1, 'AE 40.1; X 59.9', 0]],
    ['wholly outside the SFHA: a known share of 0', building([zone('X', false, 100)], 0, false), ['contains', false, 0, 'X 100.0', 0]],
    ['partly in AE, the rest off the map: the share the map shows', building([zone('AE', true, 60)], 40, true), ['contains', true, 60, 'AE 60.0', 40]],
    [
      'partly off the map, the rest outside the SFHA: the share unknown, never 0',
      building([zone('X', false, 70)], 30, null),
      ['contains', null, null, 'X 70.0', 30],
    ],
    ['wholly off the map: the share unknown, never 0', building([], 100, null), ['contains', null, null, '', 100]],
    ['its zones unread: every share unknown', building(null, null, null), ['contains', null, null, null, null]],
    ['no building', null, [undefined, undefined, null, null, undefined]],
  ])('%s', (_what, structure, expected) => {
    expect(cells(structure)).toEqual(expected);
  });

  it('the SFHA share sums the SFHA zones, to one decimal', () => {
    expect(sfhaSharePercent(building([zone('VE', true, 10.15), zone('AE', true, 20.1), zone('X', false, 69.75)], 0, true))).toBe(30.3);
    expect(zoneShares([zone('VE', true, 10.15), zone('AE', true, 20.1)])).toBe('VE 10.2; AE 20.1');
  });
});

describe('the buildings listed on the report when none was chosen', () => {
  it.each([
    [
      { buildId: '53030001', distanceM: 7.5, address: null, buildingInSfha: false },
      'USA Structures building 53030001, 7.5 m away: outside the SFHA (buildId=53030001)',
    ],
    [
      { buildId: '53030002', distanceM: 14, address: '202 MILL AVE S', buildingInSfha: true },
      'USA Structures building 53030002, 202 MILL AVE S, 14 m away: in the SFHA (buildId=53030002)',
    ],
    [{ buildId: null, distanceM: 3, address: null, buildingInSfha: null }, 'USA Structures building without a BUILD_ID, 3 m away: in the SFHA: unknown'],
  ])('%j: %s', (candidate, words) => {
    expect(candidateWords(candidate)).toBe(words);
  });

  it('are listed under the words of the match, before the note', () => {
    const ambiguous: Structure = {
      ...building(null, null, null),
      match: 'ambiguous',
      distanceM: null,
      buildId: null,
      occupancy: null,
      primaryOccupancy: null,
      footprintAreaSqFt: null,
      candidates: [{ buildId: '53030001', distanceM: 7.5, address: null, buildingInSfha: false }],
      note: 'No building was chosen.',
    };
    expect(STRUCTURE_ON_REPORT.content(ambiguous, 'mapped').html.replace(/\s+/g, ' ')).toBe(
      '<p>Several buildings near the address point: none could be chosen.</p> ' +
        '<ul class="candidates"> <li>USA Structures building 53030001, 7.5 m away: outside the SFHA (buildId=53030001)</li> </ul> <p class="small">No building was chosen.</p>',
    );
  });
});
