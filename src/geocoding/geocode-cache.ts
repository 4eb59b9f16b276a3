import type { ConfigService } from '@nestjs/config';
import CheapRuler from 'cheap-ruler';
import type { CachePolicy, CacheRead, PieceLoad, PieceReader, PieceWait } from '../cache/piece-cache';
import { ApiError } from '../common/api-error';
import { GeoPoint, pointKey, roundPoint } from '../common/geo-point';
import type { AppConfig } from '../config/app-config';
import type { AddressMatch, Geocoder, PlaceArea } from './geocoder';

/** Matches closer than this are one place (the geocoder returns near-duplicates for one address). */
const SAME_PLACE_METRES = 100;

/**
 * Geocodes and places cached before they named the census tract lack it (and the area's record with it): kept under
 * keys of their own, they are asked again once rather than served without a tract for GEOCODE_CACHE_TTL_SECONDS.
 */
const WITH_TRACT = 'tract';

/** Trimmed, whitespace collapsed, case-folded: spellings that differ only so share one cached piece. */
export function normaliseAddress(address: string): string {
  return address.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** How long geocodes and the county of a point are cached (GEOCODE_CACHE_TTL_SECONDS); a failed geocode is never answered stale. */
export function geocodePolicyOf(config: ConfigService<AppConfig, true>): CachePolicy {
  return { ttlSeconds: config.get('GEOCODE_CACHE_TTL_SECONDS', { infer: true }), staleIfErrorSeconds: 0 };
}

/** The matches of an address, cached by the address normalised: lookups and map pictures of it share the piece. */
export function addressMatches(
  pieces: PieceReader,
  policy: CachePolicy,
  address: string,
  load: PieceLoad<AddressMatch[]>,
  wait: PieceWait,
): Promise<CacheRead<AddressMatch[]>> {
  return pieces.getOrLoad('geocode', `${WITH_TRACT}:${normaliseAddress(address)}`, policy, load, wait);
}

/**
 * County and ZCTA of a point (the Census coordinates lookup), cached by the point rounded to 6 decimals:
 * lat/lon lookups and the batch's county names share the piece.
 */
export function placeAt(pieces: PieceReader, geocoder: Geocoder, policy: CachePolicy, point: GeoPoint, wait: PieceWait): Promise<CacheRead<PlaceArea>> {
  const rounded = roundPoint(point);
  return pieces.getOrLoad('place', placeKey(rounded), policy, (signal) => geocoder.describePoint(rounded, signal), wait);
}

/** The key of a point's place piece (the point rounded as roundPoint does). */
export function placeKey(rounded: GeoPoint): string {
  return `${WITH_TRACT}:${pointKey(rounded)}`;
}

/** One match, or several within 100 m of each other (the first counts); otherwise the client must choose. */
export function singlePlace(matches: AddressMatch[]): AddressMatch {
  if (matches.length === 0) {
    throw new ApiError(404, 'ADDRESS_NOT_FOUND', 'The address could not be found by the Census geocoder. Check it, or give lat and lon.');
  }
  const [first] = matches;
  if (matches.every((m) => matches.every((other) => metresBetween(m, other) <= SAME_PLACE_METRES))) return first;
  throw new ApiError(404, 'AMBIGUOUS_ADDRESS', 'The address matches several places; retry with the lat and lon of the one you mean.', {
    candidates: matches.map((m) => ({ matchedAddress: m.matchedAddress, lat: m.lat, lon: m.lon })),
  });
}

/** Distance on the WGS84 ellipsoid, flat-earth approximated: within a metre of the true distance at the 100 m scale. */
function metresBetween(a: GeoPoint, b: GeoPoint): number {
  return new CheapRuler(a.lat, 'meters').distance([a.lon, a.lat], [b.lon, b.lat]);
}
