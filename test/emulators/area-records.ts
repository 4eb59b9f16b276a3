/**
 * The demo flood records the OpenFEMA emulator serves (NFIP Redacted Claims v3, NFIP Redacted Policies v3, Disaster
 * Declarations Summaries v2), with the field names of the published field lists (fixtures/openfema-nfip-claims-v3.fields.json,
 * openfema-nfip-policies-v3.fields.json, openfema-disaster-declarations-v2.envelope.json). The values are the demo's own,
 * chosen to show every way the record is told: a Houston tract with a long record (Tropical Storm Allison in 2001,
 * Hurricane Harvey in 2017), a Sacramento tract with 4 claims and 6 policies (both withheld), and a Menominee tract
 * with none (0, said because OpenFEMA answered). Declarations are real disasters of those counties (numbers, dates,
 * titles as FEMA lists them), with non-flood ones the record must leave out. Policies are in force around the day the
 * module is loaded, so that "in force today" holds whenever a test runs.
 */
import { tractGeoidAt } from './census-tracts';

export type OpenFemaRow = Record<string, string | number | boolean | null>;

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const midnight = (day: string) => `${day}T00:00:00.000Z`;

/** The demo tracts with a record, at the first demo place of each of their areas. */
export const HOUSTON_TRACT = tractGeoidAt('48', '201', -95.39, 29.763);
export const SACRAMENTO_TRACT = tractGeoidAt('06', '067', -121.52, 38.64);
export const MENOMINEE_TRACT = tractGeoidAt('26', '109', -87.6, 45.1);

/** Claims alike: how many, their year and day of loss, rated zone, event and amounts paid. */
export interface ClaimGroup {
  count: number;
  year: number;
  /** Day and month of the loss. */
  day: string;
  zone: string;
  event: string | null;
  building: number;
  contents: number;
  icc?: number;
}

let nextId = 1;

/** A tract's claims, group by group, in the tract's block groups 1 to 4, with the county code of the tract. */
export function demoClaims(tract: string, state: string, groups: readonly ClaimGroup[]): OpenFemaRow[] {
  return groups.flatMap((group) =>
    Array.from({ length: group.count }, (_, i) => ({
      id: nextId++,
      // Each claim in one of the tract's block groups (the 12th digit): a tract is matched by that prefix.
      censusGeoid: `${tract}${(i % 4) + 1}`,
      countyCode: tract.slice(0, 5),
      state,
      reportedZipCode: null,
      yearOfLoss: group.year,
      dateOfLoss: midnight(`${group.year}-${group.day}`),
      ratedFloodZone: group.zone,
      floodZoneCurrent: group.zone,
      amountPaidOnBuildingClaim: group.building,
      amountPaidOnContentsClaim: group.contents,
      amountPaidOnIncreasedCostOfComplianceClaim: group.icc ?? 0,
      floodEvent: group.event,
      causeOfDamage: '1',
      occupancyType: 1,
      latitude: Math.round(Number(tract.slice(5)) / 1000) / 10,
      longitude: null,
    })),
  );
}

/**
 * The tract's policy records: `inForce` of one policy each (one of them a condominium's 10 units when `condoUnits`),
 * in force around today, beside records that ended last year and one that begins next month (never counted).
 */
export function demoPolicies(tract: string, state: string, inForce: number, condoUnits = false): OpenFemaRow[] {
  const now = Date.now();
  const record = (effective: number, termination: number, policyCount: number): OpenFemaRow => ({
    id: nextId++,
    censusGeoid: `${tract}1`,
    propertyState: state,
    policyEffectiveDate: midnight(isoDay(effective)),
    policyTerminationDate: midnight(isoDay(termination)),
    policyCount,
    ratedFloodZone: 'AE',
    asOfDate: midnight(isoDay(now - 20 * DAY_MS)),
  });
  const current = Array.from({ length: condoUnits ? inForce - 9 : inForce }, (_, i) =>
    record(now - (30 + (i % 300)) * DAY_MS, now + (335 - (i % 300)) * DAY_MS, condoUnits && i === 0 ? 10 : 1),
  );
  const lapsed = Array.from({ length: 5 }, () => record(now - 500 * DAY_MS, now - 135 * DAY_MS, 1));
  const future = record(now + 30 * DAY_MS, now + 395 * DAY_MS, 1);
  return [...current, ...lapsed, future];
}

