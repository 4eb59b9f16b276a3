import type { CountyRecord, DeclarationRow, TractRecord } from './area-history';

/** OpenFEMA's NFIP and disaster datasets. The use case sees this, never HTTP. */
export abstract class AreaRecordPort {
  /** The tract's claims since 1978 and its policies in force today (UTC); a failure throws UpstreamUnavailableError. */
  abstract tractRecord(tract: string, deadline: AbortSignal): Promise<TractRecord>;

  /**
   * Every tract's record of the county (5-digit FIPS), from all its claims and policies in force today (UTC), every page
   * read; a failure (or a download cut short) throws UpstreamUnavailableError, never a partial record: an
   * UpstreamOverCapError where the county cannot be read within the byte cap even range by range.
   */
  abstract countyRecord(countyFips: string, deadline: AbortSignal): Promise<CountyRecord>;

  /** Every disaster declaration row of the county (5-digit FIPS), as OpenFEMA gives it. */
  abstract countyDeclarations(countyFips: string, deadline: AbortSignal): Promise<DeclarationRow[]>;
}
