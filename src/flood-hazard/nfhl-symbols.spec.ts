import { NFHL_ZONE_RENDERER, nfhlZoneSymbol } from './nfhl-symbols';

const CYAN = [0, 230, 255, 255];
const RED = [255, 0, 0, 255];
const ORANGE = [255, 128, 0, 255];
const YELLOW = [242, 230, 115, 255];
const BLACK = [0, 0, 0, 255];

describe("nfhlZoneSymbol: FEMA's layer-28 renderer", () => {
  it.each([
    ['AE', null, '1% Annual Chance Flood Hazard', CYAN, 'solid'],
    ['A', null, '1% Annual Chance Flood Hazard', CYAN, 'solid'],
    ['AH', null, '1% Annual Chance Flood Hazard', CYAN, 'solid'],
    ['AO', null, '1% Annual Chance Flood Hazard', CYAN, 'solid'],
    ['AR', null, '1% Annual Chance Flood Hazard', CYAN, 'solid'],
    ['A99', null, '1% Annual Chance Flood Hazard', CYAN, 'solid'],
    ['V', null, '1% Annual Chance Flood Hazard', CYAN, 'solid'],
    ['VE', null, '1% Annual Chance Flood Hazard', CYAN, 'solid'],
    ['VE', 'COASTAL FLOODPLAIN', '1% Annual Chance Flood Hazard', CYAN, 'solid'],
    ['VE', 'RIVERINE FLOODPLAIN IN COASTAL ZONE2', '1% Annual Chance Flood Hazard', CYAN, 'solid'],
    ['AE', 'FLOODWAY', 'Regulatory Floodway', RED, 'backward_diagonal'],
    ['A', 'ADMINISTRATIVE FLOODWAY', 'Regulatory Floodway', RED, 'backward_diagonal'],
    ['AH', 'FLOODWAY', 'Regulatory Floodway', RED, 'backward_diagonal'],
    ['VE', 'RIVERINE FLOODWAY SHOWN IN COASTAL ZONE', 'Regulatory Floodway', RED, 'backward_diagonal'],
    ['AE', 'COLORADO RIVER FLOODWAY', 'Special Floodway', RED, 'solid'],
    ['AE', 'DENSITY FRINGE AREA', 'Special Floodway', RED, 'solid'],
    ['D', null, 'Area of Undetermined Flood Hazard', YELLOW, 'solid'],
    ['X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', '0.2% Annual Chance Flood Hazard', ORANGE, 'solid'],
    ['X', '1 PCT DEPTH LESS THAN 1 FOOT', '0.2% Annual Chance Flood Hazard', ORANGE, 'solid'],
    ['X', 'AREA WITH FLOOD HAZARD DUE TO NON-ACCREDITED LEVEE SYSTEM', '0.2% Annual Chance Flood Hazard', ORANGE, 'solid'],
    ['X', '1 PCT FUTURE CONDITIONS, FLOODWAY', 'Future Conditions 1% Annual Chance Flood Hazard', BLACK, 'solid'],
    // FEMA's own typo is the published value
    ['X', '1 PCT FUTURE CONDITONS, COMMUNITY ENCROACHMENT', 'Future Conditions 1% Annual Chance Flood Hazard', BLACK, 'solid'],
    ['X', 'AREA WITH REDUCED FLOOD RISK DUE TO LEVEE', 'Area with Reduced Risk Due to Levee', BLACK, 'solid'],
    ['D', 'AREA WITH FLOOD RISK DUE TO LEVEE', 'Area with Risk Due to Levee', BLACK, 'backward_diagonal'],
  ])('%s %j is drawn as "%s"', (zone, subtype, label, color, style) => {
    expect(nfhlZoneSymbol(zone, subtype)).toMatchObject({ label, color, style });
  });

  it.each<[string, string | null, string]>([
    ['X', 'AREA OF MINIMAL FLOOD HAZARD', 'unshaded X'],
    ['X', null, 'X without a subtype'],
    ['OPEN WATER', null, 'open water'],
    ['AREA NOT INCLUDED', null, 'an area not included'],
    ['C', null, 'the old zone C'],
    ['B', null, 'the old zone B'],
    ['AE', 'SOMETHING NEW', 'a subtype the renderer does not list'],
    ['ae', 'FLOODWAY', 'a value in another case'],
    ['AE', 'floodway', 'a subtype in another case'],
    ['D', 'COASTAL FLOODPLAIN', 'a pair the renderer does not list'],
  ])('%s %j is not drawn (%s)', (zone, subtype) => {
    expect(nfhlZoneSymbol(zone, subtype)).toBeNull();
  });

  it('draws outlines only where FEMA does: the levee and future-conditions classes, in grey', () => {
    const outlined = [...new Set(NFHL_ZONE_RENDERER.values())].filter((symbol) => symbol.outline !== null);
    expect(outlined.map((symbol) => [symbol.label, symbol.outline])).toEqual([
      ['Future Conditions 1% Annual Chance Flood Hazard', [110, 110, 110, 255]],
      ['Area with Reduced Risk Due to Levee', [110, 110, 110, 255]],
    ]);
  });

  it('holds the 106 values of the published renderer, in its 8 classes', () => {
    expect(NFHL_ZONE_RENDERER.size).toBe(106);
    const classes = new Map<string, number>();
    for (const { label } of NFHL_ZONE_RENDERER.values()) classes.set(label, (classes.get(label) ?? 0) + 1);
    expect(Object.fromEntries(classes)).toEqual({
      '1% Annual Chance Flood Hazard': 55,
      'Regulatory Floodway': 19,
      'Special Floodway': 4,
      'Area of Undetermined Flood Hazard': 1,
      '0.2% Annual Chance Flood Hazard': 15,
      'Future Conditions 1% Annual Chance Flood Hazard': 6,
      'Area with Reduced Risk Due to Levee': 3,
      'Area with Risk Due to Levee': 3,
    });
  });
});