export const DEMO_CLAIMS: readonly OpenFemaRow[] = [
  ...demoClaims(HOUSTON_TRACT, 'TX', [
    { count: 3, year: 1978, day: '07-31', zone: 'A03', event: null, building: 50_000, contents: 10_000 },
    { count: 40, year: 2001, day: '06-08', zone: 'B', event: 'Tropical Storm Allison', building: 50_000, contents: 10_000 },
    { count: 11, year: 2016, day: '04-18', zone: 'AE', event: null, building: 50_000, contents: 10_000 },
    { count: 110, year: 2017, day: '08-27', zone: 'AE', event: 'Hurricane Harvey', building: 50_000, contents: 10_000 },
    { count: 50, year: 2017, day: '08-28', zone: 'X', event: 'Hurricane Harvey', building: 45_000, contents: 10_000, icc: 5_000 },
  ]),
  ...demoClaims(SACRAMENTO_TRACT, 'CA', [{ count: 4, year: 2017, day: '02-10', zone: 'X', event: null, building: 20_000, contents: 0 }]),
];

export const DEMO_POLICIES: readonly OpenFemaRow[] = [...demoPolicies(HOUSTON_TRACT, 'TX', 388, true), ...demoPolicies(SACRAMENTO_TRACT, 'CA', 6)];

function declaration(
  disasterNumber: number,
  declarationType: string,
  declarationDate: string,
  incidentType: string,
  declarationTitle: string,
  fips: string,
  area: string,
  state: string,
): OpenFemaRow {
  return {
    femaDeclarationString: `${declarationType}-${disasterNumber}-${state}`,
    disasterNumber,
    state,
    declarationType,
    declarationDate: midnight(declarationDate),
    fyDeclared: Number(declarationDate.slice(0, 4)),
    incidentType,
    declarationTitle,
    incidentBeginDate: midnight(declarationDate),
    incidentEndDate: null,
    fipsStateCode: fips.slice(0, 2),
    fipsCountyCode: fips.slice(2),
    placeCode: `99${fips.slice(2)}`,
    designatedArea: area,
    lastRefresh: '2026-11-01T12:00:00.000Z',
    id: `demo-${disasterNumber}-${fips}`,
  };
}

export const DEMO_DECLARATIONS: readonly OpenFemaRow[] = [
  declaration(1379, 'DR', '2001-06-09', 'Coastal Storm', 'TROPICAL STORM ALLISON', '48201', 'Harris (County)', 'TX'),
  declaration(4269, 'DR', '2016-04-25', 'Flood', 'SEVERE STORMS AND FLOODING', '48201', 'Harris (County)', 'TX'),
  declaration(3382, 'EM', '2017-08-25', 'Hurricane', 'HURRICANE HARVEY', '48201', 'Harris (County)', 'TX'),
  declaration(4332, 'DR', '2017-08-25', 'Hurricane', 'HURRICANE HARVEY', '48201', 'Harris (County)', 'TX'),
  declaration(4485, 'DR', '2020-03-25', 'Biological', 'COVID-19 PANDEMIC', '48201', 'Harris (County)', 'TX'),
  declaration(4586, 'DR', '2021-02-19', 'Severe Ice Storm', 'SEVERE WINTER STORMS', '48201', 'Harris (County)', 'TX'),
  declaration(4798, 'DR', '2024-07-09', 'Hurricane', 'HURRICANE BERYL', '48201', 'Harris (County)', 'TX'),
  declaration(4301, 'DR', '2017-02-14', 'Severe Storm', 'SEVERE WINTER STORMS, FLOODING, AND MUDSLIDES', '06067', 'Sacramento (County)', 'CA'),
  declaration(4683, 'DR', '2023-01-14', 'Flood', 'SEVERE WINTER STORMS, FLOODING, LANDSLIDES, AND MUDSLIDES', '06067', 'Sacramento (County)', 'CA'),
  declaration(4569, 'DR', '2020-10-16', 'Fire', 'WILDFIRES', '06067', 'Sacramento (County)', 'CA'),
];

/** What the record of each demo tract must say (with the Houston tract's policies and the declarations as listed). */
export const DEMO_AREA_RECORDS = {
  houston: {
    tract: HOUSTON_TRACT,
    countyFips: '48201',
    claims: { count: 214, firstYear: 1978, lastYear: 2017, outsideSfhaSharePercent: 42.1, paidUsd: 12_800_000 },
    inForce: 388,
    // Newest first, each disaster once (Harvey's EM 3382 and DR 4332 are two), non-flood ones left out.
    declarations: [4798, 4332, 3382, 4269, 1379],
  },
  sacramento: { tract: SACRAMENTO_TRACT, countyFips: '06067', declarations: [4683, 4301] },
  menominee: { tract: MENOMINEE_TRACT, countyFips: '26109', declarations: [] as number[] },
} as const;
