import CheapRuler from 'cheap-ruler';
import { lomaStatus, lomasNear } from './loma-status';
import { LomaAttributes, LomaFeature } from './flood-hazard.types';

describe('lomaStatus: FEMA layer-34 renderer rule', () => {
  it.each([
    ['Denied', null],
    ['denied-in floodway', null],
    ['Portion of property denied', null],
    ['Portion of property denied and in floodway', null],
    ['Property denied', null],
    ['Property denied and in floodway', null],
    ['Structure denied', null],
    ['Structure denied and in floodway', null],
    ['  STRUCTURE DENIED  ', null],
    ['\tDenied\n', null],
    ['Denied', 'Superseded'],
    ['Property denied', 'Incorporated'],
    ['Structure denied and in floodway', 'Contact Community'],
    ['Denied-In Floodway', 'Reevaluation Needed'],
  ])('OUTCOME %j (REVAL_STAT %j) is denied', (outcome, revalStat) => {
    expect(lomaStatus(outcome, revalStat)).toBe('denied');
  });

  it.each([
    ['Incorporated', 'incorporated'],
    [' incorporated ', 'incorporated'],
    ['INCORPORATED', 'incorporated'],
    ['Superseded', 'superseded'],
    ['superseded\t', 'superseded'],
    ['Contact Community', 'contact_community'],
    ['  CONTACT COMMUNITY', 'contact_community'],
    ['Reevaluation Needed', 'reevaluation_needed'],
    ['reevaluation needed  ', 'reevaluation_needed'],
  ])('REVAL_STAT %j with a removal outcome is %s', (revalStat, status) => {
    expect(lomaStatus('Structure removed-Property partially inundated', revalStat)).toBe(status);
    expect(lomaStatus(null, revalStat)).toBe(status);
  });

  it.each([
    ['Structure removed-Property partially inundated', null],
    ['Property out as shown', null],
    ['Portion of property removed', null],
    ['Multiple', null],
    [null, null],
    ['', ''],
    ['   ', 'Valid'],
    ['Property out as shown', 'Revalidated'],
    ['Property out as shown', '<Null>'],
    // The renderer compares whole values: a denial inside a longer text, or an inner double space, is not one.
    ['Denied in part', null],
    ['Structure  denied', null],
    ['Structure removed', 'Contact  Community'],
  ])('OUTCOME %j with REVAL_STAT %j is valid', (outcome, revalStat) => {
    expect(lomaStatus(outcome, revalStat)).toBe('valid');
  });
});

