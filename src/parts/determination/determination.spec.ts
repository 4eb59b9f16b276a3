import {
  BuildingFacts,
  CoastalBarrierStanding,
  DETERMINATION_NOTES,
  DeterminationFacts,
  LENDING_NOTES,
  LenderDetermination,
  NfipStanding,
  coastalBarrierNote,
  floodInsuranceRequirement,
  lenderDetermination,
  lomaNote,
  nfipStandingOf,
} from './determination';

const SYSTEM_UNIT = { status: 'inside', unit: 'FL-05', type: 'System Unit', floodInsuranceProhibitionDate: '1983-10-01' } as const;
const OPA = { status: 'inside', unit: 'FL-64P', type: 'Otherwise Protected Area', floodInsuranceProhibitionDate: '1990-11-16' } as const;
const BUFFER = { status: 'buffer', unit: null, type: null, floodInsuranceProhibitionDate: null } as const;
const OUTSIDE = { status: 'outside', unit: null, type: null, floodInsuranceProhibitionDate: null } as const;

/** Every coastal barrier status the form can be given (it always asks, so never "not asked"). */
const BARRIERS: Record<string, DeterminationFacts['coastalBarrier']> = {
  system_unit: SYSTEM_UNIT,
  opa: OPA,
  buffer: BUFFER,
  outside: OUTSIDE,
  unavailable: 'unavailable',
};
/** Every standing: the regular and emergency programs, participating in a program the book does not tell, not participating (the book marks no suspension), not listed, listed without a word, and the book unavailable. */
const STANDINGS: NfipStanding[] = ['regular', 'emergency', 'participating', 'not_participating', 'not_listed', 'unknown', 'unavailable'];
const SFHA = [true, false, null] as const;

const DETERMINED_AT = '2026-11-26T21:00:00.000Z';

/** A building found at Houston's AE/X edge, in a regular-program community, outside any barrier, with no letter near it. */
const HOUSTON: DeterminationFacts = {
  point: { coverage: 'mapped', inSfha: false, zones: [{ floodZone: 'X', inSfha: false }], panel: { panel: '48201C0870L', effectiveDate: '2007-06-18' } },
  building: {
    status: 'found',
    zones: [
      { floodZone: 'AE', inSfha: true },
      { floodZone: 'X', inSfha: false },
    ],
    inSfha: true,
    governingPanel: { panel: '48201C0865L', effectiveDate: '2007-06-18' },
  },
  community: { name: 'City of Houston', number: '480296' },
  county: { name: 'Harris County', fips: '48201' },
  nfip: 'regular',
  coastalBarrier: OUTSIDE,
  lomrs: [],
  lomas: [],
  determinedAt: DETERMINED_AT,
};

/** A found building whose footprint is in the SFHA (AE and X), outside it (all X), or unknown (X, the rest off FEMA's map). */
function buildingWith(inSfha: boolean | null): Extract<BuildingFacts, { status: 'found' }> {
  const zones = inSfha === true ? HOUSTON_ZONES : [{ floodZone: 'X', inSfha: false }];
  return { status: 'found', zones, inSfha, governingPanel: { panel: '48201C0865L', effectiveDate: '2007-06-18' } };
}
const HOUSTON_ZONES = [
  { floodZone: 'AE', inSfha: true },
  { floodZone: 'X', inSfha: false },
];

const determinationOf = (facts: Partial<DeterminationFacts>) => lenderDetermination({ ...HOUSTON, ...facts });

