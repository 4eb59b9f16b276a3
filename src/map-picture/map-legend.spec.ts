import type { FirmPanel, NearbyHazard } from '../flood-hazard/flood-hazard.types';
import { attributionSegments, captionSegments, mapLegend, pointZoneSymbol } from './map-legend';

const zone = (floodZone: string, zoneSubtype: string | null = null) => ({ floodZone, zoneSubtype });
const near = (floodZone: string, zoneSubtype: string | null, distanceM: number): NearbyHazard => ({
  distanceM,
  floodZone,
  zoneSubtype,
  staticBaseFloodElevationFt: null,
});
const CYAN = [0, 230, 255, 255];
const RED = [255, 0, 0, 255];
const ORANGE = [255, 128, 0, 255];

describe('mapLegend: exactly the zones the answer names, each once, the point first', () => {
  it('an AE point with an SFHA, a floodway and a shaded X nearby', () => {
    const legend = mapLegend({
      zonesAtPoint: [zone('AE')],
      nearby: {
        radiusM: 300,
        sfha: near('AE', null, 0),
        floodway: near('AE', 'FLOODWAY', 120),
        moderate: near('X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', 250),
      },
      structure: null,
    });
    expect(legend).toEqual([
      { zone: 'AE', label: '1% Annual Chance Flood Hazard', symbol: expect.objectContaining({ color: CYAN, style: 'solid' }) },
      { zone: 'AE floodway', label: 'Regulatory Floodway', symbol: expect.objectContaining({ color: RED, style: 'backward_diagonal' }) },
      { zone: 'X shaded', label: '0.2% Annual Chance Flood Hazard', symbol: expect.objectContaining({ color: ORANGE, style: 'solid' }) },
    ]);
  });

  it('a seam: every zone at the point, most severe first as the answer lists them', () => {
    const legend = mapLegend({ zonesAtPoint: [zone('AE', 'FLOODWAY'), zone('AE')], nearby: null, structure: null });
    expect(legend.map((entry) => entry.zone)).toEqual(['AE floodway', 'AE']);
  });

  it('one entry for polygons the map draws alike (two AE polygons with different BFEs, the nearest SFHA being the same AE)', () => {
    const legend = mapLegend({
      zonesAtPoint: [zone('AE'), zone('AE')],
      nearby: { radiusM: 300, sfha: near('AE', null, 0), floodway: null, moderate: null },
      structure: null,
    });
    expect(legend.map((entry) => entry.zone)).toEqual(['AE']);
  });

  it('the nearby zones in their order: SFHA, floodway, moderate', () => {
    const legend = mapLegend({
      zonesAtPoint: [zone('X', 'AREA OF MINIMAL FLOOD HAZARD')],
      nearby: { radiusM: 300, sfha: near('VE', null, 80), floodway: null, moderate: near('X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', 20) },
      structure: null,
    });
    expect(legend).toEqual([
      { zone: 'X unshaded', label: 'Area of Minimal Flood Hazard (not shaded)', symbol: null },
      { zone: 'VE', label: '1% Annual Chance Flood Hazard', symbol: expect.objectContaining({ color: CYAN }) },
      { zone: 'X shaded', label: '0.2% Annual Chance Flood Hazard', symbol: expect.objectContaining({ color: ORANGE }) },
    ]);
  });

  it('zones drawn differently under one name are both explained', () => {
    const legend = mapLegend({
      zonesAtPoint: [zone('X', 'AREA WITH REDUCED FLOOD RISK DUE TO LEVEE'), zone('X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD')],
      nearby: null,
      structure: null,
    });
    expect(legend.map(({ zone: name, label }) => [name, label])).toEqual([
      ['X shaded', 'Area with Reduced Risk Due to Levee'],
      ['X shaded', '0.2% Annual Chance Flood Hazard'],
    ]);
  });

  it("every zone the footprint touches, after the point's and before the nearby ones: a house across an AE edge with its point in X", () => {
    const legend = mapLegend({
      zonesAtPoint: [zone('X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD')],
      structure: { zones: [zone('AE'), zone('AE', 'FLOODWAY'), zone('X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD')] },
      nearby: { radiusM: 300, sfha: near('AE', null, 0), floodway: near('AE', 'FLOODWAY', 3), moderate: near('X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', 0) },
    });
    expect(legend.map((entry) => entry.zone)).toEqual(['X shaded', 'AE', 'AE floodway']);
    // the footprint's zones unknown (or no building): the legend is the point's and the nearby zones
    expect(
      mapLegend({ zonesAtPoint: [zone('X', 'AREA OF MINIMAL FLOOD HAZARD')], structure: { zones: null }, nearby: null }).map((entry) => entry.zone),
    ).toEqual(['X unshaded']);
  });

  it.each([
    ['an unmapped point', [], null, []],
    ['unmapped, nearby asked but nothing within reach', [], { radiusM: 300, sfha: null, floodway: null, moderate: null }, []],
    ['open water (mapped, no zone)', [zone('OPEN WATER')], null, [{ zone: 'OPEN WATER', label: 'Open water, not a flood zone (not shaded)', symbol: null }]],
    [
      'an area not included',
      [zone('AREA NOT INCLUDED')],
      null,
      [{ zone: 'AREA NOT INCLUDED', label: 'Area not included in the flood map (not shaded)', symbol: null }],
    ],
    ['a subtype FEMA does not draw', [zone('AE', 'SOMETHING NEW')], null, [{ zone: 'AE', label: "Not shaded on FEMA's map", symbol: null }]],
  ])('%s', (_case, zonesAtPoint, nearby, legend) => {
    expect(mapLegend({ zonesAtPoint, nearby, structure: null })).toEqual(legend);
  });
});

