import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiError } from '../common/api-error';
import type { AppConfig } from '../config/app-config';
import { CachePolicy, CacheRead, CacheStatus, LookupCache } from '../cache/lookup-cache';
import { determineFloodHazard, femaMapUrl } from '../flood-hazard/classification';
import { FloodHazardSource } from '../flood-hazard/flood-hazard-source';
import type { FloodDetermination, GeoPoint } from '../flood-hazard/flood-hazard.types';
import { AddressMatch, Geocoder, PlaceArea } from '../geocoding/geocoder';
import type { LocationQuery } from './dto/flood-zone-query.pipe';
import { DISCLAIMER, FLOOD_DATA_NAME, FloodZoneLookup } from './flood-zone-lookup';

/** Matches closer than this are one place (the geocoder returns near-duplicates for one address). */
const SAME_PLACE_METRES = 100;

export interface LookupAnswer {
  body: FloodZoneLookup;
  cacheStatus: CacheStatus;
  /** Seconds until the oldest cached part of the answer expires. */
  maxAgeSeconds: number;
}

/** The /flood-zone use case: geocode if needed, read the flood map at the point, classify, cite sources. */
@Injectable()
export class LookupService {
  private readonly floodPolicy: CachePolicy;
  private readonly geocodePolicy: CachePolicy;
  private readonly deadlineMs: number;

  constructor(
    private readonly floodSource: FloodHazardSource,
    private readonly geocoder: Geocoder,
    private readonly cache: LookupCache,
    config: ConfigService<AppConfig, true>,
  ) {
    this.floodPolicy = {
      ttlSeconds: config.get('CACHE_TTL_SECONDS', { infer: true }),
      staleIfErrorSeconds: config.get('STALE_IF_ERROR_SECONDS', { infer: true }),
    };
    this.geocodePolicy = { ttlSeconds: config.get('GEOCODE_CACHE_TTL_SECONDS', { infer: true }), staleIfErrorSeconds: 0 };
    this.deadlineMs = config.get('LOOKUP_DEADLINE_MS', { infer: true });
  }

  async lookup(query: LocationQuery): Promise<LookupAnswer> {
    const deadline = AbortSignal.timeout(this.deadlineMs);
    return query.kind === 'address' ? this.lookupAddress(query.address, deadline) : this.lookupPoint(query, deadline);
  }

  private async lookupAddress(address: string, deadline: AbortSignal): Promise<LookupAnswer> {
    const geocode = await this.cache.getOrLoad('geocode', normaliseAddress(address), this.geocodePolicy, () =>
      this.geocoder.geocodeAddress(address, deadline),
    );
    const match = singlePlace(geocode.entry.value);
    const flood = await this.floodAt(match, deadline);
    return this.answer(
      { address, lat: null, lon: null },
      locationOf(match.matchedAddress, match, match, 'census_geocoder'),
      flood,
      [geocode, flood],
    );
  }

  private async lookupPoint(point: GeoPoint, deadline: AbortSignal): Promise<LookupAnswer> {
    const [flood, place] = await Promise.all([
      this.floodAt(point, deadline),
      // County and ZCTA are context: their failure leaves them unknown, never the flood answer.
      this.cache
        .getOrLoad('place', pointKey(point), this.geocodePolicy, () => this.geocoder.describePoint(roundPoint(point), deadline))
        .catch(() => undefined),
    ]);
    const area: PlaceArea = place?.entry.value ?? { county: null, countyFips: null, zip: null };
    return this.answer(
      { address: null, lat: point.lat, lon: point.lon },
      locationOf(null, point, area, 'coordinates'),
      flood,
      place ? [flood, place] : [flood, { status: 'MISS' }],
    );
  }

  /** The flood answer at a point, cached by the point rounded to 6 decimals (about 0.1 m). */
  private floodAt(point: GeoPoint, deadline: AbortSignal): Promise<CacheRead<FloodDetermination>> {
    const rounded = roundPoint(point);
    return this.cache.getOrLoad('flood', pointKey(rounded), this.floodPolicy, async () =>
      determineFloodHazard(await this.floodSource.pointData(rounded, deadline), rounded),
    );
  }

  private answer(
    query: FloodZoneLookup['query'],
    location: FloodZoneLookup['location'],
    flood: CacheRead<FloodDetermination>,
    parts: Array<{ status: CacheStatus; entry?: { freshUntil: number } }>,
  ): LookupAnswer {
    const now = Date.now();
    const stale = flood.status === 'STALE';
    const maxAgeSeconds = stale
      ? 0
      : Math.max(0, Math.floor((Math.min(...parts.map((p) => p.entry?.freshUntil ?? now)) - now) / 1000));
    return {
      body: {
        query,
        location,
        // The flood answer is shared by every query rounding to the same point; the map link is this query's own.
        result: { ...flood.entry.value, femaMapUrl: femaMapUrl(location) },
        source: { floodData: FLOOD_DATA_NAME, floodService: this.floodSource.serviceUrl, geocoder: this.geocoder.description },
        retrievedAt: new Date(flood.entry.storedAt).toISOString(),
        disclaimer: DISCLAIMER,
      },
      cacheStatus: stale ? 'STALE' : parts.every((p) => p.status === 'HIT') ? 'HIT' : 'MISS',
      maxAgeSeconds,
    };
  }
}

function locationOf(
  matchedAddress: string | null,
  point: GeoPoint,
  area: PlaceArea,
  source: FloodZoneLookup['location']['source'],
): FloodZoneLookup['location'] {
  return { matchedAddress, lat: point.lat, lon: point.lon, county: area.county, countyFips: area.countyFips, zip: area.zip, source };
}

/** Trimmed, whitespace collapsed, case-folded: spellings that differ only so share one cache entry. */
export function normaliseAddress(address: string): string {
  return address.trim().replace(/\s+/g, ' ').toLowerCase();
}

function roundPoint(point: GeoPoint): GeoPoint {
  return { lat: Math.round(point.lat * 1e6) / 1e6, lon: Math.round(point.lon * 1e6) / 1e6 };
}

function pointKey(point: GeoPoint): string {
  const rounded = roundPoint(point);
  return `${rounded.lat.toFixed(6)},${rounded.lon.toFixed(6)}`;
}

/** One match, or several within 100 m of each other (the first counts); otherwise the client must choose. */
function singlePlace(matches: AddressMatch[]): AddressMatch {
  if (matches.length === 0) {
    throw new ApiError(404, 'ADDRESS_NOT_FOUND', 'The address could not be found by the Census geocoder. Check it, or give lat and lon.');
  }
  const [first] = matches;
  if (matches.every((m) => matches.every((other) => metresBetween(m, other) <= SAME_PLACE_METRES))) return first;
  throw new ApiError(404, 'AMBIGUOUS_ADDRESS', 'The address matches several places; retry with the lat and lon of the one you mean.', {
    candidates: matches.map((m) => ({ matchedAddress: m.matchedAddress, lat: m.lat, lon: m.lon })),
  });
}

/** Great-circle distance (haversine); ample precision at the 100 m scale. */
function metresBetween(a: GeoPoint, b: GeoPoint): number {
  const toRad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = toRad(b.lat - a.lat);
  const dLon = toRad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a.lat)) * Math.cos(toRad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h));
}