/** Availability and its reason for every standing (rows) and barrier (columns), written out as the rule says it. */
const AVAILABILITY: Record<NfipStanding, Record<string, [boolean | null, string]>> = {
  regular: {
    system_unit: [null, 'coastal_barrier'],
    opa: [null, 'coastal_barrier'],
    buffer: [true, 'participating'],
    outside: [true, 'participating'],
    unavailable: [null, 'coastal_barrier_unknown'],
  },
  emergency: {
    system_unit: [null, 'coastal_barrier'],
    opa: [null, 'coastal_barrier'],
    buffer: [true, 'participating'],
    outside: [true, 'participating'],
    unavailable: [null, 'coastal_barrier_unknown'],
  },
  participating: {
    system_unit: [null, 'coastal_barrier'],
    opa: [null, 'coastal_barrier'],
    buffer: [true, 'participating'],
    outside: [true, 'participating'],
    unavailable: [null, 'coastal_barrier_unknown'],
  },
  not_participating: {
    system_unit: [false, 'not_participating'],
    opa: [false, 'not_participating'],
    buffer: [false, 'not_participating'],
    outside: [false, 'not_participating'],
    unavailable: [false, 'not_participating'],
  },
  not_listed: {
    system_unit: [null, 'not_listed'],
    opa: [null, 'not_listed'],
    buffer: [null, 'not_listed'],
    outside: [null, 'not_listed'],
    unavailable: [null, 'not_listed'],
  },
  unknown: {
    system_unit: [null, 'nfip_status_unknown'],
    opa: [null, 'nfip_status_unknown'],
    buffer: [null, 'nfip_status_unknown'],
    outside: [null, 'nfip_status_unknown'],
    unavailable: [null, 'nfip_status_unknown'],
  },
  unavailable: {
    system_unit: [null, 'nfip_status_unknown'],
    opa: [null, 'nfip_status_unknown'],
    buffer: [null, 'nfip_status_unknown'],
    outside: [null, 'nfip_status_unknown'],
    unavailable: [null, 'nfip_status_unknown'],
  },
};

/** The requirement for the SFHA answer (rows) and availability (columns). */
const REQUIRED: Record<string, Record<string, boolean | null>> = {
  true: { true: true, false: false, null: null },
  false: { true: false, false: false, null: false },
  null: { true: null, false: null, null: null },
};

const EVERY_CASE = SFHA.flatMap((inSfha) => STANDINGS.flatMap((nfip) => Object.keys(BARRIERS).map((barrier) => [inSfha, nfip, barrier] as const)));

const formOf = (inSfha: boolean | null, nfip: NfipStanding, barrier: string) =>
  determinationOf({ building: buildingWith(inSfha), nfip, coastalBarrier: BARRIERS[barrier] });

describe('lenderDetermination: every combination of the building in the SFHA, the NFIP standing and the coastal barrier', () => {
  it('covers 3 x 7 x 5 cases', () => {
    expect(EVERY_CASE).toHaveLength(105);
  });

  it.each(EVERY_CASE)('building in SFHA %s, %s, barrier %s: availability, reason and requirement as the table says', (inSfha, nfip, barrier) => {
    const { determination } = formOf(inSfha, nfip, barrier);
    const [available, reason] = AVAILABILITY[nfip][barrier];
    expect({ available: determination.insurance.available, reason: determination.insurance.reason }).toEqual({ available, reason });
    expect(determination.buildingInSfha).toBe(inSfha);
    expect(determination.floodInsuranceRequired).toBe(REQUIRED[String(inSfha)][String(available)]);
  });

  it.each(EVERY_CASE)(
    'building in SFHA %s, %s, barrier %s: required exactly where the building is in the SFHA and insurance available',
    (inSfha, nfip, barrier) => {
      const { insurance, floodInsuranceRequired } = formOf(inSfha, nfip, barrier).determination;
      if (insurance.available !== true) expect(floodInsuranceRequired).not.toBe(true);
      if (inSfha === true && insurance.available === true) expect(floodInsuranceRequired).toBe(true);
      expect(floodInsuranceRequired === true).toBe(inSfha === true && insurance.available === true);
    },
  );

  it.each(EVERY_CASE)('building in SFHA %s, %s, barrier %s: the unit, the program and the inputs that were missing', (inSfha, nfip, barrier) => {
    const { determination, unavailable } = formOf(inSfha, nfip, barrier);
    const unit = BARRIERS[barrier];
    expect(determination.insurance.coastalBarrier).toEqual(
      typeof unit === 'object' && unit.status === 'inside' ? { unit: unit.unit, type: unit.type, designationDate: unit.floodInsuranceProhibitionDate } : null,
    );
    if (determination.insurance.coastalBarrier !== null)
      expect({ available: determination.insurance.available, reason: determination.insurance.reason }).not.toMatchObject({ available: true });
    expect(determination.insurance.program).toBe(nfip === 'regular' || nfip === 'emergency' ? nfip : null);
    expect(unavailable).toEqual([...(nfip === 'unavailable' ? ['nfipStatus'] : []), ...(barrier === 'unavailable' ? ['coastalBarrier'] : [])]);
  });

  it.each(EVERY_CASE)('building in SFHA %s, %s, barrier %s: the notes never claim more than the facts', (inSfha, nfip, barrier) => {
    const { notes, floodInsuranceRequired } = formOf(inSfha, nfip, barrier).determination;
    expect(notes.length).toBeGreaterThan(0);
    for (const note of notes) expect(note).toMatch(/^[A-Z].*\.$/);
    expect(new Set(notes).size).toBe(notes.length);
    expect(notes.includes(LENDING_NOTES.required)).toBe(floodInsuranceRequired === true);
    expect(notes.includes(LENDING_NOTES.outsideSfha)).toBe(inSfha === false);
    expect(notes.includes(LENDING_NOTES.sfhaUnknown.footprint)).toBe(inSfha === null);
    expect(notes.includes(LENDING_NOTES.notParticipating)).toBe(nfip === 'not_participating' && inSfha !== false);
    expect(notes.includes(LENDING_NOTES.emergency)).toBe(nfip === 'emergency');
    expect(notes.includes(LENDING_NOTES.buffer)).toBe(barrier === 'buffer' && nfip !== 'not_participating');
    expect(notes.includes(LENDING_NOTES.nfipStatusUnknown)).toBe((nfip === 'unknown' || nfip === 'unavailable') && inSfha !== false);
    expect(notes.some((note) => note.startsWith('The point is inside Coastal Barrier Resources System unit'))).toBe(
      (barrier === 'system_unit' || barrier === 'opa') && nfip !== 'not_participating',
    );
    if (floodInsuranceRequired !== true) expect(notes.join(' ')).not.toMatch(/insurance is required|requires flood insurance/);
  });
});

