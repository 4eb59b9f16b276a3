/**
 * How FEMA's NFHL MapServer draws layer 28 "Flood Hazard Zones": its unique-value renderer on
 * `FLD_ZONE;ZONE_SUBTY` (field delimiter `;`, a null subtype written `<Null>`), as the layer's published
 * `drawingInfo` says it. A polygon whose value is not listed is not drawn at all (the renderer has no
 * default symbol): unshaded X ("AREA OF MINIMAL FLOOD HAZARD"), OPEN WATER and AREA NOT INCLUDED stay
 * clear on FEMA's map. Pure data and one lookup: no I/O.
 */

/** Red, green, blue, alpha; 0 to 255 each. */
export type Rgba = readonly [number, number, number, number];

/** The renderer's fill styles in use on layer 28: a solid fill, or FEMA's backward-diagonal hatch (floodways). */
export type FillStyle = 'solid' | 'backward_diagonal';

/** One class of the renderer: its legend label and how its polygons are filled. */
export interface ZoneSymbol {
  /** The renderer's label (trimmed: FEMA's floodway label ends in a space). */
  label: string;
  color: Rgba;
  style: FillStyle;
  /** The polygon outline, where the class draws one. */
  outline: Rgba | null;
}

const ONE_PERCENT: ZoneSymbol = { label: '1% Annual Chance Flood Hazard', color: [0, 230, 255, 255], style: 'solid', outline: null };
const REGULATORY_FLOODWAY: ZoneSymbol = { label: 'Regulatory Floodway', color: [255, 0, 0, 255], style: 'backward_diagonal', outline: null };
const SPECIAL_FLOODWAY: ZoneSymbol = { label: 'Special Floodway', color: [255, 0, 0, 255], style: 'solid', outline: null };
const UNDETERMINED: ZoneSymbol = { label: 'Area of Undetermined Flood Hazard', color: [242, 230, 115, 255], style: 'solid', outline: null };
const POINT_TWO_PERCENT: ZoneSymbol = { label: '0.2% Annual Chance Flood Hazard', color: [255, 128, 0, 255], style: 'solid', outline: null };
const GREY_OUTLINE: Rgba = [110, 110, 110, 255];
const FUTURE_CONDITIONS: ZoneSymbol = {
  label: 'Future Conditions 1% Annual Chance Flood Hazard',
  color: [0, 0, 0, 255],
  style: 'solid',
  outline: GREY_OUTLINE,
};
const REDUCED_RISK_LEVEE: ZoneSymbol = { label: 'Area with Reduced Risk Due to Levee', color: [0, 0, 0, 255], style: 'solid', outline: GREY_OUTLINE };
const RISK_DUE_TO_LEVEE: ZoneSymbol = { label: 'Area with Risk Due to Levee', color: [0, 0, 0, 255], style: 'backward_diagonal', outline: null };

