import CheapRuler from 'cheap-ruler';
import { footprintOfRings } from './footprint-zones';
import { BuildingSearch, StructureBuilding, structureAnswer } from './structure-answer';
import type { FootprintFloodZones, StructureAttributes, StructureFeature, StructureZone } from './structure.types';

const ruler = new CheapRuler(45.1, 'meters');
const CENTRE: [number, number] = [-87.5874, 45.1];

/** A 20 m by 10 m house (200 m², 2,153 sq ft) around the centre, clockwise as ArcGIS writes it. */
const HOUSE_RING = [
  [-10, -5],
  [-10, 5],
  [10, 5],
  [10, -5],
  [-10, -5],
].map(([east, north]) => ruler.offset(CENTRE, east, north));

function house(attributes: Partial<StructureAttributes> = {}): StructureFeature {
  return {
    attributes: {
      BUILD_ID: 26010001,
      OCC_CLS: 'Residential',
      PRIM_OCC: 'Single Family Dwelling',
      PROP_ADDR: '140 1ST ST',
      PROP_CITY: 'MENOMINEE',
      PROP_ZIP: '49858',
      SQMETERS: 187.5,
      HEIGHT: 7.400000095367432,
      IMAGE_DATE: Date.UTC(2019, 2, 2),
      SOURCE: 'NGA',
      OUTBLDG: null,
      ...attributes,
    },
    rings: [HOUSE_RING],
  };
}

const SEARCH: BuildingSearch = { locationSource: 'census_geocoder', searchM: 40 };

function entry(floodZone: string, sharePercent: number, overrides: Partial<StructureZone> = {}): StructureZone {
  const sfha = floodZone.startsWith('A') || floodZone.startsWith('V');
  return {
    floodZone,
    zoneSubtype: null,
    inSpecialFloodHazardArea: sfha,
    staticBaseFloodElevationFt: null,
    areaSqFt: Math.round(2153 * (sharePercent / 100)),
    sharePercent,
    ...overrides,
  };
}

function zonesOf(
  zones: StructureZone[],
  unmappedSharePercent: number,
  buildingInSfha: boolean | null,
  highestBfeFt: number | null = null,
): FootprintFloodZones {
  return { zones, unmappedSharePercent, buildingInSfha, highestBfeFt, firmPanels: ['26109C0457E'], governingPanel: null };
}