/** The notes of one case of each kind, whole. */
describe('lenderDetermination: the notes', () => {
  const notesOf = (inSfha: boolean | null, nfip: NfipStanding, barrier: DeterminationFacts['coastalBarrier']) =>
    determinationOf({ building: buildingWith(inSfha), nfip, coastalBarrier: barrier }).determination.notes;

  it.each([
    ['in the SFHA, participating, outside any barrier: required', true, 'regular', OUTSIDE, [LENDING_NOTES.required]],
    ['in the SFHA, emergency program: required, with limited cover', true, 'emergency', OUTSIDE, [LENDING_NOTES.required, LENDING_NOTES.emergency]],
    ['in the SFHA, not participating: a notice, not a purchase', true, 'not_participating', SYSTEM_UNIT, [LENDING_NOTES.notParticipating]],
    ['in the SFHA, not listed: unknown', true, 'not_listed', OUTSIDE, [LENDING_NOTES.notListed]],
    ['in the SFHA, the book unavailable: unknown', true, 'unavailable', OUTSIDE, [LENDING_NOTES.nfipStatusUnknown]],
    ['in the SFHA, barrier could not be checked', true, 'participating', 'unavailable', [LENDING_NOTES.coastalBarrierUnavailable]],
    ['in the SFHA, buffer zone: required, with an official determination advised', true, 'regular', BUFFER, [LENDING_NOTES.required, LENDING_NOTES.buffer]],
    ['outside the SFHA, not listed: not required; availability does not change that', false, 'not_listed', 'unavailable', [LENDING_NOTES.outsideSfha]],
    ['outside the SFHA, not participating', false, 'not_participating', OUTSIDE, [LENDING_NOTES.outsideSfha]],
    ['SFHA unknown, not participating', null, 'not_participating', OUTSIDE, [LENDING_NOTES.notParticipating, LENDING_NOTES.sfhaUnknown.footprint]],
    ['SFHA unknown, participating', null, 'regular', OUTSIDE, [LENDING_NOTES.sfhaUnknown.footprint]],
  ] as const)('%s', (_what, inSfha, nfip, barrier, notes) => {
    expect(notesOf(inSfha, nfip, barrier)).toEqual(notes);
  });

  it('inside a unit: insurance only for older buildings, which the service cannot tell', () => {
    expect(notesOf(true, 'regular', SYSTEM_UNIT)).toEqual([
      'The point is inside Coastal Barrier Resources System unit FL-05 (System Unit): federal flood insurance is available only for a building built ' +
        'before 1983-10-01 and not substantially improved since. When the building was built is not known here, so whether a policy can be bought, ' +
        'and so whether a lender must require one, is unknown.',
    ]);
    expect(notesOf(false, 'regular', OPA)).toEqual([
      LENDING_NOTES.outsideSfha,
      'The point is inside Coastal Barrier Resources System unit FL-64P (Otherwise Protected Area): federal flood insurance is available only for a ' +
        'building built before 1990-11-16 and not substantially improved since. When the building was built is not known here, so whether a policy ' +
        'can be bought is unknown.',
    ]);
  });

  it('a unit without a published name or date is still said', () => {
    expect(coastalBarrierNote({ unit: null, type: null, designationDate: null }, true)).toMatch(
      /^The point is inside Coastal Barrier Resources System unit \(unnamed\): .* built before the date the unit was designated /,
    );
  });

  it('no building located: the answers are for the point, and the first note says so', () => {
    expect(determinationOf({ building: { status: 'not_found' } }).determination.notes).toEqual([
      "No building could be located in FEMA's building footprints for this location, so these answers are for the point: near a zone edge the " +
        'building itself may lie in another zone.',
      LENDING_NOTES.outsideSfha,
    ]);
    expect(
      determinationOf({ building: { status: 'unavailable' }, point: { ...HOUSTON.point, coverage: 'unmapped', inSfha: null, zones: [] } }).determination.notes,
    ).toEqual([
      "FEMA's building footprints did not answer this time, so the building could not be located and these answers are for the point: near a " +
        'zone edge the building itself may lie in another zone.',
      'Whether a building here is in the SFHA is unknown (FEMA gives no flood zone at this point), so whether a lender must require flood ' +
        'insurance is unknown: a flood determination company or the local floodplain administrator decides.',
    ]);
  });

  it("a building whose footprint's zones could not be read: unknown, retry", () => {
    expect(determinationOf({ building: { status: 'footprint_unread' } }).determination.notes).toEqual([
      "Whether the building is in the SFHA is unknown (FEMA's flood zones over its footprint could not be read this time), so whether a lender " +
        'must require flood insurance is unknown: retry shortly, or a flood determination company or the local floodplain administrator decides.',
    ]);
  });

  it('a valid LOMA near a building in the SFHA: the letter may lift the requirement', () => {
    const lomas = [{ caseNumber: '19-06-1234A', effectiveDate: '2020-02-14', status: 'valid', distanceM: 12 }] as const;
    expect(determinationOf({ lomas }).determination.notes).toEqual([
      LENDING_NOTES.required,
      'A valid Letter of Map Amendment (case 19-06-1234A, effective 2020-02-14) lies within 30 m of the building: if it removed this building from ' +
        'the SFHA, federal law does not require flood insurance for it, so the letter should be read.',
    ]);
    expect(determinationOf({ lomas, building: buildingWith(false) }).determination.notes).toEqual([LENDING_NOTES.outsideSfha]);
    expect(lomaNote({ kind: 'LOMA', caseNumber: null, effectiveDate: null }, 'point')).toBe(
      'A valid Letter of Map Amendment lies within 30 m of the point: if it removed this building from the SFHA, federal law does not require ' +
        'flood insurance for it, so the letter should be read.',
    );
  });

  it('letters that could not be checked, where the building may be in the SFHA: said, never "none"', () => {
    const unchecked =
      "Whether a Letter of Map Change applies here could not be checked this time (FEMA's letters did not answer): one may have removed the " +
      'building from the SFHA.';
    expect(DETERMINATION_NOTES.lettersUnchecked).toBe(unchecked);
    expect(determinationOf({ lomrs: 'unavailable' }).determination.notes).toEqual([LENDING_NOTES.required, unchecked]);
    expect(determinationOf({ lomas: 'unavailable' }).determination.notes).toEqual([LENDING_NOTES.required, unchecked]);
    expect(determinationOf({ lomas: 'unavailable', building: buildingWith(false) }).determination.notes).toEqual([LENDING_NOTES.outsideSfha]);
  });
});

