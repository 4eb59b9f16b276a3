import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { CachePolicy, PieceCache } from '../../cache/piece-cache';
import { UpstreamOverCapError, asLookup, earliestAnswerTime, inJobWork, lookupDeadline, untilAborted } from '../../common/upstream/resilient-upstream';
import type { AppConfig } from '../../config/app-config';
import { CountyRecord, DeclarationRow, TractRecord, recordInCounty } from './area-history';
import { AreaRecordPort } from './area-record-port';

/**
 * How many distinct tracts of one county a portfolio job asks for one by one: the next one downloads the whole county.
 * A job's lone tracts (its nationwide tail) cost their own two calls and no more; where its rows crowd, a county of any
 * number of tracts costs its pages.
 */
export const TRACTS_BEFORE_COUNTY = 3;
/** Counties whose tracts are being counted, at most (the oldest counts are dropped first). */
const COUNTED_COUNTIES = 10_000;
/**
 * After a county could not be downloaded (an outage, an error), its tracts are asked one by one for this long. One too
 * large for the byte cap even range by range is remembered as such for HISTORY_TTL_SECONDS, by every replica.
 */
const REFUSED_COUNTY_MS = 60_000;
/**
 * OpenFEMA's time a county's download may take, its turns in the job's budget not counted: its own, not the rows' that
 * wait for it, so that rows running out of time never leave it half done (a large county is many pages).
 */
const COUNTY_DOWNLOAD_MS = 120_000;
/** The counties' records held in this process, at most (the JSON's length of each), the least recently used first out. */
const HELD_BYTES = 32 * 1024 * 1024;
/** A county's record larger than this share of HELD_BYTES is not held: it would push out all the others. */
const LARGEST_SHARE = 0.25;

/** What is kept of a county's download: its record, or why it is too large to read within the byte cap. */
type CountyDownload = CountyRecord | { countyFips: string; tooLarge: string };

interface HeldCounty {
  record: CountyRecord;
  bytes: number;
  /** When it was downloaded (epoch ms), and until when it is fresh. */
  storedAt: number;
  freshUntil: number;
}

/**
 * The area's record of a tract as the history part asks it: asked of OpenFEMA for the tract alone, or read from the
 * record of its whole county. Where a portfolio job has asked for TRACTS_BEFORE_COUNTY tracts of one county, the county
 * is downloaded once (through the shared cache, so one replica downloads it for all, and every replica's copy expires
 * like a cached piece), held in this process, and every tract of it is read from there: OpenFEMA has no aggregation to
 * rely on, and a county's claims and policies come in a few pages where its tracts would cost two calls each.
 * Interactive lookups read what is held, never download a county. A county that cannot be downloaded leaves its tracts
 * asked one by one, never answered as empty; one too large for the byte cap even range by range (see
 * OpenFemaHistoryClient.countyRecord) is not asked again while its record would have been kept.
 */
@Injectable()
export class TractRecords {
  private readonly counties = new Map<string, HeldCounty>();
  private heldBytes = 0;
  private readonly ttlMs: number;
  private readonly policy: CachePolicy<CountyDownload>;
  private readonly tractsAsked = new Map<string, Set<string>>();
  private readonly refusedUntil = new Map<string, number>();
  /** The downloads under way in this process, by county. */
  private readonly downloads = new Map<string, Promise<HeldCounty | undefined>>();
  private readonly logger = new Logger('TractRecords');

  constructor(
    private readonly openfema: AreaRecordPort,
    private readonly pieces: PieceCache,
    config: ConfigService<AppConfig, true>,
  ) {
    const ttlSeconds = config.get('HISTORY_TTL_SECONDS', { infer: true });
    this.ttlMs = ttlSeconds * 1000;
    // Shared through Redis when there is one (kept there only, see PieceCache); never in the in-process LRU, which
    // bounds entries, not bytes: without Redis each process downloads its own counties.
    this.policy = { ttlSeconds: config.get('REDIS_URL', { infer: true }) ? ttlSeconds : 0, staleIfErrorSeconds: 0 };
  }

  /**
   * The tract's record: from its county's when held; for a portfolio job, once it has asked for enough of the county's
   * tracts, from the county downloaded now; else asked of OpenFEMA for the tract alone.
   */
  async tractRecord(tract: string, deadline: AbortSignal): Promise<TractRecord> {
    if (this.ttlMs === 0) return this.openfema.tractRecord(tract, deadline);
    const countyFips = tract.slice(0, 5);
    const held = this.heldCounty(countyFips);
    if (held) return recordInCounty(held.record, tract);
    if (!inJobWork() || !this.manyTractsAsked(countyFips, tract)) return this.openfema.tractRecord(tract, deadline);
    const downloaded = await untilAborted(this.download(countyFips), deadline);
    return downloaded ? recordInCounty(downloaded.record, tract) : this.openfema.tractRecord(tract, deadline);
  }

