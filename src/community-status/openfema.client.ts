import type { HttpService } from '@nestjs/axios';
import { ResilientUpstream, UpstreamFailure } from '../common/upstream/resilient-upstream';
import { getUpstreamJson, isRecord } from '../common/upstream/upstream-json';
import { COMMUNITY_STATUS_FIELDS, CommunityStatusRow } from '../parts/nfip-status/nfip-status';

export const OPENFEMA_UPSTREAM = Symbol('OPENFEMA_UPSTREAM');

const DATASET = 'NfipCommunityStatusBook';
/** The most rows OpenFEMA gives in one page: the table (about 25,000 rows) comes in three. */
export const OPENFEMA_MAX_PAGE_ROWS = 10_000;
/** Far more pages than the table has ever needed: a server that never stops paging is a failure, not a loop. */
const MAX_PAGES = 100;

/** OpenFEMA (keyless): the NFIP Community Status Book, downloaded whole by pages. */
export class OpenFemaClient {
  constructor(
    private readonly http: HttpService,
    readonly upstream: ResilientUpstream,
    private readonly baseUrl: string,
    private readonly pageRows = OPENFEMA_MAX_PAGE_ROWS,
  ) {}

  /**
   * Every row of the table, by `$top`/`$skip` pages (only the query options OpenFEMA documents for the
   * dataset), each page one request with its own retries; the whole download is one operation of the
   * `openfema` circuit. An empty table is a failure: FEMA never publishes one, and an empty table
   * would make every community "not listed".
   */
  communityStatusBook(signal: AbortSignal): Promise<CommunityStatusRow[]> {
    return this.upstream.operation(async () => {
      const rows: CommunityStatusRow[] = [];
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const rowsOfPage = await this.upstream.request((attempt) => this.page(rows.length, attempt), signal);
        rows.push(...rowsOfPage);
        if (rowsOfPage.length < this.pageRows) {
          if (rows.length === 0) throw new UpstreamFailure('the Community Status Book came back empty', false);
          return rows;
        }
      }
      throw new UpstreamFailure(`the Community Status Book did not end within ${MAX_PAGES} pages`, false);
    });
  }

  private async page(skip: number, signal: AbortSignal): Promise<CommunityStatusRow[]> {
    // Built by URLSearchParams, which sends `$` as `%24` as OpenFEMA asks (axios's own encoding leaves it bare).
    const query = new URLSearchParams({
      $select: COMMUNITY_STATUS_FIELDS.join(','),
      $top: String(this.pageRows),
      $skip: String(skip),
    });
    const { status, body } = await getUpstreamJson(this.http, `${this.baseUrl}/v1/${DATASET}?${query}`, {}, signal, {
      maxBodyBytes: this.upstream.maxBodyBytes,
    });
    if (status !== 200) {
      const errors = isRecord(body) && Array.isArray(body.error) ? `: ${body.error.map(String).join('; ')}` : '';
      throw new UpstreamFailure(`HTTP ${status}${errors}`, false);
    }
    const rows = isRecord(body) ? body[DATASET] : undefined;
    if (!Array.isArray(rows)) throw new UpstreamFailure(`answer without ${DATASET}`, false);
    return rows.filter(isRecord);
  }
}
