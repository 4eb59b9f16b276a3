import { readerText } from '../../../test/support/page-text';
import { LENDING_NOTES, type LenderDetermination } from './determination';
import { DETERMINATION_ON_REPORT } from './determination.words';

/** A form for a building in AE in a regular-program community: each case changes what it is about. */
const FORM: LenderDetermination = {
  basis: 'building',
  community: { name: 'City of Houston', number: '480296', county: 'Harris County', state: 'TX' },
  map: { noNfipMap: false, digital: true, panel: '48201C0865L', panelEffectiveDate: '2007-06-18', letterOfMapChange: null, nearbyLetters: [] },
  floodZones: ['AE', 'X'],
  insurance: { available: true, reason: 'participating', program: 'regular', coastalBarrier: null },
  buildingInSfha: true,
  floodInsuranceRequired: true,
  notes: ['Flood insurance is required.'],
  determinedAt: '2026-11-26T21:00:00.000Z',
};

const words = (changes: Partial<LenderDetermination>) =>
  readerText(`<main>${DETERMINATION_ON_REPORT.content({ ...FORM, ...changes }, 'mapped').html}</main>`).trim();
const item = (text: string, letter: 'A' | 'B' | 'C' | 'D') =>
  new RegExp(`${letter}\\. [^:]+: (.*?)(?= [A-D]\\. |$| Flood insurance is required\\.)`).exec(text)![1];

