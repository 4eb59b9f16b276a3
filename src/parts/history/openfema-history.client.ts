import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ResilientUpstream, UpstreamFailure } from '../../common/upstream/resilient-upstream';
import { getUpstreamJson, isRecord } from '../../common/upstream/upstream-json';
import type { AppConfig } from '../../config/app-config';
import { OPENFEMA_UPSTREAM } from '../../community-status/openfema.client';
import { ClaimRow, DeclarationRow, PolicyRow, tallyClaims, tallyPolicies } from './area-history';
import { AreaRecordPort, TractRecord } from './area-record-port';

/** The datasets asked, as OpenFEMA names them (path and the key its rows come under). */
export const HISTORY_DATASETS = {
  claims: { path: 'v3/NfipClaims', entity: 'NfipClaims' },
  policies: { path: 'v3/NfipPolicies', entity: 'NfipPolicies' },
  declarations: { path: 'v2/DisasterDeclarationsSummaries', entity: 'DisasterDeclarationsSummaries' },
} as const;
type Dataset = (typeof HISTORY_DATASETS)[keyof typeof HISTORY_DATASETS];

/** The most rows OpenFEMA gives in one page: most tracts' claims come in one. */
export const HISTORY_PAGE_ROWS = 10_000;
/** More pages than any tract or county has rows for (the largest tracts have a few thousand claims). */
const MAX_PAGES = 20;

const CLAIM_FIELDS = [
  'yearOfLoss',
  'ratedFloodZone',
  'amountPaidOnBuildingClaim',
  'amountPaidOnContentsClaim',
  'amountPaidOnIncreasedCostOfComplianceClaim',
  'floodEvent',
] as const satisfies ReadonlyArray<keyof ClaimRow>;
const POLICY_FIELDS = ['policyCount'] as const satisfies ReadonlyArray<keyof PolicyRow>;
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
    // In force on the day asked: begun on or before it, ending after it.
    const today = new Date().toISOString().slice(0, 10);
    return this.upstream.operation(async () => {
      const [claims, policies] = await Promise.all([
        this.allRows(HISTORY_DATASETS.claims, CLAIM_FIELDS, { $filter: inTract, $orderby: 'id' }, deadline),
        this.allRows(
          HISTORY_DATASETS.policies,
          POLICY_FIELDS,
          { $filter: `${inTract} and policyEffectiveDate le '${today}' and policyTerminationDate gt '${today}'`, $orderby: 'id' },
          deadline,
        ),
      ]);
      return { claims: tallyClaims(claims), policies: tallyPolicies(policies, today) };
    });
  }

  countyDeclarations(countyFips: string, deadline: AbortSignal): Promise<DeclarationRow[]> {
    const filter = `fipsStateCode eq '${countyFips.slice(0, 2)}' and fipsCountyCode eq '${countyFips.slice(2)}'`;
    return this.upstream.operation(async () => {
      // Every declaration of the county (a few dozen): which are flood-related is the rule's to say.
      return this.allRows(HISTORY_DATASETS.declarations, DECLARATION_FIELDS, { $filter: filter, $orderby: 'declarationDate desc' }, deadline);
    });
  }

  /** Every row the query finds, by `$top`/`$skip` pages, each page a request with its own retries, all pages within the byte cap. */
  private async allRows<F extends string>(
    dataset: Dataset,
    fields: readonly F[],
    query: Record<string, string>,
    deadline: AbortSignal,
  ): Promise<Array<Record<F, unknown>>> {
    const rows: Array<Record<F, unknown>> = [];
    let bytesBefore = 0;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const {
        rows: pageRows,
        count,
        bytes,
      } = await this.upstream.request((signal) => this.page(dataset, fields, query, rows.length, bytesBefore, signal), deadline);
      rows.push(...pageRows);
      bytesBefore += bytes;
      // With the count (asked for every page), paging ends there, even where the server serves pages shorter than asked.
      if (count !== null ? rows.length >= count || pageRows.length === 0 : pageRows.length < HISTORY_PAGE_ROWS) return rows;
    }
    throw new UpstreamFailure(`${dataset.entity} did not end within ${MAX_PAGES} pages`, false);
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
