/**
 * The area's flood record (`include=history`): NFIP claims and policies in the census tract and the county's
 * flood-related disaster declarations, told honestly. Federal law keeps a property's own claims private, so the
 * record is the tract's; a count from 1 to 9 is never given exactly (it could point at a neighbour), dollars are
 * rounded, and the note says whose record it is. Pure functions: no I/O, no clock, no locale.
 */

/** A count shown as it is (0, or 10 and more), or withheld: `null` with `fewerThan: 10`. */
export type ShownCount<K extends string> = { [P in K]: number | null } & { fewerThan?: 10 };

/** The smallest count given exactly (besides 0). */
export const SMALLEST_SHOWN_COUNT = 10;
/** Dollar figures are rounded to this. */
export const DOLLAR_ROUNDING = 100_000;
/** The most declarations listed, newest first. */
export const MOST_DECLARATIONS = 20;
/** The most years listed as the largest events. */
export const MOST_LARGEST_EVENTS = 3;

/** OpenFEMA's incident types that are floods or bring them (older rows say "Severe Storm(s)"). */
const FLOOD_RELATED_INCIDENTS = ['flood', 'hurricane', 'severe storm', 'severe storm(s)', 'coastal storm', 'typhoon', 'dam/levee break'];

/** One NFIP claim as OpenFEMA's NFIP Redacted Claims v3 gives it (the fields the record reads). */
export interface ClaimRow {
  yearOfLoss: unknown;
  ratedFloodZone: unknown;
  amountPaidOnBuildingClaim: unknown;
  amountPaidOnContentsClaim: unknown;
  amountPaidOnIncreasedCostOfComplianceClaim: unknown;
  floodEvent: unknown;
}

/** The claims of one year: how many, and how many carry each event name. */
export interface ClaimYear {
  year: number;
  count: number;
  events: Record<string, number>;
}

/** A tract's claims reduced to what the record tells (what is cached, never the rows). */
export interface ClaimsTally {
  years: ClaimYear[];
  /** Claims without a year of loss: in the total, in no year. */
  undated: number;
  /** Claims whose rated flood zone is known, and those among them outside the SFHA (neither A nor V). */
  zoneKnown: number;
  outsideSfha: number;
  /** Building, contents and increased cost of compliance paid, unrounded. */
  paidUsd: number;
}

/** Policies in force in the tract on `asOf` (YYYY-MM-DD). */
export interface PoliciesTally {
  inForce: number;
  asOf: string;
}

/** What OpenFEMA tells of one census tract: its NFIP claims reduced to a tally, and the policies in force. */
export interface TractRecord {
  claims: ClaimsTally;
  policies: PoliciesTally;
}

/** A claim or policy record as a county's download gives it: with the census block group it lies in (12 digits). */
export type InBlockGroup<R> = R & { censusGeoid: unknown };

/**
 * Every tract's record of one county, tallied from the county's whole download: the tracts with a claim or a policy
 * in force, by GEOID. A tract of the county without any has none (OpenFEMA answered for the whole county).
 */
export interface CountyRecord {
  countyFips: string;
  /** The day the policies were in force (YYYY-MM-DD). */
  asOf: string;
  tracts: Record<string, TractRecord>;
}

/** One row of OpenFEMA's Disaster Declarations Summaries v2 (the fields the record reads). */
export interface DeclarationRow {
  disasterNumber: unknown;
  declarationDate: unknown;
  incidentType: unknown;
  declarationTitle: unknown;
  declarationType: unknown;
}

export interface FloodDeclaration {
  disasterNumber: number;
  declarationDate: string;
  incidentType: string;
  title: string;
  declarationType: string;
}

/** One NFIP policy record as NFIP Redacted Policies v3 gives it: `policyCount` policies (a condominium's units are one record). */
export interface PolicyRow {
  policyCount: unknown;
}

export interface HistoryArea {
  kind: 'census_tract';
  geoid: string;
  county: string | null;
  countyFips: string;
}

export type YearCount = { year: number } & ShownCount<'count'>;

export interface LargestEvent {
  year: number;
  count: number;
  event: string | null;
}

export type AreaClaims = ShownCount<'count'> & {
  firstYear: number | null;
  lastYear: number | null;
  outsideSfhaSharePercent: number | null;
  paidUsd: number | null;
  byYear: YearCount[];
  largestEvents: LargestEvent[];
};

export type AreaPolicies = ShownCount<'inForce'> & { asOf: string };

/** `result.history`. */
export interface AreaHistory {
  area: HistoryArea;
  claims: AreaClaims;
  policies: AreaPolicies;
  declarations: FloodDeclaration[];
  source: string;
  note: string;
}

export const HISTORY_SOURCE = 'FEMA OpenFEMA: NFIP Redacted Claims v3, NFIP Redacted Policies v3, Disaster Declarations Summaries v2';

export const HISTORY_NOTE = 'Flood insurance claims and policies in this census tract, not at this property: its own are private by law.';