describe('lenderDetermination: section II of the form', () => {
  it("a building found at a zone edge: the footprint's answers, its governing panel, the community, county and state", () => {
    expect(lenderDetermination(HOUSTON)).toEqual({
      determination: {
        basis: 'building',
        community: { name: 'City of Houston', number: '480296', county: 'Harris County', state: 'TX' },
        map: { noNfipMap: false, panel: '48201C0865L', panelEffectiveDate: '2007-06-18', letterOfMapChange: null },
        floodZones: ['AE', 'X'],
        insurance: { available: true, program: 'regular', reason: 'participating', coastalBarrier: null },
        buildingInSfha: true,
        floodInsuranceRequired: true,
        notes: [LENDING_NOTES.required],
        determinedAt: DETERMINED_AT,
      } satisfies LenderDetermination,
      unavailable: [],
    });
  });

  it.each([
    ['none within reach, or several', { status: 'not_found' }, []],
    ["FEMA's building footprints did not answer", { status: 'unavailable' }, ['structure']],
  ] as const)('no building located (%s): basis point, the point answered for', (_what, building, unavailable) => {
    const answer = determinationOf({ building });
    expect(answer.unavailable).toEqual(unavailable);
    expect(answer.determination).toMatchObject({
      basis: 'point',
      map: { noNfipMap: false, panel: '48201C0870L', panelEffectiveDate: '2007-06-18', letterOfMapChange: null },
      floodZones: ['X'],
      buildingInSfha: false,
      floodInsuranceRequired: false,
    });
  });

  it("a building whose footprint's zones could not be read: basis building, every answer that depends on them null, structure named", () => {
    const { determination, unavailable } = determinationOf({ building: { status: 'footprint_unread' } });
    expect(unavailable).toEqual(['structure']);
    expect(determination).toMatchObject({
      basis: 'building',
      map: { noNfipMap: false, panel: null, panelEffectiveDate: null },
      floodZones: null,
      buildingInSfha: null,
      floodInsuranceRequired: null,
      insurance: { available: true, program: 'regular', reason: 'participating' },
    });
  });

  it('zones each once, SFHA zones first, else in the order given; a footprint on no zone has none', () => {
    const zones = [
      { floodZone: 'X', inSfha: false },
      { floodZone: 'AE', inSfha: true },
      { floodZone: 'D', inSfha: null },
      { floodZone: 'AE', inSfha: true },
      { floodZone: 'A', inSfha: true },
      { floodZone: 'X', inSfha: false },
    ];
    expect(determinationOf({ building: { ...buildingWith(true), zones } }).determination.floodZones).toEqual(['AE', 'A', 'X', 'D']);
    expect(determinationOf({ building: { status: 'not_found' }, point: { ...HOUSTON.point, zones } }).determination.floodZones).toEqual(['AE', 'A', 'X', 'D']);
    expect(determinationOf({ building: { status: 'found', zones: [], inSfha: null, governingPanel: null } }).determination).toMatchObject({
      floodZones: [],
      buildingInSfha: null,
      map: { panel: null, panelEffectiveDate: null },
    });
  });

  it.each([
    ['mapped', false],
    ['mapped_no_zone', false],
    ['unmapped', true],
  ] as const)('coverage %s: noNfipMap %s', (coverage, noNfipMap) => {
    expect(determinationOf({ point: { ...HOUSTON.point, coverage } }).determination.map.noNfipMap).toBe(noNfipMap);
  });

  it('the community: none mapped, or its map not answering (named), leaves name and number null; county and state come from the location', () => {
    expect(determinationOf({ community: null })).toMatchObject({
      determination: { community: { name: null, number: null, county: 'Harris County', state: 'TX' } },
      unavailable: [],
    });
    expect(determinationOf({ community: 'unavailable', nfip: 'unknown' })).toMatchObject({
      determination: { community: { name: null, number: null, county: 'Harris County', state: 'TX' }, insurance: { available: null } },
      unavailable: ['community'],
    });
    expect(determinationOf({ county: { name: null, fips: null } }).determination.community).toEqual({
      name: 'City of Houston',
      number: '480296',
      county: null,
      state: null,
    });
    expect(determinationOf({ county: { name: 'Wabaunsee County', fips: '20197' } }).determination.community.state).toBe('KS');
  });

  it('every input missing at once: each named once, in order', () => {
    expect(
      determinationOf({ community: 'unavailable', nfip: 'unavailable', building: { status: 'unavailable' }, coastalBarrier: 'unavailable' }).unavailable,
    ).toEqual(['community', 'nfipStatus', 'structure', 'coastalBarrier']);
  });
});

