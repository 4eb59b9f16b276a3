import { areaOfBuilding, partAreaOf } from './part-area';

const HARRIS = { county: 'Harris County', countyFips: '48201', tract: '48201230988' };

describe('partAreaOf', () => {
  it("is the geocoder's county and tract", () => {
    expect(partAreaOf({ ...HARRIS, zip: '77007' })).toEqual(HARRIS);
  });

  it('has no tract where a geocode kept from before tracts were asked has none', () => {
    expect(partAreaOf({ county: 'Harris County', countyFips: '48201', zip: null } as never)).toEqual({ ...HARRIS, tract: null });
  });
});

describe("areaOfBuilding: the building's tract over the geocoder's", () => {
  it.each([
    ["no building tract: the geocoder's area", HARRIS, null, HARRIS],
    ['no building tract, no geocoder area: none', null, null, null],
    ['the same tract', HARRIS, '48201230988', HARRIS],
    ["another tract of the county: the building's, the county named", HARRIS, '48201230989', { ...HARRIS, tract: '48201230989' }],
    ["another county's tract: its county, unnamed", HARRIS, '48157670100', { county: null, countyFips: '48157', tract: '48157670100' }],
    ["the geocoder failed: the building's tract, its county unnamed", null, '48201230989', { county: null, countyFips: '48201', tract: '48201230989' }],
    ['the geocoder named no tract: the building names it', { ...HARRIS, tract: null }, '48201230989', { ...HARRIS, tract: '48201230989' }],
  ])('%s', (_, geocoded, tract, area) => {
    expect(areaOfBuilding(geocoded, tract)).toEqual(area);
  });
});
