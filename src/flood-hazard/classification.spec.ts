import { ZONE_SEVERITY, classifyZone, determineFloodHazard, femaMapUrl, governingZone, zoneDesignation } from './classification';
import { FirmPanelAttributes, FloodDetermination, FloodHazardZoneAttributes, LomrAttributes, NfhlPointData } from './flood-hazard.types';

/** A layer-28 row as NFHL publishes it when a field has no value. */
function zone(overrides: Partial<FloodHazardZoneAttributes>): FloodHazardZoneAttributes {
  return {
    FLD_ZONE: 'X',
    ZONE_SUBTY: null,
    SFHA_TF: 'F',
    STATIC_BFE: -9999,
    DEPTH: -9999,
    V_DATUM: null,
    LEN_UNIT: null,
    ...overrides,
  };
}

function panel(overrides: Partial<FirmPanelAttributes>): FirmPanelAttributes {
  return {
    FIRM_PAN: '53033C0977G',
    PANEL: '0977',
    SUFFIX: 'G',
    EFF_DATE: 1597795200000,
    PANEL_TYP: 'Countywide, Panel Printed',
    ...overrides,
  };
}

function pointData(overrides: Partial<NfhlPointData>): NfhlPointData {
  return { zones: [], panels: [], lomrs: [], jurisdictions: [], inAvailability: null, ...overrides };
}

function determine(overrides: Partial<NfhlPointData>): FloodDetermination {
  return determineFloodHazard(pointData(overrides));
}

const DETERMINATION_KEYS = [
  'coverage',
  'isMapped',
  'floodZone',
  'zoneSubtype',
  'isFloodway',
  'inSpecialFloodHazardArea',
  'riskLevel',
  'staticBaseFloodElevationFt',
  'verticalDatum',
  'depthFt',
  'meaning',
  'guidance',
  'firmPanel',
  'community',
  'communitiesAtPoint',
  'lomrs',
  'zonesAtPoint',
].sort();

