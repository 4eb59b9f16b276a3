import { DETERMINATION_COLUMNS, nearbyLetterCells } from './determination.columns';
import type { LenderDetermination } from './determination';

const DETERMINATION: LenderDetermination = {
  basis: 'point',
  community: { name: 'City of Willow Creek', number: '200610', county: 'Wabaunsee County', state: 'KS' },
  map: { noNfipMap: false, digital: true, panel: '20197C0140D', panelEffectiveDate: '2011-09-02', letterOfMapChange: null, nearbyLetters: [] },
  floodZones: ['AE'],
  insurance: { available: true, program: 'emergency', reason: 'participating', coastalBarrier: null },
  buildingInSfha: true,
  floodInsuranceRequired: true,
  notes: [],
  determinedAt: '2026-11-26T21:00:00.000Z',
};

const cells = (determination: LenderDetermination | null) => DETERMINATION_COLUMNS.map((column) => column.cell(determination));

describe('the determination columns of the CSV answers', () => {
  it('are named as published, in order', () => {
    expect(DETERMINATION_COLUMNS.map((column) => column.name)).toEqual([
      'determination_basis',
      'flood_insurance_available',
      'nfip_program',
      'flood_insurance_required',
      'flood_insurance_reason',
      'nearby_letters',
    ]);
  });

  it('hold the basis, availability, program, requirement, its reason and the nearby letters', () => {
    expect(cells(DETERMINATION)).toEqual(['point', true, 'emergency', true, 'participating', '']);
    expect(
      cells({
        ...DETERMINATION,
        basis: 'building',
        insurance: { ...DETERMINATION.insurance, available: false, program: null, reason: 'not_participating' },
        floodInsuranceRequired: false,
        map: { ...DETERMINATION.map, nearbyLetters: [{ caseNumber: '15-06-1489A', effectiveDate: '2015-06-02', distanceM: 23 }] },
      }),
    ).toEqual(['building', false, null, false, 'not_participating', '15-06-1489A 2015-06-02 23.0 m']);
  });

  it('are empty where a value is unknown, and where there is no determination', () => {
    expect(
      cells({
        ...DETERMINATION,
        insurance: { ...DETERMINATION.insurance, available: null, program: null, reason: 'nfip_status_unknown' },
        floodInsuranceRequired: null,
        map: { ...DETERMINATION.map, nearbyLetters: null },
      }),
    ).toEqual(['point', null, null, null, 'nfip_status_unknown', null]);
    expect(cells(null)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('nearby letters: each its case, date and distance, nearest first, "?" where FEMA publishes none', () => {
    expect(
      nearbyLetterCells([
        { caseNumber: '15-06-1489A', effectiveDate: '2015-06-02', distanceM: 8.2 },
        { caseNumber: null, effectiveDate: null, distanceM: 23 },
      ]),
    ).toBe('15-06-1489A 2015-06-02 8.2 m; ? ? 23.0 m');
    expect(nearbyLetterCells([])).toBe('');
  });
});
