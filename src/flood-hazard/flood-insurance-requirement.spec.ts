import {
  CoastalBarrierStanding,
  FloodInsuranceRequirement,
  LENDING_NOTES,
  NfipStanding,
  coastalBarrierNote,
  floodInsuranceRequirement,
} from './flood-insurance-requirement';

const SYSTEM_UNIT = { status: 'inside', unit: 'FL-05', type: 'System Unit', floodInsuranceProhibitionDate: '1983-10-01' } as const;
const OPA = { status: 'inside', unit: 'FL-64P', type: 'Otherwise Protected Area', floodInsuranceProhibitionDate: '1990-11-16' } as const;
const BUFFER = { status: 'buffer', unit: null, type: null, floodInsuranceProhibitionDate: null } as const;
const OUTSIDE = { status: 'outside', unit: null, type: null, floodInsuranceProhibitionDate: null } as const;

const BARRIERS: Record<string, CoastalBarrierStanding> = {
  system_unit: SYSTEM_UNIT,
  opa: OPA,
  buffer: BUFFER,
  outside: OUTSIDE,
  unavailable: 'unavailable',
  not_asked: 'not_asked',
};
const STANDINGS: NfipStanding[] = ['regular', 'emergency', 'participating', 'not_participating', 'not_listed', 'unknown'];
const SFHA = [true, false, null] as const;

/** Availability and its reason for every standing (rows) and barrier (columns), written out as the rule says it. */
const AVAILABILITY: Record<NfipStanding, Record<string, [boolean | null, string]>> = {
  regular: {
    system_unit: [null, 'coastal_barrier'],
    opa: [null, 'coastal_barrier'],
    buffer: [true, 'participating'],
    outside: [true, 'participating'],
    unavailable: [null, 'coastal_barrier_unknown'],
    not_asked: [null, 'coastal_barrier_unknown'],
  },
  emergency: {
    system_unit: [null, 'coastal_barrier'],
    opa: [null, 'coastal_barrier'],
    buffer: [true, 'participating'],
    outside: [true, 'participating'],
    unavailable: [null, 'coastal_barrier_unknown'],
    not_asked: [null, 'coastal_barrier_unknown'],
  },
  participating: {
    system_unit: [null, 'coastal_barrier'],
    opa: [null, 'coastal_barrier'],
    buffer: [true, 'participating'],
    outside: [true, 'participating'],
    unavailable: [null, 'coastal_barrier_unknown'],
    not_asked: [null, 'coastal_barrier_unknown'],
  },
  not_participating: {
    system_unit: [false, 'not_participating'],
    opa: [false, 'not_participating'],
    buffer: [false, 'not_participating'],
    outside: [false, 'not_participating'],
    unavailable: [false, 'not_participating'],
    not_asked: [false, 'not_participating'],
  },
  not_listed: {
    system_unit: [null, 'not_listed'],
    opa: [null, 'not_listed'],
    buffer: [null, 'not_listed'],
    outside: [null, 'not_listed'],
    unavailable: [null, 'not_listed'],
    not_asked: [null, 'not_listed'],
  },
  unknown: {
    system_unit: [null, 'nfip_status_unknown'],
    opa: [null, 'nfip_status_unknown'],
    buffer: [null, 'nfip_status_unknown'],
    outside: [null, 'nfip_status_unknown'],
    unavailable: [null, 'nfip_status_unknown'],
    not_asked: [null, 'nfip_status_unknown'],
  },
};

/** The requirement for the SFHA answer (rows) and availability (columns). */
const REQUIRED: Record<string, Record<string, boolean | null>> = {
  true: { true: true, false: false, null: null },
  false: { true: false, false: false, null: false },
  null: { true: null, false: null, null: null },
};

const EVERY_CASE = SFHA.flatMap((inSfha) => STANDINGS.flatMap((nfip) => Object.keys(BARRIERS).map((barrier) => [inSfha, nfip, barrier] as const)));

