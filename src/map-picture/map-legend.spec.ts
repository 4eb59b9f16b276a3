import type { FirmPanel, NearbyHazard } from '../flood-hazard/flood-hazard.types';
import { attributionSegments, captionSegments, mapLegend, pointZoneSymbol, zoneDesignation } from './map-legend';

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

describe("zoneDesignation: the zone's name on the picture", () => {
  it.each([
    ['AE', null, 'AE'],
    ['VE', 'COASTAL FLOODPLAIN', 'VE'],
    ['AE', 'FLOODWAY', 'AE floodway'],
    ['A', 'ADMINISTRATIVE FLOODWAY', 'A floodway'],
    ['AO', 'FLOODWAY', 'AO floodway'],
    ['X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', 'X shaded'],
    ['X', 'AREA WITH REDUCED FLOOD RISK DUE TO LEVEE', 'X shaded'],
    ['X', 'AREA OF MINIMAL FLOOD HAZARD', 'X unshaded'],
    ['X', null, 'X unshaded'],
    ['D', null, 'D'],
    ['B', null, 'B'],
    ['OPEN WATER', null, 'OPEN WATER'],
    ['AREA NOT INCLUDED', null, 'AREA NOT INCLUDED'],
  ])('%s %j is "%s"', (floodZone, zoneSubtype, designation) => {
    expect(zoneDesignation(zone(floodZone, zoneSubtype))).toBe(designation);
  });
});

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
    });
    expect(legend).toEqual([
      { zone: 'AE', label: '1% Annual Chance Flood Hazard', symbol: expect.objectContaining({ color: CYAN, style: 'solid' }) },
      { zone: 'AE floodway', label: 'Regulatory Floodway', symbol: expect.objectContaining({ color: RED, style: 'backward_diagonal' }) },
      { zone: 'X shaded', label: '0.2% Annual Chance Flood Hazard', symbol: expect.objectContaining({ color: ORANGE, style: 'solid' }) },
    ]);
  });

  it('a seam: every zone at the point, most severe first as the answer lists them', () => {
    const legend = mapLegend({ zonesAtPoint: [zone('AE', 'FLOODWAY'), zone('AE')], nearby: null });
    expect(legend.map((entry) => entry.zone)).toEqual(['AE floodway', 'AE']);
  });

  it('one entry for polygons the map draws alike (two AE polygons with different BFEs, the nearest SFHA being the same AE)', () => {
    const legend = mapLegend({
      zonesAtPoint: [zone('AE'), zone('AE')],
      nearby: { radiusM: 300, sfha: near('AE', null, 0), floodway: null, moderate: null },
    });
    expect(legend.map((entry) => entry.zone)).toEqual(['AE']);
  });

  it('the nearby zones in their order: SFHA, floodway, moderate', () => {
    const legend = mapLegend({
      zonesAtPoint: [zone('X', 'AREA OF MINIMAL FLOOD HAZARD')],
      nearby: { radiusM: 300, sfha: near('VE', null, 80), floodway: null, moderate: near('X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', 20) },
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
    });
    expect(legend.map(({ zone: name, label }) => [name, label])).toEqual([
      ['X shaded', 'Area with Reduced Risk Due to Levee'],
      ['X shaded', '0.2% Annual Chance Flood Hazard'],
    ]);
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
    expect(mapLegend({ zonesAtPoint, nearby })).toEqual(legend);
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
    expect(captionSegments({ coverage, floodZone, zoneSubtype, riskLevel, firmPanel })).toEqual(segments);
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
    if (floodZone !== null) expect(drawn).toEqual(mapLegend({ zonesAtPoint: [zone(floodZone, zoneSubtype)], nearby: null })[0].symbol);
  });
});

describe('attributionSegments: the sources of what the picture draws', () => {
  it.each([
    [true, ['FEMA National Flood Hazard Layer', 'USGS The National Map', 'informational only']],
    [false, ['FEMA National Flood Hazard Layer', 'informational only', 'Basemap unavailable: the zones on a plain background']],
  ])('basemap shown: %s', (basemapShown, segments) => {
    expect(attributionSegments(basemapShown)).toEqual(segments);
  });
});
