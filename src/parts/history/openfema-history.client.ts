import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { UpstreamUnavailableError } from '../../common/api-error';
import { ResilientUpstream, UpstreamFailure, UpstreamOverCapError } from '../../common/upstream/resilient-upstream';
import { getUpstreamJson, isRecord } from '../../common/upstream/upstream-json';
import type { AppConfig } from '../../config/app-config';
import { OPENFEMA_UPSTREAM } from '../../community-status/openfema.client';
import {
  ClaimRow,
  CountyRecord,
  DeclarationRow,
  PolicyRow,
  TractRecord,
  claimsByTract,
  countyRecordOf,
  policiesByTract,
  tallyClaims,
  tallyPolicies,
} from './area-history';
import { AreaRecordPort } from './area-record-port';

/** The datasets asked, as OpenFEMA names them (path and the key its rows come under). */
export const HISTORY_DATASETS = {
  claims: { path: 'v3/NfipClaims', entity: 'NfipClaims' },
  policies: { path: 'v3/NfipPolicies', entity: 'NfipPolicies' },
  declarations: { path: 'v2/DisasterDeclarationsSummaries', entity: 'DisasterDeclarationsSummaries' },
} as const;
type Dataset = (typeof HISTORY_DATASETS)[keyof typeof HISTORY_DATASETS];

/** The most rows OpenFEMA gives in one page: most tracts' claims come in one. */
export const HISTORY_PAGE_ROWS = 10_000;
/** More pages than any tract has rows for (the largest tracts have a few thousand claims). */
const TRACT_MAX_PAGES = 20;
/**
 * A million rows: more than any county has claims or policies in force. The byte cap, which holds for a query's pages
 * together, ends a county's query first where its rows are too many (a page of the smallest, a policy's count and
 * block group, is about 480 KB), and the county is asked range by range instead.
 */
const COUNTY_MAX_PAGES = 100;
/**
 * The most digits of the tract code a county's query is narrowed by, one at a time (ten ranges to a thousand): where a
 * range that narrow still passes the byte cap, the county is given up and its tracts are asked one by one.
 */
const NARROWEST_RANGE_DIGITS = 3;

const CLAIM_FIELDS = [
  'yearOfLoss',
  'ratedFloodZone',
  'amountPaidOnBuildingClaim',
  'amountPaidOnContentsClaim',
  'amountPaidOnIncreasedCostOfComplianceClaim',
  'floodEvent',
] as const satisfies ReadonlyArray<keyof ClaimRow>;
const POLICY_FIELDS = ['policyCount'] as const satisfies ReadonlyArray<keyof PolicyRow>;
/** A county's rows are tallied per tract by the block group they lie in. */
const IN_BLOCK_GROUP = 'censusGeoid' as const;
const DECLARATION_FIELDS = ['disasterNumber', 'declarationDate', 'incidentType', 'declarationTitle', 'declarationType'] as const satisfies ReadonlyArray<
  keyof DeclarationRow
>;

/**
 * OpenFEMA (keyless) for the area's flood record, on the `openfema` upstream the Community Status Book uses (its
 * budget, byte cap, breaker, health and metrics). NFIP v3 rows carry the 12-digit census block group
 * (`censusGeoid`), not the tract: a tract's rows are those between its block groups 0 and 9.
 */
@Injectable()
export class OpenFemaHistoryClient extends AreaRecordPort {
  private readonly baseUrl: string;

  constructor(
    private readonly http: HttpService,
    @Inject(OPENFEMA_UPSTREAM) private readonly upstream: ResilientUpstream,
    config: ConfigService<AppConfig, true>,
  ) {
    super();
    this.baseUrl = config.get('OPENFEMA_BASE_URL', { infer: true }).replace(/\/+$/, '');
  }

  tractRecord(tract: string, deadline: AbortSignal): Promise<TractRecord> {
    const inTract = inBlockGroups(tract);
    const today = todayUtc();
    return this.upstream.operation(async () => {
      const [claims, policies] = await Promise.all([
        this.allRows(HISTORY_DATASETS.claims, CLAIM_FIELDS, { $filter: inTract, $orderby: 'id' }, TRACT_MAX_PAGES, deadline),
        this.allRows(HISTORY_DATASETS.policies, POLICY_FIELDS, { $filter: `${inTract} and ${inForceOn(today)}`, $orderby: 'id' }, TRACT_MAX_PAGES, deadline),
      ]);
      return { claims: tallyClaims(claims), policies: tallyPolicies(policies, today) };
    });
  }

