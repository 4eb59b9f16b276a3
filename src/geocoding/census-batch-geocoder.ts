import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { unknownOnFailure } from '../common/api-error';
import { ResilientUpstream, UpstreamFailure } from '../common/upstream/resilient-upstream';
import { rejectHtmlPage, rejectServerFailure, sendUpstream } from '../common/upstream/upstream-json';
import type { AppConfig } from '../config/app-config';
import { isOnEarth } from '../common/geo-point';
import { CENSUS_UPSTREAM, CensusRelease, censusRelease } from './census-geocoder.client';
import { countyName } from './county-names';
import type { AddressMatch } from './geocoder';

/** The most rows sent in one batch call (the service takes 10,000, but answers 1,000 far more reliably). */
export const CENSUS_BATCH_CHUNK_ROWS = 1000;

/**
 * What the batch geocoder says about one address. A `match` is built like the one-line geocoder's first
 * match, except that `county` is null when the shipped county table does not know `countyFips` (ask the
 * geocoder about the point then). `no_match`, `tie` and `failed` (the call for its chunk failed, or the
 * address cannot be sent in a batch) are looked up through the one-line endpoint instead, whose answer is
 * the one GET gives.
 */
export type BatchGeocode = { kind: 'match'; match: AddressMatch } | { kind: 'no_match' } | { kind: 'tie' } | { kind: 'failed' };

export interface BatchAddress {
  /** Unique within one call: the answer is joined back on it. */
  id: string;
  /** A one-line address. */
  address: string;
}

/** Geocodes many addresses in few upstream calls. The batch use case sees this, never HTTP. */
export abstract class BatchGeocoder {
  /** One answer per row, keyed by the row's id. */
  abstract geocodeBatch(rows: readonly BatchAddress[], deadline: AbortSignal): Promise<Map<string, BatchGeocode>>;
}

const FAILED: BatchGeocode = { kind: 'failed' };
const NO_MATCH: BatchGeocode = { kind: 'no_match' };
const TIE: BatchGeocode = { kind: 'tie' };

/** The batch service reads and writes ISO-8859-1: other characters would arrive mangled. */
// eslint-disable-next-line no-control-regex -- the range starts at U+0000 on purpose: every Latin-1 character is allowed.
const LATIN1_ONLY = /^[\u0000-\u00ff]*$/;

/**
 * The U.S. Census Bureau batch geocoder: `geographies/addressbatch`, a CSV file in (no header row) and a CSV
 * file out, rows out of order, with state and county FIPS codes but no county name (that comes from the
 * shipped table). Calls go through the geocoder's resilience policies; an HTML page instead of CSV (the
 * HTML 400 that about one call in three gets) is transient and retried.
 */
@Injectable()
export class CensusBatchGeocoder extends BatchGeocoder {
  private readonly url: string;
  private readonly release: CensusRelease;

  constructor(
    private readonly http: HttpService,
    @Inject(CENSUS_UPSTREAM) private readonly upstream: ResilientUpstream,
    config: ConfigService<AppConfig, true>,
  ) {
    super();
    this.release = censusRelease(config);
    this.url = `${this.release.baseUrl}/geographies/addressbatch`;
  }

  async geocodeBatch(rows: readonly BatchAddress[], deadline: AbortSignal): Promise<Map<string, BatchGeocode>> {
    const sendable = rows.filter((row) => LATIN1_ONLY.test(row.id) && LATIN1_ONLY.test(row.address));
    const chunks: BatchAddress[][] = [];
    for (let start = 0; start < sendable.length; start += CENSUS_BATCH_CHUNK_ROWS) {
      chunks.push(sendable.slice(start, start + CENSUS_BATCH_CHUNK_ROWS));
    }
    const answered = await Promise.all(chunks.map((chunk) => this.geocodeChunk(chunk, deadline)));
    const byId = new Map(answered.flatMap((answer) => [...answer]));
    return new Map(rows.map((row) => [row.id, byId.get(row.id) ?? FAILED]));
  }

