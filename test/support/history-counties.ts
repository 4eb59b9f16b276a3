/**
 * Portfolio jobs with `include=history` over demo tracts of a county, as the end-to-end suites of the area's record
 * per county drive them: the tracts (the Census emulator's 0.02° squares), the rows in them, the claims alike, the
 * OpenFEMA calls counted at its emulator, a job's rows and single lookups' records to compare them with.
 */
import type { ClaimGroup, OpenFemaRow } from '../emulators';
import { tractGeoidAt } from '../emulators/census-tracts';
import { JOBS, type RowLine, call, finished, submitCsv } from './portfolio-jobs';
import type { Stack } from './stack';

export interface County {
  state: string;
  county: string;
  /** Its state's postal code, as claims and policies carry it. */
  postal: string;
  /** The centre of the first of its demo tracts (0.02° squares): the job's tracts are 4 x 2 squares from there. */
  west: number;
  south: number;
}

/** In the demo's Harris County around Houston, and King County around Renton (each county's box reaches 15 km beyond its places). */
export const HARRIS: County = { state: '48', county: '201', postal: 'TX', west: -95.43, south: 29.75 };
export const KING: County = { state: '53', county: '033', postal: 'WA', west: -122.21, south: 47.47 };

export type Point = { lat: number; lon: number };

/**
 * The centres of 8 demo tracts of the county (each 0.01° from its square's edges: 4 in a row, 4 north of them), and
 * the 9th, east of them, that no row is in. A tract's code is its square's column (3 digits) then row (3 digits), so
 * the 1st and 5th share their first 3 digits, as do the 2nd and 6th, and so on.
 */
export const tractCentres = ({ west, south }: County): Point[] =>
  Array.from({ length: 9 }, (_, i) => ({
    lon: Number((west + 0.02 * (i % 4) + (i === 8 ? 0.08 : 0)).toFixed(6)),
    lat: i < 4 || i === 8 ? south : south + 0.02,
  }));
export const tractOf = (county: County, { lon, lat }: Point) => tractGeoidAt(county.state, county.county, lon, lat);

/** 3 rows in each of the 8 tracts, all within its square. */
export const rowsIn = (county: County): Point[] =>
  tractCentres(county)
    .slice(0, 8)
    .flatMap(({ lon, lat }) => [
      { lon, lat },
      { lon: Number((lon + 0.004).toFixed(6)), lat },
      { lon: Number((lon - 0.003).toFixed(6)), lat: Number((lat - 0.004).toFixed(6)) },
    ]);

/** `count` claims of one year, zone and event, each paid $40,000 on the building and $8,000 on its contents. */
export const group = (count: number, year: number, zone: string, event: string | null): ClaimGroup => ({
  count,
  year,
  day: '08-27',
  zone,
  event,
  building: 40_000,
  contents: 8_000,
});

/** The OpenFEMA calls of the area's record since the emulator's calls were reset, by dataset. */
export const recordCalls = (stack: Stack) =>
  Object.fromEntries(
    ['NfipClaims', 'NfipPolicies', 'DisasterDeclarationsSummaries'].map((endpoint) => [endpoint, stack.emulators.openfema.callCount({ endpoint })]),
  );
/** The `$filter` of each call of the dataset since the emulator's calls were reset. */
export const filters = (stack: Stack, endpoint: string) => stack.emulators.openfema.callsMatching({ endpoint }).map((found) => found.query.$filter!);
/** The filter of a tract's own query. */
export const tractAlone = (tract: string) => `censusGeoid ge '${tract}0' and censusGeoid le '${tract}9'`;
/**
 * The block groups an OpenFEMA filter asks for, as the GEOID prefix they share (the county's 5 digits for the whole
 * county, a tract's 11 for its own query, between them for a range of a county's tracts); undefined for none.
 */
export function blockGroupsAsked(filter: string): string | undefined {
  const [, from, to] = /censusGeoid ge '(\d{12})' and censusGeoid le '(\d{12})'/.exec(filter) ?? [];
  if (from === undefined || to === undefined) return undefined;
  let shared = 0;
  while (shared < 12 && from[shared] === to[shared]) shared += 1;
  return from.slice(0, shared);
}
/** Whether a filter is of a county's download (the whole county or a range of its tracts), not of a tract's own query. */
export const countyWide = (county: County) => (filter: string) => {
  const asked = blockGroupsAsked(filter);
  return asked !== undefined && asked.startsWith(`${county.state}${county.county}`) && asked.length < 11;
};

/** The job of these points with include=history on `stack`, once completed: its rows in input order. */
export async function historyJob(stack: Stack, points: Point[]): Promise<RowLine[]> {
  const csv = `lat,lon\n${points.map((p) => `${p.lat},${p.lon}`).join('\n')}\n`;
  const submitted = await submitCsv(stack.url, csv, '?include=history');
  expect(submitted.status).toBe(202);
  expect(await finished(stack.url, submitted.body.id)).toEqual(expect.objectContaining({ status: 'completed', done: points.length, errors: 0 }));
  return (await call(stack.url, `${JOBS}/${submitted.body.id}/results`, { headers: { accept: 'application/json' } })).body.results;
}

/** Each point's `history` as a single lookup on `stack` answers it. */
export async function singleLookups(stack: Stack, points: Point[]): Promise<unknown[]> {
  const answers = await Promise.all(points.map((p) => stack.get(`/flood-zone?lat=${p.lat}&lon=${p.lon}&include=history`)));
  expect(answers.map(({ status }) => status)).toEqual(points.map(() => 200));
  return answers.map(({ body }) => body.result.history);
}

/** A county's NFIP rows as the OpenFEMA emulator serves them. */
export interface CountyRows {
  claims: OpenFemaRow[];
  policies: OpenFemaRow[];
}

/** Has every stack's OpenFEMA emulator serve the counties' claims and policies (and nothing else of those datasets). */
export function serveCountyRows(stacks: Stack[], counties: CountyRows[]): void {
  for (const stack of stacks) {
    stack.emulators.openfema.setRecords(
      'NfipClaims',
      counties.flatMap(({ claims }) => claims),
    );
    stack.emulators.openfema.setRecords(
      'NfipPolicies',
      counties.flatMap(({ policies }) => policies),
    );
  }
}
