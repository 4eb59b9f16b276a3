import { MAP_CHANGE_NOTES, NO_DIGITAL_MAP_NOTE, mapChange } from './map-change';
import { MapChangeMapData, FloodDetermination, FloodHazardZoneAttributes, MapChange } from '../../flood-hazard/flood-hazard.types';

/** 2025-05-15T11:00Z, as FEMA's PrelimPending availability layers store issue dates. */
const MAY_15_2025 = 1747306800000;
/** 2024-02-29T11:00Z. */
const FEB_29_2024 = 1709204400000;

function zone(overrides: Partial<FloodHazardZoneAttributes>): FloodHazardZoneAttributes {
  return {
    FLD_ZONE: 'X',
    ZONE_SUBTY: 'AREA OF MINIMAL FLOOD HAZARD',
    SFHA_TF: 'F',
    STATIC_BFE: -9999,
    DEPTH: -9999,
    V_DATUM: null,
    LEN_UNIT: null,
    ...overrides,
  };
}

function map(zones: FloodHazardZoneAttributes[], issueDates: Array<number | null> = [MAY_15_2025]): MapChangeMapData {
  return { availability: issueDates.map((date) => ({ DFIRM_ID: '22071C', PRELM_ISSUE_DATE: date })), zones };
}

const NOT_HERE: MapChangeMapData = { availability: [], zones: [] };
const AE_9 = zone({ FLD_ZONE: 'AE', ZONE_SUBTY: null, SFHA_TF: 'T', STATIC_BFE: 9, LEN_UNIT: 'Feet' });
const X_MINIMAL = zone({});

/** The effective map's answer at a mapped point: in the SFHA, outside it, or without a zone (null). */
const mappedAs = (inSfha: boolean | null): Pick<FloodDetermination, 'coverage' | 'inSpecialFloodHazardArea'> => ({
  coverage: inSfha === null ? 'mapped_no_zone' : 'mapped',
  inSpecialFloodHazardArea: inSfha,
});
const UNMAPPED = { coverage: 'unmapped', inSpecialFloodHazardArea: null } as const;

const PRELIMINARY_NOTE = 'A preliminary map is not the effective map and does not yet set flood insurance requirements.';

