import CheapRuler from 'cheap-ruler';
import { nearbyHazards, nearbyHazardsAt } from './nearby-hazards';
import { FloodHazardZoneAttributes, ZonePolygonFeature } from '../../flood-hazard/flood-hazard.types';

const POINT = { lat: 29.9511, lon: -90.0715 };
const ORIGIN: [number, number] = [POINT.lon, POINT.lat];
const ruler = new CheapRuler(POINT.lat, 'meters');

function zone(overrides: Partial<FloodHazardZoneAttributes>): FloodHazardZoneAttributes {
  return {
    FLD_ZONE: 'AE',
    ZONE_SUBTY: null,
    SFHA_TF: 'T',
    STATIC_BFE: -9999,
    DEPTH: -9999,
    V_DATUM: null,
    LEN_UNIT: null,
    ...overrides,
  };
}

/** A closed ring through offsets (east, north) in metres from the point, clockwise as ArcGIS writes outer rings. */
function ring(corners: Array<[number, number]>): number[][] {
  const vertices = corners.map(([east, north]) => ruler.offset(ORIGIN, east, north));
  return [...vertices, vertices[0]];
}

/** A rectangle between east offsets [west, east] and north offsets [south, north], in metres. */
function rectangle(west: number, east: number, south: number, north: number): number[][] {
  return ring([
    [west, south],
    [west, north],
    [east, north],
    [east, south],
  ]);
}

/** A 200 m square whose nearest edge is `metres` north of the point. */
function northOf(metres: number, attributes: Partial<FloodHazardZoneAttributes>): ZonePolygonFeature {
  return { attributes: zone(attributes), rings: [rectangle(-100, 100, metres, metres + 200)] };
}

function southOf(metres: number, attributes: Partial<FloodHazardZoneAttributes>): ZonePolygonFeature {
  return { attributes: zone(attributes), rings: [rectangle(-100, 100, -metres - 200, -metres)] };
}

function around(attributes: Partial<FloodHazardZoneAttributes>): ZonePolygonFeature {
  return { attributes: zone(attributes), rings: [rectangle(-100, 100, -100, 100)] };
}

