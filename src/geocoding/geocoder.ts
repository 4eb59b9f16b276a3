import type { GeoPoint } from '../flood-hazard/flood-hazard.types';

/** Where a point lies administratively; any part may be unknown (null). */
export interface PlaceArea {
  county: string | null;
  countyFips: string | null;
  zip: string | null;
  /** The 11-digit census tract GEOID (the area's flood record is the tract's). */
  tract: string | null;
}

export interface AddressMatch extends GeoPoint, PlaceArea {
  matchedAddress: string;
  /**
   * The 2020 census block (15-digit GEOID) the geocoder put the address in: the block on the address's side of the
   * street, though the point lies on the street's centre line. Missing or null when the geocoder did not say.
   */
  block?: string | null;
}

/** Turns addresses into points and points into county/ZIP. The use case sees this, never HTTP. */
export abstract class Geocoder {
  /** What `source.geocoder` names, e.g. "U.S. Census Bureau Geocoder (Public_AR_Current)". */
  abstract readonly description: string;

  /** Every match the geocoder returns for a one-line address, best first; [] when none. */
  abstract geocodeAddress(address: string, deadline: AbortSignal): Promise<AddressMatch[]>;

  /** County and ZIP Code Tabulation Area containing a point; nulls outside coverage. */
  abstract describePoint(point: GeoPoint, deadline: AbortSignal): Promise<PlaceArea>;

  /** The 2020 census block (15-digit GEOID) containing a point; null outside coverage. */
  abstract blockAt(point: GeoPoint, deadline: AbortSignal): Promise<string | null>;
}