describe('floodInsuranceRequirement: every combination of SFHA, NFIP standing and coastal barrier', () => {
  it('covers 3 x 6 x 6 cases', () => {
    expect(EVERY_CASE).toHaveLength(108);
  });

  it.each(EVERY_CASE)('SFHA %s, %s, barrier %s: availability, reason and requirement as the table says', (inSfha, nfip, barrier) => {
    const answer = floodInsuranceRequirement({ inSfha, nfip, coastalBarrier: BARRIERS[barrier]! });
    const [available, reason] = AVAILABILITY[nfip][barrier]!;
    expect({ available: answer.insurance.available, reason: answer.insurance.reason }).toEqual({ available, reason });
    expect(answer.floodInsuranceRequired).toBe(REQUIRED[String(inSfha)]![String(available)]);
  });

  it.each(EVERY_CASE)('SFHA %s, %s, barrier %s: never required without insurance, never "not required" in the SFHA with it', (inSfha, nfip, barrier) => {
    const { insurance, floodInsuranceRequired } = floodInsuranceRequirement({ inSfha, nfip, coastalBarrier: BARRIERS[barrier]! });
    if (insurance.available !== true) expect(floodInsuranceRequired).not.toBe(true);
    if (inSfha === true && insurance.available === true) expect(floodInsuranceRequired).toBe(true);
  });

  it.each(EVERY_CASE)('SFHA %s, %s, barrier %s: the notes never claim more than the facts', (inSfha, nfip, barrier) => {
    const { notes, floodInsuranceRequired } = floodInsuranceRequirement({ inSfha, nfip, coastalBarrier: BARRIERS[barrier]! });
    expect(notes.length).toBeGreaterThan(0);
    for (const note of notes) expect(note).toMatch(/^[A-Z].*\.$/);
    expect(notes.includes(LENDING_NOTES.required)).toBe(floodInsuranceRequired === true);
    expect(notes.includes(LENDING_NOTES.outsideSfha)).toBe(inSfha === false);
    expect(notes.includes(LENDING_NOTES.sfhaUnknown)).toBe(inSfha === null);
    expect(notes.includes(LENDING_NOTES.notParticipating)).toBe(nfip === 'not_participating' && inSfha !== false);
    expect(notes.includes(LENDING_NOTES.emergency)).toBe(nfip === 'emergency');
    if (floodInsuranceRequired !== true) expect(notes.join(' ')).not.toMatch(/insurance is required|requires flood insurance/);
  });
});

describe('floodInsuranceRequirement: the program and the coastal barrier', () => {
  it.each([
    ['regular', 'regular'],
    ['emergency', 'emergency'],
    ['participating', null],
    ['not_participating', null],
    ['not_listed', null],
    ['unknown', null],
  ] as const)('%s → program %s', (nfip, program) => {
    expect(floodInsuranceRequirement({ inSfha: true, nfip, coastalBarrier: OUTSIDE }).insurance.program).toBe(program);
  });

  it('gives the unit, type and designation date of a barrier the point is inside, whatever the community', () => {
    for (const nfip of STANDINGS) {
      expect(floodInsuranceRequirement({ inSfha: true, nfip, coastalBarrier: OPA }).insurance.coastalBarrier).toEqual({
        unit: 'FL-64P',
        type: 'Otherwise Protected Area',
        designationDate: '1990-11-16',
      });
      for (const barrier of [BUFFER, OUTSIDE, 'unavailable', 'not_asked'] as const) {
        expect(floodInsuranceRequirement({ inSfha: true, nfip, coastalBarrier: barrier }).insurance.coastalBarrier).toBeNull();
      }
    }
  });
});

/** The notes of a few cases, whole. */
describe('floodInsuranceRequirement: the notes', () => {
  const notesOf = (inSfha: boolean | null, nfip: NfipStanding, coastalBarrier: CoastalBarrierStanding): FloodInsuranceRequirement['notes'] =>
    floodInsuranceRequirement({ inSfha, nfip, coastalBarrier }).notes;

  it.each([
    ['in the SFHA, participating, outside any barrier: required', true, 'regular', OUTSIDE, [LENDING_NOTES.required]],
    ['in the SFHA, emergency program: required, with limited cover', true, 'emergency', OUTSIDE, [LENDING_NOTES.required, LENDING_NOTES.emergency]],
    ['in the SFHA, not participating: a notice, not a purchase', true, 'not_participating', SYSTEM_UNIT, [LENDING_NOTES.notParticipating]],
    ['in the SFHA, not listed: unknown', true, 'not_listed', OUTSIDE, [LENDING_NOTES.notListed]],
    ['in the SFHA, status unknown: unknown', true, 'unknown', OUTSIDE, [LENDING_NOTES.nfipStatusUnknown]],
    ['in the SFHA, barrier could not be checked', true, 'participating', 'unavailable', [LENDING_NOTES.coastalBarrierUnavailable]],
    ['in the SFHA, barrier not asked', true, 'regular', 'not_asked', [LENDING_NOTES.coastalBarrierNotAsked]],
    ['in the SFHA, buffer zone: required, with an official determination advised', true, 'regular', BUFFER, [LENDING_NOTES.required, LENDING_NOTES.buffer]],
    ['outside the SFHA, not listed: not required; availability does not change that', false, 'not_listed', 'unavailable', [LENDING_NOTES.outsideSfha]],
    ['outside the SFHA, not participating', false, 'not_participating', OUTSIDE, [LENDING_NOTES.outsideSfha]],
    ['SFHA unknown, not participating', null, 'not_participating', OUTSIDE, [LENDING_NOTES.notParticipating, LENDING_NOTES.sfhaUnknown]],
    ['SFHA unknown, participating', null, 'regular', OUTSIDE, [LENDING_NOTES.sfhaUnknown]],
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
});
