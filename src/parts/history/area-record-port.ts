import type { ClaimsTally, DeclarationRow, PoliciesTally } from './area-history';

/** What OpenFEMA tells of one census tract: its NFIP claims reduced to a tally, and the policies in force. */
export interface TractRecord {
  claims: ClaimsTally;
  policies: PoliciesTally;
}

/** OpenFEMA's NFIP and disaster datasets. The use case sees this, never HTTP. */
export abstract class AreaRecordPort {
  /** The tract's claims since 1978 and its policies in force today (UTC); a failure throws UpstreamUnavailableError. */
  abstract tractRecord(tract: string, deadline: AbortSignal): Promise<TractRecord>;

  /** Every disaster declaration row of the county (5-digit FIPS), as OpenFEMA gives it. */
  abstract countyDeclarations(countyFips: string, deadline: AbortSignal): Promise<DeclarationRow[]>;
}