  /** One batch call; a failed call is an empty answer (every row of it then counts as failed). */
  private async geocodeChunk(chunk: BatchAddress[], deadline: AbortSignal): Promise<Map<string, BatchGeocode>> {
    // The whole one-line address goes in the street column; city, state and ZIP stay empty.
    const addressFile = stringify(chunk.map((row) => [row.id, row.address, '', '', '']));
    const answer = await unknownOnFailure(
      this.upstream.operation(() => this.upstream.request(async (signal) => parseBatchAnswer(await this.post(addressFile, signal)), deadline)),
    );
    return answer ?? new Map();
  }

  private async post(addressFile: string, signal: AbortSignal): Promise<string> {
    const form = new FormData();
    form.append('addressFile', new Blob([Buffer.from(addressFile, 'latin1')], { type: 'text/csv' }), 'addresses.csv');
    form.append('benchmark', this.release.benchmark);
    form.append('vintage', this.release.vintage);
    const response = await sendUpstream(
      this.http.axiosRef.post<ArrayBuffer>(this.url, form, {
        signal,
        responseType: 'arraybuffer',
        validateStatus: () => true,
        maxContentLength: this.upstream.maxBodyBytes,
      }),
      signal,
    );
    const { status } = response;
    const text = Buffer.from(response.data).toString('latin1');
    rejectServerFailure(status);
    rejectHtmlPage(response, text, 'CSV');
    if (status !== 200) throw new UpstreamFailure(`unexpected answer (HTTP ${status})`, false);
    return text;
  }
}

/**
 * The rows of a batch answer by id. Columns: id, input address, Match | No_Match | Tie, then for a match
 * Exact | Non_Exact, matched address, "lon,lat", TIGER line id, side, state FIPS, county FIPS, tract, block.
 * A row of another kind, or a match without usable coordinates (none, or off the earth), is left out (so counted as failed).
 */
function parseBatchAnswer(text: string): Map<string, BatchGeocode> {
  let records: string[][];
  try {
    records = parse(text, { relax_column_count: true, skip_empty_lines: true });
  } catch {
    throw new UpstreamFailure('malformed CSV answer', false);
  }
  const answers = new Map<string, BatchGeocode>();
  for (const [id, , kind, , matchedAddress, coordinates, , , state, county, tract, block] of records) {
    if (kind === 'No_Match') answers.set(id, NO_MATCH);
    else if (kind === 'Tie') answers.set(id, TIE);
    else if (kind === 'Match') {
      const match = toAddressMatch(matchedAddress, coordinates, { state, county, tract, block });
      if (match) answers.set(id, { kind: 'match', match });
    }
  }
  return answers;
}

function toAddressMatch(
  matchedAddress: string | undefined,
  coordinates: string | undefined,
  { state, county, tract, block }: Partial<Record<'state' | 'county' | 'tract' | 'block', string>>,
): AddressMatch | undefined {
  const [lon, lat] = (coordinates ?? '').split(',').map((part) => (part.trim() === '' ? NaN : Number(part)));
  if (matchedAddress === undefined || !Number.isFinite(lat) || !Number.isFinite(lon) || !isOnEarth({ lat, lon })) return undefined;
  const countyFips = state && county ? `${state}${county}` : null;
  return {
    matchedAddress,
    lat,
    lon,
    county: countyFips === null ? null : countyName(countyFips),
    countyFips,
    zip: zipOf(matchedAddress),
    block: blockGeoid(countyFips, tract, block),
    // The tract column is its 6-digit code within the county: with the county, the tract's GEOID.
    tract: countyFips !== null && /^\d{6}$/.test(tract ?? '') ? `${countyFips}${tract}` : null,
  };
}

/** The block's 15-digit GEOID from its columns (county FIPS, 6-digit tract, 4-digit block); null when one is missing. */
function blockGeoid(countyFips: string | null, tract: string | undefined, block: string | undefined): string | null {
  const geoid = `${countyFips ?? ''}${tract ?? ''}${block ?? ''}`;
  return /^\d{15}$/.test(geoid) ? geoid : null;
}

/**
 * The ZIP ending a matched address ("…, WASHINGTON, DC, 20502"): the matched range's postal ZIP, which the
 * one-line geocoder reports as addressComponents.zip (they agree in every recorded answer).
 */
function zipOf(matchedAddress: string): string | null {
  const last = matchedAddress.slice(matchedAddress.lastIndexOf(',') + 1).trim();
  return /^\d{5}$/.test(last) ? last : null;
}