/** A count as shown: 0 and 10 or more as they are, 1 to 9 withheld. */
export function shownCount<K extends string>(key: K, count: number): ShownCount<K> {
  if (count > 0 && count < SMALLEST_SHOWN_COUNT) return { [key]: null, fewerThan: SMALLEST_SHOWN_COUNT } as ShownCount<K>;
  return { [key]: count } as ShownCount<K>;
}

/** Dollars to the nearest $100,000. */
export function roundedDollars(usd: number): number {
  return Math.round(usd / DOLLAR_ROUNDING) * DOLLAR_ROUNDING;
}

/** Whether a rated flood zone is in the Special Flood Hazard Area (A and V zones, old numbered ones too); null when not given. */
export function inSfha(zone: unknown): boolean | null {
  if (typeof zone !== 'string' || zone.trim() === '') return null;
  return /^[AV]/i.test(zone.trim());
}

function dollars(value: unknown): number {
  const amount = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : 0;
  return Number.isFinite(amount) && amount > 0 ? amount : 0;
}

/** A whole year of loss, or null when the row has none. */
function yearOf(value: unknown): number | null {
  const year = typeof value === 'number' ? value : typeof value === 'string' && /^\d{4}$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isInteger(year) && year >= 1900 && year <= 2200 ? year : null;
}

/** Claims reduced to years, zones and dollars. */
export function tallyClaims(rows: readonly ClaimRow[]): ClaimsTally {
  const years = new Map<number, ClaimYear>();
  let zoneKnown = 0;
  let outsideSfha = 0;
  let paidUsd = 0;
  let undated = 0;
  for (const row of rows) {
    const sfha = inSfha(row.ratedFloodZone);
    if (sfha !== null) zoneKnown += 1;
    if (sfha === false) outsideSfha += 1;
    paidUsd += dollars(row.amountPaidOnBuildingClaim) + dollars(row.amountPaidOnContentsClaim) + dollars(row.amountPaidOnIncreasedCostOfComplianceClaim);
    const year = yearOf(row.yearOfLoss);
    if (year === null) {
      undated += 1;
      continue;
    }
    const tally = years.get(year) ?? { year, count: 0, events: {} };
    tally.count += 1;
    const event = typeof row.floodEvent === 'string' ? row.floodEvent.trim() : '';
    if (event !== '') tally.events[event] = (tally.events[event] ?? 0) + 1;
    years.set(year, tally);
  }
  return { years: [...years.values()].sort((a, b) => a.year - b.year), undated, zoneKnown, outsideSfha, paidUsd };
}

/** The total number of claims a tally holds. */
export function claimCount(tally: ClaimsTally): number {
  return tally.years.reduce((sum, year) => sum + year.count, 0) + tally.undated;
}

/** The policies the records in force on `asOf` stand for; a record without a usable count stands for one. */
export function tallyPolicies(rows: readonly PolicyRow[], asOf: string): PoliciesTally {
  const inForce = rows.reduce((sum, row) => {
    const count = typeof row.policyCount === 'number' ? row.policyCount : Number(row.policyCount);
    return sum + (Number.isInteger(count) && count > 0 ? count : 1);
  }, 0);
  return { inForce, asOf };
}

/**
 * The tract (11 digits) of a record's census block group (`censusGeoid`, 12 digits) when it lies in the county: the
 * records a tract's own query finds (its block groups 0 to 9); null for a record of another county or without one.
 */
export function tractOfBlockGroup(censusGeoid: unknown, countyFips: string): string | null {
  if (typeof censusGeoid !== 'string' || !/^\d{12}$/.test(censusGeoid) || !censusGeoid.startsWith(countyFips)) return null;
  return censusGeoid.slice(0, 11);
}

/** The county's records by the tract they lie in, each in the order given; records of no tract of the county are left out. */
function byTract<R>(rows: ReadonlyArray<InBlockGroup<R>>, countyFips: string): Map<string, R[]> {
  const tracts = new Map<string, R[]>();
  for (const row of rows) {
    const tract = tractOfBlockGroup(row.censusGeoid, countyFips);
    if (tract === null) continue;
    const inTract = tracts.get(tract) ?? [];
    inTract.push(row);
    tracts.set(tract, inTract);
  }
  return tracts;
}

/** A county's claims tallied per tract (its tracts with a claim), each tract's by the same rules as its own query's rows. */
export function claimsByTract(rows: ReadonlyArray<InBlockGroup<ClaimRow>>, countyFips: string): Map<string, ClaimsTally> {
  return new Map([...byTract(rows, countyFips)].map(([tract, claims]) => [tract, tallyClaims(claims)]));
}

/** A county's policies in force on `asOf` tallied per tract (its tracts with one). */
export function policiesByTract(rows: ReadonlyArray<InBlockGroup<PolicyRow>>, countyFips: string, asOf: string): Map<string, PoliciesTally> {
  return new Map([...byTract(rows, countyFips)].map(([tract, policies]) => [tract, tallyPolicies(policies, asOf)]));
}