const STRADDLING = zonesOf(
  [entry('AE', 19, { staticBaseFloodElevationFt: 11, areaSqFt: 409 }), entry('X', 81, { zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', areaSqFt: 1744 })],
  0,
  true,
  11,
);

describe('structureAnswer: a building chosen among USA Structures footprints', () => {
  it('answers for the building and its whole footprint', () => {
    expect(structureAnswer({ match: 'contains', building: house(), distanceM: 0 }, STRADDLING, SEARCH)).toEqual({
      match: 'contains',
      distanceM: 0,
      buildId: '26010001',
      occupancy: 'Residential',
      primaryOccupancy: 'Single Family Dwelling',
      footprintAreaSqFt: 2153,
      heightM: 7.4,
      imageDate: '2019-03-02',
      zones: STRADDLING.zones,
      unmappedSharePercent: 0,
      buildingInSfha: true,
      highestBfeFt: 11,
      firmPanels: ['26109C0457E'],
      candidates: [],
      source: 'FEMA/ORNL USA Structures (CC BY 4.0)',
      note: "19% of the building's footprint lies in zone AE: a building any part of which is in the SFHA is in the SFHA.",
      footprint: footprintOfRings([HOUSE_RING]),
    });
  });

  it.each([
    ['address', 23.4],
    ['nearest', 12.3],
    ['chosen', 31.7],
  ] as const)('gives the distance of a building chosen as %s', (match, distanceM) => {
    expect(structureAnswer({ match, building: house(), distanceM }, STRADDLING, SEARCH)).toMatchObject({ match, distanceM, buildId: '26010001' });
  });

  it.each([
    ['no data (-99999)', { HEIGHT: -99999, IMAGE_DATE: -99999, OCC_CLS: '-99999', PRIM_OCC: '-99999', BUILD_ID: '-99999' }],
    ['nothing', { HEIGHT: null, IMAGE_DATE: null, OCC_CLS: null, PRIM_OCC: ' ', BUILD_ID: null }],
  ])('gives null for fields the layer has %s in', (_case, attributes) => {
    expect(structureAnswer({ match: 'contains', building: house(attributes), distanceM: 0 }, STRADDLING, SEARCH)).toMatchObject({
      buildId: null,
      occupancy: null,
      primaryOccupancy: null,
      heightM: null,
      imageDate: null,
      footprintAreaSqFt: 2153,
    });
  });

  it('gives the image date in UTC (an evening image in the Americas is still that day)', () => {
    const answer = structureAnswer({ match: 'contains', building: house({ IMAGE_DATE: Date.UTC(2018, 10, 20, 23, 30) }), distanceM: 0 }, STRADDLING, SEARCH);
    expect(answer.imageDate).toBe('2018-11-20');
  });

  it('gives the zone fields as null, and says the building is unknown, when the zones could not be read', () => {
    expect(structureAnswer({ match: 'contains', building: house(), distanceM: 0 }, null, SEARCH)).toMatchObject({
      buildId: '26010001',
      footprintAreaSqFt: 2153,
      zones: null,
      unmappedSharePercent: null,
      buildingInSfha: null,
      highestBfeFt: null,
      firmPanels: null,
      note: "The flood zones over the building's footprint could not be read from FEMA's flood map this time, so whether the building is in the SFHA is unknown.",
    });
  });
});

describe('structureAnswer: what the zones mean for the building (note)', () => {
  it.each([
    [
      'in the SFHA, zones of two codes',
      zonesOf([entry('VE', 5.5), entry('AE', 20), entry('AE', 4, { staticBaseFloodElevationFt: 9 }), entry('X', 70.5)], 0, true),
      "29.5% of the building's footprint lies in zones VE and AE: a building any part of which is in the SFHA is in the SFHA.",
    ],
    [
      'in the SFHA by a sliver too small to show',
      zonesOf([entry('A', 0), entry('X', 100)], 0, true),
      "Less than 0.1% of the building's footprint lies in zone A: a building any part of which is in the SFHA is in the SFHA.",
    ],
    [
      'wholly in the SFHA',
      zonesOf([entry('AE', 100)], 0, true),
      "100% of the building's footprint lies in zone AE: a building any part of which is in the SFHA is in the SFHA.",
    ],
    ['outside the SFHA', zonesOf([entry('X', 60), entry('D', 40)], 0, false), "The building's footprint lies wholly outside the SFHA, in zones X and D."],
    [
      'outside the SFHA, in shaded and unshaded X',
      zonesOf([entry('X', 60, { zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD' }), entry('X', 40)], 0, false),
      "The building's footprint lies wholly outside the SFHA, in zone X.",
    ],
    [
      'partly off the map, the rest outside the SFHA',
      zonesOf([entry('X', 59.6)], 40.4, null),
      "40.4% of the building's footprint is off FEMA's digital flood map or in an area it does not include and the rest lies outside the SFHA, so whether the building is in the SFHA is unknown.",
    ],
    [
      'off the map but for a sliver outside the SFHA (its share rounds to 0.0): never "100%" and "the rest"',
      zonesOf([entry('X', 0)], 100, null),
      "All but less than 0.1% of the building's footprint is off FEMA's digital flood map or in an area it does not include, and that little lies outside the SFHA, so whether the building is in the SFHA is unknown.",
    ],
    [
      'wholly off the map',
      zonesOf([], 100, null),
      "No part of the building's footprint lies in a flood zone of FEMA's digital flood map (it is off the map or in an area the map does not include), so whether the building is in the SFHA is unknown.",
    ],
  ])('%s', (_case, zones, note) => {
    expect(structureAnswer({ match: 'contains', building: house(), distanceM: 0 }, zones, SEARCH).note).toBe(note);
  });
});

describe('structureAnswer: a footprint given by the caller', () => {
  const given: StructureBuilding = { match: 'given', footprint: footprintOfRings([HOUSE_RING]) };

  it('answers for the footprint, with no building fields but its area', () => {
    expect(structureAnswer(given, STRADDLING, { locationSource: 'coordinates', searchM: 40 })).toEqual({
      match: 'given',
      distanceM: 0,
      buildId: null,
      occupancy: null,
      primaryOccupancy: null,
      footprintAreaSqFt: 2153,
      heightM: null,
      imageDate: null,
      zones: STRADDLING.zones,
      unmappedSharePercent: 0,
      buildingInSfha: true,
      highestBfeFt: 11,
      firmPanels: ['26109C0457E'],
      candidates: [],
      source: 'Footprint given by the caller',
      note: '19% of the given footprint lies in zone AE: a building any part of which is in the SFHA is in the SFHA.',
      footprint: footprintOfRings([HOUSE_RING]),
    });
  });

  it.each([
    ['outside the SFHA', zonesOf([entry('X', 100)], 0, false), 'The given footprint lies wholly outside the SFHA, in zone X.'],
    [
      'zones not read',
      null,
      "The flood zones over the given footprint could not be read from FEMA's flood map this time, so whether the building is in the SFHA is unknown.",
    ],
  ])('says what the zones mean for it: %s', (_case, zones, note) => {
    expect(structureAnswer(given, zones, SEARCH).note).toBe(note);
  });
});

describe('structureAnswer: no building chosen', () => {
  const candidates = [
    { buildId: '1', distanceM: 5, address: '144 1ST ST', buildingInSfha: true },
    { buildId: '2', distanceM: 9.2, address: null, buildingInSfha: null },
  ];

  it.each([
    [
      'coordinates in no footprint',
      { match: 'none', candidates: [] },
      { locationSource: 'coordinates', searchM: 40 },
      'No building was chosen: no building footprint contains the given coordinates (taken as the exact point), so the answer is for the point alone.',
    ],
    [
      'an address with no building within reach',
      { match: 'none', candidates: [] },
      { locationSource: 'census_geocoder', searchM: 25 },
      "No building was chosen: no building footprint lies within 25 m of the address's point, so the answer is for the point alone.",
    ],
    [
      'an address with several buildings near',
      { match: 'ambiguous', candidates },
      { locationSource: 'census_geocoder', searchM: 40 },
      "No building was chosen: several building footprints lie within 40 m of the address's point, none of them alone carries the address, and which stands on the address's side of the street cannot be told, or two houses there lie within 10 m of each other; so the answer is for the point alone and the nearest buildings are listed (choose one with buildId).",
    ],
    [
      'an address with every building near across the street',
      { match: 'none', candidates },
      { locationSource: 'census_geocoder', searchM: 40 },
      "No building was chosen: every building footprint within 40 m of the address's point stands across the street from the address (outside its census block), so the answer is for the point alone and those buildings are listed (choose one with buildId).",
    ],
  ] as Array<[string, StructureBuilding, BuildingSearch, string]>)('%s: every building and zone field null, and why', (_case, building, search, note) => {
    expect(structureAnswer(building, STRADDLING, search)).toEqual({
      match: building.match,
      distanceM: null,
      buildId: null,
      occupancy: null,
      primaryOccupancy: null,
      footprintAreaSqFt: null,
      heightM: null,
      imageDate: null,
      zones: null,
      unmappedSharePercent: null,
      buildingInSfha: null,
      highestBfeFt: null,
      firmPanels: null,
      candidates: 'candidates' in building ? building.candidates : [],
      source: 'FEMA/ORNL USA Structures (CC BY 4.0)',
      note,
      footprint: null,
    });
  });
});