  /**
   * The county's claims by their 5-digit county code, its policies in force (which carry none) by its block groups;
   * each row with its block group, tallied per tract. Each dataset is asked for the whole county, or range by range
   * where that would pass the byte cap (see tractsByRange).
   */
  countyRecord(countyFips: string, deadline: AbortSignal): Promise<CountyRecord> {
    const today = todayUtc();
    return this.upstream.operation(async () => {
      const [claims, policies] = await Promise.all([
        this.tractsByRange(countyFips, deadline, async (range, signal) =>
          claimsByTract(
            await this.allRows(
              HISTORY_DATASETS.claims,
              [...CLAIM_FIELDS, IN_BLOCK_GROUP],
              { $filter: `countyCode eq '${countyFips}' and ${inBlockGroups(range)}`, $orderby: 'id' },
              COUNTY_MAX_PAGES,
              signal,
            ),
            countyFips,
          ),
        ),
        this.tractsByRange(countyFips, deadline, async (range, signal) =>
          policiesByTract(
            await this.allRows(
              HISTORY_DATASETS.policies,
              [...POLICY_FIELDS, IN_BLOCK_GROUP],
              { $filter: `${inBlockGroups(range)} and ${inForceOn(today)}`, $orderby: 'id' },
              COUNTY_MAX_PAGES,
              signal,
            ),
            countyFips,
            today,
          ),
        ),
      ]);
      return countyRecordOf(countyFips, today, claims, policies);
    });
  }

  countyDeclarations(countyFips: string, deadline: AbortSignal): Promise<DeclarationRow[]> {
    const filter = `fipsStateCode eq '${countyFips.slice(0, 2)}' and fipsCountyCode eq '${countyFips.slice(2)}'`;
    return this.upstream.operation(async () => {
      // Every declaration of the county (a few dozen): which are flood-related is the rule's to say.
      return this.allRows(HISTORY_DATASETS.declarations, DECLARATION_FIELDS, { $filter: filter, $orderby: 'declarationDate desc' }, TRACT_MAX_PAGES, deadline);
    });
  }

  /**
   * The tallies per tract `tally` makes of the block groups in `range` (a GEOID prefix, at first the county's): of its
   * whole query where that comes within the byte cap; else of the ten ranges one digit of the tract code narrower, one
   * after another (each query with a cap of its own), each narrowed again where it does not fit, down to
   * NARROWEST_RANGE_DIGITS. Every range is read whole or the county fails, so a tract in none of them has no row at
   * all. A tract lies in one range of each width, so the ranges' tallies never overlap.
   */
  private async tractsByRange<T>(
    range: string,
    deadline: AbortSignal,
    tally: (range: string, deadline: AbortSignal) => Promise<Map<string, T>>,
  ): Promise<Map<string, T>> {
    try {
      return await tally(range, deadline);
    } catch (error) {
      if (!(error instanceof UpstreamOverCapError)) throw error;
      if (range.length >= COUNTY_DIGITS + NARROWEST_RANGE_DIGITS) {
        throw new UpstreamOverCapError(this.upstream.name, `${error.reason}, in block groups ${range}…, the narrowest range asked`);
      }
    }
    const tallies = new Map<string, T>();
    for (const narrower of narrowerRanges(range)) {
      for (const [tract, tallied] of await this.tractsByRange(narrower, deadline, tally)) tallies.set(tract, tallied);
    }
    return tallies;
  }

  /**
   * Every row the query finds, by `$top`/`$skip` pages (at most `maxPages`), each page a request with its own retries,
   * all pages within the byte cap; never fewer rows than the count OpenFEMA gives: a zero must be one it answered. Where
   * the count says the rows left cannot come within the cap, it stops there (UpstreamOverCapError) rather than read up to it.
   */
  private async allRows<F extends string>(
    dataset: Dataset,
    fields: readonly F[],
    query: Record<string, string>,
    maxPages: number,
    deadline: AbortSignal,
  ): Promise<Array<Record<F, unknown>>> {
    const rows: Array<Record<F, unknown>> = [];
    let bytesBefore = 0;
    for (let page = 0; page < maxPages; page += 1) {
      const {
        rows: pageRows,
        count,
        bytes,
      } = await this.upstream.request((signal) => this.page(dataset, fields, query, rows.length, bytesBefore, signal), deadline);
      rows.push(...pageRows);
      bytesBefore += bytes;
      // With the count (asked for every page), paging ends there, even where the server serves pages shorter than asked.
      if (count === null ? pageRows.length < HISTORY_PAGE_ROWS : rows.length >= count) return rows;
      // Thrown as the upstream's failure here, outside any request: so the part is unavailable, never the lookup.
      if (pageRows.length === 0)
        throw new UpstreamUnavailableError(this.upstream.name, `${dataset.entity} ended after ${rows.length} of the ${count} rows it counted`);
      if (count !== null && restPassesCap(count, rows.length, bytesBefore, this.upstream.maxBodyBytes)) {
        throw new UpstreamOverCapError(
          this.upstream.name,
          `${dataset.entity}: ${count} rows would pass the cap of ${this.upstream.maxBodyBytes} bytes (${rows.length} read in ${bytesBefore})`,
        );
      }
    }
    throw new UpstreamUnavailableError(this.upstream.name, `${dataset.entity} did not end within ${maxPages} pages`);
  }

