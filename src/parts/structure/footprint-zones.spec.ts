import { area as sphericalArea } from '@turf/area';
import CheapRuler from 'cheap-ruler';
import { BrokenPolygonError, footprintAreaSquareMetres, footprintFloodZones, footprintOfRings } from './footprint-zones';
import type { FirmPanelAttributes, FloodHazardZoneAttributes, ZonePolygonFeature } from '../../flood-hazard/flood-hazard.types';
import type { FirmPanelPolygonFeature, Footprint, LonLat } from './structure.types';

/** Menominee, MI: the footprints below are offsets in metres from here. */
const CENTRE: LonLat = [-87.5874, 45.1];
const ruler = new CheapRuler(CENTRE[1], 'meters');

/** A closed ring through offsets (east, north) in metres from the centre, in the order given. */
function ring(corners: Array<[number, number]>): number[][] {
  const vertices = corners.map(([east, north]) => ruler.offset(CENTRE, east, north));
  return [...vertices, vertices[0]];
}

/** A rectangle between east offsets [west, east] and north offsets [south, north] (metres), clockwise as ArcGIS writes an outer ring. */
function outer(west: number, east: number, south: number, north: number): number[][] {
  return ring([
    [west, south],
    [west, north],
    [east, north],
    [east, south],
  ]);
}

/** The same rectangle counter-clockwise, as ArcGIS writes a hole. */
function hole(west: number, east: number, south: number, north: number): number[][] {
  return outer(west, east, south, north).reverse();
}

/** The house of most cases: 20 m east-west by 10 m north-south around the centre (200 m²). */
const HOUSE: Footprint = footprintOfRings([outer(-10, 10, -5, 5)]);

const SQFT = 10.7639104;

function zone(overrides: Partial<FloodHazardZoneAttributes>): FloodHazardZoneAttributes {
  return { FLD_ZONE: 'X', ZONE_SUBTY: null, SFHA_TF: 'F', STATIC_BFE: -9999, DEPTH: -9999, V_DATUM: null, LEN_UNIT: null, ...overrides };
}

