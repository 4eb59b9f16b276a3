import { DETERMINATION_COLUMNS } from './determination.columns';
import type { LenderDetermination } from './determination';

const DETERMINATION: LenderDetermination = {
  basis: 'point',
  community: { name: 'City of Willow Creek', number: '200610', county: 'Wabaunsee County', state: 'KS' },
  map: { noNfipMap: false, panel: '20197C0140D', panelEffectiveDate: '2011-09-02', letterOfMapChange: null },
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
    ]);
  });

  it('hold the basis, availability, program and requirement', () => {
    expect(cells(DETERMINATION)).toEqual(['point', true, 'emergency', true]);
    expect(
      cells({ ...DETERMINATION, basis: 'building', insurance: { ...DETERMINATION.insurance, available: false, program: null }, floodInsuranceRequired: false }),
    ).toEqual(['building', false, null, false]);
  });

  it('are empty where a value is unknown, and where there is no determination', () => {
    expect(cells({ ...DETERMINATION, insurance: { ...DETERMINATION.insurance, available: null, program: null }, floodInsuranceRequired: null })).toEqual([
      'point',
      null,
      null,
      null,
    ]);
    expect(cells(null)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