/**
 * Every tract's record of the county from its claims and policies in force on `asOf`, tallied per tract (claimsByTract,
 * policiesByTract): the same record, claim for claim, as asking the tract; a tract with neither is left out (it has none).
 */
export function countyRecordOf(
  countyFips: string,
  asOf: string,
  claims: ReadonlyMap<string, ClaimsTally>,
  policies: ReadonlyMap<string, PoliciesTally>,
): CountyRecord {
  const tracts: Record<string, TractRecord> = {};
  for (const tract of new Set([...claims.keys(), ...policies.keys()])) {
    tracts[tract] = { claims: claims.get(tract) ?? tallyClaims([]), policies: policies.get(tract) ?? tallyPolicies([], asOf) };
  }
  return { countyFips, asOf, tracts };
}

/** A tract's record from its county's: a tract without a claim or a policy there has none of either. */
export function recordInCounty(county: CountyRecord, tract: string): TractRecord {
  return county.tracts[tract] ?? { claims: tallyClaims([]), policies: tallyPolicies([], county.asOf) };
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** An OpenFEMA date-time as a UTC date, or null. */
function utcDate(value: unknown): string | null {
  const raw = text(value);
  if (raw === null) return null;
  const time = Date.parse(raw);
  return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
}

/** The flood-related declarations among a county's, each disaster once, newest first, at most 20. */
export function floodDeclarations(rows: readonly DeclarationRow[]): FloodDeclaration[] {
  const byNumber = new Map<number, FloodDeclaration>();
  for (const row of rows) {
    const incidentType = text(row.incidentType);
    const declarationDate = utcDate(row.declarationDate);
    const disasterNumber = typeof row.disasterNumber === 'number' ? row.disasterNumber : Number(row.disasterNumber);
    if (incidentType === null || !FLOOD_RELATED_INCIDENTS.includes(incidentType.toLowerCase())) continue;
    if (declarationDate === null || !Number.isInteger(disasterNumber) || byNumber.has(disasterNumber)) continue;
    byNumber.set(disasterNumber, {
      disasterNumber,
      declarationDate,
      incidentType,
      title: text(row.declarationTitle) ?? incidentType.toUpperCase(),
      declarationType: text(row.declarationType) ?? '',
    });
  }
  return [...byNumber.values()]
    .sort((a, b) => b.declarationDate.localeCompare(a.declarationDate) || b.disasterNumber - a.disasterNumber)
    .slice(0, MOST_DECLARATIONS);
}

/** "HURRICANE HARVEY" → "Hurricane Harvey": declaration titles are upper case. */
function titleCase(title: string): string {
  return title.toLowerCase().replace(/\b([a-z])/g, (letter) => letter.toUpperCase());
}

/** A year's event: the name most of its claims carry, else a flood declaration of the county that year, else none. */
function eventOf(year: ClaimYear, declarations: readonly FloodDeclaration[]): string | null {
  const named = Object.entries(year.events).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  if (named.length > 0) return named[0]![0];
  const declared = declarations.find((declaration) => declaration.declarationDate.startsWith(String(year.year)));
  return declared ? titleCase(declared.title) : null;
}

/** What the record says of the tract's claims; with 1 to 9 claims only that, and their years. */
export function areaClaims(tally: ClaimsTally, declarations: readonly FloodDeclaration[]): AreaClaims {
  const count = claimCount(tally);
  const shown = shownCount('count', count);
  const withheld = shown.count === null;
  const dated = tally.years.filter((year) => year.count > 0);
  return {
    ...shown,
    firstYear: dated[0]?.year ?? null,
    lastYear: dated.at(-1)?.year ?? null,
    outsideSfhaSharePercent: withheld || tally.zoneKnown === 0 ? null : Math.round((tally.outsideSfha / tally.zoneKnown) * 1000) / 10,
    paidUsd: withheld ? null : roundedDollars(tally.paidUsd),
    byYear: dated.map((year) => ({ year: year.year, ...shownCount('count', year.count) })),
    largestEvents: dated
      .filter((year) => year.count >= SMALLEST_SHOWN_COUNT)
      .sort((a, b) => b.count - a.count || b.year - a.year)
      .slice(0, MOST_LARGEST_EVENTS)
      .map((year) => ({ year: year.year, count: year.count, event: eventOf(year, declarations) })),
  };
}

/** The whole record of the area. */
export function areaHistory(area: HistoryArea, claims: ClaimsTally, policies: PoliciesTally, declarations: readonly FloodDeclaration[]): AreaHistory {
  return {
    area,
    claims: areaClaims(claims, declarations),
    policies: { ...shownCount('inForce', policies.inForce), asOf: policies.asOf },
    declarations: [...declarations],
    source: HISTORY_SOURCE,
    note: HISTORY_NOTE,
  };
}