const AE = (bfe: number): Partial<FloodHazardZoneAttributes> => ({ FLD_ZONE: 'AE', SFHA_TF: 'T', STATIC_BFE: bfe, LEN_UNIT: 'Feet' });
const X_SHADED = { FLD_ZONE: 'X', ZONE_SUBTY: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD' };
const X_UNSHADED = { FLD_ZONE: 'X', ZONE_SUBTY: 'AREA OF MINIMAL FLOOD HAZARD' };

/** A zone polygon: the rectangle between the offsets (metres), with optional further rings. */
function zoneOver(
  attributes: Partial<FloodHazardZoneAttributes>,
  west: number,
  east: number,
  south: number,
  north: number,
  ...rings: number[][][]
): ZonePolygonFeature {
  return { attributes: zone(attributes), rings: [outer(west, east, south, north), ...rings] };
}

function panelOver(firmPan: string, west: number, east: number, south = -50, north = 50): FirmPanelPolygonFeature {
  const attributes: FirmPanelAttributes = {
    FIRM_PAN: firmPan,
    PANEL: firmPan.slice(6, 10),
    SUFFIX: firmPan.slice(-1),
    EFF_DATE: Date.UTC(2011, 8, 2),
    PANEL_TYP: 'Countywide, Panel Printed',
  };
  return { attributes, rings: [outer(west, east, south, north)] };
}

const NO_PANELS: FirmPanelPolygonFeature[] = [];

describe('footprintOfRings: ArcGIS rings as a GeoJSON footprint', () => {
  it('turns one clockwise ring into a Polygon wound counter-clockwise, as GeoJSON winds an outer ring', () => {
    const rings = [outer(-10, 10, -5, 5)];
    expect(footprintOfRings(rings)).toEqual({ type: 'Polygon', coordinates: [rings[0].slice().reverse()] });
  });

  it('closes a ring its writer left open', () => {
    const closed = outer(-10, 10, -5, 5);
    expect(footprintOfRings([closed.slice(0, -1)])).toEqual({ type: 'Polygon', coordinates: [closed.slice().reverse()] });
  });

  it.each([
    ['a ring of two vertices', [outer(-10, 10, -5, 5).slice(0, 2)]],
    [
      'a ring with no area',
      [
        ring([
          [0, 0],
          [5, 0],
          [10, 0],
        ]),
      ],
    ],
    ['no ring at all', []],
  ])('drops %s', (_case, rings) => {
    expect(footprintOfRings(rings)).toEqual({ type: 'MultiPolygon', coordinates: [] });
  });

  it('puts a counter-clockwise ring under the outer ring it lies in, as a hole wound clockwise', () => {
    const rings = [outer(-10, 10, -5, 5), hole(-2, 2, -2, 2)];
    expect(footprintOfRings(rings)).toEqual({ type: 'Polygon', coordinates: [rings[0].slice().reverse(), rings[1].slice().reverse()] });
  });

  it('makes several outer rings a MultiPolygon, each hole under the outer ring that contains it', () => {
    const west = outer(-30, -10, -5, 5);
    const east = outer(10, 30, -5, 5);
    const eastHole = hole(15, 20, -2, 2);
    const westHole = hole(-25, -20, -2, 2);
    expect(footprintOfRings([west, east, eastHole, westHole])).toEqual({
      type: 'MultiPolygon',
      coordinates: [
        [west.slice().reverse(), westHole.slice().reverse()],
        [east.slice().reverse(), eastHole.slice().reverse()],
      ],
    });
  });

  it('puts a hole under the smallest outer ring around it: an island in a lake on an island', () => {
    const island = outer(-50, 50, -50, 50);
    const lake = hole(-30, 30, -30, 30);
    const islet = outer(-10, 10, -10, 10);
    const pond = hole(-2, 2, -2, 2);
    expect(footprintOfRings([island, lake, islet, pond])).toEqual({
      type: 'MultiPolygon',
      coordinates: [
        [island.slice().reverse(), lake.slice().reverse()],
        [islet.slice().reverse(), pond.slice().reverse()],
      ],
    });
  });

  it('keeps a counter-clockwise ring that no outer ring contains as an outer ring (a writer that winds the other way)', () => {
    const rings = [outer(-30, -10, -5, 5), hole(10, 30, -5, 5)];
    expect(footprintOfRings(rings)).toEqual({ type: 'MultiPolygon', coordinates: [[rings[0].slice().reverse()], [rings[1]]] });
  });
});

/**
 * An independent ellipsoidal area: WGS84's cylindrical equal-area projection (Snyder, Map Projections: A Working
 * Manual, eq. 3-12 and 10-15), x = a·λ, y = a·q(φ)/2, in which plane areas are the ellipsoid's.
 */
function equalAreaSquareMetres(rings: number[][][]): number {
  const a = 6378137;
  const f = 1 / 298.257223563;
  const e = Math.sqrt(f * (2 - f));
  const q = (lat: number): number => {
    const s = Math.sin((lat * Math.PI) / 180);
    return (1 - e * e) * (s / (1 - e * e * s * s) - (1 / (2 * e)) * Math.log((1 - e * s) / (1 + e * s)));
  };
  const planar = (r: number[][]): number => {
    const xy = r.map(([lon, lat]) => [(a * lon * Math.PI) / 180, (a * q(lat)) / 2]);
    let sum = 0;
    for (let i = 1; i < xy.length; i++) sum += xy[i - 1][0] * xy[i][1] - xy[i][0] * xy[i - 1][1];
    return Math.abs(sum) / 2;
  };
  const [first, ...holes] = rings;
  return planar(first) - holes.reduce((total, r) => total + planar(r), 0);
}

/** A polygon given in degrees (not through cheap-ruler): an L-shaped house 30 m by 24 m at latitude `lat`, with a courtyard. */
function lShapeAt(lat: number): number[][][] {
  const lon = -90.1;
  const d = 0.0001;
  return [
    [
      [lon, lat],
      [lon, lat + 2 * d],
      [lon + d, lat + 2 * d],
      [lon + d, lat + d],
      [lon + 3 * d, lat + d],
      [lon + 3 * d, lat],
      [lon, lat],
    ],
    [
      [lon + 0.2 * d, lat + 0.2 * d],
      [lon + 0.6 * d, lat + 0.2 * d],
      [lon + 0.6 * d, lat + 0.6 * d],
      [lon + 0.2 * d, lat + 0.6 * d],
      [lon + 0.2 * d, lat + 0.2 * d],
    ],
  ];
}

describe('footprintAreaSquareMetres: ground area on the WGS84 ellipsoid', () => {
  it.each([
    ['a 20 m by 10 m rectangle', [outer(-10, 10, -5, 5)], 200],
    ['the same with a 4 m by 4 m courtyard', [outer(-10, 10, -5, 5), hole(-2, 2, -2, 2)], 184],
    ['two 20 m by 10 m wings (a MultiPolygon)', [outer(-30, -10, -5, 5), outer(10, 30, -5, 5)], 400],
  ])('%s: %d m²', (_case, rings, squareMetres) => {
    expect(footprintAreaSquareMetres(footprintOfRings(rings))).toBeCloseTo(squareMetres, 6);
  });

  it('measures a hole alike however its writer wound it', () => {
    const clockwiseHole: Footprint = { type: 'Polygon', coordinates: footprintOfRings([outer(-10, 10, -5, 5), hole(-2, 2, -2, 2)]).coordinates as LonLat[][] };
    const sameWinding: Footprint = {
      type: 'Polygon',
      coordinates: [clockwiseHole.coordinates[0], clockwiseHole.coordinates[1].slice().reverse()] as LonLat[][],
    };
    expect(footprintAreaSquareMetres(sameWinding)).toBeCloseTo(184, 6);
  });

  it.each([18, 25.8, 30.3, 40.7, 47.6, 61.2, 71.3])('agrees with an equal-area projection of the ellipsoid within 0.05%% at latitude %d', (lat) => {
    const rings = lShapeAt(lat);
    const ellipsoidal = equalAreaSquareMetres(rings);
    const measured = footprintAreaSquareMetres(footprintOfRings(rings));
    expect(Math.abs(measured - ellipsoidal) / ellipsoidal).toBeLessThan(0.0005);
  });

  it('is not the spherical area, which is off by more than 0.1% at 40.7° N', () => {
    const footprint = footprintOfRings(lShapeAt(40.7));
    const ellipsoidal = equalAreaSquareMetres(lShapeAt(40.7));
    expect(Math.abs(sphericalArea(footprint) - ellipsoidal) / ellipsoidal).toBeGreaterThan(0.001);
  });
});

describe('footprintFloodZones: the zones over the whole footprint', () => {
  it('splits a house across an AE edge into its AE and X shares (SFHA first), and the building is in the SFHA', () => {
    const zones = [zoneOver(X_SHADED, -100, 3, -100, 100), zoneOver(AE(11), 3, 100, -100, 100)];
    expect(footprintFloodZones(HOUSE, { zones, panels: NO_PANELS })).toEqual({
      zones: [
        { floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 11, areaSqFt: 753, sharePercent: 35 },
        {
          floodZone: 'X',
          zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD',
          inSpecialFloodHazardArea: false,
          staticBaseFloodElevationFt: null,
          areaSqFt: 1399,
          sharePercent: 65,
        },
      ],
      unmappedSharePercent: 0,
      buildingInSfha: true,
      highestBfeFt: 11,
      firmPanels: [],
      governingPanel: null,
    });
  });

  it.each([
    ['the X polygon first', [zoneOver(X_SHADED, -100, 100, -100, 100), zoneOver(AE(11), 3, 50, -50, 50)]],
    ['the AE polygon first', [zoneOver(AE(11), 3, 50, -50, 50), zoneOver(X_SHADED, -100, 100, -100, 100)]],
  ])('gives an AE polygon lying inside an X polygon its own share, not both (%s)', (_order, zones) => {
    const { zones: entries, unmappedSharePercent } = footprintFloodZones(HOUSE, { zones, panels: NO_PANELS });
    expect(entries.map((entry) => [entry.floodZone, entry.areaSqFt, entry.sharePercent])).toEqual([
      ['AE', 753, 35],
      ['X', 1399, 65],
    ]);
    expect(unmappedSharePercent).toBe(0);
  });

  it.each([
    [
      'a floodway over an AE polygon: the floodway takes its part',
      [zoneOver(AE(11), -100, 100, -100, 100), zoneOver({ ...AE(11), ZONE_SUBTY: 'FLOODWAY' }, 5, 100, -100, 100)],
      [
        ['AE', null, 75],
        ['AE', 'FLOODWAY', 25],
      ],
    ],
    [
      'VE over AE',
      [zoneOver(AE(9), -100, 100, -100, 100), zoneOver({ FLD_ZONE: 'VE', STATIC_BFE: 12 }, -100, -6, -100, 100)],
      [
        ['AE', null, 80],
        ['VE', null, 20],
      ],
    ],
    [
      'two AE polygons overlapping: the higher BFE takes the overlap',
      [zoneOver(AE(9), -100, 2, -100, 100), zoneOver(AE(10), -2, 100, -100, 100)],
      [
        ['AE', null, 60],
        ['AE', null, 40],
      ],
    ],
  ])('%s', (_case, zones, expected) => {
    const result = footprintFloodZones(HOUSE, { zones, panels: NO_PANELS });
    expect(result.zones.map((entry) => [entry.floodZone, entry.zoneSubtype, entry.sharePercent])).toEqual(expected);
    expect(result.unmappedSharePercent).toBe(0);
  });

  it('sums the polygons of one zone, subtype and BFE into one entry, and keeps other BFEs apart; the highest BFE is named', () => {
    const zones = [
      zoneOver(AE(9), -10, -6, -100, 100),
      zoneOver(AE(9), -6, -2, -100, 100),
      zoneOver(AE(10), -2, 0, -100, 100),
      zoneOver(X_SHADED, 0, 6, -100, 100),
      zoneOver(X_SHADED, 6, 10, -100, 100),
    ];
    const result = footprintFloodZones(HOUSE, { zones, panels: NO_PANELS });
    expect(result.zones.map((entry) => [entry.floodZone, entry.staticBaseFloodElevationFt, entry.areaSqFt, entry.sharePercent])).toEqual([
      ['AE', 9, 861, 40],
      ['AE', 10, 215, 10],
      ['X', null, 1076, 50],
    ]);
    expect(result.highestBfeFt).toBe(10);
  });

  it.each([
    [
      'an SFHA entry first',
      [
        ['A', 10],
        ['X', 90],
      ],
      [zoneOver({ FLD_ZONE: 'X' }, -100, 8, -100, 100), zoneOver({ FLD_ZONE: 'A' }, 8, 100, -100, 100)],
    ],
    [
      'the largest share first',
      [
        ['X', 60],
        ['D', 40],
      ],
      [zoneOver({ FLD_ZONE: 'D' }, -100, -2, -100, 100), zoneOver(X_UNSHADED, -2, 100, -100, 100)],
    ],
  ])('puts %s', (_case, expected, zones) => {
    expect(footprintFloodZones(HOUSE, { zones, panels: NO_PANELS }).zones.map((entry) => [entry.floodZone, entry.sharePercent])).toEqual(expected);
  });

  it.each([
    // Thirds each round to 33.3: the unrounded areas leave nothing unmapped, so the building is known to be outside the SFHA.
    [
      'three zones a third each',
      [zoneOver(X_SHADED, -100, -10 / 3, -100, 100), zoneOver(X_UNSHADED, -10 / 3, 10 / 3, -100, 100), zoneOver({ FLD_ZONE: 'D' }, 10 / 3, 100, -100, 100)],
      { shares: [33.3, 33.3, 33.3], unmapped: 0, inSfha: false },
    ],
    ['wholly in zone X', [zoneOver(X_UNSHADED, -100, 100, -100, 100)], { shares: [100], unmapped: 0, inSfha: false }],
    ['X, the rest off the map', [zoneOver(X_UNSHADED, -100, 2, -100, 100)], { shares: [60], unmapped: 40, inSfha: null }],
    [
      'X, the rest AREA NOT INCLUDED',
      [zoneOver(X_UNSHADED, -100, 2, -100, 100), zoneOver({ FLD_ZONE: 'AREA NOT INCLUDED' }, 2, 100, -100, 100)],
      { shares: [60], unmapped: 40, inSfha: null },
    ],
    [
      'X, the rest OPEN WATER',
      [zoneOver(X_UNSHADED, -100, 9, -100, 100), zoneOver({ FLD_ZONE: 'OPEN WATER' }, 9, 100, -100, 100)],
      { shares: [95], unmapped: 5, inSfha: null },
    ],
    [
      'only OPEN WATER and a blank zone',
      [zoneOver({ FLD_ZONE: 'OPEN WATER' }, -100, 0, -100, 100), zoneOver({ FLD_ZONE: ' ' }, 0, 100, -100, 100)],
      { shares: [], unmapped: 100, inSfha: null },
    ],
    ['no polygon at all', [], { shares: [], unmapped: 100, inSfha: null }],
    // 0.18 m² of 200 unmapped is 0.09 %, shown as 0.1: then the building is not known to be outside the SFHA.
    ['X but for a 1.8 cm strip off the map', [zoneOver(X_UNSHADED, -100, 9.982, -100, 100)], { shares: [99.9], unmapped: 0.1, inSfha: null }],
    // 0.08 m² unmapped is 0.04 %, shown as 0.0.
    ['X but for an 8 mm strip off the map', [zoneOver(X_UNSHADED, -100, 9.992, -100, 100)], { shares: [100], unmapped: 0, inSfha: false }],
    // An X polygon with a hole over the west half of the house: the hole is unmapped.
    ['X with a hole over half of it', [zoneOver(X_UNSHADED, -100, 100, -100, 100, hole(-50, 0, -50, 50))], { shares: [50], unmapped: 50, inSfha: null }],
    // One AE feature of two outer rings, a quarter of the house each.
    [
      'an AE polygon of two parts',
      [{ attributes: zone(AE(8)), rings: [outer(-10, -5, -100, 100), outer(5, 10, -100, 100)] }],
      { shares: [50], unmapped: 50, inSfha: true },
    ],
  ])('%s', (_case, zones, { shares, unmapped, inSfha }) => {
    const result = footprintFloodZones(HOUSE, { zones, panels: NO_PANELS });
    expect(result.zones.map((entry) => entry.sharePercent)).toEqual(shares);
    expect(result.unmappedSharePercent).toBe(unmapped);
    expect(result.buildingInSfha).toBe(inSfha);
  });

  it.each([
    // 0.05 m² of AE: a digitising sliver, no entry; it counts for nothing, not even as unmapped beyond its 0.025 %.
    ['drops an AE sliver under 0.1 m², and the building is outside the SFHA', 9.995, { zones: [['X', 100]], unmapped: 0, inSfha: false, highestBfeFt: null }],
    // 0.15 m² of AE is an entry, though it shows as 0.1 % (0.075 % rounded): part of the building is in the SFHA.
    [
      'keeps 0.15 m² of AE, and the building is in the SFHA',
      9.985,
      {
        zones: [
          ['AE', 0.1],
          ['X', 99.9],
        ],
        unmapped: 0,
        inSfha: true,
        highestBfeFt: 11,
      },
    ],
  ])('%s', (_case, aeWestEdge, expected) => {
    const zones = [zoneOver(X_SHADED, -100, aeWestEdge, -100, 100), zoneOver(AE(11), aeWestEdge, 100, -100, 100)];
    const result = footprintFloodZones(HOUSE, { zones, panels: NO_PANELS });
    expect({
      zones: result.zones.map((entry) => [entry.floodZone, entry.sharePercent]),
      unmapped: result.unmappedSharePercent,
      inSfha: result.buildingInSfha,
      highestBfeFt: result.highestBfeFt,
    }).toEqual(expected);
  });

  it('gives an AE entry no highest BFE when it has none (zone A, or AE at -9999)', () => {
    const zones = [zoneOver({ FLD_ZONE: 'A' }, -100, 0, -100, 100), zoneOver(AE(-9999), 0, 100, -100, 100)];
    const result = footprintFloodZones(HOUSE, { zones, panels: NO_PANELS });
    expect(result.buildingInSfha).toBe(true);
    expect(result.highestBfeFt).toBeNull();
  });

  it('measures a MultiPolygon footprint as a whole', () => {
    const wings = footprintOfRings([outer(-30, -10, -5, 5), outer(10, 30, -5, 5)]);
    const result = footprintFloodZones(wings, { zones: [zoneOver(AE(7), 0, 100, -100, 100), zoneOver(X_SHADED, -100, 0, -100, 100)], panels: NO_PANELS });
    expect(result.zones.map((entry) => [entry.floodZone, entry.areaSqFt, entry.sharePercent])).toEqual([
      ['AE', Math.round(200 * SQFT), 50],
      ['X', Math.round(200 * SQFT), 50],
    ]);
  });

  it('never measures a zone polygon whose rings are the same ring twice (found by the hostile-geometry fuzz, seed 20261127)', () => {
    const twice = { attributes: zone({ FLD_ZONE: 'VE', SFHA_TF: 'T', STATIC_BFE: 12 }), rings: [outer(-5, 5, -20, 20), outer(-5, 5, -20, 20)] };
    expect(() => footprintFloodZones(HOUSE, { zones: [twice, zoneOver(X_SHADED, -100, 100, -100, 100)], panels: NO_PANELS })).toThrow(
      new BrokenPolygonError(
        'a polygon over the footprint breaks a rule: polygon 1, ring 1 lies inside polygon 2, ring 1: polygons of a MultiPolygon must not overlap',
      ),
    );
  });

  it('measures zones over a footprint with a courtyard without the courtyard', () => {
    const courtyard = footprintOfRings([outer(-10, 10, -5, 5), hole(-2, 2, -2, 2)]);
    const result = footprintFloodZones(courtyard, { zones: [zoneOver(AE(7), 0, 100, -100, 100), zoneOver(X_SHADED, -100, 0, -100, 100)], panels: NO_PANELS });
    expect(result.zones.map((entry) => [entry.floodZone, entry.areaSqFt, entry.sharePercent])).toEqual([
      ['AE', Math.round(92 * SQFT), 50],
      ['X', Math.round(92 * SQFT), 50],
    ]);
  });
});

describe('footprintFloodZones: the FIRM panels under the footprint', () => {
  const zones = [zoneOver(X_UNSHADED, -100, 100, -100, 100)];

  it('lists each panel covering the footprint once, ordered by FIRM_PAN; the governing one covers most', () => {
    const panels = [
      panelOver('26109C0457E', 4, 100),
      panelOver('26109C0456E', -100, 4),
      // A second polygon of the same panel, north of the house.
      panelOver('26109C0457E', -100, 100, 50, 100),
    ];
    const result = footprintFloodZones(HOUSE, { zones, panels });
    expect(result.firmPanels).toEqual(['26109C0456E', '26109C0457E']);
    expect(result.governingPanel?.FIRM_PAN).toBe('26109C0456E');
  });

  it.each([
    ['covers under 0.1 m² (a 4 mm strip)', ['26109C0456E'], panelOver('26109C0457E', 9.996, 100)],
    ['covers 0.1 m² or more (a 1.5 cm strip)', ['26109C0456E', '26109C0457E'], panelOver('26109C0457E', 9.985, 100)],
    ['has no FIRM_PAN', ['26109C0456E'], { ...panelOver('26109C0457E', 5, 100), attributes: { ...panelOver('', 5, 100).attributes, FIRM_PAN: null } }],
    ['lies apart from the footprint', ['26109C0456E'], panelOver('26109C0457E', 11, 100)],
  ])('a second panel that %s: firmPanels %j', (_case, expected, panel) => {
    const result = footprintFloodZones(HOUSE, { zones, panels: [panelOver('26109C0456E', -100, 100), panel] });
    expect(result.firmPanels).toEqual(expected);
    expect(result.governingPanel?.FIRM_PAN).toBe('26109C0456E');
  });

  it('has no governing panel when no panel covers the footprint', () => {
    const result = footprintFloodZones(HOUSE, { zones, panels: [panelOver('26109C0457E', 20, 100)] });
    expect(result.firmPanels).toEqual([]);
    expect(result.governingPanel).toBeNull();
  });
});
