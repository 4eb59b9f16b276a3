import * as fs from 'node:fs';
import * as path from 'node:path';
import CheapRuler from 'cheap-ruler';
import { metresToRings } from '../../common/arcgis-rings';
import { BuildingSearchPoint, buildingChosenById, buildingsToPlace, chooseBuilding, interiorPoint, isOutbuilding } from './building-choice';
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

/** The street runs north-south through the point: the address is on its east side, in block EAST of tract 26109960100. */
const TRACT = '26109960100';
const EAST = `${TRACT}1000`;
const WEST = `${TRACT}2000`;

const ADDRESS: BuildingSearchPoint = {
  point: POINT,
  locationSource: 'census_geocoder',
  matchedAddress: '140 1ST ST, MENOMINEE, MI, 49858',
  addressBlock: EAST,
};
const COORDINATES: BuildingSearchPoint = { point: POINT, locationSource: 'coordinates', matchedAddress: null, addressBlock: null };

/** The block a building stands in: east or west of the street by its interior point. */
const sideOfStreet = (building: StructureFeature): string => (interiorPoint(building.rings).lon > POINT.lon ? EAST : WEST);

/** The choice in short: its match and the chosen building's BUILD_ID and distance, or its candidates' BUILD_IDs and distances. */
function choose(
  buildings: StructureFeature[],
  at: BuildingSearchPoint = ADDRESS,
  blockOf: (building: StructureFeature) => string | null = sideOfStreet,
): unknown {
  const choice = chooseBuilding(buildings, at, SEARCH_M, blockOf);
  return 'building' in choice
    ? [choice.match, choice.building.attributes.BUILD_ID, choice.distanceM]
    : [choice.match, choice.candidates.map(({ building: { attributes }, distanceM }) => [attributes.BUILD_ID, distanceM])];
}

