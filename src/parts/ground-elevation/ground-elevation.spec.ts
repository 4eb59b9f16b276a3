import { EstimatedBaseFloodElevation } from '../../flood-hazard/flood-hazard.types';
import { GROUND_ELEVATION_NOTES, GroundElevationContext, acquisitionDate, elevationReading, groundElevation, isConterminous } from './ground-elevation';

const HOUSTON = { lat: 29.7604, lon: -95.3698 };
const ANCHORAGE = { lat: 61.2181, lon: -149.9003 };
const HONOLULU = { lat: 21.3069, lon: -157.8583 };
const SAN_JUAN = { lat: 18.4655, lon: -66.1057 };

/** The recorded reply of the service with includeDate (test/emulators/fixtures/epqs-v1-answers.json), at 30.71 ft. */
function reply(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    location: { x: HOUSTON.lon, y: HOUSTON.lat, spatialReference: { wkid: 4326, latestWkid: 4326 } },
    locationId: 0,
    value: 30.71,
    rasterId: 1,
    resolution: 1,
    attributes: { AcquisitionDate: '3/1/2020' },
    ...overrides,
  };
}

function context(overrides: Partial<GroundElevationContext> = {}): GroundElevationContext {
  return {
    point: HOUSTON,
    countyFips: '48201',
    fromAddress: false,
    staticBaseFloodElevationFt: null,
    verticalDatum: null,
    estimatedBaseFloodElevation: null,
    ...overrides,
  };
}

function estimated(elevationFt: number, verticalDatum: string | null): EstimatedBaseFloodElevation {
  return { elevationFt, verticalDatum, method: 'interpolated', lines: [{ elevationFt, distanceM: 12 }], note: 'estimated' };
}

const NOT_CERTIFICATE = 'Not the lowest adjacent grade or a floor elevation, and not an elevation certificate.';
const STREET = 'The point of an address is placed along its street by the geocoder, so it may lie on the street, not at the building.';

describe('elevationReading: only the documented no-data forms mean no data; any other unreadable value is a failure', () => {
  it.each([
    [30.71, 30.71],
    [0, 0],
    [-999.9, -999.9],
    [-12.04, -12.04],
    [30000, 30000],
    [14120.449, 14120.449],
  ])('value %p: the ground at %p ft', (value, feet) => {
    expect(elevationReading(reply({ value }))).toEqual({ kind: 'ground', feet });
  });

  it.each([
    ['a body that was not JSON ("Call failed.")', null],
    ['value null', reply({ value: null })],
    ["the service's -1000000", reply({ value: -1000000 })],
    ['exactly -1000', reply({ value: -1000 })],
    ['-1e308', reply({ value: -1e308 })],
  ])('%s: no data', (_case, body) => {
    expect(elevationReading(body)).toEqual({ kind: 'noData' });
  });

  it.each([
    ['value "12abc"', reply({ value: '12abc' }), 'value "12abc" is not a number'],
    ['value as text', reply({ value: '30.71' }), 'value "30.71" is not a number'],
    ['value true', reply({ value: true }), 'value true is not a number'],
    ['value an object', reply({ value: { ft: 3 } }), 'value {"ft":3} is not a number'],
    ['value NaN', reply({ value: Number.NaN }), 'value NaN is not a number'],
    ['value Infinity', reply({ value: Number.POSITIVE_INFINITY }), 'value Infinity is not a number'],
    ['value 1e308', reply({ value: 1e308 }), 'value 1e+308 ft is above 30000 ft'],
    ['value 30000.1', reply({ value: 30000.1 }), 'value 30000.1 ft is above 30000 ft'],
    ['value missing', { locationId: 0, resolution: 1 }, 'answer without a value'],
  ])('%s: unreadable', (_case, body, reason) => {
    expect(elevationReading(body)).toEqual({ kind: 'unreadable', reason });
  });
});

