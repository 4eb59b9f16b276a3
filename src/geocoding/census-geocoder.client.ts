import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import type { GeoPoint } from '../flood-hazard/flood-hazard.types';
import { ResilientUpstream, UpstreamFailure } from '../common/upstream/resilient-upstream';
import { getUpstreamJson, isRecord } from '../common/upstream/upstream-json';
import { OFF_THE_EARTH, isOnEarth } from '../common/geo-point';
import { AddressMatch, Geocoder, PlaceArea } from './geocoder';

export const CENSUS_UPSTREAM = Symbol('CENSUS_UPSTREAM');

const ZCTA_LAYER = '2020 Census ZIP Code Tabulation Areas';
/** The census blocks (its name in the Current vintage); the answer's key is matched by `Census Blocks` alone, as vintages prefix it. */
const BLOCK_LAYER = '2020 Census Blocks';
/** Named in the same call as the county: the tract costs no call of its own. */
const TRACT_LAYER = 'Census Tracts';

/** Where the Census geocoder is and which releases it matches against (both clients ask the same). */
export interface CensusRelease {
  baseUrl: string;
  benchmark: string;
  vintage: string;
}

export function censusRelease(config: ConfigService<AppConfig, true>): CensusRelease {
  return {
    baseUrl: config.get('GEOCODER_BASE_URL', { infer: true }).replace(/\/+$/, ''),
    benchmark: config.get('GEOCODER_BENCHMARK', { infer: true }),
    vintage: config.get('GEOCODER_VINTAGE', { infer: true }),
  };
}

/**
 * The U.S. Census Bureau geocoder (keyless). Answers come as JSON with a `result`; failures as an
 * `errors` array, an HTML page, or a layer whose only element carries a `status` message.
 */
@Injectable()
export class CensusGeocoderClient extends Geocoder {
  readonly description: string;
  private readonly release: CensusRelease;

  constructor(
    private readonly http: HttpService,
    @Inject(CENSUS_UPSTREAM) private readonly upstream: ResilientUpstream,
    config: ConfigService<AppConfig, true>,
  ) {
    super();
    this.release = censusRelease(config);
    this.description = `U.S. Census Bureau Geocoder (${this.release.benchmark})`;
  }

  geocodeAddress(address: string, deadline: AbortSignal): Promise<AddressMatch[]> {
    return this.upstream.operation(() =>
      this.upstream.request(async (signal) => {
        // The block tells the building on the address's side of the street from the one across it; the tract costs no call of its own.
        const result = await this.result('geographies/onelineaddress', { address, layers: `Counties,${TRACT_LAYER},${BLOCK_LAYER}` }, signal);
        const matches = result.addressMatches;
        if (!Array.isArray(matches)) throw new UpstreamFailure('answer without addressMatches', false);
        return matches.map(toAddressMatch);
      }, deadline),
    );
  }

  /** Judged by its own circuit: it fails apart from address geocoding, and "no county here" is an answer. */
  describePoint(point: GeoPoint, deadline: AbortSignal): Promise<PlaceArea> {
    return this.upstream.operation(
      () =>
        this.upstream.request(async (signal) => {
          const params = { x: String(point.lon), y: String(point.lat), layers: `Counties,${ZCTA_LAYER},${TRACT_LAYER}` };
          const result = await this.result('geographies/coordinates', params, signal, true);
          const geographies = isRecord(result.geographies) ? result.geographies : {};
          const county = layerRecord(geographies, 'Counties');
          const zcta = layerRecord(geographies, 'ZIP Code Tabulation');
          return {
            county: text(county?.NAME),
            countyFips: text(county?.GEOID),
            zip: text(zcta?.ZCTA5) ?? text(zcta?.GEOID),
            tract: tractOf(geographies),
          };
        }, deadline),
      'geocoder_point',
    );
  }

