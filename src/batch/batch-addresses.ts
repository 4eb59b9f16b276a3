import type { CachePolicy } from '../cache/piece-cache';
import { lookupDeadline } from '../common/upstream/resilient-upstream';
import type { BatchAddress, BatchGeocode, BatchGeocoder } from '../geocoding/census-batch-geocoder';
import { CENSUS_BATCH_CHUNK_ROWS } from '../geocoding/census-batch-geocoder';
import { normaliseAddress, placeAt } from '../geocoding/geocode-cache';
import type { AddressMatch, Geocoder } from '../geocoding/geocoder';
import type { AddressGeocode } from '../lookup/lookup.service';
import type { BatchMemo } from './batch-memo';

export interface BatchAddressesOptions {
  batchGeocoder: BatchGeocoder;
  geocoder: Geocoder;
  memo: BatchMemo;
  /** The geocode cache's policy, which the county of a point is cached under too (as GET does). */
  geocodePolicy: CachePolicy;
  /** How long one batch geocoder call may take. */
  deadlineMs: number;
  cancelled: AbortSignal;
}

/**
 * The addresses of one batch, geocoded by the Census batch geocoder in chunks of at most 1,000 distinct
 * addresses (spellings that normalise alike count once), each chunk asked for when its first row is
 * reached and the next one meanwhile. A row's lookup then takes its answer from `geocode`, in place of the
 * one-line geocoder, as the loader of the shared cached geocode: a later GET of the address is a hit.
 */
export class BatchAddresses {
  /** Where each distinct address (normalised) is sent: its chunk and its row id there. */
  private readonly sentAs = new Map<string, { chunk: number; id: string }>();
  private readonly chunks: BatchAddress[][] = [];
  private readonly answers: Array<Promise<Map<string, BatchGeocode>>> = [];

  constructor(
    addresses: Iterable<string>,
    private readonly options: BatchAddressesOptions,
  ) {
    for (const address of addresses) {
      const key = normaliseAddress(address);
      if (this.sentAs.has(key)) continue;
      const id = String(this.sentAs.size);
      const chunk = Math.floor(this.sentAs.size / CENSUS_BATCH_CHUNK_ROWS);
      (this.chunks[chunk] ??= []).push({ id, address });
      this.sentAs.set(key, { chunk, id });
    }
  }

  /** Resolves once the batch geocoder has answered for this address's chunk. */
  async ready(address: string): Promise<void> {
    const sent = this.sentAs.get(normaliseAddress(address));
    if (!sent) return;
    void this.ask(sent.chunk + 1);
    await this.ask(sent.chunk);
  }

  /**
   * A Match as the batch geocoder gave it (county named from its FIPS code, or by the cached county
   * lookup of the point when the shipped table lacks the code); No_Match, Tie and failed rows go to the
   * one-line geocoder, whose answer (none, several) is the one GET gives.
   */
  readonly geocode: AddressGeocode = async (address, signal) => {
    const answer = await this.answerFor(address);
    if (answer?.kind !== 'match') return this.options.geocoder.geocodeAddress(address, signal);
    const { match } = answer;
    if (match.county !== null || match.countyFips === null) return [match];
    return [await this.namedCounty(match, signal)];
  };

  private async answerFor(address: string): Promise<BatchGeocode | undefined> {
    const sent = this.sentAs.get(normaliseAddress(address));
    return sent && (await this.ask(sent.chunk)).get(sent.id);
  }

  private ask(chunk: number): Promise<Map<string, BatchGeocode>> {
    if (chunk >= this.chunks.length) return Promise.resolve(new Map());
    return (this.answers[chunk] ??= this.geocodeChunk(chunk));
  }

  /**
   * The batch geocoder's answer for a chunk. A chunk whose call went wrong in any way is a chunk of failed rows:
   * each goes to the one-line geocoder. Its deadline is a lookup's, so in a portfolio job the wait for the
   * shared budget does not count against it.
   */
  private async geocodeChunk(chunk: number): Promise<Map<string, BatchGeocode>> {
    const deadline = lookupDeadline(this.options.deadlineMs);
    try {
      return await this.options.batchGeocoder.geocodeBatch(this.chunks[chunk], AbortSignal.any([this.options.cancelled, deadline.signal]));
    } catch {
      return new Map();
    } finally {
      deadline.end();
    }
  }

  /** Waits for the county as long as the geocode it completes is waited for (`signal`, the geocode load's). */
  private async namedCounty(match: AddressMatch, signal: AbortSignal): Promise<AddressMatch> {
    const { memo, geocoder, geocodePolicy } = this.options;
    try {
      const place = await placeAt(memo, geocoder, geocodePolicy, match, { signal, gaveUp: () => signal.reason });
      return { ...match, county: place.piece.value.county };
    } catch {
      // The county is context: without it the flood answer still stands (as for a lat/lon lookup).
      return match;
    }
  }
}
