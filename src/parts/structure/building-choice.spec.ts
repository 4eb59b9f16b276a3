import CheapRuler from 'cheap-ruler';
import { BuildingSearchPoint, chooseBuilding } from './building-choice';
import type { StructureAttributes, StructureFeature } from './structure.types';

const POINT = { lat: 45.1, lon: -87.5874 };
const ruler = new CheapRuler(POINT.lat, 'meters');
const SEARCH_M = 40;

/** A building's rectangle between east offsets [west, east] and north offsets [south, north] (metres from the point), clockwise. */
function rectangle(west: number, east: number, south: number, north: number): number[][] {
  const corners: Array<[number, number]> = [
    [west, south],
    [west, north],
    [east, north],
    [east, south],
    [west, south],
  ];
  return corners.map(([east_, north_]) => ruler.offset([POINT.lon, POINT.lat], east_, north_));
}

/** A 10 m square building whose west wall is `metres` east of the point (a negative value puts the point inside). */
function eastOf(metres: number, attributes: Partial<StructureAttributes> = {}): StructureFeature {
  return building(rectangle(metres, metres + 10, -5, 5), attributes);
}

/** A 10 m square building whose east wall is `metres` west of the point. */
function westOf(metres: number, attributes: Partial<StructureAttributes> = {}): StructureFeature {
  return building(rectangle(-metres - 10, -metres, -5, 5), attributes);
}

function building(ring: number[][], attributes: Partial<StructureAttributes>): StructureFeature {
  return {
    attributes: {
      BUILD_ID: 1,
      OCC_CLS: 'Residential',
      PRIM_OCC: 'Single Family Dwelling',
      PROP_ADDR: null,
      PROP_CITY: 'MENOMINEE',
      PROP_ZIP: '49858',
      SQMETERS: 100,
      HEIGHT: null,
      IMAGE_DATE: null,
      SOURCE: 'ORNL',
      OUTBLDG: null,
      ...attributes,
    },
    rings: [ring],
  };
}

const ADDRESS: BuildingSearchPoint = { point: POINT, locationSource: 'census_geocoder', matchedAddress: '140 1ST ST, MENOMINEE, MI, 49858' };
const COORDINATES: BuildingSearchPoint = { point: POINT, locationSource: 'coordinates', matchedAddress: null };

/** The choice in short: its match and the chosen building's BUILD_ID and distance, or its candidates. */
function choose(buildings: StructureFeature[], at: BuildingSearchPoint = ADDRESS): unknown {
  const choice = chooseBuilding(buildings, at, SEARCH_M);
  return 'building' in choice ? [choice.match, choice.building.attributes.BUILD_ID, choice.distanceM] : [choice.match, choice.candidates];
}