describe('DETERMINATION_ON_REPORT: section II of the form, item by item', () => {
  it('a building: its four items, then its notes', () => {
    expect(words({})).toBe(
      'A. NFIP community: City of Houston · community number 480296 · Harris County, TX ' +
        'B. NFIP data affecting the building: Map panel 48201C0865L, effective 2007-06-18; letter of map change: none found; flood zones AE, X ' +
        'C. Federal flood insurance: Available: regular program ' +
        'D. Determination: Building in the SFHA: Yes; mandatory purchase requirement applies: Yes ' +
        'Flood insurance is required.',
    );
  });

  it.each([
    ['building', 'Flood hazard determination (SFHDF section II), for the building'],
    ['point', 'Flood hazard determination (SFHDF section II), for the point'],
  ] as const)('its title names the basis: %s', (basis, title) => {
    expect(DETERMINATION_ON_REPORT.title({ ...FORM, basis })).toBe(title);
  });

  it('without a form: its title alone', () => {
    expect(DETERMINATION_ON_REPORT.title(null)).toBe('Flood hazard determination (SFHDF section II)');
  });

  it.each([
    [{ name: null, number: null, county: null, state: null }, 'Name unknown · community number unknown · county unknown'],
    [{ name: 'Lampasas County', number: '481231', county: 'Lampasas County', state: null }, 'Lampasas County · community number 481231 · Lampasas County'],
  ])('A: %j → %s', (community, line) => {
    expect(item(words({ community }), 'A')).toBe(line);
  });

  it.each([
    [
      { map: { ...FORM.map, letterOfMapChange: { kind: 'LOMR' as const, caseNumber: '19-06-1234P', effectiveDate: '2020-02-14' } } },
      'letter of map change: LOMR, case 19-06-1234P, effective 2020-02-14',
    ],
    [
      { map: { ...FORM.map, letterOfMapChange: { kind: 'LOMA' as const, caseNumber: null, effectiveDate: null } } },
      'letter of map change: LOMA, case number not published, date not published',
    ],
    [{ map: { ...FORM.map, panelEffectiveDate: null } }, 'Map panel 48201C0865L, effective date not published'],
    [
      { map: { noNfipMap: true, digital: false, panel: null, panelEffectiveDate: null, letterOfMapChange: null, nearbyLetters: [] }, floodZones: null },
      "Map panel none; letter of map change: none found; flood zone unknown: FEMA's map gives none over the building; no NFIP map: FEMA's Community " +
        'Status Book lists none for the community',
    ],
    [
      {
        map: { noNfipMap: false, digital: false, panel: '4804260005B', panelEffectiveDate: '1991-07-02', letterOfMapChange: null, nearbyLetters: [] },
        floodZones: null,
      },
      "Map panel 4804260005B, effective 1991-07-02; letter of map change: none found; flood zone unknown: FEMA's map gives none over the building; a " +
        "paper map only, not on FEMA's digital flood map",
    ],
    [
      { map: { noNfipMap: null, digital: false, panel: null, panelEffectiveDate: null, letterOfMapChange: null, nearbyLetters: [] }, floodZones: null },
      "Map panel none found; letter of map change: none found; flood zone unknown: FEMA's map gives none over the building; whether an NFIP map " +
        'exists here is unknown',
    ],
    [
      {
        map: {
          ...FORM.map,
          nearbyLetters: [
            { caseNumber: '15-06-1489A', effectiveDate: '2015-06-02', distanceM: 8.2 },
            { caseNumber: null, effectiveDate: null, distanceM: 23 },
          ],
        },
      },
      'letter of map change: none found; nearby letters to read: 15-06-1489A (8.2 m), case number not published (23 m); flood zones AE, X',
    ],
    // no zone is unknown, never "none" (off the digital map, or in a gap of it), or not read this time
    [{ basis: 'point' as const, floodZones: null }, "flood zone unknown: FEMA's map gives none at the point"],
    [{ floodZones: null, notes: [LENDING_NOTES.sfhaUnknown.building_unavailable] }, 'flood zone unknown: the building could not be looked up this time'],
    [{ floodZones: null, notes: [LENDING_NOTES.sfhaUnknown.footprint_unread] }, 'flood zone unknown: the zones over the building could not be read this time'],
    [{ floodZones: ['X'] }, 'flood zone X'],
  ])('B: %j says "%s"', (changes, words_) => {
    expect(item(words(changes), 'B')).toContain(words_);
  });

  it.each([
    [{ available: true, reason: 'participating', program: 'regular', coastalBarrier: null }, 'Available: regular program'],
    [{ available: true, reason: 'participating', program: 'emergency', coastalBarrier: null }, 'Available: emergency program (limited amounts of cover)'],
    [{ available: true, reason: 'participating', program: null, coastalBarrier: null }, 'Available: the community participates'],
    [{ available: false, reason: 'not_participating', program: null, coastalBarrier: null }, 'Not available: the community does not participate in the NFIP'],
    [{ available: null, reason: 'not_listed', program: null, coastalBarrier: null }, "Unknown: the community is not in FEMA's Community Status Book"],
    [{ available: null, reason: 'nfip_status_unknown', program: null, coastalBarrier: null }, 'Unknown: whether the community participates is not known'],
    [
      { available: null, reason: 'coastal_barrier', program: 'regular', coastalBarrier: { unit: 'FL-05', type: 'System Unit', designationDate: '1983-10-01' } },
      'Only for some buildings: inside Coastal Barrier Resources System unit FL-05 (System Unit), designated 1983-10-01',
    ],
    [
      { available: null, reason: 'coastal_barrier', program: 'regular', coastalBarrier: { unit: null, type: null, designationDate: null } },
      'Only for some buildings: inside Coastal Barrier Resources System unit (unnamed)',
    ],
    [
      { available: null, reason: 'coastal_barrier_unknown', program: 'regular', coastalBarrier: null },
      'Unknown: the community participates, but whether this is in a coastal barrier unit could not be checked',
    ],
  ] as Array<[LenderDetermination['insurance'], string]>)('C: %j → %s', (insurance, line) => {
    expect(item(words({ insurance }), 'C')).toBe(line);
  });

  it.each([
    ['building', true, true, 'Building in the SFHA: Yes; mandatory purchase requirement applies: Yes'],
    ['building', true, false, 'Building in the SFHA: Yes; mandatory purchase requirement applies: No'],
    ['building', null, null, 'Building in the SFHA: Unknown; mandatory purchase requirement applies: Unknown'],
    ['point', false, false, 'Point in the SFHA: No; mandatory purchase requirement applies: No'],
  ] as const)('D: basis %s, in the SFHA %s, required %s → %s', (basis, buildingInSfha, floodInsuranceRequired, line) => {
    expect(item(words({ basis, buildingInSfha, floodInsuranceRequired }), 'D')).toBe(line);
  });

  it('escapes upstream text', () => {
    const html = DETERMINATION_ON_REPORT.content({ ...FORM, community: { ...FORM.community, name: '<script>x</script>' } }, 'mapped').html;
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(html).not.toContain('<script>');
  });
});
