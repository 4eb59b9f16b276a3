/**
 * What FEMA published since a date, as a watch's sweep asks it: the areas and communities whose answers may have
 * changed, so that only the locations inside them are answered again.
 */

/** West, south, east, north in WGS84 degrees. */
export type Envelope = readonly [number, number, number, number];

export type ChangedAreaKind = 'firm_panel' | 'lomr' | 'nfhl_availability' | 'preliminary' | 'pending' | 'coastal_barrier';

export interface ChangedArea {
  kind: ChangedAreaKind;
  /** The layer feature's own id (FIRM_PAN, CASE_NO, DFIRM_ID, CBRS unit...), for logs and events. */
  id: string;
  /** Its extent; a location inside it is answered again. */
  envelope: Envelope;
  /** The effective date FEMA gives it (YYYY-MM-DD), or null when it has none. */
  effectiveDate: string | null;
}

export interface ChangedCommunity {
  /** The NFIP community id (CID, six digits). */
  communityId: string;
  /** What changed in its Status Book row: participation, program, CRS class, map dates. */
  fields: string[];
}

export interface MapChangeReport {
  areas: ChangedArea[];
  communities: ChangedCommunity[];
  /** A digest of the Status Book as read now, kept by the sweep and given back as `previousStatusBook` next time. */
  statusBook: StatusBookCopy;
  /** How many upstream calls the report cost. */
  upstreamCalls: number;
}

/** The Status Book rows a sweep compares with the next one's: community id → its row's watched fields. */
export type StatusBookCopy = Record<string, Record<string, string | number | null>>;

export interface MapChangeScout {
  /**
   * The changes with an effective date on or after `since` (the last sweep minus the lookback), and the communities
   * whose Status Book row differs from `previousStatusBook` (none the first time, when it is null). Throws an
   * UpstreamUnavailableError when an upstream fails: a sweep never takes a failure for "nothing changed".
   */
  changesSince(since: Date, previousStatusBook: StatusBookCopy | null, signal?: AbortSignal): Promise<MapChangeReport>;
}

/** The Nest injection token of the MapChangeScout. */
export const MAP_CHANGE_SCOUT = Symbol('MapChangeScout');
