import {
  BuildingFacts,
  CoastalBarrierStanding,
  CommunityFacts,
  DETERMINATION_NOTES,
  DeterminationFacts,
  LENDING_NOTES,
  LenderDetermination,
  LomaFacts,
  NfipStanding,
  SiteFacts,
  coastalBarrierNote,
  floodInsuranceRequirement,
  lenderDetermination,
  lomaNote,
  nfipStandingOf,
  nearbyLettersNote,
  paperMapNote,
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

const HOUSTON_COMMUNITY: CommunityFacts = { name: 'City of Houston', number: '480296', nfip: 'regular', mapInStatusBook: true };

/** Where the Houston building stands: its community, outside any barrier, no letter near it. */
const HOUSTON_SITE: SiteFacts = { community: HOUSTON_COMMUNITY, coastalBarrier: OUTSIDE, lomrs: [], lomas: [] };

/** A building found at Houston's AE/X edge, in a regular-program community, outside any barrier, with no letter near it; its point in X. */
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
    site: HOUSTON_SITE,
  },
  community: HOUSTON_COMMUNITY,
  county: { name: 'Harris County', fips: '48201' },
  coastalBarrier: OUTSIDE,
  lomrs: [],
  lomas: [],
  determinedAt: DETERMINED_AT,
};

/** A found building whose footprint is in the SFHA (AE and X), outside it (all X), or unknown (X, the rest off FEMA's map), standing at `site`. */
function buildingWith(inSfha: boolean | null, site: Partial<SiteFacts> = {}): Extract<BuildingFacts, { status: 'found' }> {
  const zones = inSfha === true ? HOUSTON_ZONES : [{ floodZone: 'X', inSfha: false }];
  return { status: 'found', zones, inSfha, governingPanel: { panel: '48201C0865L', effectiveDate: '2007-06-18' }, site: { ...HOUSTON_SITE, ...site } };
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
  determinationOf({ building: buildingWith(inSfha, { community: { ...HOUSTON_COMMUNITY, nfip }, coastalBarrier: BARRIERS[barrier] }) });

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
    expect(notes.includes(LENDING_NOTES.buffer.footprint)).toBe(barrier === 'buffer' && nfip !== 'not_participating');
    expect(notes.includes(LENDING_NOTES.nfipStatusUnknown)).toBe((nfip === 'unknown' || nfip === 'unavailable') && inSfha !== false);
    expect(notes.some((note) => note.startsWith("Part or all of the building's footprint lies inside Coastal Barrier Resources System unit"))).toBe(
      (barrier === 'system_unit' || barrier === 'opa') && nfip !== 'not_participating',
    );
    if (floodInsuranceRequired !== true) expect(notes.join(' ')).not.toMatch(/insurance is required|requires flood insurance/);
  });
});

