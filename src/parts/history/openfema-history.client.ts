import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { UpstreamUnavailableError } from '../../common/api-error';
import { ResilientUpstream, UpstreamFailure } from '../../common/upstream/resilient-upstream';
import { getUpstreamJson, isRecord } from '../../common/upstream/upstream-json';
import type { AppConfig } from '../../config/app-config';
import { OPENFEMA_UPSTREAM } from '../../community-status/openfema.client';
import { ClaimRow, CountyRecord, DeclarationRow, PolicyRow, TractRecord, tallyClaims, tallyCounty, tallyPolicies } from './area-history';
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
 * together, ends a county's download first where its rows are too many (a page of the smallest, a policy's count and
 * block group, is about 480 KB).
 */
const COUNTY_MAX_PAGES = 100;

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
    const inTract = `censusGeoid ge '${tract}0' and censusGeoid le '${tract}9'`;
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
   * The county's claims by their 5-digit county code; its policies, which carry none, by the range of its block groups.
   * Each row with its block group, for the tract it lies in.
   */
  countyRecord(countyFips: string, deadline: AbortSignal): Promise<CountyRecord> {
    const inCounty = `censusGeoid ge '${countyFips}0000000' and censusGeoid le '${countyFips}9999999'`;
    const today = todayUtc();
    return this.upstream.operation(async () => {
      const [claims, policies] = await Promise.all([
        this.allRows(
          HISTORY_DATASETS.claims,
          [...CLAIM_FIELDS, IN_BLOCK_GROUP],
          { $filter: `countyCode eq '${countyFips}'`, $orderby: 'id' },
          COUNTY_MAX_PAGES,
          deadline,
        ),
        this.allRows(
          HISTORY_DATASETS.policies,
          [...POLICY_FIELDS, IN_BLOCK_GROUP],
          { $filter: `${inCounty} and ${inForceOn(today)}`, $orderby: 'id' },
          COUNTY_MAX_PAGES,
          deadline,
        ),
      ]);
      return tallyCounty(countyFips, claims, policies, today);
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
   * Every row the query finds, by `$top`/`$skip` pages (at most `maxPages`), each page a request with its own retries,
   * all pages within the byte cap; never fewer rows than the count OpenFEMA gives: a zero must be one it answered.
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