// Real layer-28 attribute sets, as FEMA publishes them.
const REAL = {
  aeStaticBfe: zone({ FLD_ZONE: 'AE', SFHA_TF: 'T', STATIC_BFE: 583, V_DATUM: 'NAVD88', LEN_UNIT: 'Feet' }),
  aeFloodway: zone({ FLD_ZONE: 'AE', ZONE_SUBTY: 'FLOODWAY', SFHA_TF: 'T' }),
  aoDepth: zone({ FLD_ZONE: 'AO', SFHA_TF: 'T', DEPTH: 1, LEN_UNIT: 'Feet' }),
  veStaticBfe: zone({
    FLD_ZONE: 'VE',
    ZONE_SUBTY: 'COASTAL FLOODPLAIN',
    SFHA_TF: 'T',
    STATIC_BFE: 586,
    V_DATUM: 'NAVD88',
    LEN_UNIT: 'Feet',
  }),
  xShaded: zone({ FLD_ZONE: 'X', ZONE_SUBTY: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD' }),
  xMinimal: zone({ FLD_ZONE: 'X', ZONE_SUBTY: 'AREA OF MINIMAL FLOOD HAZARD' }),
  openWater: zone({ FLD_ZONE: 'OPEN WATER' }),
};

describe('femaMapUrl', () => {
  it.each([
    [{ lat: 38.8987, lon: -77.0352 }, 'https://msc.fema.gov/portal/search?AddressQuery=38.8987%2C-77.0352'],
    [{ lat: 18.3985, lon: -66.1 }, 'https://msc.fema.gov/portal/search?AddressQuery=18.3985%2C-66.1'],
    [{ lat: 40, lon: -105 }, 'https://msc.fema.gov/portal/search?AddressQuery=40%2C-105'],
  ])('%p', (point, expected) => {
    expect(femaMapUrl(point)).toBe(expected);
  });
});

describe('classifyZone: the zone table', () => {
  it.each([
    // FLD_ZONE, ZONE_SUBTY, floodZone, SFHA, riskLevel, meaning starts with
    ['VE', null, 'VE', true, 'very_high', 'Very-high-risk coastal area'],
    ['V', null, 'V', true, 'very_high', 'Very-high-risk coastal area'],
    ['A', null, 'A', true, 'high', 'High-risk area (1% annual chance flood)'],
    ['AE', null, 'AE', true, 'high', 'High-risk area (1% annual chance flood)'],
    ['AH', null, 'AH', true, 'high', 'High-risk area (1% annual chance flood)'],
    ['AO', null, 'AO', true, 'high', 'High-risk area (1% annual chance flood)'],
    ['AR', null, 'AR', true, 'high', 'High-risk area (1% annual chance flood)'],
    ['A99', null, 'A99', true, 'high', 'High-risk area (1% annual chance flood)'],
    ['X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', 'X', false, 'moderate', 'Moderate-risk area'],
    ['B', null, 'B', false, 'moderate', 'Moderate-risk area'],
    ['X', 'AREA OF MINIMAL FLOOD HAZARD', 'X', false, 'minimal', 'Minimal-risk area'],
    ['C', null, 'C', false, 'minimal', 'Minimal-risk area'],
    ['D', null, 'D', false, 'undetermined', 'Undetermined risk'],
    // codes are trimmed and upper-cased
    ['ae', null, 'AE', true, 'high', 'High-risk area'],
    [' AE ', null, 'AE', true, 'high', 'High-risk area'],
    ['ve\t', null, 'VE', true, 'very_high', 'Very-high-risk coastal area'],
    [' x ', 'AREA OF MINIMAL FLOOD HAZARD', 'X', false, 'minimal', 'Minimal-risk area'],
    ['a99', null, 'A99', true, 'high', 'High-risk area'],
  ])('%p / %p -> %p SFHA %p %p', (FLD_ZONE, ZONE_SUBTY, floodZone, sfha, riskLevel, meaningStart) => {
    const classification = classifyZone(zone({ FLD_ZONE, ZONE_SUBTY }));
    expect(classification).not.toBeNull();
    expect(classification!.floodZone).toBe(floodZone);
    expect(classification!.inSpecialFloodHazardArea).toBe(sfha);
    expect(classification!.riskLevel).toBe(riskLevel);
    expect(classification!.meaning.startsWith(meaningStart)).toBe(true);
  });

  it.each([
    ['VE', /storm waves.*base flood elevation has been determined/],
    ['V', /storm waves.*no base flood elevation/],
    ['AE', /with a base flood elevation/],
    ['AH', /ponding.*base flood elevation/],
    ['AO', /sheet-flow.*depth/],
    ['AR', /levee is being restored/],
    ['A99', /federal flood-control levee still under construction/],
    ['A', /no base flood elevation has been determined/],
    ['B', /0\.2% annual chance flood, or 1% annual chance flood with average depths under 1 foot, or reduced risk behind a levee/],
    ['C', /minimal flood hazard/],
    ['D', /possible but undetermined flood hazard; the area has not been studied/],
  ])('meaning of %s', (FLD_ZONE, pattern) => {
    const meaning = classifyZone(zone({ FLD_ZONE }))!.meaning;
    expect(meaning).toMatch(pattern);
    expect(meaning).not.toMatch(/\bsafe\b/i);
    expect(meaning).not.toMatch(/floodway/i);
  });

  it.each([null, '', ' ', 'OPEN WATER', 'open water', ' OPEN WATER ', 'AREA NOT INCLUDED', 'ZZ', 'A1', '<Null>', '-9999'])(
    'FLD_ZONE %p is not a flood zone',
    (FLD_ZONE) => {
      expect(classifyZone(zone({ FLD_ZONE }))).toBeNull();
    },
  );

  it.each([
    ['0.2 PCT ANNUAL CHANCE FLOOD HAZARD', 'moderate', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD'],
    ['0.2 PCT ANNUAL CHANCE FLOOD HAZARD IN COASTAL ZONE', 'moderate', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD IN COASTAL ZONE'],
    ['0.2PCT ANNUAL CHANCE FLOOD HAZARD IN COASTAL ZONE', 'moderate', '0.2PCT ANNUAL CHANCE FLOOD HAZARD IN COASTAL ZONE'],
    ['1 PCT FUTURE CONDITIONS', 'moderate', '1 PCT FUTURE CONDITIONS'],
    ['1 PCT DEPTH LESS THAN 1 FOOT', 'moderate', '1 PCT DEPTH LESS THAN 1 FOOT'],
    ['AREA WITH REDUCED FLOOD RISK DUE TO LEVEE', 'moderate', 'AREA WITH REDUCED FLOOD RISK DUE TO LEVEE'],
    ['area with reduced flood risk due to levee', 'moderate', 'area with reduced flood risk due to levee'],
    ['AREA OF SPECIAL CONSIDERATION', 'moderate', 'AREA OF SPECIAL CONSIDERATION'], // unknown subtype: conservative
    ['AREA OF MINIMAL FLOOD HAZARD', 'minimal', 'AREA OF MINIMAL FLOOD HAZARD'],
    [' Area of Minimal Flood Hazard ', 'minimal', 'Area of Minimal Flood Hazard'],
    [null, 'minimal', null],
    ['', 'minimal', null],
    [' ', 'minimal', null],
    ['<Null>', 'minimal', null],
    ['-9999', 'minimal', null],
  ])('X with subtype %p is %p', (ZONE_SUBTY, riskLevel, zoneSubtype) => {
    const classification = classifyZone(zone({ FLD_ZONE: 'X', ZONE_SUBTY }))!;
    expect(classification.riskLevel).toBe(riskLevel);
    expect(classification.zoneSubtype).toBe(zoneSubtype);
    expect(classification.inSpecialFloodHazardArea).toBe(false);
    expect(classification.severityRank).toBe(riskLevel === 'moderate' ? ZONE_SEVERITY.X_SHADED : ZONE_SEVERITY.X_UNSHADED);
  });

  it.each([
    ['X', 'T', false],
    ['X', 'U', false],
    ['AE', 'F', true],
    ['VE', 'F', true],
    ['D', 'T', false],
    ['A', null, true],
  ])('SFHA of %s follows the zone code, not SFHA_TF %p', (FLD_ZONE, SFHA_TF, sfha) => {
    expect(classifyZone(zone({ FLD_ZONE, SFHA_TF }))!.inSpecialFloodHazardArea).toBe(sfha);
  });

  it.each([
    ['AE', 'FLOODWAY', true, ZONE_SEVERITY.A_FLOODWAY],
    ['A', 'FLOODWAY', true, ZONE_SEVERITY.A_FLOODWAY],
    ['AE', '1 PCT FUTURE CONDITIONS, FLOODWAY', true, ZONE_SEVERITY.A_FLOODWAY],
    ['AE', 'floodway', true, ZONE_SEVERITY.A_FLOODWAY],
    ['AE', 'ADMINISTRATIVE FLOODWAY', true, ZONE_SEVERITY.A_FLOODWAY],
    ['AE', 'RIVERINE FLOODWAY SHOWN IN COASTAL ZONE', true, ZONE_SEVERITY.A_FLOODWAY],
    ['AE', 'COMMUNITY ENCROACHMENT AREA', false, ZONE_SEVERITY.AE],
    ['AE', null, false, ZONE_SEVERITY.AE],
    ['AO', 'FLOODWAY', true, ZONE_SEVERITY.AO], // only AE and A are ranked up by a floodway
    ['VE', 'COASTAL FLOODPLAIN', false, ZONE_SEVERITY.VE],
  ])('%s %p: floodway %p, rank %p', (FLD_ZONE, ZONE_SUBTY, isFloodway, rank) => {
    const classification = classifyZone(zone({ FLD_ZONE, ZONE_SUBTY }))!;
    expect(classification.isFloodway).toBe(isFloodway);
    expect(classification.severityRank).toBe(rank);
    if (isFloodway) {
      expect(classification.meaning).toMatch(/regulatory floodway, where development is restricted\.$/);
      expect(classification.meaning.startsWith('High-risk area (1% annual chance flood)')).toBe(true);
    } else {
      expect(classification.meaning).not.toMatch(/floodway/i);
    }
  });

  it.each([
    ['real AE with BFE', REAL.aeStaticBfe, { staticBaseFloodElevationFt: 583, depthFt: null, verticalDatum: 'NAVD88' }],
    ['real AE floodway', REAL.aeFloodway, { staticBaseFloodElevationFt: null, depthFt: null, verticalDatum: null }],
    ['real AO depth', REAL.aoDepth, { staticBaseFloodElevationFt: null, depthFt: 1, verticalDatum: null }],
    ['real VE', REAL.veStaticBfe, { staticBaseFloodElevationFt: 586, depthFt: null, verticalDatum: 'NAVD88' }],
    [
      'AE in meters',
      zone({ FLD_ZONE: 'AE', STATIC_BFE: 10, LEN_UNIT: 'Meters', V_DATUM: ' NGVD29 ' }),
      { staticBaseFloodElevationFt: 32.8, depthFt: null, verticalDatum: 'NGVD29' },
    ],
    [
      'AO in centimeters',
      zone({ FLD_ZONE: 'AO', DEPTH: 30.48, LEN_UNIT: 'Centimeters' }),
      { staticBaseFloodElevationFt: null, depthFt: 1, verticalDatum: null },
    ],
    [
      'text sentinels',
      zone({ FLD_ZONE: 'AE', STATIC_BFE: 12, LEN_UNIT: '-9999', V_DATUM: '<Null>' }),
      { staticBaseFloodElevationFt: 12, depthFt: null, verticalDatum: null },
    ],
    [
      'null numbers',
      zone({ FLD_ZONE: 'AE', STATIC_BFE: null, DEPTH: null, V_DATUM: '' }),
      { staticBaseFloodElevationFt: null, depthFt: null, verticalDatum: null },
    ],
  ])('%s: lengths and datum', (_name, attributes, expected) => {
    expect(classifyZone(attributes)).toMatchObject(expected);
  });
});

describe("zoneDesignation: the zone's short name (the picture's legend, the headlines)", () => {
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
    expect(zoneDesignation({ floodZone, zoneSubtype })).toBe(designation);
  });
});

describe('ZONE_SEVERITY', () => {
  it('orders the classes as the documented severity order does', () => {
    const order: (keyof typeof ZONE_SEVERITY)[] = ['VE', 'V', 'A_FLOODWAY', 'AE', 'AH', 'AO', 'A', 'AR', 'A99', 'X_SHADED', 'D', 'X_UNSHADED', 'OPEN_WATER'];
    for (let i = 1; i < order.length; i += 1) {
      expect(ZONE_SEVERITY[order[i - 1]]).toBeLessThan(ZONE_SEVERITY[order[i]]);
    }
    expect(ZONE_SEVERITY.B).toBe(ZONE_SEVERITY.X_SHADED);
    expect(ZONE_SEVERITY.C).toBe(ZONE_SEVERITY.X_UNSHADED);
    expect(ZONE_SEVERITY.AREA_NOT_INCLUDED).toBe(ZONE_SEVERITY.OPEN_WATER);
  });
});

describe('determineFloodHazard: severity', () => {
  const Z = {
    VE: zone({ FLD_ZONE: 'VE', STATIC_BFE: 12, LEN_UNIT: 'Feet' }),
    V: zone({ FLD_ZONE: 'V' }),
    AE_FW: zone({ FLD_ZONE: 'AE', ZONE_SUBTY: 'FLOODWAY' }),
    A_FW: zone({ FLD_ZONE: 'A', ZONE_SUBTY: 'FLOODWAY' }),
    AE: zone({ FLD_ZONE: 'AE', STATIC_BFE: 583, LEN_UNIT: 'Feet' }),
    AH: zone({ FLD_ZONE: 'AH', STATIC_BFE: 20, LEN_UNIT: 'Feet' }),
    AO: zone({ FLD_ZONE: 'AO', DEPTH: 2, LEN_UNIT: 'Feet' }),
    A: zone({ FLD_ZONE: 'A' }),
    AR: zone({ FLD_ZONE: 'AR' }),
    A99: zone({ FLD_ZONE: 'A99' }),
    X_SHADED: zone({ FLD_ZONE: 'X', ZONE_SUBTY: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD' }),
    B: zone({ FLD_ZONE: 'B' }),
    D: zone({ FLD_ZONE: 'D' }),
    X_MIN: zone({ FLD_ZONE: 'X', ZONE_SUBTY: 'AREA OF MINIMAL FLOOD HAZARD' }),
    C: zone({ FLD_ZONE: 'C' }),
    OPEN_WATER: zone({ FLD_ZONE: 'OPEN WATER' }),
    ANI: zone({ FLD_ZONE: 'AREA NOT INCLUDED' }),
  };
  type Name = keyof typeof Z;
  const ENTRY: Record<Name, [string, string | null, boolean | null, number | null]> = {
    VE: ['VE', null, true, 12],
    V: ['V', null, true, null],
    AE_FW: ['AE', 'FLOODWAY', true, null],
    A_FW: ['A', 'FLOODWAY', true, null],
    AE: ['AE', null, true, 583],
    AH: ['AH', null, true, 20],
    AO: ['AO', null, true, null],
    A: ['A', null, true, null],
    AR: ['AR', null, true, null],
    A99: ['A99', null, true, null],
    X_SHADED: ['X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', false, null],
    B: ['B', null, false, null],
    D: ['D', null, false, null],
    X_MIN: ['X', 'AREA OF MINIMAL FLOOD HAZARD', false, null],
    C: ['C', null, false, null],
    OPEN_WATER: ['OPEN WATER', null, null, null],
    ANI: ['AREA NOT INCLUDED', null, null, null],
  };
  const entry = (name: Name) => {
    const [floodZone, zoneSubtype, inSpecialFloodHazardArea, staticBaseFloodElevationFt] = ENTRY[name];
    return { floodZone, zoneSubtype, inSpecialFloodHazardArea, staticBaseFloodElevationFt };
  };

  // Strictly more severe first; every adjacent pair of the documented order.
  const STRICT_ORDER: Name[] = ['VE', 'V', 'AE_FW', 'AE', 'AH', 'AO', 'A', 'AR', 'A99', 'X_SHADED', 'D', 'X_MIN', 'OPEN_WATER'];
  const pairs: [Name, Name][] = [];
  for (let i = 0; i < STRICT_ORDER.length; i += 1) {
    for (let j = i + 1; j < STRICT_ORDER.length; j += 1) pairs.push([STRICT_ORDER[i], STRICT_ORDER[j]]);
  }
  pairs.push(['A_FW', 'AE'], ['VE', 'A_FW'], ['B', 'D'], ['A99', 'B'], ['D', 'C'], ['C', 'ANI'], ['X_MIN', 'ANI']);

  it.each(pairs)('%s governs over %s, whatever the input order', (severe, lesser) => {
    for (const zones of [
      [Z[severe], Z[lesser]],
      [Z[lesser], Z[severe]],
    ]) {
      const result = determine({ zones });
      expect(result.coverage).toBe('mapped');
      expect(result.floodZone).toBe(ENTRY[severe][0]);
      expect(result.zoneSubtype).toBe(ENTRY[severe][1]);
      expect(result.inSpecialFloodHazardArea).toBe(ENTRY[severe][2]);
      expect(result.staticBaseFloodElevationFt).toBe(ENTRY[severe][3]);
      expect(result.zonesAtPoint).toEqual([entry(severe), entry(lesser)]);
    }
  });

  it('orders all zones at once, most severe first', () => {
    const names = Object.keys(Z) as Name[];
    const reversed = [...names].reverse();
    const result = determine({ zones: reversed.map((name) => Z[name]) });
    expect(result.floodZone).toBe('VE');
    expect(result.riskLevel).toBe('very_high');
    // Equal ranks (A_FW/AE_FW, X_SHADED/B, X_MIN/C, OPEN_WATER/ANI) keep their input order (here reversed).
    expect(result.zonesAtPoint).toEqual(
      (['VE', 'V', 'A_FW', 'AE_FW', 'AE', 'AH', 'AO', 'A', 'AR', 'A99', 'B', 'X_SHADED', 'D', 'C', 'X_MIN', 'ANI', 'OPEN_WATER'] as Name[]).map(entry),
    );
  });

  it('the governing polygon gives every top-level zone field', () => {
    const result = determine({ zones: [REAL.xShaded, REAL.aeFloodway, REAL.aeStaticBfe] });
    expect(result).toMatchObject({
      coverage: 'mapped',
      isMapped: true,
      floodZone: 'AE',
      zoneSubtype: 'FLOODWAY',
      isFloodway: true,
      inSpecialFloodHazardArea: true,
      riskLevel: 'high',
      staticBaseFloodElevationFt: null,
      verticalDatum: null,
      depthFt: null,
      guidance: null,
    });
    expect(result.meaning).toMatch(/^High-risk area \(1% annual chance flood\).*regulatory floodway/);
    expect(result.zonesAtPoint).toEqual([
      { floodZone: 'AE', zoneSubtype: 'FLOODWAY', inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: null },
      { floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 583 },
      {
        floodZone: 'X',
        zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD',
        inSpecialFloodHazardArea: false,
        staticBaseFloodElevationFt: null,
      },
    ]);
  });

  it.each([
    ['higher BFE first', [zone({ FLD_ZONE: 'AE', STATIC_BFE: 583 }), zone({ FLD_ZONE: 'AE', STATIC_BFE: 590 })], [590, 583], 590, null],
    ['BFE before none', [zone({ FLD_ZONE: 'AE' }), zone({ FLD_ZONE: 'AE', STATIC_BFE: 10 })], [10, null], 10, null],
    ['BFE compared in feet', [zone({ FLD_ZONE: 'AE', STATIC_BFE: 30 }), zone({ FLD_ZONE: 'AE', STATIC_BFE: 10, LEN_UNIT: 'Meters' })], [32.8, 30], 32.8, null],
    ['then higher depth', [zone({ FLD_ZONE: 'AO', DEPTH: 1 }), zone({ FLD_ZONE: 'AO', DEPTH: 3 })], [null], null, 3],
  ])('tie: %s', (_name, zones, bfes, governingBfe, governingDepth) => {
    const result = determine({ zones });
    expect(result.staticBaseFloodElevationFt).toBe(governingBfe);
    expect(result.depthFt).toBe(governingDepth);
    expect(result.zonesAtPoint.map((z) => z.staticBaseFloodElevationFt)).toEqual(bfes);
  });

  it('tie with everything equal keeps input order (verticalDatum of the first)', () => {
    const result = determine({
      zones: [zone({ FLD_ZONE: 'AE', STATIC_BFE: 5, V_DATUM: 'NAVD88' }), zone({ FLD_ZONE: 'AE', STATIC_BFE: 5, V_DATUM: 'NGVD29' })],
    });
    expect(result.verticalDatum).toBe('NAVD88');
  });

  it('lists each distinct zone once', () => {
    const result = determine({
      zones: [
        REAL.xMinimal,
        zone({ FLD_ZONE: 'x', ZONE_SUBTY: ' AREA OF MINIMAL FLOOD HAZARD ' }),
        REAL.aeStaticBfe,
        zone({ FLD_ZONE: 'AE', STATIC_BFE: 583, V_DATUM: 'NGVD29' }), // same four values, other datum
        zone({ FLD_ZONE: 'AE', STATIC_BFE: 584 }),
        REAL.openWater,
        REAL.openWater,
        zone({ FLD_ZONE: 'X', ZONE_SUBTY: '<Null>' }),
        zone({ FLD_ZONE: 'X', ZONE_SUBTY: null }),
      ],
    });
    expect(result.zonesAtPoint).toEqual([
      { floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 584 },
      { floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 583 },
      { floodZone: 'X', zoneSubtype: 'AREA OF MINIMAL FLOOD HAZARD', inSpecialFloodHazardArea: false, staticBaseFloodElevationFt: null },
      { floodZone: 'X', zoneSubtype: null, inSpecialFloodHazardArea: false, staticBaseFloodElevationFt: null },
      { floodZone: 'OPEN WATER', zoneSubtype: null, inSpecialFloodHazardArea: null, staticBaseFloodElevationFt: null },
    ]);
  });

  it.each([
    ['FLOODWAY', true],
    ['1 PCT FUTURE CONDITIONS, FLOODWAY', true],
    [null, false],
    ['COMMUNITY ENCROACHMENT AREA', false],
  ])('isFloodway for governing AE subtype %p is %p', (ZONE_SUBTY, isFloodway) => {
    expect(determine({ zones: [zone({ FLD_ZONE: 'AE', ZONE_SUBTY })] }).isFloodway).toBe(isFloodway);
  });

  it('isFloodway is false (not null) for mapped minimal X', () => {
    expect(determine({ zones: [REAL.xMinimal] }).isFloodway).toBe(false);
  });
});

describe('determineFloodHazard: coverage', () => {
  const TOA_BAJA_PANEL = panel({
    FIRM_PAN: '72000C0330J',
    PANEL: '0330',
    SUFFIX: 'J',
    EFF_DATE: 1258502400000,
    PANEL_TYP: 'Countywide, Panel Printed',
  });

  it.each([
    ['a real zone', { zones: [REAL.aeStaticBfe] }, 'mapped', true],
    ['a real zone and open water', { zones: [REAL.openWater, REAL.xMinimal] }, 'mapped', true],
    ['a lowercase zone code', { zones: [zone({ FLD_ZONE: ' ae ' })] }, 'mapped', true],
    ['zone D', { zones: [zone({ FLD_ZONE: 'D' })] }, 'mapped', true],
    ['OPEN WATER only', { zones: [REAL.openWater] }, 'mapped_no_zone', true],
    ['AREA NOT INCLUDED only', { zones: [zone({ FLD_ZONE: 'AREA NOT INCLUDED' })] }, 'mapped_no_zone', true],
    ['availability only', { zones: [], inAvailability: true }, 'mapped_no_zone', true],
    ['availability and a panel', { zones: [], inAvailability: true, panels: [TOA_BAJA_PANEL] }, 'mapped_no_zone', true],
    ['an unreadable zone code', { zones: [zone({ FLD_ZONE: '' })], inAvailability: null }, 'mapped_no_zone', true],
    ['nothing', { zones: [], inAvailability: false }, 'unmapped', false],
    ['nothing, availability not asked', { zones: [], inAvailability: null }, 'unmapped', false],
    ['paper panel only', { zones: [], inAvailability: false, panels: [TOA_BAJA_PANEL] }, 'unmapped', false],
  ] as [string, Partial<NfhlPointData>, string, boolean][])('%s -> %s', (_name, data, coverage, isMapped) => {
    const result = determine(data);
    expect(result.coverage).toBe(coverage);
    expect(result.isMapped).toBe(isMapped);
    expect(Object.keys(result).sort()).toEqual(DETERMINATION_KEYS);
    if (coverage === 'mapped') {
      expect(result.guidance).toBeNull();
      expect(result.floodZone).not.toBeNull();
      expect(result.riskLevel).not.toBe('unknown');
    } else {
      expect(result).toMatchObject({
        floodZone: null,
        zoneSubtype: null,
        isFloodway: null,
        inSpecialFloodHazardArea: null,
        riskLevel: 'unknown',
        staticBaseFloodElevationFt: null,
        verticalDatum: null,
        depthFt: null,
      });
      expect(result.meaning).toMatch(/^Unknown flood risk/);
      expect(result.meaning).toContain('not the same as "not in a flood zone"');
      expect(result.meaning).not.toMatch(/\bsafe\b/i);
      expect(typeof result.guidance).toBe('string');
    }
  });

  it('mapped_no_zone with only OPEN WATER lists that one entry and says to move the point', () => {
    const result = determine({ zones: [REAL.openWater] });
    expect(result.zonesAtPoint).toEqual([{ floodZone: 'OPEN WATER', zoneSubtype: null, inSpecialFloodHazardArea: null, staticBaseFloodElevationFt: null }]);
    expect(result.guidance).toMatch(/covers this area, but no flood-zone polygon contains this exact point/);
    expect(result.guidance).toMatch(/open water/);
    expect(result.guidance).toMatch(/not safe to rely on/);
    expect(result.guidance).toMatch(/Move the point slightly \(for example onto the building\)/);
    expect(result.guidance).toMatch(/FEMA Flood Map Service Center/);
  });

  it('mapped_no_zone from availability alone has no zones at the point', () => {
    expect(determine({ inAvailability: true }).zonesAtPoint).toEqual([]);
  });

  it('unmapped with a paper panel gives the panel and names it in the guidance', () => {
    const result = determine({ inAvailability: false, panels: [TOA_BAJA_PANEL] });
    expect(result.firmPanel).toEqual({
      panel: '72000C0330J',
      panelNumber: '0330',
      suffix: 'J',
      effectiveDate: '2009-11-18',
      panelType: 'Countywide, Panel Printed',
    });
    expect(result.zonesAtPoint).toEqual([]);
    expect(result.guidance).toMatch(/^FEMA has no digital flood map \(NFHL\) for this location/);
    expect(result.guidance).toMatch(/unknown, not absent/);
    expect(result.guidance).toMatch(/paper FIRM \(panel 72000C0330J\)/);
    expect(result.guidance).toMatch(/msc\.fema\.gov/);
    expect(result.guidance).toMatch(/local floodplain administrator/);
  });

  it('unmapped without a panel does not mention a paper FIRM', () => {
    const result = determine({ inAvailability: false });
    expect(result.firmPanel).toBeNull();
    expect(result.guidance).toMatch(/unknown, not absent/);
    expect(result.guidance).not.toMatch(/paper FIRM/);
  });

  it('the full Toa Baja AE answer', () => {
    const result = determineFloodHazard(
      pointData({
        zones: [REAL.aeStaticBfe],
        panels: [TOA_BAJA_PANEL],
        lomrs: [],
        jurisdictions: [{ POL_NAME1: 'Toa Baja, Municipio de', CID: '720000' }],
      }),
    );
    expect(result).toEqual({
      coverage: 'mapped',
      isMapped: true,
      floodZone: 'AE',
      zoneSubtype: null,
      isFloodway: false,
      inSpecialFloodHazardArea: true,
      riskLevel: 'high',
      staticBaseFloodElevationFt: 583,
      verticalDatum: 'NAVD88',
      depthFt: null,
      meaning: expect.stringMatching(/^High-risk area \(1% annual chance flood\) with a base flood elevation/),
      guidance: null,
      firmPanel: {
        panel: '72000C0330J',
        panelNumber: '0330',
        suffix: 'J',
        effectiveDate: '2009-11-18',
        panelType: 'Countywide, Panel Printed',
      },
      community: { name: 'Toa Baja, Municipio de', communityId: '720000' },
      communitiesAtPoint: [{ name: 'Toa Baja, Municipio de', communityId: '720000' }],
      lomrs: [],
      zonesAtPoint: [{ floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 583 }],
    });
  });
});

describe('determineFloodHazard: FIRM panel', () => {
  const OLD = panel({ FIRM_PAN: '53033C0976F', PANEL: '0976', SUFFIX: 'F', EFF_DATE: 1258502400000 });
  const NEW = panel({ FIRM_PAN: '53033C0977G', PANEL: '0977', SUFFIX: 'G', EFF_DATE: 1597795200000 });
  const UNDATED = panel({ FIRM_PAN: '53033C0978H', PANEL: '0978', SUFFIX: 'H', EFF_DATE: null });
  const PLACEHOLDER = panel({ FIRM_PAN: '53033C0979K', PANEL: '0979', SUFFIX: 'K', EFF_DATE: 253392451200000 });
  const NO_ID = panel({ FIRM_PAN: ' ', EFF_DATE: 1700000000000 });

  it.each([
    ['one panel', [OLD], '53033C0976F'],
    ['latest effective date wins', [OLD, NEW], '53033C0977G'],
    ['latest effective date wins, other order', [NEW, OLD], '53033C0977G'],
    ['dated before undated', [UNDATED, OLD], '53033C0976F'],
    ['placeholder date counts as undated', [PLACEHOLDER, OLD], '53033C0976F'],
    ['all undated: first', [UNDATED, PLACEHOLDER], '53033C0978H'],
    ['a panel without FIRM_PAN is skipped', [NO_ID, OLD], '53033C0976F'],
  ])('%s', (_name, panels, expected) => {
    expect(determine({ zones: [REAL.xMinimal], panels }).firmPanel?.panel).toBe(expected);
  });

  it.each([
    ['no panels', []],
    ['only a panel without FIRM_PAN', [NO_ID]],
    ['FIRM_PAN null', [panel({ FIRM_PAN: null })]],
  ])('%s -> null', (_name, panels) => {
    expect(determine({ zones: [REAL.xMinimal], panels }).firmPanel).toBeNull();
  });

  it.each([
    [
      'fields as published',
      panel({ FIRM_PAN: ' 53033C0977G ', PANEL: '0977', SUFFIX: 'G', PANEL_TYP: 'Countywide, Not Printed' }),
      { panel: '53033C0977G', panelNumber: '0977', suffix: 'G', effectiveDate: '2020-08-19', panelType: 'Countywide, Not Printed' },
    ],
    [
      'number and suffix derived from FIRM_PAN',
      panel({ FIRM_PAN: '72000C0330J', PANEL: null, SUFFIX: '<Null>', PANEL_TYP: '', EFF_DATE: 253392451200000 }),
      { panel: '72000C0330J', panelNumber: '0330', suffix: 'J', effectiveDate: null, panelType: null },
    ],
    [
      'derived from a FIRM_PAN of another length',
      panel({ FIRM_PAN: '720000330', PANEL: ' ', SUFFIX: '' }),
      { panel: '720000330', panelNumber: null, suffix: null, effectiveDate: '2020-08-19', panelType: 'Countywide, Panel Printed' },
    ],
  ])('%s', (_name, attributes, expected) => {
    expect(determine({ panels: [attributes] }).firmPanel).toEqual(expected);
  });
});

describe('determineFloodHazard: community, the one FEMA maps at the point; none when it maps several there', () => {
  const DC = { name: 'District of Columbia', communityId: '110001' };
  const OTHER = { name: 'Other', communityId: '999999' };
  it.each([
    ['query failed', null, null, null],
    ['no jurisdiction', [], null, []],
    ['one jurisdiction', [{ POL_NAME1: ' District of Columbia ', CID: '110001' }], DC, [DC]],
    [
      'two communities (a shared boundary, or an overlap): neither, both listed in the order FEMA gave them',
      [
        { POL_NAME1: ' District of Columbia ', CID: '110001' },
        { POL_NAME1: 'Other', CID: '999999' },
      ],
      null,
      [DC, OTHER],
    ],
    [
      'one community in two polygons: that community',
      [
        { POL_NAME1: 'District of Columbia', CID: '110001' },
        { POL_NAME1: 'District Of Columbia', CID: '110001' },
      ],
      DC,
      [DC],
    ],
    [
      'two without an id, named apart: neither',
      [
        { POL_NAME1: 'Town A', CID: '' },
        { POL_NAME1: 'Town B', CID: null },
      ],
      null,
      [
        { name: 'Town A', communityId: null },
        { name: 'Town B', communityId: null },
      ],
    ],
    ['text nulls', [{ POL_NAME1: '<Null>', CID: '' }], { name: null, communityId: null }, [{ name: null, communityId: null }]],
  ])('%s', (_name, jurisdictions, community, communitiesAtPoint) => {
    const determined = determine({ zones: [REAL.aeStaticBfe], jurisdictions });
    expect(determined.community).toEqual(community);
    expect(determined.communitiesAtPoint).toEqual(communitiesAtPoint);
  });
});

describe('determineFloodHazard: LOMRs', () => {
  const lomr = (CASE_NO: string | null, EFF_DATE: number | null, STATUS: string | null = 'Effective'): LomrAttributes => ({
    CASE_NO,
    EFF_DATE,
    STATUS,
  });

  it.each([
    ['query failed: unknown, not []', null, null],
    ['none', [], []],
    ['one', [lomr('19-03-0123P', 1581638400000)], [{ caseNumber: '19-03-0123P', effectiveDate: '2020-02-14' }]],
    [
      'only effective ones, any case, trimmed',
      [lomr('A', 1581638400000, 'Superseded'), lomr('B', 1581638400000, ' effective '), lomr('C', 1581638400000, null), lomr('D', 1581638400000, 'EFFECTIVE')],
      [
        { caseNumber: 'B', effectiveDate: '2020-02-14' },
        { caseNumber: 'D', effectiveDate: '2020-02-14' },
      ],
    ],
    [
      'newest first, undated last',
      [lomr('OLD', 1258502400000), lomr('UNDATED', null), lomr('NEW', 1597795200000), lomr('PLACEHOLDER', 253392451200000)],
      [
        { caseNumber: 'NEW', effectiveDate: '2020-08-19' },
        { caseNumber: 'OLD', effectiveDate: '2009-11-18' },
        { caseNumber: 'UNDATED', effectiveDate: null },
        { caseNumber: 'PLACEHOLDER', effectiveDate: null },
      ],
    ],
    [
      'distinct by case number, newest kept',
      [lomr('19-03-0123P', 1258502400000), lomr(' 19-03-0123P ', 1597795200000)],
      [{ caseNumber: '19-03-0123P', effectiveDate: '2020-08-19' }],
    ],
    ['only non-effective', [lomr('A', 1581638400000, 'Superseded')], []],
  ] as [string, LomrAttributes[] | null, unknown][])('%s', (_name, lomrs, expected) => {
    expect(determine({ zones: [REAL.aeStaticBfe], lomrs }).lomrs).toEqual(expected);
  });

  it('LOMRs are given whatever the coverage', () => {
    expect(determine({ inAvailability: false, lomrs: [lomr('X1', 1581638400000)] }).lomrs).toEqual([{ caseNumber: 'X1', effectiveDate: '2020-02-14' }]);
  });
});

describe('governingZone', () => {
  it('is the most severe classified polygon, with its own attributes', () => {
    const fringe = zone({ FLD_ZONE: 'AE', SFHA_TF: 'T', STATIC_BFE: 12, LEN_UNIT: 'Feet', DFIRM_ID: '22071C' });
    const floodway = zone({ FLD_ZONE: 'AE', ZONE_SUBTY: 'FLOODWAY', SFHA_TF: 'T', DFIRM_ID: '22051C' });
    const governing = governingZone([zone({ FLD_ZONE: 'OPEN WATER' }), fringe, floodway, zone({})]);
    expect(governing?.attributes).toBe(floodway);
    expect(governing?.zone).toMatchObject({ floodZone: 'AE', zoneSubtype: 'FLOODWAY', severityClass: 'A_FLOODWAY' });
  });

  it('breaks ties as the determination does: higher BFE first', () => {
    const low = zone({ FLD_ZONE: 'AE', STATIC_BFE: 9, LEN_UNIT: 'Feet', DFIRM_ID: 'low' });
    const high = zone({ FLD_ZONE: 'AE', STATIC_BFE: 11, LEN_UNIT: 'Feet', DFIRM_ID: 'high' });
    expect(governingZone([low, high])?.attributes.DFIRM_ID).toBe('high');
  });

  it('is null without a real zone', () => {
    expect(governingZone([])).toBeNull();
    expect(governingZone([zone({ FLD_ZONE: 'OPEN WATER' }), zone({ FLD_ZONE: 'AREA NOT INCLUDED' })])).toBeNull();
  });
});
