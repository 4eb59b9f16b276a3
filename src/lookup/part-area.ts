/**
 * The area an answer part that reads it is told of (PartArea): the census tract and county the Census geocoder named
 * for the point, or, where a building was found, the tract USA Structures names for the building. Pure functions.
 */
import type { PlaceArea } from '../geocoding/geocoder';
import type { PartArea } from '../parts/answer-part';

/** What the Census geocoder named for the point. */
export function partAreaOf({ county, countyFips, tract }: PlaceArea): PartArea {
  // A geocode cached before tracts were asked for has none: the area's record is then unavailable until it expires.
  return { county, countyFips, tract: tract ?? null };
}

/**
 * The area of the building found, given its tract (USA Structures' CENSUSCODE, null when it names none): the building is
 * what the answer is for, and it may lie across a tract line from the point (an address point on the street, a point in
 * a large building's far end). Its county is the tract's own; the geocoder's county name is kept when it is the same
 * county, else unknown. Without a building tract, the geocoder's area as it is (perhaps none).
 */
export function areaOfBuilding(geocoded: PartArea | null, buildingTract: string | null): PartArea | null {
  if (buildingTract === null) return geocoded;
  const countyFips = buildingTract.slice(0, 5);
  return { county: geocoded?.countyFips === countyFips ? geocoded.county : null, countyFips, tract: buildingTract };
}
