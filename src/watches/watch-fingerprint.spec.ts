import {
  changedFields,
  eventKindOf,
  fingerprintChange,
  fingerprintOf,
  mergedFingerprint,
  type WatchedAnswer,
  type WatchFingerprint,
} from './watch-fingerprint';

const answer = (result: WatchedAnswer['result']): WatchedAnswer => ({ result: { unavailable: [], ...result } });

const pointX: WatchFingerprint = {
  basis: 'point',
  zones: ['X'],
  inSfha: false,
  panel: '48201C0620L',
  panelEffectiveDate: '2007-06-18',
  lomrs: [],
  nfipParticipating: true,
  nfipProgram: 'regular',
  crsClass: 7,
  coastalBarrier: 'outside',
  mapChange: null,
  floodInsuranceRequired: false,
};

describe('fingerprintOf', () => {
  it.each<[string, WatchedAnswer, WatchFingerprint]>([
    [
      'a point answer with every part',
      answer({
        floodZone: 'AE',
        inSpecialFloodHazardArea: true,
        firmPanel: { panel: '11001C0019C', effectiveDate: '2010-09-27' },
        community: { communityId: '110001', nfip: { participating: true, program: 'regular', crsClass: null } },
        lomrs: [
          { caseNumber: '19-03-0123P', effectiveDate: '2020-02-14' },
          { caseNumber: '12-03-0456P', effectiveDate: '2012-06-01' },
        ],
        coastalBarrier: { status: 'outside', unit: null },
        mapChange: { status: 'preliminary', floodZone: 'VE' },
        structure: null,
        determination: { map: { letterOfMapChange: { kind: 'LOMR', caseNumber: '19-03-0123P', effectiveDate: '2020-02-14' } }, floodInsuranceRequired: true },
      }),
      {
        basis: 'point',
        zones: ['AE'],
        inSfha: true,
        panel: '11001C0019C',
        panelEffectiveDate: '2010-09-27',
        lomrs: ['12-03-0456P@2012-06-01', '19-03-0123P@2020-02-14'],
        letterOfMapChange: 'LOMR 19-03-0123P@2020-02-14',
        nfipParticipating: true,
        nfipProgram: 'regular',
        crsClass: null,
        coastalBarrier: 'outside',
        mapChange: 'preliminary VE',
        floodInsuranceRequired: true,
      },
    ],
    [
      "a building's zones over its footprint, SFHA on the building basis; no coming map; inside a CBRS unit",
      answer({
        floodZone: 'X',
        inSpecialFloodHazardArea: false,
        firmPanel: { panel: '26109C0380D', effectiveDate: '2012-01-04' },
        community: { nfip: { participating: true, program: 'regular', crsClass: 8 } },
        lomrs: [],
        coastalBarrier: { status: 'inside', unit: 'FL-64P' },
        mapChange: { status: 'none', floodZone: null },
        structure: { zones: [{ floodZone: 'X' }, { floodZone: 'AE' }, { floodZone: 'X' }], buildingInSfha: true },
      }),
      {
        basis: 'building',
        zones: ['AE', 'X'],
        inSfha: true,
        panel: '26109C0380D',
        panelEffectiveDate: '2012-01-04',
        lomrs: [],
        nfipParticipating: true,
        nfipProgram: 'regular',
        crsClass: 8,
        coastalBarrier: 'inside FL-64P',
        mapChange: null,
      },
    ],
    [
      'parts that failed are left out (unknown), never taken for none; unmapped point has no zone',
      answer({
        floodZone: null,
        inSpecialFloodHazardArea: null,
        firmPanel: null,
        community: null,
        lomrs: null,
        unavailable: ['community', 'nfipStatus', 'lomrs'],
      }),
      { basis: 'point', zones: [], inSfha: null, panel: null, panelEffectiveDate: null },
    ],
  ])('%s', (_title, given, expected) => {
    expect(fingerprintOf(given)).toEqual(expected);
  });
});