describe('lenderDetermination: the letter of map change', () => {
  const loma = (distanceM: number, status: 'valid' | 'denied' | 'superseded' = 'valid', caseNumber = `L-${distanceM}`) =>
    ({ caseNumber, effectiveDate: '2015-03-02', status, distanceM }) as const;
  const letterOf = (facts: Partial<DeterminationFacts>) => determinationOf(facts).determination.map.letterOfMapChange;

  it('an effective LOMR at the point wins, the newest (listed first)', () => {
    const lomrs = [
      { caseNumber: '19-06-1234P', effectiveDate: '2020-02-14' },
      { caseNumber: '12-06-0456P', effectiveDate: '2012-06-01' },
    ];
    expect(letterOf({ lomrs, lomas: [loma(3)] })).toEqual({ kind: 'LOMR', caseNumber: '19-06-1234P', effectiveDate: '2020-02-14' });
  });

  it('else the nearest valid LOMA within 30 m', () => {
    expect(letterOf({ lomas: [loma(25), loma(4, 'denied'), loma(9), loma(30)] })).toEqual({ kind: 'LOMA', caseNumber: 'L-9', effectiveDate: '2015-03-02' });
    expect(letterOf({ lomas: [loma(30)] })).toEqual({ kind: 'LOMA', caseNumber: 'L-30', effectiveDate: '2015-03-02' });
  });

  it('none: no LOMR, and no valid LOMA within 30 m', () => {
    expect(letterOf({ lomas: [loma(30.5), loma(2, 'denied'), loma(3, 'superseded')] })).toBeNull();
    expect(letterOf({ lomrs: 'unavailable', lomas: [] })).toBeNull();
    expect(letterOf({ lomrs: [], lomas: 'unavailable' })).toBeNull();
  });

  it('a LOMA is still found when the LOMR query failed', () => {
    expect(letterOf({ lomrs: 'unavailable', lomas: [loma(5)] })).toEqual({ kind: 'LOMA', caseNumber: 'L-5', effectiveDate: '2015-03-02' });
  });
});