/** The notes of one case of each kind, whole. */
describe('lenderDetermination: the notes', () => {
  const notesOf = (inSfha: boolean | null, nfip: NfipStanding, barrier: SiteFacts['coastalBarrier']) =>
    determinationOf({ building: buildingWith(inSfha, { community: { ...HOUSTON_COMMUNITY, nfip }, coastalBarrier: barrier }) }).determination.notes;

  it.each([
    ['in the SFHA, participating, outside any barrier: required', true, 'regular', OUTSIDE, [LENDING_NOTES.required]],
    ['in the SFHA, emergency program: required, with limited cover', true, 'emergency', OUTSIDE, [LENDING_NOTES.required, LENDING_NOTES.emergency]],
    ['in the SFHA, not participating: a notice, not a purchase', true, 'not_participating', SYSTEM_UNIT, [LENDING_NOTES.notParticipating]],
    ['in the SFHA, not listed: unknown', true, 'not_listed', OUTSIDE, [LENDING_NOTES.notListed]],
    ['in the SFHA, the book unavailable: unknown', true, 'unavailable', OUTSIDE, [LENDING_NOTES.nfipStatusUnknown]],
    ['in the SFHA, barrier could not be checked', true, 'participating', 'unavailable', [LENDING_NOTES.coastalBarrierUnavailable.footprint]],
    [
      'in the SFHA, buffer zone: required, with an official determination advised',
      true,
      'regular',
      BUFFER,
      [LENDING_NOTES.required, LENDING_NOTES.buffer.footprint],
    ],
    ['outside the SFHA, not listed: not required; availability does not change that', false, 'not_listed', 'unavailable', [LENDING_NOTES.outsideSfha]],
    ['outside the SFHA, not participating', false, 'not_participating', OUTSIDE, [LENDING_NOTES.outsideSfha]],
    ['SFHA unknown, not participating', null, 'not_participating', OUTSIDE, [LENDING_NOTES.notParticipating, LENDING_NOTES.sfhaUnknown.footprint]],
    ['SFHA unknown, participating', null, 'regular', OUTSIDE, [LENDING_NOTES.sfhaUnknown.footprint]],
  ] as const)('%s', (_what, inSfha, nfip, barrier, notes) => {
    expect(notesOf(inSfha, nfip, barrier)).toEqual(notes);
  });

  it("inside a unit: insurance only for older buildings, which the service cannot tell; said of the building's footprint, or of the point", () => {
    expect(notesOf(true, 'regular', SYSTEM_UNIT)).toEqual([
      "Part or all of the building's footprint lies inside Coastal Barrier Resources System unit FL-05 (System Unit): federal flood insurance is " +
        'available only for a building built before 1983-10-01 and not substantially improved since. When the building was built is not known ' +
        'here, so whether a policy can be bought, and so whether a lender must require one, is unknown.',
    ]);
    expect(notesOf(false, 'regular', OPA)).toEqual([
      LENDING_NOTES.outsideSfha,
      "Part or all of the building's footprint lies inside Coastal Barrier Resources System unit FL-64P (Otherwise Protected Area): federal flood " +
        'insurance is available only for a building built before 1990-11-16 and not substantially improved since. When the building was built is ' +
        'not known here, so whether a policy can be bought is unknown.',
    ]);
    expect(coastalBarrierNote({ unit: 'FL-05', type: 'System Unit', designationDate: '1983-10-01' }, true, 'point')).toBe(
      'The point is inside Coastal Barrier Resources System unit FL-05 (System Unit): federal flood insurance is available only for a building built ' +
        'before 1983-10-01 and not substantially improved since. When the building was built is not known here, so whether a policy can be bought, ' +
        'and so whether a lender must require one, is unknown.',
    );
  });

  it('the buffer zone and a barrier not checked, said of the point or of the building', () => {
    expect(LENDING_NOTES.buffer).toEqual({
      point:
        'The point is in the buffer zone at the edge of a Coastal Barrier Resources System unit: an official determination of whether the building ' +
        'lies inside the unit is advised.',
      footprint:
        "Part or all of the building's footprint lies in the buffer zone at the edge of a Coastal Barrier Resources System unit: an official " +
        'determination of whether the building lies inside the unit is advised.',
    });
    expect(LENDING_NOTES.coastalBarrierUnavailable).toEqual({
      point:
        'Whether the point lies in the Coastal Barrier Resources System, where federal flood insurance is restricted, could not be checked: whether ' +
        'a policy can be bought here, and so whether a lender must require one, is unknown.',
      footprint:
        'Whether the building lies in the Coastal Barrier Resources System, where federal flood insurance is restricted, could not be checked: ' +
        'whether a policy can be bought here, and so whether a lender must require one, is unknown.',
    });
  });

  it('a unit without a published name or date is still said', () => {
    expect(coastalBarrierNote({ unit: null, type: null, designationDate: null }, true, 'point')).toMatch(
      /^The point is inside Coastal Barrier Resources System unit \(unnamed\): .* built before the date the unit was designated /,
    );
  });

  it('no building could be chosen: the answers are for the point, and the first note says so', () => {
    expect(determinationOf({ building: { status: 'not_found' } }).determination.notes).toEqual([
      "No building could be located in FEMA's building footprints for this location, so these answers are for the point: near a zone edge the " +
        'building itself may lie in another zone.',
      LENDING_NOTES.outsideSfha,
    ]);
    expect(
      determinationOf({ building: { status: 'not_found' }, point: { ...HOUSTON.point, coverage: 'mapped_no_zone', inSfha: null, zones: [] } }).determination
        .notes,
    ).toEqual([DETERMINATION_NOTES.pointBasis, LENDING_NOTES.sfhaUnknown.point]);
  });

  it("USA Structures not answering: the building is unknown (never the point's answer), retry", () => {
    expect(determinationOf({ building: { status: 'unavailable' } }).determination.notes).toEqual([
      "Whether the building is in the SFHA is unknown (FEMA's building footprints did not answer this time, so the building could not be looked " +
        'up), so whether a lender must require flood insurance is unknown: retry shortly, or a flood determination company or the local floodplain ' +
        'administrator decides.',
    ]);
  });

  it("a building whose footprint's zones could not be read: unknown, retry", () => {
    expect(determinationOf({ building: { status: 'footprint_unread', site: HOUSTON_SITE } }).determination.notes).toEqual([
      "Whether the building is in the SFHA is unknown (FEMA's flood zones over its footprint could not be read this time), so whether a lender " +
        'must require flood insurance is unknown: retry shortly, or a flood determination company or the local floodplain administrator decides.',
    ]);
  });

  it.each([
    ['part of it off the map, the rest outside the SFHA', [{ floodZone: 'X', inSfha: false }], LENDING_NOTES.sfhaUnknown.footprint],
    ['no part of it on a flood zone: no rest to speak of', [], LENDING_NOTES.sfhaUnknown.footprint_off_map],
  ] as const)('a building unknown, %s: the note says only that', (_what, zones, note) => {
    const building = { status: 'found', zones, inSfha: null, governingPanel: null, site: HOUSTON_SITE } as const;
    expect(determinationOf({ building }).determination.notes).toEqual([note]);
  });

  it('the notes on an unknown building say nothing of a rest unless there is one', () => {
    expect(LENDING_NOTES.sfhaUnknown.footprint_off_map).toBe(
      "Whether the building is in the SFHA is unknown (FEMA's map gives no flood zone anywhere on its footprint), so whether a lender must require " +
        'flood insurance is unknown: a flood determination company or the local floodplain administrator decides.',
    );
    for (const basis of ['footprint_off_map', 'footprint_unread', 'building_unavailable', 'point'] as const)
      expect(LENDING_NOTES.sfhaUnknown[basis]).not.toMatch(/rest/);
  });

  it('a valid LOMA inside the footprint of a building that may be in the SFHA: the letter may lift the requirement', () => {
    const lomas = [{ caseNumber: '19-06-1234A', effectiveDate: '2020-02-14', status: 'valid', distanceM: 0, inFootprint: true }] as const;
    expect(determinationOf({ building: buildingWith(true, { lomas }) }).determination.notes).toEqual([
      LENDING_NOTES.required,
      "A valid Letter of Map Amendment (case 19-06-1234A, effective 2020-02-14) lies inside the building's footprint: if it removed this building " +
        'from the SFHA, federal law does not require flood insurance for it, so the letter should be read.',
    ]);
    expect(determinationOf({ building: buildingWith(false, { lomas }) }).determination.notes).toEqual([LENDING_NOTES.outsideSfha]);
    expect(lomaNote({ kind: 'LOMA', caseNumber: null, effectiveDate: null })).toBe(
      "A valid Letter of Map Amendment lies inside the building's footprint: if it removed this building from the SFHA, federal law does not " +
        'require flood insurance for it, so the letter should be read.',
    );
  });

  it('nearby letters: one, or several, from the footprint or the point; the note given whatever the SFHA answer', () => {
    const one = [{ caseNumber: '15-06-1489A', effectiveDate: '2015-06-02', distanceM: 8.2 }];
    const two = [...one, { caseNumber: null, effectiveDate: null, distanceM: 23 }];
    expect(nearbyLettersNote(one, 'building')).toBe(
      "A valid Letter of Map Amendment (case 15-06-1489A, effective 2015-06-02) lies 8.2 m from the building's footprint, not inside it: it may " +
        'concern this building and should be read.',
    );
    expect(nearbyLettersNote(one, 'point')).toBe(
      'A valid Letter of Map Amendment (case 15-06-1489A, effective 2015-06-02) lies 8.2 m from the point: it may concern this building and should ' +
        'be read.',
    );
    expect(nearbyLettersNote(two, 'building')).toBe(
      "Valid Letters of Map Amendment lie within 30 m of the building's footprint (15-06-1489A, 8.2 m; case number not published, 23 m): each may " +
        'concern this building and should be read.',
    );
    const lomas = [{ caseNumber: '15-06-1489A', effectiveDate: '2015-06-02', status: 'valid', distanceM: 8.2, inFootprint: false }] as const;
    expect(determinationOf({ building: buildingWith(false, { lomas }) }).determination.notes).toEqual([
      LENDING_NOTES.outsideSfha,
      nearbyLettersNote(one, 'building'),
    ]);
  });

  it('letters that could not be checked, where the building may be in the SFHA: said, never "none"', () => {
    const unchecked =
      "Whether a Letter of Map Change applies here could not be checked this time (FEMA's letters did not answer): one may have removed the " +
      'building from the SFHA.';
    expect(DETERMINATION_NOTES.lettersUnchecked).toBe(unchecked);
    expect(determinationOf({ building: buildingWith(true, { lomrs: 'unavailable' }) }).determination.notes).toEqual([LENDING_NOTES.required, unchecked]);
    expect(determinationOf({ building: buildingWith(true, { lomas: 'unavailable' }) }).determination.notes).toEqual([LENDING_NOTES.required, unchecked]);
    expect(determinationOf({ building: buildingWith(false, { lomas: 'unavailable' }) }).determination.notes).toEqual([LENDING_NOTES.outsideSfha]);
    expect(determinationOf({ building: { status: 'not_found' }, point: { ...HOUSTON.point, inSfha: true }, lomrs: 'unavailable' }).determination.notes).toEqual(
      [DETERMINATION_NOTES.pointBasis, LENDING_NOTES.required, unchecked],
    );
  });

  it('a paper map where FEMA has no digital one: its zones are on the panel', () => {
    expect(paperMapNote({ panel: '4804260005B', effectiveDate: '1991-07-02' })).toBe(
      "FEMA's flood map here is a paper FIRM (panel 4804260005B, effective 1991-07-02), not on its digital map (NFHL): the flood zones must be read " +
        "from that panel (FEMA's Map Service Center, msc.fema.gov).",
    );
    expect(paperMapNote({ panel: '4804260005B', effectiveDate: null })).toMatch(/^FEMA's flood map here is a paper FIRM \(panel 4804260005B\), not/);
  });
});

describe('lenderDetermination: section II of the form', () => {
  it("a building found at a zone edge: the footprint's answers, its governing panel, the community, county and state", () => {
    expect(lenderDetermination(HOUSTON)).toEqual({
      determination: {
        basis: 'building',
        community: { name: 'City of Houston', number: '480296', county: 'Harris County', state: 'TX' },
        map: { noNfipMap: false, digital: true, panel: '48201C0865L', panelEffectiveDate: '2007-06-18', letterOfMapChange: null, nearbyLetters: [] },
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

  /** What the form answers for each state of the building: its basis, what is known of the building, and the inputs named missing. */
  it.each([
    ['found', HOUSTON.building, 'building', ['AE', 'X'], '48201C0865L', true, true, []],
    ['found, its zones unread', { status: 'footprint_unread', site: HOUSTON_SITE }, 'building', null, null, null, null, ['structure']],
    ['USA Structures not answering', { status: 'unavailable' }, 'building', null, null, null, null, ['structure']],
    ['none could be chosen (none near, or several)', { status: 'not_found' }, 'point', ['X'], '48201C0870L', false, false, []],
  ] as const)('the building %s: basis %s', (_what, building, basis, floodZones, panel, buildingInSfha, floodInsuranceRequired, unavailable) => {
    const answer = determinationOf({ building });
    expect(answer.unavailable).toEqual(unavailable);
    expect(answer.determination).toMatchObject({
      basis,
      map: { noNfipMap: false, digital: true, panel, panelEffectiveDate: panel && '2007-06-18', letterOfMapChange: null, nearbyLetters: [] },
      floodZones,
      buildingInSfha,
      floodInsuranceRequired,
      insurance: { available: true, program: 'regular', reason: 'participating', coastalBarrier: null },
    });
  });

  /** The community, coastal barrier and letters the form reads: the building's site when its footprint is known, else the point's. */
  describe('judged where the building is', () => {
    const POINT_COMMUNITY: CommunityFacts = { name: 'Harris County', number: '480287', nfip: 'not_participating', mapInStatusBook: true };
    const POINT_LOMR = { caseNumber: '19-06-0001P', effectiveDate: '2019-01-01' };
    const SITE_LOMR = { caseNumber: '12-06-0002P', effectiveDate: '2012-01-01' };
    const atPoint: Partial<DeterminationFacts> = { community: POINT_COMMUNITY, coastalBarrier: BUFFER, lomrs: [POINT_LOMR] };
    const site: SiteFacts = { community: HOUSTON_COMMUNITY, coastalBarrier: OPA, lomrs: [SITE_LOMR], lomas: [] };

    it.each([
      ['found', { ...buildingWith(true), site }, 'site'],
      ['found, its zones unread', { status: 'footprint_unread', site }, 'site'],
      ['USA Structures not answering', { status: 'unavailable' }, 'point, no letter'],
      ['none could be chosen', { status: 'not_found' }, 'point'],
    ] as const)('the building %s: the %s', (_what, building, judged) => {
      const { determination } = determinationOf({ ...atPoint, building });
      if (judged === 'site') {
        expect(determination.community).toMatchObject({ name: 'City of Houston', number: '480296' });
        expect(determination.insurance).toMatchObject({ reason: 'coastal_barrier', coastalBarrier: { unit: 'FL-64P' } });
        expect(determination.map.letterOfMapChange).toEqual({ kind: 'LOMR', ...SITE_LOMR });
      } else {
        expect(determination.community).toMatchObject({ name: 'Harris County', number: '480287' });
        expect(determination.insurance).toMatchObject({ available: false, reason: 'not_participating', coastalBarrier: null });
        expect(determination.map.letterOfMapChange).toEqual(judged === 'point' ? { kind: 'LOMR', ...POINT_LOMR } : null);
      }
    });

    it("the footprint's inputs missing: each named, never the point's taken for it", () => {
      const missing: SiteFacts = { community: 'unavailable', coastalBarrier: 'unavailable', lomrs: 'unavailable', lomas: 'unavailable' };
      const { determination, unavailable } = determinationOf({ ...atPoint, building: { ...buildingWith(true), site: missing } });
      expect(unavailable).toEqual(['community', 'lomrs', 'lomas', 'coastalBarrier']);
      expect(determination).toMatchObject({
        community: { name: null, number: null, county: 'Harris County', state: 'TX' },
        map: { letterOfMapChange: null, nearbyLetters: null },
        insurance: { available: null, reason: 'nfip_status_unknown', program: null, coastalBarrier: null },
        floodInsuranceRequired: null,
      });
    });

    it("the footprint's community: its own standing, the Status Book not held named", () => {
      const { determination, unavailable } = determinationOf({
        building: {
          ...buildingWith(true),
          site: { ...site, coastalBarrier: OUTSIDE, community: { ...HOUSTON_COMMUNITY, nfip: 'unavailable', mapInStatusBook: null } },
        },
      });
      expect(unavailable).toEqual(['nfipStatus']);
      expect(determination.insurance).toMatchObject({ available: null, reason: 'nfip_status_unknown' });
    });
  });

  it('zones each once, SFHA zones first, else in the order given; none known is null, never an empty list', () => {
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
    expect(determinationOf({ building: { status: 'found', zones: [], inSfha: null, governingPanel: null, site: HOUSTON_SITE } }).determination).toMatchObject({
      floodZones: null,
      buildingInSfha: null,
      map: { panel: null, panelEffectiveDate: null },
    });
    expect(
      determinationOf({ building: { status: 'not_found' }, point: { ...HOUSTON.point, coverage: 'unmapped', inSfha: null, zones: [] } }).determination
        .floodZones,
    ).toBeNull();
  });

  /**
   * Box B5 and `digital`: a map exists where FEMA's digital map covers the place (the point, or a flood zone on the footprint), where a FIRM panel
   * is named there (a paper map), or where the Status Book dates one; none only where the book lists the community with no map date.
   */
  describe('no NFIP map, and the digital map', () => {
    const PAPER = { panel: '4804260005B', effectiveDate: '1991-07-02' };
    const unmappedPoint = (panel: typeof PAPER | null) => ({ coverage: 'unmapped', inSfha: null, zones: [], panel }) as const;
    const book = (mapInStatusBook: boolean | null): CommunityFacts => ({ ...HOUSTON_COMMUNITY, mapInStatusBook });
    const offMapBuilding = (governingPanel: typeof PAPER | null, community: DeterminationFacts['community']) =>
      ({ status: 'found', zones: [], inSfha: null, governingPanel, site: { ...HOUSTON_SITE, community } }) as const;

    it.each<[string, Partial<DeterminationFacts>, boolean | null, boolean]>([
      ['the point mapped', {}, false, true],
      ['the point mapped with no zone', { building: { status: 'not_found' }, point: { ...HOUSTON.point, coverage: 'mapped_no_zone', zones: [] } }, false, true],
      ['the point unmapped, a building with a flood zone on it', { point: unmappedPoint(null) }, false, true],
      ['the point unmapped with a paper panel, no building', { building: { status: 'not_found' }, point: unmappedPoint(PAPER), community: null }, false, false],
      ['unmapped, the book dating a map', { building: { status: 'not_found' }, point: unmappedPoint(null), community: book(true) }, false, false],
      ['unmapped, the book listing no map at all', { building: { status: 'not_found' }, point: unmappedPoint(null), community: book(false) }, true, false],
      ['unmapped, the community not in the book', { building: { status: 'not_found' }, point: unmappedPoint(null), community: book(null) }, null, false],
      ['unmapped, no community', { building: { status: 'not_found' }, point: unmappedPoint(null), community: null }, null, false],
      ['unmapped, the community unavailable', { building: { status: 'not_found' }, point: unmappedPoint(null), community: 'unavailable' }, null, false],
      ['a building off the map under a paper panel', { point: unmappedPoint(null), building: offMapBuilding(PAPER, book(false)) }, false, false],
      [
        "a building off the map, its community's book row without a map",
        { point: unmappedPoint(null), building: offMapBuilding(null, book(false)) },
        true,
        false,
      ],
      [
        'a building unknown, the point under a paper panel',
        { point: unmappedPoint(PAPER), building: { status: 'unavailable' }, community: book(false) },
        false,
        false,
      ],
    ])('%s: noNfipMap %s, digital %s', (_what, facts, noNfipMap, digital) => {
      expect(determinationOf(facts).determination.map).toMatchObject({ noNfipMap, digital });
    });

    it("a paper panel: named as the form's panel, the zones unknown, a note on where to read them", () => {
      const { determination } = determinationOf({ building: { status: 'not_found' }, point: unmappedPoint(PAPER), community: null });
      expect(determination.map).toMatchObject({ panel: '4804260005B', panelEffectiveDate: '1991-07-02' });
      expect(determination.floodZones).toBeNull();
      expect(determination.notes).toContain(paperMapNote(PAPER));
    });
  });

  it('the community: none mapped, or its map not answering (named), leaves name and number null; county and state come from the location', () => {
    const at = (community: SiteFacts['community']) => ({ building: { ...buildingWith(true), site: { ...HOUSTON_SITE, community } } });
    expect(determinationOf(at(null))).toMatchObject({
      determination: { community: { name: null, number: null, county: 'Harris County', state: 'TX' } },
      unavailable: [],
    });
    expect(determinationOf(at('unavailable'))).toMatchObject({
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
      determinationOf({
        building: { status: 'unavailable' },
        community: { ...HOUSTON_COMMUNITY, nfip: 'unavailable' },
        coastalBarrier: 'unavailable',
      }).unavailable,
    ).toEqual(['nfipStatus', 'structure', 'coastalBarrier']);
    expect(determinationOf({ building: { status: 'unavailable' }, community: 'unavailable', coastalBarrier: 'unavailable' }).unavailable).toEqual([
      'community',
      'structure',
      'coastalBarrier',
    ]);
  });
});

describe("lenderDetermination: the form's letter of map change and the nearby letters", () => {
  const loma = (distanceM: number, status: LomaFacts['status'] = 'valid', caseNumber = `L-${distanceM}`, effectiveDate = '2015-03-02'): LomaFacts => ({
    caseNumber,
    effectiveDate,
    status,
    distanceM,
    inFootprint: distanceM === 0,
  });
  const lettersOf = (site: Partial<SiteFacts>) => determinationOf({ building: buildingWith(true, site) }).determination.map;
  const LOMR = { caseNumber: '19-06-1234P', effectiveDate: '2020-02-14' };

  it('an effective LOMR covering the footprint wins, the newest (listed first); a LOMA inside the footprint is then a nearby letter', () => {
    const lomrs = [LOMR, { caseNumber: '12-06-0456P', effectiveDate: '2012-06-01' }];
    expect(lettersOf({ lomrs, lomas: [loma(0), loma(12)] })).toMatchObject({
      letterOfMapChange: { kind: 'LOMR', ...LOMR },
      nearbyLetters: [
        { caseNumber: 'L-0', effectiveDate: '2015-03-02', distanceM: 0 },
        { caseNumber: 'L-12', effectiveDate: '2015-03-02', distanceM: 12 },
      ],
    });
  });

  it('else a valid LOMA whose point lies inside the footprint, the newest; every other valid LOMA within 30 m a nearby letter', () => {
    const lomas = [loma(0, 'valid', 'OLD', '2001-01-01'), loma(0, 'valid', 'NEW', '2019-05-05'), loma(0, 'denied', 'DENIED', '2022-02-02'), loma(7)];
    expect(lettersOf({ lomas })).toEqual({
      noNfipMap: false,
      digital: true,
      panel: '48201C0865L',
      panelEffectiveDate: '2007-06-18',
      letterOfMapChange: { kind: 'LOMA', caseNumber: 'NEW', effectiveDate: '2019-05-05' },
      nearbyLetters: [
        { caseNumber: 'OLD', effectiveDate: '2001-01-01', distanceM: 0 },
        { caseNumber: 'L-7', effectiveDate: '2015-03-02', distanceM: 7 },
      ],
    });
  });

  it("a LOMA outside the footprint never fills the form's field: nearby letters, nearest first, at most 5, within 30 m, valid only", () => {
    const lomas = [loma(25), loma(4, 'denied'), loma(9.04), loma(30), loma(30.5), loma(3, 'superseded'), loma(12), loma(18), loma(2.26), loma(29)];
    expect(lettersOf({ lomas })).toMatchObject({
      letterOfMapChange: null,
      nearbyLetters: [
        { caseNumber: 'L-2.26', distanceM: 2.3 },
        { caseNumber: 'L-9.04', distanceM: 9 },
        { caseNumber: 'L-12', distanceM: 12 },
        { caseNumber: 'L-18', distanceM: 18 },
        { caseNumber: 'L-25', distanceM: 25 },
      ],
    });
    expect(lettersOf({ lomas: [loma(30, 'valid', 'B'), loma(30, 'valid', 'A')] }).nearbyLetters!.map((letter) => letter.caseNumber)).toEqual(['A', 'B']);
  });

  it('the point with no building chosen: its LOMR, never a LOMA; every valid LOMA within 30 m of the point a nearby letter', () => {
    const atPoint = (facts: Partial<DeterminationFacts>) => determinationOf({ building: { status: 'not_found' }, ...facts }).determination.map;
    expect(atPoint({ lomrs: [LOMR], lomas: [loma(3)] })).toMatchObject({
      letterOfMapChange: { kind: 'LOMR', ...LOMR },
      nearbyLetters: [{ caseNumber: 'L-3' }],
    });
    expect(atPoint({ lomas: [{ ...loma(23), inFootprint: false }] })).toMatchObject({
      letterOfMapChange: null,
      nearbyLetters: [{ caseNumber: 'L-23', distanceM: 23 }],
    });
  });

  it("a building that could not be looked up: no letter is this building's; the point's valid LOMAs within 30 m are nearby letters", () => {
    const { map, notes } = determinationOf({ building: { status: 'unavailable' }, lomrs: [LOMR], lomas: [{ ...loma(12), inFootprint: false }] }).determination;
    expect(map).toMatchObject({ letterOfMapChange: null, nearbyLetters: [{ caseNumber: 'L-12', distanceM: 12 }] });
    expect(notes).toContain(nearbyLettersNote([{ caseNumber: 'L-12', effectiveDate: '2015-03-02', distanceM: 12 }], 'building'));
  });

  it('none: no LOMR, and no valid LOMA; the letters unreadable leave the nearby letters null', () => {
    expect(lettersOf({ lomas: [loma(30.5), loma(2, 'denied'), loma(3, 'superseded')] })).toMatchObject({ letterOfMapChange: null, nearbyLetters: [] });
    expect(lettersOf({ lomrs: 'unavailable', lomas: [] })).toMatchObject({ letterOfMapChange: null, nearbyLetters: [] });
    expect(lettersOf({ lomrs: [], lomas: 'unavailable' })).toMatchObject({ letterOfMapChange: null, nearbyLetters: null });
  });

  it('a LOMA inside is still found when the LOMR query failed', () => {
    expect(lettersOf({ lomrs: 'unavailable', lomas: [loma(0)] }).letterOfMapChange).toEqual({ kind: 'LOMA', caseNumber: 'L-0', effectiveDate: '2015-03-02' });
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
    floodInsuranceRequirement({ inSfha, sfhaBasis: 'point', nfip, coastalBarrier, coastalBarrierPlace: 'point' });

  it.each(STANDINGS.flatMap((nfip) => SFHA.map((inSfha) => [nfip, inSfha] as const)))(
    '%s, SFHA %s: as with the barrier unavailable, but said "not checked"',
    (nfip, inSfha) => {
      const notAsked = requirementOf(inSfha, nfip, 'not_asked');
      const failed = requirementOf(inSfha, nfip, 'unavailable');
      expect({ ...notAsked, notes: [] }).toEqual({ ...failed, notes: [] });
      expect(notAsked.notes).toEqual(
        failed.notes.map((note) => (note === LENDING_NOTES.coastalBarrierUnavailable.point ? LENDING_NOTES.coastalBarrierNotAsked : note)),
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

describe('lenderDetermination: two communities where the form is judged, neither told to be its own', () => {
  const AMBIGUOUS = {
    ambiguousAmong: [
      { name: 'City of Houston', number: '480296' },
      { name: 'Harris County', number: '480287' },
    ],
  };
  const NAMED = '(City of Houston, community 480296; Harris County, community 480287)';
  const DECIDES_WORDS = 'the local floodplain administrator or a flood determination company decides.';
  const overBuilding = (inSfha: boolean | null, barrier: string) =>
    determinationOf({ building: buildingWith(inSfha, { community: AMBIGUOUS, coastalBarrier: BARRIERS[barrier] }) });
  const atPoint = (inSfha: boolean | null) =>
    determinationOf({ building: { status: 'not_found' }, point: { ...HOUSTON.point, inSfha }, community: AMBIGUOUS, coastalBarrier: OUTSIDE });

  /** Every SFHA answer and barrier: the community's fields, availability and the requirement as the rule says it. */
  const CASES = SFHA.flatMap((inSfha) => Object.keys(BARRIERS).map((barrier) => [inSfha, barrier] as const));
  it.each(CASES)('building in SFHA %s, barrier %s: no community named, availability unknown, required false only outside the SFHA', (inSfha, barrier) => {
    const { determination, unavailable } = overBuilding(inSfha, barrier);
    expect(determination.community).toEqual({ name: null, number: null, county: 'Harris County', state: 'TX' });
    expect(determination.insurance).toEqual({
      available: null,
      reason: 'community_ambiguous',
      program: null,
      coastalBarrier: BARRIERS[barrier] === SYSTEM_UNIT || BARRIERS[barrier] === OPA ? expect.any(Object) : null,
    });
    expect(determination.floodInsuranceRequired).toBe(inSfha === false ? false : null);
    expect(determination.notes.filter((note) => note.startsWith('Two NFIP communities are mapped'))).toHaveLength(1);
    expect(determination.notes.join(' ')).not.toMatch(/insurance is required|does not participate|participates/);
    expect(determination.notes).not.toContain(LENDING_NOTES.nfipStatusUnknown);
    // Ambiguity is not a failed input: nothing is named unavailable for it.
    expect(unavailable).toEqual(barrier === 'unavailable' ? ['coastalBarrier'] : []);
  });

  it.each([
    [
      'over the building, in the SFHA',
      () => overBuilding(true, 'outside'),
      [
        `Two NFIP communities are mapped over the building's footprint, each over as much of it ${NAMED}: which one the building lies in cannot be ` +
          "told from FEMA's map, so the form names no community, and its standing in the NFIP and whether federal flood insurance can be bought " +
          `here, and so whether a lender must require it, are unknown: ${DECIDES_WORDS}`,
      ],
    ],
    [
      'over the building, outside the SFHA: not required, whichever community it is',
      () => overBuilding(false, 'outside'),
      [
        `Two NFIP communities are mapped over the building's footprint, each over as much of it ${NAMED}: which one the building lies in cannot be ` +
          "told from FEMA's map, so the form names no community, and its standing in the NFIP and whether federal flood insurance can be bought " +
          `here are unknown: ${DECIDES_WORDS}`,
        LENDING_NOTES.outsideSfha,
      ],
    ],
    [
      'at the point (no building chosen), in the SFHA',
      () => atPoint(true),
      [
        DETERMINATION_NOTES.pointBasis,
        `Two NFIP communities are mapped at this point ${NAMED}: which one the point lies in cannot be told from FEMA's map, so the form names no ` +
          'community, and its standing in the NFIP and whether federal flood insurance can be bought here, and so whether a lender must require ' +
          `it, are unknown: ${DECIDES_WORDS}`,
      ],
    ],
  ] as const)('the note names them: %s', (_what, form, notes) => {
    expect(form().determination.notes).toEqual(notes);
  });

  it('at the point, with no map digitised: whether a map exists is not taken from either community', () => {
    const { determination } = determinationOf({
      building: { status: 'not_found' },
      point: { coverage: 'unmapped', inSfha: null, zones: [], panel: null },
      community: AMBIGUOUS,
    });
    expect(determination.map.noNfipMap).toBeNull();
    expect(determination.community.name).toBeNull();
    expect(determination.insurance.reason).toBe('community_ambiguous');
  });
});