/** A 10 m square building `north` metres north of the point's latitude (its centre), its west wall `east` metres east of the point. */
function at(east: number, north: number, attributes: Partial<StructureAttributes> = {}): StructureFeature {
  return building(rectangle(east, east + 10, north - 5, north + 5), attributes);
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

describe("chooseBuilding: (3) the nearest footprint on the address's side of the street (its census block)", () => {
  it.each([
    ['alone within reach', [at(12.34, 0, { BUILD_ID: 1 }), westOf(40.5, { BUILD_ID: 2 })], ['nearest', 1, 12.3]],
    ['over a nearer one across the street', [westOf(1, { BUILD_ID: 2 }), eastOf(15, { BUILD_ID: 1 })], ['nearest', 1, 15]],
    [
      'with the next house on its side exactly 10 m farther',
      [eastOf(5, { BUILD_ID: 1 }), at(5, 5 + Math.sqrt(200), { BUILD_ID: 2 }), westOf(6, { BUILD_ID: 3 })],
      ['nearest', 1, 5],
    ],
    ['beside its shed 3 m farther (a shed is no second house)', [eastOf(5, { BUILD_ID: 1 }), at(5, 12, { BUILD_ID: 9, OUTBLDG: 'Yes' })], ['nearest', 1, 5]],
    [
      'beside an outbuilding as near (it is never chosen over a main building)',
      [at(5, 0, { BUILD_ID: 9, OUTBLDG: 'Y' }), at(5, 0.001, { BUILD_ID: 1 })],
      ['nearest', 1, 5],
    ],
    [
      'across a tract boundary from the other (CENSUSCODE, its block never asked)',
      [westOf(1, { BUILD_ID: 2, CENSUSCODE: '26109960200' }), eastOf(20, { BUILD_ID: 1, CENSUSCODE: TRACT })],
      ['nearest', 1, 20],
    ],
  ])('takes the building %s', (_case, buildings, expected) => {
    expect(choose(buildings)).toEqual(expected);
  });

  it("lists two houses on the address's side within 10 m of each other, the one across the street too: ambiguous", () => {
    expect(choose([eastOf(5, { BUILD_ID: 1 }), westOf(2, { BUILD_ID: 3 }), at(5, 12, { BUILD_ID: 2 })])).toEqual([
      'ambiguous',
      [
        [3, 2],
        [1, 5],
        [2, 8.6],
      ],
    ]);
  });

  it('chooses none, listing them, when every building within reach stands across the street', () => {
    expect(choose([westOf(3, { BUILD_ID: 2 }), westOf(25, { BUILD_ID: 4 }), eastOf(41, { BUILD_ID: 1 })])).toEqual([
      'none',
      [
        [2, 3],
        [4, 25],
      ],
    ]);
  });

  it.each([
    ["the address's block is unknown", { ...ADDRESS, addressBlock: null }, sideOfStreet],
    ["the nearest building's block is unknown", ADDRESS, (building: StructureFeature) => (building.attributes.BUILD_ID === 1 ? null : sideOfStreet(building))],
  ])('lists the buildings when %s: the sides cannot be told', (_case, point, blockOf) => {
    expect(choose([eastOf(5, { BUILD_ID: 1 }), westOf(30, { BUILD_ID: 2 })], point, blockOf)).toEqual([
      'ambiguous',
      [
        [1, 5],
        [2, 30],
      ],
    ]);
  });

  it('chooses none when no building lies within the search distance', () => {
    expect(choose([eastOf(40.1), westOf(60)])).toEqual(['none', []]);
    expect(choose([])).toEqual(['none', []]);
  });

  it('lists at most five buildings, nearest first', () => {
    const buildings = [1, 2, 3, 4, 5, 6].map((id) => at(2, 11 * id - 30, { BUILD_ID: id }));
    expect(choose(buildings)).toEqual([
      'ambiguous',
      [
        [3, 2],
        [2, 3.6],
        [4, 9.2],
        [1, 14.1],
        [5, 20.1],
      ],
    ]);
  });

  it('passes over a building with no usable ring', () => {
    expect(choose([{ ...eastOf(3, { BUILD_ID: 8 }), rings: [] }, eastOf(6, { BUILD_ID: 1 })])).toEqual(['nearest', 1, 6]);
  });
});

describe('buildingsToPlace: the buildings whose census block the choice needs', () => {
  const ids = (buildings: StructureFeature[]) => buildings.map((found) => found.attributes.BUILD_ID);

  it('names every building within reach its tract does not already place, nearest first', () => {
    const buildings = [
      westOf(30, { BUILD_ID: 2 }),
      eastOf(3, { BUILD_ID: 1, CENSUSCODE: TRACT }),
      westOf(2, { BUILD_ID: 3, CENSUSCODE: '26109960200' }),
      eastOf(41, { BUILD_ID: 4 }),
    ];
    expect(ids(buildingsToPlace(buildings, ADDRESS, SEARCH_M))).toEqual([1, 2]);
  });

  it.each([
    ['a footprint contains the point', [eastOf(-3, { BUILD_ID: 1 }), westOf(5, { BUILD_ID: 2 })], ADDRESS],
    ['one building carries the address', [eastOf(3, { BUILD_ID: 1, PROP_ADDR: '140 1ST ST' }), westOf(5, { BUILD_ID: 2 })], ADDRESS],
    ["the address's block is unknown", [eastOf(3, { BUILD_ID: 1 })], { ...ADDRESS, addressBlock: null }],
    ['the point is coordinates', [eastOf(3, { BUILD_ID: 1 })], COORDINATES],
  ])('names none when %s', (_case, buildings, point) => {
    expect(buildingsToPlace(buildings, point, SEARCH_M)).toEqual([]);
  });
});

describe('isOutbuilding: OUTBLDG in every spelling the data uses', () => {
  it.each([['Y'], ['y'], ['Yes'], ['YES'], ['1'], ['T'], ['true'], ['TRUE'], [' Y '], [true], [1]])('%j is an outbuilding', (value) => {
    expect(isOutbuilding(value)).toBe(true);
  });

  it.each([[null], [undefined], [''], [' '], ['N'], ['No'], ['0'], ['F'], ['false'], [false], [0], ['-99999'], ['<Null>']])(
    '%j is a main building',
    (value) => {
      expect(isOutbuilding(value)).toBe(false);
    },
  );
});

describe('interiorPoint: a point inside the footprint', () => {
  it('lies inside an L-shaped footprint whose centre is outside it', () => {
    const lShape = building(rectangle(0, 20, 0, 20), {});
    lShape.rings = [
      [
        ruler.offset([POINT.lon, POINT.lat], 0, 0),
        ruler.offset([POINT.lon, POINT.lat], 0, 20),
        ruler.offset([POINT.lon, POINT.lat], 4, 20),
        ruler.offset([POINT.lon, POINT.lat], 4, 4),
        ruler.offset([POINT.lon, POINT.lat], 20, 4),
        ruler.offset([POINT.lon, POINT.lat], 20, 0),
        ruler.offset([POINT.lon, POINT.lat], 0, 0),
      ],
    ];
    const inside = interiorPoint(lShape.rings);
    expect(choose([{ ...lShape, attributes: { ...lShape.attributes, BUILD_ID: 5 } }], { ...COORDINATES, point: inside })).toEqual(['contains', 5, 0]);
  });

  it('is the middle of a rectangle', () => {
    const [lon, lat] = ruler.offset([POINT.lon, POINT.lat], 15, 0);
    const middle = interiorPoint(eastOf(10).rings);
    expect([middle.lon, middle.lat]).toEqual([expect.closeTo(lon, 9), expect.closeTo(lat, 9)]);
  });
});

describe('buildingChosenById: the building the caller chose', () => {
  const buildings = [eastOf(3, { BUILD_ID: 17235205 }), westOf(12.34, { BUILD_ID: 17235206 })];

  it('takes the building with that BUILD_ID, wherever it stands within reach', () => {
    const choice = buildingChosenById(buildings, POINT, '17235206');
    expect(choice && 'building' in choice ? [choice.match, choice.building.attributes.BUILD_ID, choice.distanceM] : choice).toEqual(['chosen', 17235206, 12.3]);
  });

  it.each([['17235207'], ['017235205'], ['']])('finds no building %j', (buildId) => {
    expect(buildingChosenById(buildings, POINT, buildId)).toBeNull();
  });
});

describe('chooseBuilding on real recorded footprints (USA Structures, east Midtown Atlanta, PROP_ADDR null on every one)', () => {
  /** The recorded answer (test/emulators/fixtures/structures/), its Web Mercator rings in lon/lat. */
  const recorded = (
    JSON.parse(fs.readFileSync(path.join(__dirname, '../../../test/emulators/fixtures/structures/usa-structures-query-atlanta-2024.json'), 'utf8')) as {
      features: Array<{ attributes: Record<string, unknown>; geometry: { rings: number[][][] } }>;
    }
  ).features.map(({ attributes, geometry }): StructureFeature => ({
    attributes: attributes as unknown as StructureAttributes,
    rings: geometry.rings.map((ring) =>
      ring.map(([x, y]) => [(x / 6378137) * (180 / Math.PI), (2 * Math.atan(Math.exp(y / 6378137)) - Math.PI / 2) * (180 / Math.PI)]),
    ),
  }));
  const byId = (buildId: number) => recorded.find((found) => found.attributes.BUILD_ID === buildId) as StructureFeature;
  // Two houses 61 m apart, centre to centre, in tracts 13121001301 and 13121001302 (their CENSUSCODEs as recorded):
  // the tract line between them runs along the street that parts them.
  const west = byId(17241963);
  const east = byId(17241706);

  /** A point on the line between the two houses' interiors, `share` of the way from the west one (the street's centre line lies between). */
  function between(share: number): GeoPointLike {
    const [a, b] = [interiorPoint(west.rings), interiorPoint(east.rings)];
    return { lat: a.lat + share * (b.lat - a.lat), lon: a.lon + share * (b.lon - a.lon) };
  }
  type GeoPointLike = { lat: number; lon: number };
  const metresTo = (point: GeoPointLike, found: StructureFeature) => metresToRings(new CheapRuler(point.lat, 'meters'), point, found.rings);

  it.each([
    // Blind to the sides, the two east houses as near each other leave it ambiguous.
    ['the west house, its point nearer the east one: the west house', 0.62, 'west', ['nearest', 17241963], ['ambiguous']],
    // 17241870, 14.9 m from the east house, stands in its tract too: two houses as near, neither is taken. Blind to the
    // sides, the west house across the street would have been taken.
    ['the east house, its point nearer the west one: none, its neighbour as near', 0.38, 'east', ['ambiguous'], ['nearest', 17241963]],
  ] as const)('an address of %s; never the house across the street', (_case, share, side, expected, blindly) => {
    const point = between(share);
    const own = side === 'west' ? west : east;
    const across = side === 'west' ? east : west;
    // As the geocoder places it: on the street, nearer the house across it, both within reach.
    expect(metresTo(point, across)).toBeLessThan(metresTo(point, own));
    expect(metresTo(point, own)).toBeLessThanOrEqual(SEARCH_M);
    const tract = String(own.attributes.CENSUSCODE);
    const at: BuildingSearchPoint = {
      point,
      locationSource: 'census_geocoder',
      matchedAddress: '1 MYRTLE ST NE, ATLANTA, GA, 30308',
      addressBlock: `${tract}1000`,
    };
    // Only the houses of the address's tract need their block asked; here they stand in the address's block.
    const toPlace = buildingsToPlace(recorded, at, SEARCH_M);
    expect(toPlace.map((found) => found.attributes.CENSUSCODE)).toEqual(toPlace.map(() => tract));
    const choice = chooseBuilding(recorded, at, SEARCH_M, (found) => (toPlace.includes(found) ? at.addressBlock : undefined));
    expect('building' in choice ? [choice.match, choice.building.attributes.BUILD_ID] : [choice.match]).toEqual(expected);
    // Without the blocks and tracts (the nearest rule alone).
    const withoutTracts = recorded.map((found) => ({ ...found, attributes: { ...found.attributes, CENSUSCODE: null } }));
    const blind = chooseBuilding(withoutTracts, at, SEARCH_M, () => at.addressBlock);
    expect('building' in blind ? [blind.match, blind.building.attributes.BUILD_ID] : [blind.match]).toEqual(blindly);
  });
});