describe('mapChange', () => {
  it('gives the documented example: a preliminary map putting the point into the SFHA', () => {
    expect(mapChange(NOT_HERE, map([AE_9]), mappedAs(false))).toEqual({
      status: 'preliminary',
      issuedDate: '2025-05-15',
      floodZone: 'AE',
      zoneSubtype: null,
      inSpecialFloodHazardArea: true,
      staticBaseFloodElevationFt: 9,
      sfhaChange: 'into_sfha',
      note: PRELIMINARY_NOTE,
    });
    expect(MAP_CHANGE_NOTES.preliminary).toBe(PRELIMINARY_NOTE);
  });

  it('prefers the pending map to the preliminary one', () => {
    const result = mapChange(map([X_MINIMAL], [FEB_29_2024]), map([AE_9]), mappedAs(true));
    expect(result).toEqual({
      status: 'pending',
      issuedDate: '2024-02-29',
      floodZone: 'X',
      zoneSubtype: 'AREA OF MINIMAL FLOOD HAZARD',
      inSpecialFloodHazardArea: false,
      staticBaseFloodElevationFt: null,
      sfhaChange: 'out_of_sfha',
      note: MAP_CHANGE_NOTES.pending,
    });
  });

  it('uses the preliminary map when the pending one does not cover the point (or was not found)', () => {
    expect(mapChange(NOT_HERE, map([AE_9]), mappedAs(true)).status).toBe('preliminary');
    expect(mapChange(null, map([AE_9]), mappedAs(true)).status).toBe('preliminary');
  });

  it.each([
    ['neither covers the point', NOT_HERE, NOT_HERE],
    ['neither was found', null, null],
    ['only zones, no availability', { availability: [], zones: [AE_9] }, { availability: [], zones: [AE_9] }],
  ])('answers none when %s', (_label, pending, preliminary) => {
    const none: MapChange = {
      status: 'none',
      issuedDate: null,
      floodZone: null,
      zoneSubtype: null,
      inSpecialFloodHazardArea: null,
      staticBaseFloodElevationFt: null,
      sfhaChange: 'unchanged',
      note: MAP_CHANGE_NOTES.none,
    };
    expect(mapChange(pending, preliminary, mappedAs(true))).toEqual(none);
    expect(mapChange(pending, preliminary, mappedAs(null))).toEqual(none);
  });

  it('where there is no digital map and no coming one, a change is unknown, never "unchanged" or "the effective map is the current one"', () => {
    for (const [pending, preliminary] of [
      [NOT_HERE, NOT_HERE],
      [null, null],
    ]) {
      expect(mapChange(pending, preliminary, UNMAPPED)).toEqual({
        status: 'none',
        issuedDate: null,
        floodZone: null,
        zoneSubtype: null,
        inSpecialFloodHazardArea: null,
        staticBaseFloodElevationFt: null,
        sfhaChange: 'unknown',
        note: NO_DIGITAL_MAP_NOTE,
      });
    }
    expect(NO_DIGITAL_MAP_NOTE).toMatch(/^No digital flood map here\b.*\bunknown\.$/);
  });

  it('a coming map over a point without a digital map: its zone, the change unknown', () => {
    expect(mapChange(NOT_HERE, map([AE_9]), UNMAPPED)).toMatchObject({ status: 'preliminary', floodZone: 'AE', sfhaChange: 'unknown', note: PRELIMINARY_NOTE });
  });

  it.each([
    [false, AE_9, 'into_sfha'],
    [true, X_MINIMAL, 'out_of_sfha'],
    [true, AE_9, 'unchanged'],
    [false, X_MINIMAL, 'unchanged'],
    [false, zone({ ZONE_SUBTY: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD' }), 'unchanged'],
    [true, zone({ FLD_ZONE: 'VE', STATIC_BFE: 14 }), 'unchanged'],
    [null, AE_9, 'unknown'],
    [true, zone({ FLD_ZONE: 'OPEN WATER' }), 'unknown'],
    [false, zone({ FLD_ZONE: 'AREA NOT INCLUDED' }), 'unknown'],
  ])('effective SFHA %j, coming %j: %s', (effectiveInSfha, comingZone, sfhaChange) => {
    for (const [pending, preliminary] of [
      [map([comingZone]), NOT_HERE],
      [NOT_HERE, map([comingZone])],
    ]) {
      expect(mapChange(pending, preliminary, mappedAs(effectiveInSfha)).sfhaChange).toBe(sfhaChange);
    }
  });

  it('is unknown when the coming map has no zone polygon at the point', () => {
    expect(mapChange(map([]), NOT_HERE, mappedAs(false))).toMatchObject({
      status: 'pending',
      issuedDate: '2025-05-15',
      floodZone: null,
      zoneSubtype: null,
      inSpecialFloodHazardArea: null,
      staticBaseFloodElevationFt: null,
      sfhaChange: 'unknown',
    });
  });

  it('classifies by the zone table, not SFHA_TF', () => {
    const contradicting = zone({ FLD_ZONE: 'A', ZONE_SUBTY: null, SFHA_TF: 'F' });
    expect(mapChange(NOT_HERE, map([contradicting]), mappedAs(false))).toMatchObject({
      inSpecialFloodHazardArea: true,
      sfhaChange: 'into_sfha',
    });
  });

  it('lets the most severe polygon govern (v1 rules)', () => {
    const zones = [
      X_MINIMAL,
      zone({ FLD_ZONE: 'AE', ZONE_SUBTY: null, STATIC_BFE: 9, LEN_UNIT: 'Feet' }),
      zone({ FLD_ZONE: 'AE', ZONE_SUBTY: '1 PCT FUTURE CONDITIONS, FLOODWAY', STATIC_BFE: -9999 }),
      zone({ FLD_ZONE: 'AE', ZONE_SUBTY: null, STATIC_BFE: 3, LEN_UNIT: 'Meters' }),
    ];
    expect(mapChange(NOT_HERE, map(zones), mappedAs(false))).toMatchObject({
      floodZone: 'AE',
      zoneSubtype: '1 PCT FUTURE CONDITIONS, FLOODWAY',
      inSpecialFloodHazardArea: true,
      staticBaseFloodElevationFt: null,
    });
    expect(mapChange(NOT_HERE, map(zones.slice(0, 2).concat(zones[3])), mappedAs(false))).toMatchObject({
      floodZone: 'AE',
      zoneSubtype: null,
      staticBaseFloodElevationFt: 9.8,
    });
  });

  it.each([
    ['the UTC date of an 11:00 UTC value', [MAY_15_2025], '2025-05-15'],
    ['the latest of overlapping study areas', [FEB_29_2024, MAY_15_2025], '2025-05-15'],
    ['a real date over a missing one', [null, FEB_29_2024], '2024-02-29'],
    ['null for the 9999-09-09 placeholder', [253392451200000], null],
    ['null when missing', [null], null],
    ['late in the UTC day, still that UTC date', [1747353599000], '2025-05-15'],
  ])('issuedDate is %s', (_label, dates, issuedDate) => {
    expect(mapChange(NOT_HERE, map([AE_9], dates), mappedAs(false)).issuedDate).toBe(issuedDate);
  });

  it('always gives a sentence as the note', () => {
    for (const note of Object.values(MAP_CHANGE_NOTES)) expect(note).toMatch(/^[A-Z].+\.$/);
  });
});