describe('captionSegments: zone, risk, FIRM panel and date in words', () => {
  const panel: FirmPanel = { panel: '51710C0035G', panelNumber: '0035', suffix: 'G', effectiveDate: '2009-12-16', panelType: null };
  it.each([
    ['mapped', 'AE', null, 'high', panel, ['Zone AE', 'high risk (SFHA)', 'FIRM panel 51710C0035G, effective 2009-12-16']],
    ['mapped', 'VE', null, 'very_high', panel, ['Zone VE', 'very high risk (SFHA, coastal)', 'FIRM panel 51710C0035G, effective 2009-12-16']],
    ['mapped', 'AE', 'FLOODWAY', 'high', panel, ['Zone AE floodway', 'high risk (SFHA)', 'FIRM panel 51710C0035G, effective 2009-12-16']],
    [
      'mapped',
      'X',
      '0.2 PCT ANNUAL CHANCE FLOOD HAZARD',
      'moderate',
      panel,
      ['Zone X shaded', 'moderate risk, outside the SFHA', 'FIRM panel 51710C0035G, effective 2009-12-16'],
    ],
    [
      'mapped',
      'X',
      'AREA OF MINIMAL FLOOD HAZARD',
      'minimal',
      panel,
      ['Zone X unshaded', 'minimal risk, outside the SFHA', 'FIRM panel 51710C0035G, effective 2009-12-16'],
    ],
    ['mapped', 'D', null, 'undetermined', null, ['Zone D', 'undetermined risk (not studied)', 'no FIRM panel here']],
    ['mapped', 'AE', null, 'high', { ...panel, effectiveDate: null }, ['Zone AE', 'high risk (SFHA)', 'FIRM panel 51710C0035G, effective date not published']],
    [
      'mapped_no_zone',
      null,
      null,
      'unknown',
      panel,
      ["No flood zone at this exact point: inside FEMA's map, risk unknown", 'FIRM panel 51710C0035G, effective 2009-12-16'],
    ],
    ['unmapped', null, null, 'unknown', null, ['No digital flood map here (unknown, not low risk)', 'no FIRM panel here']],
    [
      'unmapped',
      null,
      null,
      'unknown',
      { ...panel, panel: '4804260005B', effectiveDate: '1991-05-02' },
      ['No digital flood map here (unknown, not low risk)', 'FIRM panel 4804260005B, effective 1991-05-02, perhaps on paper only'],
    ],
  ] as const)('%s %s %j (%s)', (coverage, floodZone, zoneSubtype, riskLevel, firmPanel, segments) => {
    expect(captionSegments({ coverage, floodZone, zoneSubtype, riskLevel, firmPanel, structure: null, unavailable: [] })).toEqual(segments);
  });
});