describe('nfipStandingOf: the standing from the NFIP status', () => {
  it.each([
    ['no community to look up', null, 'unknown'],
    ['no copy of the book', 'unavailable', 'unavailable'],
    ['not listed', { listed: false, participating: null, program: null }, 'not_listed'],
    ['listed without a word', { listed: true, participating: null, program: null }, 'unknown'],
    ['not participating', { listed: true, participating: false, program: null }, 'not_participating'],
    ['regular program', { listed: true, participating: true, program: 'regular' }, 'regular'],
    ['emergency program', { listed: true, participating: true, program: 'emergency' }, 'emergency'],
    ['participating, program untold', { listed: true, participating: true, program: null }, 'participating'],
  ] as const)('%s -> %s', (_what, nfip, standing) => {
    expect(nfipStandingOf(nfip)).toBe(standing);
  });
});

/** What the report page asks of the rule: the point's SFHA, with the coastal barrier perhaps not asked for. */
describe('floodInsuranceRequirement for a point whose coastal barrier was not asked for', () => {
  const requirementOf = (inSfha: boolean | null, nfip: NfipStanding, coastalBarrier: CoastalBarrierStanding) =>
    floodInsuranceRequirement({ inSfha, sfhaBasis: 'point', nfip, coastalBarrier });

  it.each(STANDINGS.flatMap((nfip) => SFHA.map((inSfha) => [nfip, inSfha] as const)))(
    '%s, SFHA %s: as with the barrier unavailable, but said "not checked"',
    (nfip, inSfha) => {
      const notAsked = requirementOf(inSfha, nfip, 'not_asked');
      const failed = requirementOf(inSfha, nfip, 'unavailable');
      expect({ ...notAsked, notes: [] }).toEqual({ ...failed, notes: [] });
      expect(notAsked.notes).toEqual(
        failed.notes.map((note) => (note === LENDING_NOTES.coastalBarrierUnavailable ? LENDING_NOTES.coastalBarrierNotAsked : note)),
      );
    },
  );

  it('the notes of a point: its SFHA unknown where FEMA gives no zone, the barrier not checked', () => {
    expect(requirementOf(null, 'regular', OUTSIDE).notes).toEqual([LENDING_NOTES.sfhaUnknown.point]);
    expect(requirementOf(true, 'regular', 'not_asked').notes).toEqual([
      'Whether the point lies in the Coastal Barrier Resources System, where federal flood insurance is restricted, was not checked: whether a ' +
        'policy can be bought here, and so whether a lender must require one, is unknown.',
    ]);
  });
});