describe('groundElevation', () => {
  it('gives the documented example: 7.3 ft below a static NAVD88 BFE of 38', () => {
    expect(groundElevation(reply(), context({ staticBaseFloodElevationFt: 38, verticalDatum: 'NAVD88' }))).toEqual({
      elevationFt: 30.7,
      verticalDatum: 'NAVD88',
      resolutionM: 1,
      acquisitionDate: '2020-03-01',
      uncertaintyFt: 1.7,
      comparedWith: { bfe: 'static', bfeFt: 38, differenceFt: -7.3, position: 'below' },
      note: `Bare-earth ground at the point from USGS 3DEP, 7.3 ft below the base flood elevation. ${NOT_CERTIFICATE}`,
    });
  });

  describe('elevationFt: one decimal', () => {
    it.each([
      [13.34829010234212, 13.3],
      [44.56, 44.6],
      [0, 0],
      [-12.04, -12],
      [-999.9, -999.9],
      [14120.449, 14120.4],
    ])('%p ft -> %p', (value, elevationFt) => {
      expect(groundElevation(reply({ value }), context()).elevationFt).toBe(elevationFt);
    });
  });

  describe('no data at the point: the object with elevationFt null and a note', () => {
    const noData = {
      elevationFt: null,
      verticalDatum: null,
      resolutionM: null,
      acquisitionDate: null,
      uncertaintyFt: null,
      comparedWith: null,
      note: 'USGS 3DEP has no ground elevation at this point.',
    };
    it.each([
      ['a body that was not JSON ("Call failed.")', null],
      ['value null', reply({ value: null })],
      ["the service's -1000000", reply({ value: -1000000 })],
      ['exactly -1000', reply({ value: -1000 })],
    ])('%s', (_case, body) => {
      expect(groundElevation(body, context({ staticBaseFloodElevationFt: 38, verticalDatum: 'NAVD88' }))).toEqual(noData);
    });

    it('still says an address point lies along the street', () => {
      expect(groundElevation(null, context({ fromAddress: true })).note).toBe(`USGS 3DEP has no ground elevation at this point. ${STREET}`);
    });
  });

  describe('verticalDatum: NAVD88 only in the conterminous US', () => {
    it.each([
      ['Harris County, TX', HOUSTON, '48201', 'NAVD88'],
      ['District of Columbia', { lat: 38.9, lon: -77 }, '11001', 'NAVD88'],
      ['Anchorage, AK by its county', ANCHORAGE, '02020', null],
      ['Honolulu, HI by its county', HONOLULU, '15003', null],
      ['San Juan, PR by its county', SAN_JUAN, '72127', null],
      ['Guam by its county', { lat: 13.47, lon: 144.75 }, '66010', null],
      // The county wins over the box: Key West is south of 24.4 but in Florida.
      ['Key West, FL by its county', { lat: 24.5551, lon: -81.78 }, '12087', 'NAVD88'],
      ['Dry Tortugas, FL by its county', { lat: 24.63, lon: -82.87 }, '12087', 'NAVD88'],
      ['Houston without a county, by the box', HOUSTON, null, 'NAVD88'],
      ['Anchorage without a county', ANCHORAGE, null, null],
      ['Honolulu without a county', HONOLULU, null, null],
      ['San Juan without a county (east of -66.9)', SAN_JUAN, null, null],
      ['on the box edge (24.4, -125.0)', { lat: 24.4, lon: -125.0 }, null, 'NAVD88'],
      ['just south of the box', { lat: 24.39, lon: -81.8 }, null, null],
      ['just north of the box', { lat: 49.41, lon: -95 }, null, null],
    ])('%s', (_case, point, countyFips, verticalDatum) => {
      expect(groundElevation(reply(), context({ point, countyFips })).verticalDatum).toBe(verticalDatum);
    });

    it('reads a malformed county as unknown and falls back to the box', () => {
      expect(isConterminous(HOUSTON, '482')).toBe(true);
      expect(isConterminous(ANCHORAGE, 'AK')).toBe(false);
    });
  });

  describe('resolutionM and uncertaintyFt', () => {
    it.each([
      [1, 1, 1.7],
      [3, 3, 1.7],
      [3.04, 3.04, 5.1],
      [10, 10, 5.1],
      [30, 30, 5.1],
      [null, null, 5.1],
      ['1', null, 5.1],
      [0, null, 5.1],
    ])('resolution %p -> resolutionM %p, uncertaintyFt %p', (resolution, resolutionM, uncertaintyFt) => {
      const ground = groundElevation(reply({ resolution }), context());
      expect(ground.resolutionM).toBe(resolutionM);
      expect(ground.uncertaintyFt).toBe(uncertaintyFt);
    });
  });

  describe('acquisitionDate: M/D/YYYY as YYYY-MM-DD, else null', () => {
    it.each([
      [{ AcquisitionDate: '3/1/2020' }, '2020-03-01'],
      [{ AcquisitionDate: '12/31/1999' }, '1999-12-31'],
      [{ AcquisitionDate: '03/01/2020' }, '2020-03-01'],
      [{ AcquisitionDate: ' 3/1/2020 ' }, '2020-03-01'],
      [{ AcquisitionDate: '3/1/2020 12:00:00 AM' }, '2020-03-01'],
      [{ AcquisitionDate: '2/30/2020' }, null],
      [{ AcquisitionDate: '13/1/2020' }, null],
      [{ AcquisitionDate: '2020-03-01' }, null],
      [{ AcquisitionDate: '' }, null],
      [{ AcquisitionDate: null }, null],
      [{ AcquisitionDate: 1583020800000 }, null],
      [{}, null],
      [null, null],
      [undefined, null],
    ])('%p -> %p', (attributes, date) => {
      expect(acquisitionDate(attributes)).toBe(date);
      expect(groundElevation(reply({ attributes }), context()).acquisitionDate).toBe(date);
    });
  });

  describe('comparedWith: NAVD88 ground against a NAVD88 BFE, static first', () => {
    it.each([
      [
        'below a static BFE',
        30.71,
        { staticBaseFloodElevationFt: 38, verticalDatum: 'NAVD88' },
        { bfe: 'static', bfeFt: 38, differenceFt: -7.3, position: 'below' },
      ],
      [
        'above a static BFE',
        42.04,
        { staticBaseFloodElevationFt: 38, verticalDatum: 'NAVD88' },
        { bfe: 'static', bfeFt: 38, differenceFt: 4, position: 'above' },
      ],
      [
        'within uncertainty, below',
        36.3,
        { staticBaseFloodElevationFt: 38, verticalDatum: 'NAVD88' },
        { bfe: 'static', bfeFt: 38, differenceFt: -1.7, position: 'within_uncertainty' },
      ],
      [
        'within uncertainty, above',
        39.7,
        { staticBaseFloodElevationFt: 38, verticalDatum: 'NAVD88' },
        { bfe: 'static', bfeFt: 38, differenceFt: 1.7, position: 'within_uncertainty' },
      ],
      [
        'just outside uncertainty',
        39.8,
        { staticBaseFloodElevationFt: 38, verticalDatum: 'NAVD88' },
        { bfe: 'static', bfeFt: 38, differenceFt: 1.8, position: 'above' },
      ],
      [
        'at the BFE',
        38.02,
        { staticBaseFloodElevationFt: 38, verticalDatum: 'NAVD88' },
        { bfe: 'static', bfeFt: 38, differenceFt: 0, position: 'within_uncertainty' },
      ],
      [
        'datum spelled "NAVD 88"',
        30.71,
        { staticBaseFloodElevationFt: 38, verticalDatum: 'NAVD 88' },
        { bfe: 'static', bfeFt: 38, differenceFt: -7.3, position: 'below' },
      ],
      [
        'the estimated BFE when there is no static one',
        12.2,
        { estimatedBaseFloodElevation: estimated(9.5, 'NAVD88') },
        { bfe: 'estimated', bfeFt: 9.5, differenceFt: 2.7, position: 'above' },
      ],
      [
        'the static BFE over an estimated one',
        30.71,
        { staticBaseFloodElevationFt: 38, verticalDatum: 'NAVD88', estimatedBaseFloodElevation: estimated(31, 'NAVD88') },
        { bfe: 'static', bfeFt: 38, differenceFt: -7.3, position: 'below' },
      ],
    ])('%s', (_case, value, bfe, comparedWith) => {
      expect(groundElevation(reply({ value }), context(bfe)).comparedWith).toEqual(comparedWith);
    });

    it('widens within_uncertainty to 5.1 ft on a coarse model', () => {
      const ground = groundElevation(reply({ value: 33, resolution: 10 }), context({ staticBaseFloodElevationFt: 38, verticalDatum: 'NAVD88' }));
      expect(ground.comparedWith).toEqual({ bfe: 'static', bfeFt: 38, differenceFt: -5, position: 'within_uncertainty' });
      expect(ground.note).toBe(
        `Bare-earth ground at the point from USGS 3DEP, 5 ft below the base flood elevation, within the 5.1 ft uncertainty of the terrain model. ${NOT_CERTIFICATE}`,
      );
    });

    it('names the estimated BFE in the note', () => {
      const ground = groundElevation(reply({ value: 8.04 }), context({ estimatedBaseFloodElevation: estimated(9.5, 'NAVD88') }));
      expect(ground.note).toBe(
        `Bare-earth ground at the point from USGS 3DEP, 1.5 ft below the estimated base flood elevation, within the 1.7 ft uncertainty of the terrain model. ${NOT_CERTIFICATE}`,
      );
    });

    it('says so when the ground is at the BFE', () => {
      const ground = groundElevation(reply({ value: 38 }), context({ staticBaseFloodElevationFt: 38, verticalDatum: 'NAVD88' }));
      expect(ground.note).toBe(
        `Bare-earth ground at the point from USGS 3DEP, at the base flood elevation, within the 1.7 ft uncertainty of the terrain model. ${NOT_CERTIFICATE}`,
      );
    });
  });

  describe('comparedWith null, and the note says why', () => {
    it.each([
      ['no BFE here', {}, 'Bare-earth ground at the point from USGS 3DEP. There is no base flood elevation here to compare it with.'],
      [
        'a static BFE in NGVD29',
        { staticBaseFloodElevationFt: 38, verticalDatum: 'NGVD29' },
        "Bare-earth ground at the point from USGS 3DEP, in NAVD88. The map's base flood elevation is in NGVD29, which differs and is never converted, so the two are not compared.",
      ],
      [
        // The static BFE decides: an estimated NAVD88 one is not used in its place.
        'a static NGVD29 BFE beside an estimated NAVD88 one',
        { staticBaseFloodElevationFt: 38, verticalDatum: 'NGVD 1929', estimatedBaseFloodElevation: estimated(31, 'NAVD88') },
        "Bare-earth ground at the point from USGS 3DEP, in NAVD88. The map's base flood elevation is in NGVD 1929, which differs and is never converted, so the two are not compared.",
      ],
      [
        'an estimated BFE in NGVD29',
        { estimatedBaseFloodElevation: estimated(9.5, 'NGVD29') },
        "Bare-earth ground at the point from USGS 3DEP, in NAVD88. The map's base flood elevation is in NGVD29, which differs and is never converted, so the two are not compared.",
      ],
      [
        'a BFE whose datum the map does not state',
        { staticBaseFloodElevationFt: 38, verticalDatum: null },
        'Bare-earth ground at the point from USGS 3DEP. The map does not state the vertical datum of its base flood elevation, so the two are not compared.',
      ],
      [
        'ground outside the conterminous US',
        { point: HONOLULU, countyFips: '15003', staticBaseFloodElevationFt: 8, verticalDatum: 'NAVD88' },
        "Bare-earth ground at the point from USGS 3DEP. Outside the conterminous US, 3DEP's vertical datum varies, so it is not compared with the base flood elevation.",
      ],
      [
        'no BFE outside the conterminous US',
        { point: ANCHORAGE, countyFips: '02020' },
        'Bare-earth ground at the point from USGS 3DEP. There is no base flood elevation here to compare it with.',
      ],
    ])('%s', (_case, overrides, sentence) => {
      const ground = groundElevation(reply(), context(overrides));
      expect(ground.comparedWith).toBeNull();
      expect(ground.note).toBe(`${sentence} ${NOT_CERTIFICATE}`);
    });
  });

  describe('an address lookup', () => {
    it('says the point may lie on the street, not at the building', () => {
      const ground = groundElevation(reply(), context({ fromAddress: true, staticBaseFloodElevationFt: 38, verticalDatum: 'NAVD88' }));
      expect(ground.note).toBe(`Bare-earth ground at the point from USGS 3DEP, 7.3 ft below the base flood elevation. ${NOT_CERTIFICATE} ${STREET}`);
      expect(GROUND_ELEVATION_NOTES.streetPoint).toBe(STREET);
    });

    it('says nothing of streets for a point lookup', () => {
      expect(groundElevation(reply(), context()).note).not.toMatch(/street/);
    });
  });

  it('writes every note as sentences', () => {
    const notes = [
      groundElevation(null, context()).note,
      groundElevation(reply(), context()).note,
      groundElevation(reply(), context({ fromAddress: true, staticBaseFloodElevationFt: 38, verticalDatum: 'NGVD29' })).note,
    ];
    for (const note of notes) expect(note).toMatch(/^[A-Z].*\.$/);
  });
});