  /** Every disaster declaration row of the county, asked of OpenFEMA (the part keeps them per county). */
  countyDeclarations(countyFips: string, deadline: AbortSignal): Promise<DeclarationRow[]> {
    return this.openfema.countyDeclarations(countyFips, deadline);
  }

  /** The fresh county held, now the most recently used. */
  private heldCounty(countyFips: string): HeldCounty | undefined {
    const county = this.counties.get(countyFips);
    if (!county) return undefined;
    this.counties.delete(countyFips);
    if (county.freshUntil <= Date.now()) {
      this.heldBytes -= county.bytes;
      return undefined;
    }
    this.counties.set(countyFips, county);
    return county.storedAt >= earliestAnswerTime() ? county : undefined;
  }

  /**
   * Whether the job has now asked for enough distinct tracts of the county, counting this one. The count stays: the
   * tracts after it join the download under way, and download the county again once it has expired.
   */
  private manyTractsAsked(countyFips: string, tract: string): boolean {
    if ((this.refusedUntil.get(countyFips) ?? 0) > Date.now()) return false;
    const asked = this.tractsAsked.get(countyFips) ?? new Set<string>();
    if (asked.size < TRACTS_BEFORE_COUNTY) asked.add(tract);
    // Re-inserted: the most recently counted county is the last to be dropped.
    this.tractsAsked.delete(countyFips);
    this.tractsAsked.set(countyFips, asked);
    if (this.tractsAsked.size > COUNTED_COUNTIES) this.tractsAsked.delete(this.tractsAsked.keys().next().value as string);
    return asked.size >= TRACTS_BEFORE_COUNTY;
  }

  /** The county downloaded (once for every waiting row of this process and every replica, see PieceCache); undefined when it could not be. */
  private download(countyFips: string): Promise<HeldCounty | undefined> {
    const under = this.downloads.get(countyFips);
    if (under) return under;
    const downloading = this.downloadAndHold(countyFips).finally(() => this.downloads.delete(countyFips));
    this.downloads.set(countyFips, downloading);
    return downloading;
  }

  private async downloadAndHold(countyFips: string): Promise<HeldCounty | undefined> {
    const own = lookupDeadline(COUNTY_DOWNLOAD_MS);
    try {
      // Its calls start while it has time of its own left, whatever time the row that started it has.
      const read = await asLookup(own, () =>
        this.pieces.getOrLoad('held', `history-county/${countyFips}`, this.policy, (signal) => this.downloadOf(countyFips, signal), {
          signal: own.signal,
          gaveUp: () => own.signal.reason as unknown,
        }),
      );
      if ('tooLarge' in read.piece.value) {
        // Its rows ask for their tracts one by one, as long as its record would have been kept: it will not shrink sooner.
        this.refuse(countyFips, read.piece.storedAt + this.ttlMs);
        if (read.status === 'MISS') this.logger.warn(`county ${countyFips} asked tract by tract: ${read.piece.value.tooLarge}`);
        return undefined;
      }
      const county: HeldCounty = {
        record: read.piece.value,
        bytes: JSON.stringify(read.piece.value).length,
        storedAt: read.piece.storedAt,
        freshUntil: read.piece.storedAt + this.ttlMs,
      };
      if (county.bytes > HELD_BYTES * LARGEST_SHARE) this.refuse(countyFips, Date.now() + REFUSED_COUNTY_MS);
      else this.keep(countyFips, county);
      return county;
    } catch {
      // Its rows ask for their tracts one by one; an outage fails them there, as it would have.
      this.refuse(countyFips, Date.now() + REFUSED_COUNTY_MS);
      return undefined;
    } finally {
      own.end();
    }
  }

  /** The county's record, or, where even its narrowest ranges pass the byte cap, that it is too large: kept like a record. */
  private async downloadOf(countyFips: string, signal: AbortSignal): Promise<CountyDownload> {
    try {
      return await this.openfema.countyRecord(countyFips, signal);
    } catch (error) {
      if (error instanceof UpstreamOverCapError) return { countyFips, tooLarge: error.reason };
      throw error;
    }
  }

  private refuse(countyFips: string, until: number): void {
    this.refusedUntil.set(countyFips, until);
    for (const [refused, refusedUntil] of this.refusedUntil) if (refusedUntil <= Date.now()) this.refusedUntil.delete(refused);
  }

  private keep(countyFips: string, county: HeldCounty): void {
    const replaced = this.counties.get(countyFips);
    if (replaced) this.heldBytes -= replaced.bytes;
    this.counties.delete(countyFips);
    this.counties.set(countyFips, county);
    this.heldBytes += county.bytes;
    for (const [oldest, { bytes }] of this.counties) {
      if (this.heldBytes <= HELD_BYTES) break;
      this.counties.delete(oldest);
      this.heldBytes -= bytes;
    }
  }
}