describe('nearbyHazards', () => {
  it('gives the documented example: SFHA at 37 m, floodway at 120 m, no moderate area', () => {
    const polygons = [
      northOf(37.2, { FLD_ZONE: 'AE', STATIC_BFE: 12, LEN_UNIT: 'Feet' }),
      southOf(119.8, { FLD_ZONE: 'AE', ZONE_SUBTY: 'FLOODWAY' }),
      around({ FLD_ZONE: 'X', ZONE_SUBTY: 'AREA OF MINIMAL FLOOD HAZARD', SFHA_TF: 'F' }),
    ];
    expect(nearbyHazards(POINT, 500, polygons)).toEqual({
      radiusM: 500,
      sfha: { distanceM: 37, floodZone: 'AE', zoneSubtype: null, staticBaseFloodElevationFt: 12 },
      floodway: { distanceM: 120, floodZone: 'AE', zoneSubtype: 'FLOODWAY', staticBaseFloodElevationFt: null },
      moderate: null,
    });
  });

  it('answers all null without polygons, and echoes the radius', () => {
    expect(nearbyHazards(POINT, 10, [])).toEqual({ radiusM: 10, sfha: null, floodway: null, moderate: null });
  });

  it('is 0 inside a polygon', () => {
    expect(nearbyHazards(POINT, 500, [around({ FLD_ZONE: 'VE', STATIC_BFE: 14 })]).sfha).toEqual({
      distanceM: 0,
      floodZone: 'VE',
      zoneSubtype: null,
      staticBaseFloodElevationFt: 14,
    });
  });

  it('is 0 on an edge', () => {
    const onEdge = { attributes: zone({}), rings: [rectangle(0, 200, -100, 100)] };
    expect(nearbyHazards(POINT, 500, [onEdge]).sfha?.distanceM).toBe(0);
  });

  it('measures from a point in a hole to the hole edge, whatever the ring order and orientation', () => {
    const outer = rectangle(-300, 300, -300, 300);
    const hole = rectangle(-40, 60, -45, 45).reverse();
    const holed = (rings: number[][][]) => [{ attributes: zone({}), rings }];
    expect(nearbyHazards(POINT, 500, holed([outer, hole])).sfha?.distanceM).toBe(40);
    expect(nearbyHazards(POINT, 500, holed([hole, outer])).sfha?.distanceM).toBe(40);
    expect(nearbyHazards(POINT, 500, holed([outer.slice().reverse(), hole.slice().reverse()])).sfha?.distanceM).toBe(40);
    // An island inside the hole is part of the polygon again.
    const island = rectangle(-10, 10, -10, 10);
    expect(nearbyHazards(POINT, 500, holed([outer, hole, island])).sfha?.distanceM).toBe(0);
  });

  it('measures to the nearest part of a multi-part polygon', () => {
    const parts = { attributes: zone({}), rings: [rectangle(-100, 100, 250, 450), rectangle(60.4, 200, -50, 50)] };
    expect(nearbyHazards(POINT, 500, [parts]).sfha?.distanceM).toBe(60);
    const inSecond = { attributes: zone({}), rings: [rectangle(-100, 100, 250, 450), rectangle(-5, 5, -5, 5)] };
    expect(nearbyHazards(POINT, 500, [inSecond]).sfha?.distanceM).toBe(0);
  });

  it('measures to an edge between far vertices, not to the nearest vertex', () => {
    const wide = { attributes: zone({}), rings: [rectangle(-1500, 1500, 75.3, 900)] };
    expect(nearbyHazards(POINT, 500, [wide]).sfha?.distanceM).toBe(75);
  });

  it('closes a ring that comes back open', () => {
    const open = rectangle(-100, 100, -100, 100).slice(0, 4);
    expect(nearbyHazards(POINT, 500, [{ attributes: zone({}), rings: [open] }]).sfha?.distanceM).toBe(0);
    const openFar = rectangle(-100, 100, 50, 150).slice(0, 4);
    expect(nearbyHazards(POINT, 500, [{ attributes: zone({}), rings: [openFar] }]).sfha?.distanceM).toBe(50);
  });

  it("measures on the WGS84 ellipsoid: 0.01 degrees of longitude at 45 N is 788 m, not a sphere's 786 m", () => {
    const point = { lat: 45, lon: -93 };
    const eastward: ZonePolygonFeature = {
      attributes: zone({}),
      rings: [
        [
          [-92.99, 44.99],
          [-92.99, 45.01],
          [-92.98, 45.01],
          [-92.98, 44.99],
          [-92.99, 44.99],
        ],
      ],
    };
    expect(nearbyHazards(point, 2000, [eastward]).sfha?.distanceM).toBe(788);
    // 0.015 degrees of latitude at 45 N: 1,667.0 m on WGS84 (1,667.9 m on a sphere).
    const northward: ZonePolygonFeature = {
      attributes: zone({}),
      rings: [
        [
          [-93.01, 45.015],
          [-93.01, 45.02],
          [-92.99, 45.02],
          [-92.99, 45.015],
          [-93.01, 45.015],
        ],
      ],
    };
    expect(nearbyHazards(point, 2000, [northward]).sfha?.distanceM).toBe(1667);
  });

  it('keeps polygons within the radius only', () => {
    const polygons = [northOf(499.6, {})];
    expect(nearbyHazards(POINT, 500, polygons).sfha?.distanceM).toBe(500);
    expect(nearbyHazards(POINT, 500, [northOf(500.4, {})]).sfha).toBeNull();
    expect(nearbyHazards(POINT, 10, [northOf(10, {})]).sfha?.distanceM).toBe(10);
    expect(nearbyHazards(POINT, 2000, [northOf(1999.6, {})]).sfha?.distanceM).toBe(2000);
    expect(nearbyHazards(POINT, 2000, [northOf(2000.5, {})]).sfha).toBeNull();
  });

  it('classifies by the zone table, never by SFHA_TF', () => {
    const polygons = [
      northOf(20, { FLD_ZONE: 'X', ZONE_SUBTY: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', SFHA_TF: 'T' }),
      northOf(60, { FLD_ZONE: 'A', SFHA_TF: 'F' }),
    ];
    const result = nearbyHazards(POINT, 500, polygons);
    expect(result.sfha).toEqual({ distanceM: 60, floodZone: 'A', zoneSubtype: null, staticBaseFloodElevationFt: null });
    expect(result.moderate).toEqual({
      distanceM: 20,
      floodZone: 'X',
      zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD',
      staticBaseFloodElevationFt: null,
    });
  });

  it.each([['V'], ['VE'], ['A'], ['AE'], ['AH'], ['AO'], ['AR'], ['A99'], [' ae ']])('counts zone %j as SFHA', (code) => {
    const result = nearbyHazards(POINT, 500, [northOf(30, { FLD_ZONE: code, SFHA_TF: 'F' })]);
    expect(result.sfha?.distanceM).toBe(30);
    expect(result.sfha?.floodZone).toBe(code.trim().toUpperCase());
    expect(result.moderate).toBeNull();
  });

  it.each([
    ['X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD'],
    ['X', 'AREA WITH REDUCED FLOOD RISK DUE TO LEVEE'],
    ['X', '1 PCT DEPTH LESS THAN 1 FOOT'],
    ['B', null],
  ])('counts zone %j subtype %j as moderate', (code, subtype) => {
    const result = nearbyHazards(POINT, 500, [northOf(30, { FLD_ZONE: code, ZONE_SUBTY: subtype, SFHA_TF: 'F' })]);
    expect(result).toEqual({
      radiusM: 500,
      sfha: null,
      floodway: null,
      moderate: { distanceM: 30, floodZone: code, zoneSubtype: subtype, staticBaseFloodElevationFt: null },
    });
  });

  it.each([
    ['X', 'AREA OF MINIMAL FLOOD HAZARD'],
    ['X', null],
    ['C', null],
    ['D', null],
    ['OPEN WATER', null],
    ['AREA NOT INCLUDED', null],
    ['', null],
  ])('ignores zone %j subtype %j, even when the upstream sends it with SFHA_TF T', (code, subtype) => {
    const result = nearbyHazards(POINT, 500, [northOf(30, { FLD_ZONE: code, ZONE_SUBTY: subtype, SFHA_TF: 'T' })]);
    expect(result).toEqual({ radiusM: 500, sfha: null, floodway: null, moderate: null });
  });

  it.each([
    ['AE', 'FLOODWAY'],
    ['AE', '1 PCT FUTURE CONDITIONS, FLOODWAY'],
    ['AE', 'FLOODWAY CONTAINED IN CHANNEL'],
    ['A', 'ADMINISTRATIVE FLOODWAY'],
    ['AO', 'Floodway'],
  ])('counts zone %j subtype %j as floodway (and SFHA)', (code, subtype) => {
    const result = nearbyHazards(POINT, 500, [northOf(45, { FLD_ZONE: code, ZONE_SUBTY: subtype })]);
    const hazard = { distanceM: 45, floodZone: code, zoneSubtype: subtype, staticBaseFloodElevationFt: null };
    expect(result.floodway).toEqual(hazard);
    expect(result.sfha).toEqual(hazard);
  });

  it('gives each kind its own nearest polygon', () => {
    const polygons = [
      northOf(300, { FLD_ZONE: 'AE', ZONE_SUBTY: 'FLOODWAY' }),
      southOf(80, { FLD_ZONE: 'AE', STATIC_BFE: 9, LEN_UNIT: 'Feet' }),
      northOf(150, { FLD_ZONE: 'AE', STATIC_BFE: 10, LEN_UNIT: 'Feet' }),
      southOf(20, { FLD_ZONE: 'X', ZONE_SUBTY: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD' }),
      northOf(5, { FLD_ZONE: 'B' }),
    ];
    const result = nearbyHazards(POINT, 500, polygons);
    expect(result.sfha).toMatchObject({ distanceM: 80, staticBaseFloodElevationFt: 9 });
    expect(result.floodway).toMatchObject({ distanceM: 300, zoneSubtype: 'FLOODWAY' });
    expect(result.moderate).toMatchObject({ distanceM: 5, floodZone: 'B' });
  });

  it('breaks a tie by severity: on a shared edge the floodway beats the AE fringe', () => {
    const fringe = { attributes: zone({ STATIC_BFE: 20, LEN_UNIT: 'Feet' }), rings: [rectangle(-100, 0, 50, 150)] };
    const floodway = { attributes: zone({ ZONE_SUBTY: 'FLOODWAY' }), rings: [rectangle(0, 100, 50, 150)] };
    for (const polygons of [
      [fringe, floodway],
      [floodway, fringe],
    ]) {
      expect(nearbyHazards(POINT, 500, polygons).sfha).toEqual({
        distanceM: 50,
        floodZone: 'AE',
        zoneSubtype: 'FLOODWAY',
        staticBaseFloodElevationFt: null,
      });
    }
  });

  it('breaks a tie of equal severity by the higher BFE, whatever the order', () => {
    const lower = northOf(40, { STATIC_BFE: 12, LEN_UNIT: 'Feet' });
    const higher = southOf(40, { STATIC_BFE: 4, LEN_UNIT: 'Meters' });
    for (const polygons of [
      [lower, higher],
      [higher, lower],
    ]) {
      expect(nearbyHazards(POINT, 500, polygons).sfha).toEqual({
        distanceM: 40,
        floodZone: 'AE',
        zoneSubtype: null,
        staticBaseFloodElevationFt: 13.1,
      });
    }
    const withoutBfe = northOf(40, {});
    expect(nearbyHazards(POINT, 500, [withoutBfe, lower]).sfha?.staticBaseFloodElevationFt).toBe(12);
  });

  it('prefers the nearer polygon to a more severe one that rounds to the same metre', () => {
    const polygons = [northOf(40.4, { FLD_ZONE: 'VE' }), southOf(39.6, { FLD_ZONE: 'A' })];
    expect(nearbyHazards(POINT, 500, polygons).sfha).toMatchObject({ distanceM: 40, floodZone: 'A' });
  });

  it('skips unusable geometry', () => {
    const empty = { attributes: zone({}), rings: [] };
    const broken = { attributes: zone({}), rings: [[[Number.NaN, Number.NaN]]] };
    expect(nearbyHazards(POINT, 500, [empty, broken]).sfha).toBeNull();
  });
});

describe('nearbyHazardsAt', () => {
  const found = {
    radiusM: 500,
    sfha: null,
    floodway: null,
    moderate: { distanceM: 120, floodZone: 'X', zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', staticBaseFloodElevationFt: null },
  };

  it.each([
    ['mapped', "Distances to FEMA's digital flood map; a null entry means none of that kind lies within 500 m."],
    ['mapped_no_zone', "Distances to FEMA's digital flood map; a null entry means none of that kind lies within 500 m."],
    [
      'unmapped',
      "No digital flood map here: FEMA's National Flood Hazard Layer does not cover the point, so a hazard may lie within 500 m unseen (a null entry is unknown, not none).",
    ],
  ] as const)('%s: what was found, and what a null entry means', (coverage, note) => {
    expect(nearbyHazardsAt(found, coverage)).toEqual({ ...found, note });
  });
});
