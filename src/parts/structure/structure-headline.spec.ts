import { GIVEN_FOOTPRINT_SOURCE, USA_STRUCTURES_SOURCE } from './structure-answer';
import { BuildingAnswer, buildingHeadline, footprintCredit } from './structure-headline';
import type { Footprint, StructureZone } from './structure.types';

function entry(floodZone: string, zoneSubtype: string | null, sharePercent: number, inSpecialFloodHazardArea: boolean): StructureZone {
  return { floodZone, zoneSubtype, inSpecialFloodHazardArea, staticBaseFloodElevationFt: null, areaSqFt: Math.round(sharePercent * 20), sharePercent };
}

const AE = (share: number) => entry('AE', null, share, true);
const X_SHADED = (share: number) => entry('X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', share, false);
const X_UNSHADED = (share: number) => entry('X', 'AREA OF MINIMAL FLOOD HAZARD', share, false);

function building(zones: StructureZone[] | null, buildingInSfha: boolean | null, unmappedSharePercent: number | null = zones && 0): BuildingAnswer {
  return { match: 'contains', zones, unmappedSharePercent, buildingInSfha };
}

describe("buildingHeadline: the building's answer a headline leads with", () => {
  it.each([
    ['40.1% in AE, the rest in shaded X', building([AE(40.1), X_SHADED(59.9)], true), 'Building: in the SFHA, AE over 40.1% of its footprint', 'high'],
    ['wholly in AE', building([AE(100)], true), 'Building: in the SFHA, AE over 100% of its footprint', 'high'],
    [
      'in VE and AE (SFHA zones first, the most severe sets the risk)',
      building([AE(30), entry('VE', null, 5.2, true), X_SHADED(64.8)], true),
      'Building: in the SFHA, AE over 30% and VE over 5.2% of its footprint',
      'very_high',
    ],
    [
      'AE polygons of two BFEs and a floodway: one share per zone as the legend names it',
      building([AE(20.2), { ...AE(10.1), staticBaseFloodElevationFt: 12 }, entry('AE', 'FLOODWAY', 9.8, true), X_SHADED(59.9)], true),
      'Building: in the SFHA, AE over 30.3% and AE floodway over 9.8% of its footprint',
      'high',
    ],
    ['a sliver in AE', building([AE(0.04), X_SHADED(99.96)], true), 'Building: in the SFHA, AE over less than 0.1% of its footprint', 'high'],
    ['wholly in unshaded X', building([X_UNSHADED(100)], false), 'Building: outside the SFHA, X unshaded over 100% of its footprint', 'minimal'],
    [
      'in shaded and unshaded X',
      building([X_SHADED(60), X_UNSHADED(40)], false),
      'Building: outside the SFHA, X shaded over 60% and X unshaded over 40% of its footprint',
      'moderate',
    ],
  ] as const)('%s: "%s"', (_case, structure, words, riskLevel) => {
    expect(buildingHeadline(structure, false)).toEqual({ words, inSfha: structure.buildingInSfha, riskLevel });
  });

  it.each([
    [
      'part of it off the map, the rest outside',
      building([X_SHADED(49.5)], null, 50.5),
      false,
      'Building: SFHA status unknown, X shaded over 49.5% and unmapped over 50.5% of its footprint',
    ],
    ['all of it off the map', building([], null, 100), false, 'Building: SFHA status unknown, unmapped over 100% of its footprint'],
    [
      'the zones over its footprint could not be read',
      building(null, null),
      true,
      "Building: SFHA status unknown, FEMA's flood zones over its footprint could not be read this time",
    ],
    ['USA Structures did not answer', null, true, "Building: SFHA status unknown, FEMA's building footprints did not answer this time"],
  ] as const)("unknown (%s): said so, never the point's answer", (_case, structure, unavailable, words) => {
    expect(buildingHeadline(structure, unavailable)).toEqual({ words, inSfha: null, riskLevel: 'unknown' });
  });

  it.each([
    ['no building within reach', { ...building(null, null), match: 'none' as const }],
    ['several buildings, none chosen', { ...building(null, null), match: 'ambiguous' as const }],
    ['the building not asked for', null],
  ])("%s: none, the headline is the point's", (_case, structure) => {
    expect(buildingHeadline(structure, false)).toBeNull();
  });

  it.each(['given', 'address', 'nearest'] as const)('a building %s leads as one containing the point does', (match) => {
    expect(buildingHeadline({ ...building([AE(100)], true), match }, false)?.words).toBe('Building: in the SFHA, AE over 100% of its footprint');
  });
});

describe("footprintCredit: the building data's credit wherever its footprint is shown", () => {
  const footprint: Footprint = {
    type: 'Polygon',
    coordinates: [
      [
        [0, 0],
        [0, 1],
        [1, 1],
        [0, 0],
      ],
    ],
  };

  it.each([
    ['a footprint from USA Structures', { footprint, source: USA_STRUCTURES_SOURCE }, 'FEMA/ORNL USA Structures (CC BY 4.0)'],
    ['a footprint given by the caller', { footprint, source: GIVEN_FOOTPRINT_SOURCE }, null],
    ['no building chosen', { footprint: null, source: USA_STRUCTURES_SOURCE }, null],
    ['no building asked for', null, null],
  ])('%s: %j', (_case, structure, credit) => {
    expect(footprintCredit(structure)).toBe(credit);
  });
});