describe('eventKindOf: the most consequential change', () => {
  it.each<[string, Partial<WatchFingerprint>, string | null]>([
    ['nothing changed', {}, null],
    ['into the SFHA (zone and insurance change too)', { zones: ['AE'], inSfha: true, floodInsuranceRequired: true }, 'entered_sfha'],
    ['zone X to shaded X', { zones: ['X500'] }, 'zone_changed'],
    ['a revised panel, same zone', { panel: '48201C0620M', panelEffectiveDate: '2026-10-01' }, 'panel_revised'],
    ['a panel reissued with a new date and a LOMR', { panelEffectiveDate: '2026-10-01', lomrs: ['26-06-0001P@2026-10-01'] }, 'panel_revised'],
    ['a new LOMR', { lomrs: ['26-06-0001P@2026-10-01'] }, 'letter_of_map_change'],
    ['community suspended', { nfipParticipating: false, nfipProgram: null, floodInsuranceRequired: null }, 'nfip_status_changed'],
    ['CRS class', { crsClass: 6 }, 'nfip_status_changed'],
    ['CBRS unit redrawn over it', { coastalBarrier: 'inside TX-04' }, 'coastal_barrier_changed'],
    ['preliminary map issued', { mapChange: 'preliminary AE' }, 'map_change_coming'],
    ['CBRS and a preliminary map: the CBRS change is more consequential', { mapChange: 'preliminary AE', coastalBarrier: 'buffer' }, 'coastal_barrier_changed'],
  ])('%s', (_title, changes, kind) => {
    const after = { ...pointX, ...changes };
    expect(eventKindOf(pointX, after, changedFields(pointX, after))).toBe(kind);
  });

  it.each<[string, Partial<WatchFingerprint>, Partial<WatchFingerprint>, string]>([
    ['left the SFHA', { zones: ['AE'], inSfha: true }, { zones: ['X'], inSfha: false }, 'left_sfha'],
    ['a preliminary map withdrawn', { mapChange: 'preliminary AE' }, { mapChange: null }, 'map_change_withdrawn'],
    ['a pending map replaces the preliminary one', { mapChange: 'preliminary AE' }, { mapChange: 'pending AE' }, 'map_change_coming'],
    ['SFHA became unknown to known true counts as entering', { inSfha: null }, { inSfha: true }, 'entered_sfha'],
  ])('%s', (_title, from, to, kind) => {
    const before = { ...pointX, ...from };
    const after = { ...pointX, ...to };
    expect(eventKindOf(before, after, changedFields(before, after))).toBe(kind);
  });
});

describe('fingerprintChange', () => {
  it("carries every changed field before and after, the 45-day duty on entered_sfha, and the new LOMR's date", () => {
    const after = { ...pointX, zones: ['AE'], inSfha: true, lomrs: ['26-06-0001P@2026-09-15'], floodInsuranceRequired: true };
    const change = fingerprintChange(pointX, after);
    expect(change).toEqual({
      kind: 'entered_sfha',
      before: { zones: ['X'], inSfha: false, lomrs: [], floodInsuranceRequired: false },
      after: { zones: ['AE'], inSfha: true, lomrs: ['26-06-0001P@2026-09-15'], floodInsuranceRequired: true },
      note: expect.stringContaining('45 days'),
      effectiveDate: '2026-09-15',
    });
    expect(change?.note).toMatch(/require/);
  });

  it("dates a revised panel by the new panel's effective date", () => {
    expect(fingerprintChange(pointX, { ...pointX, panel: '48201C0620M', panelEffectiveDate: '2026-10-01' })?.effectiveDate).toBe('2026-10-01');
  });

  it('an unknown field is no change, and the merged fingerprint keeps what was known', () => {
    const degraded: WatchFingerprint = { basis: 'point', zones: ['X'], inSfha: false, panel: '48201C0620L', panelEffectiveDate: '2007-06-18' };
    expect(fingerprintChange(pointX, degraded)).toBeNull();
    expect(mergedFingerprint(pointX, degraded)).toEqual(pointX);
    expect(mergedFingerprint(pointX, { ...degraded, crsClass: 5 })).toEqual({ ...pointX, crsClass: 5 });
  });
});
