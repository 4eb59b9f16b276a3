import { Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Keyv } from 'keyv';
import { withinBudget } from '../cache/piece-cache';
import { UpstreamUnavailableError } from '../common/api-error';
import { COMMUNITY_STATUS_FIELDS, CommunityStatusIndex, CommunityStatusRow, NfipStatus } from '../parts/nfip-status/nfip-status';
import { NfipStatusPort } from '../parts/nfip-status/nfip-status-port';
import { OpenFemaClient } from './openfema.client';

/** After a failed download, the next try comes this soon (or at the regular refresh, if sooner). */
export const FAILED_LOAD_RETRY_MS = 10 * 60 * 1000;

/** The key of the table in the shared cache. */
export const SHARED_TABLE_KEY = 'nfip-community-status-book';

/** One read or write of the whole table (a few MB) in the shared cache; past this, Redis is taken as away. */
const SHARED_TABLE_BUDGET_MS = 1000;

/** The table as replicas share it: compact, each row the used fields in the order `fields` names them. */
interface SharedTable {
  /** When it was downloaded from OpenFEMA (epoch ms). */
  downloadedAt: number;
  fields: readonly string[];
  rows: unknown[][];
}

/**
 * FEMA's NFIP Community Status Book, held in memory: downloaded whole in the background from module init
 * (start-up and readiness never wait for it), downloaded again every COMMUNITY_STATUS_REFRESH_HOURS, and
 * after a failure sooner. A failed download keeps the table already held, however old: its rows carry
 * their own `lastRefresh`, so an answer shows its age. With a shared cache (Redis), a download is kept there
 * for the refresh period and every load reads it first: a new replica has the table at once, and the
 * replicas together download it about once a period. A Redis outage only means a download.
 */
export class CommunityStatusBook extends NfipStatusPort implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('CommunityStatusBook');
  private index: CommunityStatusIndex | undefined;
  private loading: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** When the next load is due (epoch ms): a lookup past it starts the load, should its timer be late (a suspended host). */
  private nextLoadAt = Infinity;
  /** When the table held was downloaded from OpenFEMA, here or by another replica (epoch ms). */
  private downloadedAt = -Infinity;
  private tablesHeld = 0;
  private readonly stopped = new AbortController();

  constructor(
    private readonly client: OpenFemaClient,
    private readonly refreshMs: number,
    /** The shared cache's Redis tier; none without REDIS_URL (another in-process copy would only cost memory). */
    private readonly shared?: Keyv,
  ) {
    super();
  }

  onModuleInit(): void {
    void this.load();
  }

  onModuleDestroy(): void {
    clearTimeout(this.timer);
    this.stopped.abort();
  }

  lookup(communityId: string): Readonly<NfipStatus> | undefined {
    if (Date.now() >= this.nextLoadAt) void this.load();
    return this.index?.lookup(communityId);
  }

  mapDated(communityId: string): boolean | null | undefined {
    return this.index?.mapDated(communityId);
  }

  get tableVersion(): number {
    return this.tablesHeld;
  }

  loadInProgress(): Promise<void> {
    return this.loading ?? Promise.resolve();
  }

  async heldSince(at: number): Promise<void> {
    if (this.downloadedAt >= at) return;
    await this.loadInProgress();
    if (this.downloadedAt >= at) return;
    this.loading ??= this.download().finally(() => {
      this.loading = undefined;
    });
    await this.loading;
  }

  private load(): Promise<void> {
    this.loading ??= this.refresh().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /** The shared copy when another replica downloaded one within the refresh period, else a download. */
  private async refresh(): Promise<void> {
    const shared = await this.readShared();
    if (shared && shared.downloadedAt > this.downloadedAt && Date.now() < shared.downloadedAt + this.refreshMs) {
      const index = new CommunityStatusIndex(shared.rows.map(rowOf));
      this.hold(index, shared.downloadedAt);
      this.logger.log({ communities: index.size }, `NFIP Community Status Book loaded from the shared cache: ${index.size} communities`);
      this.scheduleLoad(shared.downloadedAt + this.refreshMs - Date.now());
      return;
    }
    await this.download();
  }

  private async download(): Promise<void> {
    const started = performance.now();
    let loaded = false;
    try {
      const rows = await this.client.communityStatusBook(this.stopped.signal);
      const index = new CommunityStatusIndex(rows);
      this.hold(index, Date.now());
      this.writeShared(rows);
      loaded = true;
      const ms = Math.round(performance.now() - started);
      this.logger.log(
        { upstream: this.client.upstream.name, communities: index.size, ms },
        `NFIP Community Status Book loaded: ${index.size} communities in ${ms} ms`,
      );
    } catch (error) {
      if (this.stopped.signal.aborted) return;
      if (!(error instanceof UpstreamUnavailableError)) {
        // A bug, not FEMA: logged as one, and the background task goes on (a throw here would end the process).
        this.logger.error({ err: error }, 'NFIP Community Status Book download failed unexpectedly');
        return;
      }
      const kept = this.index ? 'the table already held is kept' : 'the NFIP status of communities is unknown until it loads';
      this.logger.warn({ upstream: error.upstream, reason: error.reason }, `NFIP Community Status Book could not be downloaded (${error.reason}); ${kept}`);
    } finally {
      this.scheduleLoad(loaded ? this.refreshMs : Math.min(this.refreshMs, FAILED_LOAD_RETRY_MS));
    }
  }

  private hold(index: CommunityStatusIndex, downloadedAt: number): void {
    this.index = index;
    this.downloadedAt = downloadedAt;
    this.tablesHeld += 1;
  }

  private scheduleLoad(delayMs: number): void {
    if (this.stopped.signal.aborted) return;
    clearTimeout(this.timer);
    this.nextLoadAt = Date.now() + delayMs;
    this.timer = setTimeout(() => void this.load(), delayMs);
    // A pending refresh never keeps the process alive.
    this.timer.unref();
  }

  private async readShared(): Promise<SharedTable | undefined> {
    if (!this.shared) return undefined;
    const value = await withinBudget(this.shared.get<SharedTable>(SHARED_TABLE_KEY), SHARED_TABLE_BUDGET_MS);
    // A copy written by another version of the service, with other fields, is not ours to read.
    const readable =
      value !== undefined &&
      typeof value?.downloadedAt === 'number' &&
      Array.isArray(value.rows) &&
      value.rows.every(Array.isArray) &&
      value.fields?.join() === COMMUNITY_STATUS_FIELDS.join();
    return readable ? value : undefined;
  }

  private writeShared(rows: readonly CommunityStatusRow[]): void {
    if (!this.shared) return;
    const table: SharedTable = {
      downloadedAt: this.downloadedAt,
      fields: COMMUNITY_STATUS_FIELDS,
      rows: rows.map((row) => COMMUNITY_STATUS_FIELDS.map((field) => row[field] ?? null)),
    };
    void withinBudget(this.shared.set(SHARED_TABLE_KEY, table, this.refreshMs), SHARED_TABLE_BUDGET_MS);
  }
}

/** A row of the shared copy, back as the row it was. */
function rowOf(values: unknown[]): CommunityStatusRow {
  return Object.fromEntries(COMMUNITY_STATUS_FIELDS.map((field, i) => [field, values[i]]));
}