describe('captionSegments: the building first where there is one, then the point "at the address point"', () => {
  const panel: FirmPanel = { panel: '26109C0263D', panelNumber: '0263', suffix: 'D', effectiveDate: '2011-09-02', panelType: null };
  const house = (changes: object) => ({
    match: 'contains' as const,
    zones: [
      { floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 584, areaSqFt: 932, sharePercent: 40.1 },
      {
        floodZone: 'X',
        zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD',
        inSpecialFloodHazardArea: false,
        staticBaseFloodElevationFt: null,
        areaSqFt: 1392,
        sharePercent: 59.9,
      },
    ],
    unmappedSharePercent: 0,
    buildingInSfha: true,
    ...changes,
  });
  const pointInX = { coverage: 'mapped', floodZone: 'X', zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', riskLevel: 'moderate', firmPanel: panel } as const;

  it('a house 40.1% in AE whose point is in shaded X: the building in the SFHA leads', () => {
    expect(captionSegments({ ...pointInX, structure: house({}), unavailable: [] })).toEqual([
      'Building: in the SFHA, AE over 40.1% of its footprint',
      'At the address point: zone X shaded, moderate risk, outside the SFHA',
      'FIRM panel 26109C0263D, effective 2011-09-02',
    ]);
  });

  it.each([
    ['USA Structures did not answer', null, ['structure'], "Building: SFHA status unknown, FEMA's building footprints did not answer this time"],
    [
      'the zones over its footprint could not be read',
      house({ zones: null, unmappedSharePercent: null, buildingInSfha: null }),
      ['structure'],
      "Building: SFHA status unknown, FEMA's flood zones over its footprint could not be read this time",
    ],
  ] as const)('the building\'s answer unknown (%s): the caption says so first, never the point\'s "outside" alone', (_why, structure, unavailable, first) => {
    expect(captionSegments({ ...pointInX, structure, unavailable: [...unavailable] })[0]).toBe(first);
  });

  it('no building located: the point alone, as before', () => {
    const none = house({ match: 'none', zones: null, unmappedSharePercent: null, buildingInSfha: null });
    expect(captionSegments({ ...pointInX, structure: none, unavailable: [] })).toEqual([
      'Zone X shaded',
      'moderate risk, outside the SFHA',
      'FIRM panel 26109C0263D, effective 2011-09-02',
    ]);
  });

  it('a building at a point without a digital map', () => {
    const offMap = house({ zones: [], unmappedSharePercent: 100, buildingInSfha: null });
    expect(
      captionSegments({ coverage: 'unmapped', floodZone: null, zoneSubtype: null, riskLevel: 'unknown', firmPanel: null, structure: offMap, unavailable: [] }),
    ).toEqual([
      'Building: SFHA status unknown, unmapped over 100% of its footprint',
      'At the address point: no digital flood map here (unknown, not low risk)',
      'no FIRM panel here',
    ]);
  });
});

describe("pointZoneSymbol: how the zone the answer names at the point is drawn there (its legend entry's symbol)", () => {
  it.each([
    ['AE', null, { color: CYAN, style: 'solid' }],
    ['AE', 'FLOODWAY', { color: RED, style: 'backward_diagonal' }],
    ['X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', { color: ORANGE, style: 'solid' }],
    ['X', 'AREA OF MINIMAL FLOOD HAZARD', null],
    ['OPEN WATER', null, null],
    [null, null, null],
  ])('%s %j: %j', (floodZone, zoneSubtype, symbol) => {
    const drawn = pointZoneSymbol({ floodZone, zoneSubtype });
    expect(drawn === null ? null : { color: drawn.color, style: drawn.style }).toEqual(symbol);
    // the same symbol as the legend entry of that zone
    if (floodZone !== null) expect(drawn).toEqual(mapLegend({ zonesAtPoint: [zone(floodZone, zoneSubtype)], nearby: null, structure: null })[0].symbol);
  });
});

describe('attributionSegments: the sources of what the picture draws', () => {
  it.each([
    [true, ['FEMA National Flood Hazard Layer', 'USGS The National Map', 'informational only']],
    [false, ['FEMA National Flood Hazard Layer', 'informational only', 'Basemap unavailable: the zones on a plain background']],
  ])('basemap shown: %s', (basemapShown, segments) => {
    expect(attributionSegments(basemapShown, null)).toEqual(segments);
  });

  it.each([
    [true, ['FEMA National Flood Hazard Layer', 'USGS The National Map', 'FEMA/ORNL USA Structures (CC BY 4.0)', 'informational only']],
    [
      false,
      [
        'FEMA National Flood Hazard Layer',
        'FEMA/ORNL USA Structures (CC BY 4.0)',
        'informational only',
        'Basemap unavailable: the zones on a plain background',
      ],
    ],
  ])("a building from USA Structures drawn (basemap shown: %s): the building data's credit (CC BY 4.0)", (basemapShown, segments) => {
    expect(attributionSegments(basemapShown, 'FEMA/ORNL USA Structures (CC BY 4.0)')).toEqual(segments);
  });
});