/** Every `FLD_ZONE;ZONE_SUBTY` value the renderer lists, by class, spelled exactly as published (typos included). */
const RENDERER_CLASSES: ReadonlyArray<readonly [ZoneSymbol, readonly string[]]> = [
  [
    ONE_PERCENT,
    [
      'A99;<Null>',
      'A;1 PCT ANNUAL CHANCE FLOOD HAZARD CONTAINED IN CHANNEL',
      'A;1 PCT ANNUAL CHANCE FLOOD HAZARD CONTAINED IN STRUCTURE',
      'A;<Null>',
      'A;COASTAL FLOODPLAIN',
      'AE;1 PCT ANNUAL CHANCE FLOOD HAZARD CONTAINED IN CHANNEL',
      'AE;1 PCT ANNUAL CHANCE FLOOD HAZARD CONTAINED IN STRUCTURE',
      'AE;<Null>',
      'AE;COASTAL FLOODPLAIN',
      'AR;<Null>',
      'AE;RIVERINE FLOODPLAIN IN COASTAL AREA',
      'AH;<Null>',
      'AH;COASTAL FLOODPLAIN',
      'AH;RIVERINE FLOODPLAIN IN COASTAL AREA',
      'AO;<Null>',
      'AO;RIVERINE FLOODPLAIN IN COASTAL AREA',
      'AO;COASTAL FLOODPLAIN',
      'V;COASTAL FLOODPLAIN',
      'VE;COASTAL FLOODPLAIN',
      'AH;AREA WITH FLOOD HAZARD DUE TO LEVEE SYSTEM',
      'AH;AREA WITH UNDETERMINED FLOOD HAZARD DUE TO NON-ACCREDITED LEVEE SYSTEM',
      'AO;AREA WITH FLOOD HAZARD DUE TO LEVEE SYSTEM',
      'AO;AREA WITH UNDETERMINED FLOOD HAZARD DUE TO NON-ACCREDITED LEVEE SYSTEM',
      'AE;AREA WITH UNDETERMINED FLOOD HAZARD DUE TO NON-ACCREDITED LEVEE SYSTEM',
      'A99;AREA WITH REDUCED FLOOD HAZARD DUE TO LEVEE SYSTEM',
      'A;AREA WITH UNDETERMINED FLOOD HAZARD DUE TO NON-ACCREDITED LEVEE SYSTEM',
      'AR;AREA WITH REDUCED FLOOD HAZARD DUE TO LEVEE SYSTEM',
      'A;AREA WITH FLOOD HAZARD DUE TO LEVEE SYSTEM',
      'AE;COMBINED RIVERINE AND COASTAL FLOODPLAIN',
      'VE;<Null>',
      'V;<Null>',
      'A;COMBINED RIVERINE AND COASTAL FLOODPLAIN',
      'A;RIVERINE FLOODPLAIN IN COASTAL AREA',
      'VE;COMBINED RIVERINE AND COASTAL FLOODPLAIN',
      'VE;RIVERINE FLOODPLAIN IN COASTAL AREA',
      'V;COMBINED RIVERINE AND COASTAL FLOODPLAIN',
      'V;RIVERINE FLOODPLAIN IN COASTAL AREA',
      'A;',
      'AE;',
      'AO;',
      'A99;',
      'AH;',
      'VE;',
      'V;',
      'A;1 PERCENT ANNUAL CHANCE FLOOD HAZARD CONTAINED IN STRUCTURE',
      'A;1 PERCENT ANNUAL CHANCE FLOOD HAZARD CONTAINED IN CHANNEL',
      'AE;1 PERCENT ANNUAL CHANCE FLOOD HAZARD CONTAINED IN STRUCTURE',
      'AE;1 PERCENT ANNUAL CHANCE FLOOD HAZARD CONTAINED IN CHANNEL',
      'AE;RIVERINE FLOODPLAIN IN COASTAL ZONE',
      'V;RIVERINE FLOODPLAIN IN COASTAL ZONE',
      'AR;AREA WITH REDUCED FLOOD RISK DUE TO LEVEE',
      'AO;COMBINED RIVERINE AND COASTAL FLOODPLAIN',
      'AH;COMBINED RIVERINE AND COASTAL FLOODPLAIN',
      'AE;AREA WITH FLOOD HAZARD DUE TO LEVEE SYSTEM',
      'VE;RIVERINE FLOODPLAIN IN COASTAL ZONE2',
    ],
  ],
  [
    REGULATORY_FLOODWAY,
    [
      'AE;COMMUNITY ENCROACHMENT AREA',
      'AE;FLOODWAY',
      'AE;FLOODWAY CONTAINED IN CHANNEL',
      'AE;ADMINISTRATIVE FLOODWAY',
      'AE;FLOODWAY CONTAINED IN STRUCTURE',
      'AE;FLOWAGE EASEMENT AREA',
      'AE;NARROW FLOODWAY',
      'AE;STATE ENCROACHMENT AREA',
      'AE;RIVERINE FLOODWAY SHOWN IN COASTAL ZONE',
      'AE;RIVERINE FLOODWAY IN COMBINED RIVERINE AND COASTAL ZONE',
      'V;RIVERINE FLOODWAY IN COMBINED RIVERINE AND COASTAL ZONE',
      'VE;RIVERINE FLOODWAY IN COMBINED RIVERINE AND COASTAL ZONE',
      'AO;FLOODWAY',
      'A;FLOODWAY',
      'V;RIVERINE FLOODWAY SHOWN IN COASTAL ZONE',
      'VE;RIVERINE FLOODWAY SHOWN IN COASTAL ZONE',
      'AH;FLOODWAY',
      'A;FLOWAGE EASEMENT AREA',
      'A;ADMINISTRATIVE FLOODWAY',
    ],
  ],
  [SPECIAL_FLOODWAY, ['AE;AREA OF SPECIAL CONSIDERATION', 'AE;COLORADO RIVER', 'AE;DENSITY FRINGE AREA', 'AE;COLORADO RIVER FLOODWAY']],
  [UNDETERMINED, ['D;<Null>']],
  [
    POINT_TWO_PERCENT,
    [
      'X;1 PCT DRAINAGE AREA LESS THAN 1 SQUARE MILE',
      'X;0.2 PCT ANNUAL CHANCE FLOOD HAZARD IN COASTAL ZONE',
      'X;0.2 PCT ANNUAL CHANCE FLOOD HAZARD IN COMBINED RIVERINE AND COASTAL ZONE',
      'X;0.2 PCT ANNUAL CHANCE FLOOD HAZARD',
      'X;0.2 PCT ANNUAL CHANCE FLOOD HAZARD CONTAINED IN CHANNEL',
      'X;1 PCT DEPTH LESS THAN 1 FOOT',
      'X;0.2 PCT ANNUAL CHANCE FLOOD HAZARD CONTAINED IN STRUCTURE',
      'X;0.2 PERCENT ANNUAL CHANCE FLOOD HAZARD',
      'X;0.2 PERCENT ANNUAL CHANCE FLOOD HAZARD CONTAINED IN STRUCTURE',
      'X;0.2 PERCENT ANNUAL CHANCE FLOOD HAZARD CONTAINED IN CHANNEL',
      'X;0.2 PERCENT ANNUAL CHANCE FLOOD HAZARD IN COASTAL ZONE',
      'X;0.2 PERCENT ANNUAL CHANCE FLOOD HAZARD IN COMBINED RIVERINE AND COASTAL ZONE',
      'X;1 PERCENT DEPTH LESS THAN 1 FOOT',
      'X;1 PERCENT DRAINAGE AREA LESS THAN 1 SQUARE MILE',
      'X;AREA WITH FLOOD HAZARD DUE TO NON-ACCREDITED LEVEE SYSTEM',
    ],
  ],
  [
    FUTURE_CONDITIONS,
    [
      'X;1 PCT FUTURE CONDITIONS',
      'X;1 PCT FUTURE CONDITIONS CONTAINED IN STRUCTURE',
      'X;1 PCT FUTURE CONDITIONS, FLOODWAY',
      'X;1 PCT FUTURE CONDITONS, COMMUNITY ENCROACHMENT',
      'X;1 PERCENT FUTURE CONDITIONS',
      'X;1 PERCENT FUTURE CONDITIONS CONTAINED IN STRUCTURE',
    ],
  ],
  [
    REDUCED_RISK_LEVEE,
    [
      'X;AREA WITH REDUCED FLOOD RISK DUE TO LEVEE',
      'X;AREA WITH REDUCED FLOOD HAZARD DUE TO ACCREDITED LEVEE SYSTEM',
      'X;AREA WITH REDUCED FLOOD HAZARD DUE TO PROVISIONALLY ACCREDITED LEVEE SYSTEM',
    ],
  ],
  [
    RISK_DUE_TO_LEVEE,
    [
      'D;AREA WITH FLOOD RISK DUE TO LEVEE',
      'D;AREA WITH UNDETERMINED FLOOD HAZARD DUE TO NONACCREDITED LEVEE SYSTEM',
      'D;AREA WITH UNDETERMINED FLOOD HAZARD DUE TO NON-ACCREDITED LEVEE SYSTEM',
    ],
  ],
];

/** The renderer as FEMA publishes it: `FLD_ZONE;ZONE_SUBTY` to its class. */
export const NFHL_ZONE_RENDERER: ReadonlyMap<string, ZoneSymbol> = new Map(
  RENDERER_CLASSES.flatMap(([symbol, values]) => values.map((value) => [value, symbol] as const)),
);

/**
 * How FEMA's map draws a zone polygon, or null when it does not draw it. The subtype is the answer's
 * `zoneSubtype` (published text, trimmed; null where NFHL has none, which the renderer matches as `<Null>`
 * or as an empty text). The renderer compares whole values, case and all.
 */
export function nfhlZoneSymbol(floodZone: string, zoneSubtype: string | null): ZoneSymbol | null {
  if (zoneSubtype !== null) return NFHL_ZONE_RENDERER.get(`${floodZone};${zoneSubtype}`) ?? null;
  return NFHL_ZONE_RENDERER.get(`${floodZone};<Null>`) ?? NFHL_ZONE_RENDERER.get(`${floodZone};`) ?? null;
}