describe('chooseBuilding: (1) a footprint containing the point', () => {
  it.each([
    ['an address', ADDRESS],
    ['coordinates', COORDINATES],
  ])('takes the footprint the point lies in, for %s', (_case, at) => {
    expect(choose([eastOf(3, { BUILD_ID: 2 }), eastOf(-5, { BUILD_ID: 1 })], at)).toEqual(['contains', 1, 0]);
  });

  it('takes a footprint whose wall the point lies on', () => {
    expect(choose([eastOf(0, { BUILD_ID: 7 })], COORDINATES)).toEqual(['contains', 7, 0]);
  });

  it('takes the point in a footprint with a courtyard only when it is not in the courtyard', () => {
    const courtyard = rectangle(-2, 2, -2, 2).reverse();
    const withCourtyard = { ...building(rectangle(-10, 10, -10, 10), { BUILD_ID: 3 }) };
    withCourtyard.rings = [...withCourtyard.rings, courtyard];
    expect(choose([withCourtyard], COORDINATES)).toEqual(['none', []]);
    expect(choose([{ ...withCourtyard, rings: [rectangle(-10, 10, -10, 10), rectangle(1, 5, -2, 2).reverse()] }], COORDINATES)).toEqual(['contains', 3, 0]);
  });

  it.each([
    ['listed first', [eastOf(-5, { BUILD_ID: 9, OUTBLDG: 'Y' }), eastOf(-3, { BUILD_ID: 1 })]],
    ['listed last', [eastOf(-3, { BUILD_ID: 1 }), eastOf(-5, { BUILD_ID: 9, OUTBLDG: 'Y' })]],
  ])('takes the main building over an outbuilding both containing the point (outbuilding %s)', (_case, buildings) => {
    expect(choose(buildings, COORDINATES)).toEqual(['contains', 1, 0]);
  });

  it('takes an outbuilding containing the point over a main building beside it', () => {
    expect(choose([eastOf(1, { BUILD_ID: 1 }), eastOf(-5, { BUILD_ID: 9, OUTBLDG: 'Y' })], COORDINATES)).toEqual(['contains', 9, 0]);
  });

  it('takes the first the layer listed of two main buildings containing the point', () => {
    expect(choose([eastOf(-5, { BUILD_ID: 4 }), eastOf(-3, { BUILD_ID: 5 })], COORDINATES)).toEqual(['contains', 4, 0]);
  });

  it.each([
    ['a building 3 m away', [eastOf(3)]],
    ['no building', []],
  ])('chooses nothing for coordinates in no footprint, with %s (they are the exact point)', (_case, buildings) => {
    expect(choose(buildings, COORDINATES)).toEqual(['none', []]);
  });
});

describe('chooseBuilding: (2) the one footprint carrying the address', () => {
  it.each([['140 1ST ST'], ['  140  1st st '], ['140 1ST ST APT 2']])('takes the building whose PROP_ADDR is %j over a nearer one', (address) => {
    expect(choose([eastOf(2, { BUILD_ID: 1, PROP_ADDR: '142 1ST ST' }), westOf(30, { BUILD_ID: 2, PROP_ADDR: address })])).toEqual(['address', 2, 30]);
  });

  it.each([['1400 1ST ST'], ['140 1ST STREET'], ['140 1ST AVE'], ['14 1ST ST'], ['-99999'], [null]])(
    'does not take PROP_ADDR %j for 140 1ST ST (the nearest is taken instead)',
    (address) => {
      expect(choose([eastOf(2, { BUILD_ID: 1 }), westOf(30, { BUILD_ID: 2, PROP_ADDR: address })])).toEqual(['nearest', 1, 2]);
    },
  );

  it.each([
    ['12A MAIN ST, BOSTON, MA, 02108', '12A MAIN ST'],
    ['123-45 67TH AVE, FLUSHING, NY, 11367', '123-45 67TH AVE'],
    ['5210 W 34TH ST, HOUSTON, TX, 77092', '5210 W 34TH ST'],
  ])('reads the house number and street of %j', (matchedAddress, address) => {
    const buildings = [eastOf(2, { BUILD_ID: 1 }), westOf(30, { BUILD_ID: 2, PROP_ADDR: address })];
    expect(choose(buildings, { ...ADDRESS, matchedAddress })).toEqual(['address', 2, 30]);
  });

  it('does not take the address beyond the search distance', () => {
    expect(choose([eastOf(2, { BUILD_ID: 1 }), westOf(41, { BUILD_ID: 2, PROP_ADDR: '140 1ST ST' })])).toEqual(['nearest', 1, 2]);
  });

  it.each([
    ['no house number', '1ST ST, MENOMINEE, MI, 49858'],
    ['no matched address', null],
  ])('skips the address step when the geocoder gave %s', (_case, matchedAddress) => {
    const buildings = [eastOf(2, { BUILD_ID: 1, PROP_ADDR: '1ST ST' }), westOf(30, { BUILD_ID: 2, PROP_ADDR: '140 1ST ST' })];
    expect(choose(buildings, { ...ADDRESS, matchedAddress })).toEqual(['nearest', 1, 2]);
  });

  it('takes no building by address when two carry it: then the nearest, when clearly nearer', () => {
    expect(choose([westOf(30, { BUILD_ID: 2, PROP_ADDR: '140 1ST ST' }), eastOf(8, { BUILD_ID: 1, PROP_ADDR: '140 1ST ST' })])).toEqual(['nearest', 1, 8]);
  });

  it('takes the main building of a house and an outbuilding that carry the address at the same distance', () => {
    const buildings = [
      eastOf(20, { BUILD_ID: 9, PROP_ADDR: '140 1ST ST', OUTBLDG: 'Y' }),
      westOf(20, { BUILD_ID: 1, PROP_ADDR: '140 1ST ST' }),
      eastOf(2, { BUILD_ID: 3 }),
    ];
    expect(choose(buildings)).toEqual(['address', 1, 20]);
  });
});