  /** On the point's circuit: a building's block is asked as a point's county is. */
  blockAt(point: GeoPoint, deadline: AbortSignal): Promise<string | null> {
    return this.upstream.operation(
      () =>
        this.upstream.request(async (signal) => {
          const params = { x: String(point.lon), y: String(point.lat), layers: BLOCK_LAYER };
          const result = await this.result('geographies/coordinates', params, signal, true);
          return blockOf(isRecord(result.geographies) ? result.geographies : {});
        }, deadline),
      'geocoder_point',
    );
  }

  /**
   * The `result` object of an answer. When `emptyOutsideCoverage`, Census's ways of saying "outside my
   * coverage" (a 404 with any body or none, a `{}`) are an empty result: that is how the real geocoder answers outside its coverage.
   */
  private async result(path: string, params: Record<string, string>, signal: AbortSignal, emptyOutsideCoverage = false): Promise<Record<string, unknown>> {
    const { status, body } = await getUpstreamJson(
      this.http,
      `${this.release.baseUrl}/${path}`,
      { ...params, benchmark: this.release.benchmark, vintage: this.release.vintage, format: 'json' },
      signal,
      { maxBodyBytes: this.upstream.maxBodyBytes, notFoundMeansNone: emptyOutsideCoverage },
    );
    if (emptyOutsideCoverage && (status === 404 || (isRecord(body) && Object.keys(body).length === 0))) return {};
    if (isRecord(body) && Array.isArray(body.errors)) {
      throw new UpstreamFailure(`geocoder errors: ${body.errors.map(String).join('; ')}`, false);
    }
    if (isRecord(body) && isRecord(body.result) && status < 300) return body.result;
    throw new UpstreamFailure(`unexpected answer (HTTP ${status})`, false);
  }
}

function toAddressMatch(match: unknown): AddressMatch {
  if (!isRecord(match) || !isRecord(match.coordinates)) throw new UpstreamFailure('address match without coordinates', false);
  const lon = Number(match.coordinates.x);
  const lat = Number(match.coordinates.y);
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) throw new UpstreamFailure('address match with invalid coordinates', false);
  if (!isOnEarth({ lat, lon })) throw new UpstreamFailure(`address match with ${OFF_THE_EARTH}`, false);
  const geographies = isRecord(match.geographies) ? match.geographies : {};
  const county = layerRecord(geographies, 'Counties');
  const components = isRecord(match.addressComponents) ? match.addressComponents : {};
  return {
    matchedAddress: String(match.matchedAddress ?? ''),
    lat,
    lon,
    county: text(county?.NAME),
    countyFips: text(county?.GEOID),
    zip: text(components.zip),
    tract: tractOf(geographies),
    block: blockOf(geographies),
  };
}

/** The 15-digit GEOID of the block a geographies answer names; null when it names none. */
function blockOf(geographies: Record<string, unknown>): string | null {
  const block = text(layerRecord(geographies, 'Census Blocks')?.GEOID);
  return block !== null && /^\d{15}$/.test(block) ? block : null;
}

/** The tract's GEOID (11 digits) from the `Census Tracts` layer; null when the layer named none or something else. */
function tractOf(geographies: Record<string, unknown>): string | null {
  const geoid = text(layerRecord(geographies, 'Census Tracts')?.GEOID);
  return geoid !== null && /^\d{11}$/.test(geoid) ? geoid : null;
}

/**
 * The first record of the layer whose name contains `name` (names carry vintage prefixes that change
 * between releases). A layer that reports an error status is the server failing (retried), not "no county".
 */
function layerRecord(geographies: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const key = Object.keys(geographies).find((k) => k.includes(name));
  const layer = key === undefined ? undefined : geographies[key];
  if (!Array.isArray(layer) || layer.length === 0) return undefined;
  const first: unknown = layer[0];
  if (!isRecord(first)) return undefined;
  if (typeof first.status === 'string' && first.GEOID === undefined) {
    throw new UpstreamFailure(`geocoder layer "${key}" failed: ${first.status}`, true);
  }
  return first;
}

function text(value: unknown): string | null {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