describe('lomasNear', () => {
  const POINT = { lat: 29.95, lon: -90.07 };
  const ruler = new CheapRuler(POINT.lat, 'meters');

  function attributes(overrides: Partial<LomaAttributes>): LomaAttributes {
    return {
      CASENUMBER: '15-10-1489A',
      DATEENDED: 1433203200000,
      OUTCOME: 'Structure removed-Property partially inundated',
      REVAL_STAT: null,
      PROJECTCATEGORY: 'LOMA',
      LAT: null,
      LON: null,
      ...overrides,
    };
  }

  /** A LOMA `metres` away from POINT towards `bearing` degrees. */
  function lomaAt(metres: number, bearing: number, overrides: Partial<LomaAttributes> = {}): LomaFeature {
    const [lon, lat] = ruler.destination([POINT.lon, POINT.lat], metres, bearing);
    return { attributes: attributes({ LAT: lat, LON: lon, ...overrides }), lon, lat };
  }

  it('gives the documented example: every field of a valid LOMA 23 m away', () => {
    expect(lomasNear([lomaAt(23.2, 40)], POINT)).toEqual([
      {
        caseNumber: '15-10-1489A',
        effectiveDate: '2015-06-02',
        status: 'valid',
        outcome: 'Structure removed-Property partially inundated',
        category: 'LOMA',
        distanceM: 23,
      },
    ]);
  });

  it('keeps only LOMAs within 100 m (the envelope corners hold points up to 141 m away), nearest first', () => {
    const features = [
      lomaAt(140, 45, { CASENUMBER: 'corner' }),
      lomaAt(99.6, 180, { CASENUMBER: 'edge' }),
      lomaAt(100.4, 0, { CASENUMBER: 'just-outside' }),
      lomaAt(0, 0, { CASENUMBER: 'at-point' }),
      lomaAt(61.5, 270, { CASENUMBER: 'middle' }),
    ];
    expect(lomasNear(features, POINT).map(({ caseNumber, distanceM }) => [caseNumber, distanceM])).toEqual([
      ['at-point', 0],
      ['middle', 62],
      ['edge', 100],
    ]);
  });

  it('honours another reach', () => {
    expect(lomasNear([lomaAt(30, 90), lomaAt(60, 90)], POINT, 50).map((loma) => loma.distanceM)).toEqual([30]);
  });

  it('orders equally near LOMAs by case number, whatever order NFHL returned them in', () => {
    const features = [lomaAt(40, 0, { CASENUMBER: '20-04-0002A' }), lomaAt(40, 0, { CASENUMBER: '09-04-1234A' })];
    expect(lomasNear(features, POINT).map((loma) => loma.caseNumber)).toEqual(['09-04-1234A', '20-04-0002A']);
    expect(lomasNear([...features].reverse(), POINT).map((loma) => loma.caseNumber)).toEqual(['09-04-1234A', '20-04-0002A']);
  });

  it('measures on the WGS84 ellipsoid, not a sphere', () => {
    // 1 degree of latitude at 45 N is 111,131.7 m on WGS84 (a sphere gives 111,194.9 m).
    const point = { lat: 45, lon: -100 };
    // 99.97 m on the ellipsoid (100.03 m on a sphere): within reach.
    const edge = { attributes: attributes({}), lon: -100, lat: 45.0008996 };
    expect(lomasNear([edge], point).map((loma) => loma.distanceM)).toEqual([100]);
    // 100.02 m on the ellipsoid: out of reach.
    const further = { attributes: attributes({}), lon: -100, lat: 45.0009 };
    expect(lomasNear([further], point)).toEqual([]);
  });

  it('trims texts and gives null for blank ones (v1 null rules)', () => {
    const [loma] = lomasNear([lomaAt(10, 0, { CASENUMBER: ' 19-06-1234A ', OUTCOME: '  Property out as shown ', PROJECTCATEGORY: ' LOMR-F ' })], POINT);
    expect(loma).toMatchObject({ caseNumber: '19-06-1234A', outcome: 'Property out as shown', category: 'LOMR-F' });
    const [blank] = lomasNear([lomaAt(10, 0, { CASENUMBER: '  ', OUTCOME: '', PROJECTCATEGORY: '<Null>' })], POINT);
    expect(blank).toMatchObject({ caseNumber: null, outcome: null, category: null, status: 'valid' });
    const [missing] = lomasNear([lomaAt(10, 0, { CASENUMBER: null, OUTCOME: null, PROJECTCATEGORY: null })], POINT);
    expect(missing).toMatchObject({ caseNumber: null, outcome: null, category: null });
  });

  it.each([
    [1433203200000, '2015-06-02'],
    // Late in the UTC day: the UTC date, not the US local one.
    [1433289599000, '2015-06-02'],
    [253392451200000, null],
    [null, null],
    [-9999, null],
  ])('DATEENDED %j is effectiveDate %j', (dateEnded, effectiveDate) => {
    expect(lomasNear([lomaAt(10, 0, { DATEENDED: dateEnded })], POINT)[0].effectiveDate).toBe(effectiveDate);
  });

  it('gives each LOMA its own status', () => {
    const features = [
      lomaAt(10, 0, { OUTCOME: 'Structure denied', REVAL_STAT: null }),
      lomaAt(20, 0, { OUTCOME: 'Property out as shown', REVAL_STAT: 'Superseded' }),
      lomaAt(30, 0, { OUTCOME: 'Property out as shown', REVAL_STAT: null }),
    ];
    expect(lomasNear(features, POINT).map((loma) => loma.status)).toEqual(['denied', 'superseded', 'valid']);
  });

  it('skips a LOMA without a usable location and answers [] for none', () => {
    const broken = { attributes: attributes({}), lon: Number.NaN, lat: Number.NaN };
    expect(lomasNear([broken], POINT)).toEqual([]);
    expect(lomasNear([], POINT)).toEqual([]);
  });
});