describe('chooseBuilding: (3) the clearly nearest footprint', () => {
  it.each([
    ['alone within reach', [eastOf(12.34, { BUILD_ID: 1 }), westOf(40.5, { BUILD_ID: 2 })], ['nearest', 1, 12.3]],
    ['with the next exactly 10 m farther', [eastOf(5, { BUILD_ID: 1 }), westOf(15, { BUILD_ID: 2 })], ['nearest', 1, 5]],
    [
      'beside an outbuilding as near (it is never chosen over a main building)',
      [eastOf(5, { BUILD_ID: 9, OUTBLDG: 'Y' }), westOf(5, { BUILD_ID: 1 })],
      ['nearest', 1, 5],
    ],
  ])('takes the nearest building %s', (_case, buildings, expected) => {
    expect(choose(buildings)).toEqual(expected);
  });

  it('chooses none when no building lies within the search distance', () => {
    expect(choose([eastOf(40.1), westOf(60)])).toEqual(['none', []]);
    expect(choose([])).toEqual(['none', []]);
  });

  it('lists the buildings within reach when the next is less than 10 m farther: up to five, nearest first', () => {
    const buildings = [
      eastOf(39, { BUILD_ID: 7 }),
      eastOf(5.04, { BUILD_ID: 1, PROP_ADDR: '144 1ST ST' }),
      westOf(14.96, { BUILD_ID: 2, PROP_ADDR: '-99999' }),
      building(rectangle(-5, 5, 20, 30), { BUILD_ID: '3', OUTBLDG: 'Y' }),
      building(rectangle(-5, 5, -31, -21), { BUILD_ID: 4 }),
      building(rectangle(-5, 5, 33, 43), { BUILD_ID: 5 }),
      building(rectangle(-5, 5, -70, -60), { BUILD_ID: 6 }),
    ];
    expect(choose(buildings)).toEqual([
      'ambiguous',
      [
        { buildId: '1', distanceM: 5, address: '144 1ST ST' },
        { buildId: '2', distanceM: 15, address: null },
        { buildId: '3', distanceM: 20, address: null },
        { buildId: '4', distanceM: 21, address: null },
        { buildId: '5', distanceM: 33, address: null },
      ],
    ]);
  });

  it('does not take a main building over an outbuilding 2 m nearer', () => {
    expect(choose([eastOf(3, { BUILD_ID: 9, OUTBLDG: 'Y' }), westOf(5, { BUILD_ID: 1 })])).toEqual([
      'ambiguous',
      [
        { buildId: '9', distanceM: 3, address: null },
        { buildId: '1', distanceM: 5, address: null },
      ],
    ]);
  });

  it('gives a building without BUILD_ID a null id', () => {
    expect(choose([eastOf(3, { BUILD_ID: null }), westOf(5, { BUILD_ID: -99999 })])).toEqual([
      'ambiguous',
      [
        { buildId: null, distanceM: 3, address: null },
        { buildId: null, distanceM: 5, address: null },
      ],
    ]);
  });

  it('passes over a building with no usable ring', () => {
    expect(choose([{ ...eastOf(3, { BUILD_ID: 8 }), rings: [] }, eastOf(6, { BUILD_ID: 1 })])).toEqual(['nearest', 1, 6]);
  });
});
