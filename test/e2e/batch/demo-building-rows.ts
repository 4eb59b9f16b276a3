/**
 * Rows about the demo buildings (test/emulators/structure-footprints.ts) for the batch and job suites: where the
 * house across Menominee's AE edge stands, and footprints given beside it.
 */
import { demoPlace, metersToDegrees, rectangleFootprint } from '../../emulators';

/** A point inside the house across the west edge of Menominee's AE polygon (the rest of the house in the shaded X). */
export const MENOMINEE_HOUSE_POINT = { lat: 45.1, lon: -87.587296 };

/** That AE polygon's west edge (the shaded X polygon reaches 50 m farther west). */
const AE_WEST_EDGE_LON = -87.587273;

/** A 6 m square footprint (GeoJSON Polygon) centred `metresEast` east of the AE edge (west when negative), at the house's latitude. */
export function footprintAround(metresEast: number): { type: 'Polygon'; coordinates: number[][][] } {
  const { dLon } = metersToDegrees(MENOMINEE_HOUSE_POINT.lat, metresEast);
  return { type: 'Polygon', coordinates: [rectangleFootprint([AE_WEST_EDGE_LON + dLon, MENOMINEE_HOUSE_POINT.lat], 6, 6)] };
}

/** The house wholly in Houston's AE FLOODWAY, found by its address. */
export const HOUSTON_FLOODWAY_HOUSE_ADDRESS = demoPlace('houston-ae-floodway').address!;