  private async page<F extends string>(
    dataset: Dataset,
    fields: readonly F[],
    query: Record<string, string>,
    skip: number,
    bytesBefore: number,
    signal: AbortSignal,
  ): Promise<{ rows: Array<Record<F, unknown>>; count: number | null; bytes: number }> {
    // Built by URLSearchParams, which sends `$` as `%24` as OpenFEMA asks (axios's own encoding leaves it bare).
    const search = new URLSearchParams({ ...query, $select: fields.join(','), $top: String(HISTORY_PAGE_ROWS), $skip: String(skip), $inlinecount: 'allpages' });
    const { status, body, bytes } = await getUpstreamJson(this.http, `${this.baseUrl}/${dataset.path}?${search}`, {}, signal, {
      maxBodyBytes: this.upstream.maxBodyBytes,
      bytesBefore,
    });
    if (status !== 200) {
      const errors = isRecord(body) && Array.isArray(body.error) ? `: ${body.error.map((error) => JSON.stringify(error)).join('; ')}` : '';
      throw new UpstreamFailure(`HTTP ${status}${errors}`, false);
    }
    const rows = isRecord(body) ? body[dataset.entity] : undefined;
    if (!Array.isArray(rows)) throw new UpstreamFailure(`answer without ${dataset.entity}`, false);
    if (!rows.every(isRecord)) throw new UpstreamFailure(`${dataset.entity} with a row that is not an object`, false);
    const count = isRecord(body) && isRecord(body.metadata) && typeof body.metadata.count === 'number' && body.metadata.count > 0 ? body.metadata.count : null;
    return { rows: rows.map((row) => scalars(row, fields)), count, bytes };
  }
}

/** The digits of a county's FIPS code, the first of every GEOID of it. */
const COUNTY_DIGITS = 5;

/**
 * OpenFEMA's filter of the census block groups (`censusGeoid`, 12 digits: state, county, tract, block group) whose
 * GEOID begins with `prefix`: a tract's (11 digits), a county's (5), or a range of a county's tracts between.
 */
function inBlockGroups(prefix: string): string {
  return `censusGeoid ge '${prefix.padEnd(12, '0')}' and censusGeoid le '${prefix.padEnd(12, '9')}'`;
}

/** The ten ranges of block groups one digit narrower than `prefix`'s, in order: together they hold its block groups, each once. */
function narrowerRanges(prefix: string): string[] {
  return Array.from({ length: 10 }, (_, digit) => `${prefix}${digit}`);
}

/**
 * Whether the rows a query's count says are left cannot come within the byte cap: at the bytes a row took so far
 * (their pages' envelopes with them, so a little more), more than the cap leaves after the bytes read.
 */
export function restPassesCap(count: number, rowsRead: number, bytesRead: number, capBytes: number): boolean {
  if (rowsRead === 0 || count <= rowsRead) return false;
  return ((count - rowsRead) * bytesRead) / rowsRead > capBytes - bytesRead;
}

/** Today (UTC), as OpenFEMA's dates are compared. */
function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** A policy in force on the day: begun on or before it, ending after it. */
function inForceOn(day: string): string {
  return `policyEffectiveDate le '${day}' and policyTerminationDate gt '${day}'`;
}

/** The fields read of a row, each a number, a string or null: any other value is a failure of the upstream, as malformed JSON is. */
function scalars<F extends string>(row: Record<string, unknown>, fields: readonly F[]): Record<F, unknown> {
  const read = {} as Record<F, unknown>;
  for (const field of fields) {
    const value = row[field] ?? null;
    if (value !== null && typeof value !== 'number' && typeof value !== 'string') {
      throw new UpstreamFailure(`OpenFEMA field ${field} is ${Array.isArray(value) ? 'an array' : typeof value}`, false);
    }
    read[field] = value;
  }
  return read;
}
