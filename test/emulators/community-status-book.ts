/**
 * The demo Community Status Book the OpenFEMA emulator serves: one row per community of the demo map (by its
 * NFHL community id), written with every oddity the real table has been seen with or may have: ids with a
 * suffix letter or `#`, dates in ISO form and in MM/DD/YY form (two-digit years on both sides of 1968), text
 * notes beside a date, CRS class 10, 0 and missing, discounts as numbers and as text; every participating community
 * in the regular program (an initial FIRM date) but two in the emergency program (none), one of them with no map of any
 * kind. The values are chosen for the demo, not copied from FEMA (City of Willow Creek and Town of Prairie Hollow, KS are
 * made up). City of Menominee (260151) is left out on
 * purpose: a community the table lacks.
 */

/** A row as OpenFEMA publishes it; any field may be missing. */
export type CommunityStatusBookRow = Record<string, string | number | boolean | null>;

/** The demo table's `lastRefresh` (every row's). */
export const DEMO_COMMUNITY_STATUS_REFRESH = '2026-11-22T06:12:45.123Z';

/** What each demo row must become in `result.community.nfip` (less the note), keyed by the NFHL community id looked up. */
export interface DemoCommunityStatus {
  communityId: string;
  row: CommunityStatusBookRow;
  expect: {
    listed: boolean;
    participating: boolean | null;
    program: 'regular' | 'emergency' | null;
    crsClass: number | null;
    sfhaDiscountPercent: number | null;
    nonSfhaDiscountPercent: number | null;
    currentEffectiveMapDate: string | null;
    programEntryDate: string | null;
  };
}

const row = (fields: CommunityStatusBookRow): CommunityStatusBookRow => ({ lastRefresh: DEMO_COMMUNITY_STATUS_REFRESH, tribal: false, ...fields });

export const DEMO_COMMUNITY_STATUSES: readonly DemoCommunityStatus[] = [
  {
    communityId: '480296',
    row: row({
      communityIdNumber: '480296',
      communityName: 'HOUSTON, CITY OF',
      state: 'TX',
      county: 'Harris County',
      participatingInNFIP: true,
      classRating: '5',
      sfhaDiscount: 25,
      nonSfhaDiscount: 10,
      currentlyEffectiveMapDate: '06/18/07',
      regularEmergencyProgramDate: '09/28/79',
      initialFloodInsuranceRateMap: '1979-09-28T00:00:00.000Z',
    }),
    expect: {
      listed: true,
      participating: true,
      program: 'regular',
      crsClass: 5,
      sfhaDiscountPercent: 25,
      nonSfhaDiscountPercent: 10,
      currentEffectiveMapDate: '2007-06-18',
      programEntryDate: '1979-09-28',
    },
  },
  {
    // published with '#': matched on its first six digits
    communityId: '480287',
    row: row({
      communityIdNumber: '480287#',
      communityName: 'HARRIS COUNTY *',
      state: 'TX',
      county: 'Harris County',
      participatingInNFIP: true,
      classRating: '7',
      sfhaDiscount: '15',
      nonSfhaDiscount: '5',
      currentlyEffectiveMapDate: '2007-06-18T00:00:00.000Z',
      regularEmergencyProgramDate: '1984-09-28',
      initialFloodInsuranceRateMap: '1984-09-28T00:00:00.000Z',
    }),
    expect: {
      listed: true,
      participating: true,
      program: 'regular',
      crsClass: 7,
      sfhaDiscountPercent: 15,
      nonSfhaDiscountPercent: 5,
      currentEffectiveMapDate: '2007-06-18',
      programEntryDate: '1984-09-28',
    },
  },
  {
    // CRS class 10: participating, not in the CRS
    communityId: '110001',
    row: row({
      communityIdNumber: '110001',
      communityName: 'DISTRICT OF COLUMBIA',
      state: 'DC',
      county: 'District of Columbia',
      participatingInNFIP: true,
      classRating: '10',
      sfhaDiscount: 0,
      nonSfhaDiscount: 0,
      currentlyEffectiveMapDate: '09/27/10',
      regularEmergencyProgramDate: '11/15/85',
      initialFloodInsuranceRateMap: '1985-11-15T00:00:00.000Z',
    }),
    expect: {
      listed: true,
      participating: true,
      program: 'regular',
      crsClass: null,
      sfhaDiscountPercent: null,
      nonSfhaDiscountPercent: null,
      currentEffectiveMapDate: '2010-09-27',
      programEntryDate: '1985-11-15',
    },
  },
  {
    // CRS class 0, and a map note beside the entry date
    communityId: '060266',
    row: row({
      communityIdNumber: '060266',
      communityName: 'SACRAMENTO, CITY OF',
      state: 'CA',
      county: 'Sacramento County',
      participatingInNFIP: true,
      classRating: '0',
      sfhaDiscount: null,
      nonSfhaDiscount: null,
      currentlyEffectiveMapDate: '2015-08-16',
      regularEmergencyProgramDate: '09/15/80(L)',
      initialFloodInsuranceRateMap: '1980-09-15T00:00:00.000Z',
    }),
    expect: {
      listed: true,
      participating: true,
      program: 'regular',
      crsClass: null,
      sfhaDiscountPercent: null,
      nonSfhaDiscountPercent: null,
      currentEffectiveMapDate: '2015-08-16',
      programEntryDate: '1980-09-15',
    },
  },
  {
    // no classRating at all
    communityId: '530088',
    row: row({
      communityIdNumber: '530088',
      communityName: 'RENTON, CITY OF',
      state: 'WA',
      county: 'King County',
      participatingInNFIP: true,
      currentlyEffectiveMapDate: '05/16/95',
      regularEmergencyProgramDate: '05/01/80',
      initialFloodInsuranceRateMap: '1980-05-01T00:00:00.000Z',
    }),
    expect: {
      listed: true,
      participating: true,
      program: 'regular',
      crsClass: null,
      sfhaDiscountPercent: null,
      nonSfhaDiscountPercent: null,
      currentEffectiveMapDate: '1995-05-16',
      programEntryDate: '1980-05-01',
    },
  },
  {
    // class 9, a note after the map date
    communityId: '720000',
    row: row({
      communityIdNumber: '720000',
      communityName: 'PUERTO RICO, COMMONWEALTH OF',
      state: 'PR',
      county: 'Puerto Rico',
      participatingInNFIP: true,
      classRating: '9',
      sfhaDiscount: 5,
      nonSfhaDiscount: 5,
      currentlyEffectiveMapDate: '04/19/05 (M)',
      regularEmergencyProgramDate: '08/01/84',
      initialFloodInsuranceRateMap: '1984-08-01T00:00:00.000Z',
    }),
    expect: {
      listed: true,
      participating: true,
      program: 'regular',
      crsClass: 9,
      sfhaDiscountPercent: 5,
      nonSfhaDiscountPercent: 5,
      currentEffectiveMapDate: '2005-04-19',
      programEntryDate: '1984-08-01',
    },
  },
  {
    // two-digit year 68 is 1968; 17 is 2017
    communityId: '470206',
    row: row({
      communityIdNumber: '470206',
      communityName: 'FRANKLIN, CITY OF',
      state: 'TN',
      county: 'Williamson County',
      participatingInNFIP: true,
      classRating: '8',
      sfhaDiscount: 10,
      nonSfhaDiscount: 5,
      currentlyEffectiveMapDate: '02/09/17',
      regularEmergencyProgramDate: '12/31/68',
      initialFloodInsuranceRateMap: '1968-12-31T00:00:00.000Z',
    }),
    expect: {
      listed: true,
      participating: true,
      program: 'regular',
      crsClass: 8,
      sfhaDiscountPercent: 10,
      nonSfhaDiscountPercent: 5,
      currentEffectiveMapDate: '2017-02-09',
      programEntryDate: '1968-12-31',
    },
  },
  {
    // not participating: federal flood insurance not available; a text where a date would be
    communityId: '455412',
    row: row({
      communityIdNumber: '455412',
      communityName: 'CHARLESTON, CITY OF',
      state: 'SC',
      county: 'Charleston County',
      participatingInNFIP: false,
      classRating: '',
      sfhaDiscount: null,
      nonSfhaDiscount: null,
      currentlyEffectiveMapDate: '(NSFHA)',
      regularEmergencyProgramDate: null,
      initialFloodInsuranceRateMap: null,
    }),
    expect: {
      listed: true,
      participating: false,
      program: null,
      crsClass: null,
      sfhaDiscountPercent: null,
      nonSfhaDiscountPercent: null,
      currentEffectiveMapDate: null,
      programEntryDate: null,
    },
  },
  {
    // published with a suffix letter; a four-digit year
    communityId: '120172',
    row: row({
      communityIdNumber: '120172B',
      communityName: 'FERNANDINA BEACH, CITY OF',
      state: 'FL',
      county: 'Nassau County',
      participatingInNFIP: true,
      classRating: '6',
      sfhaDiscount: 20,
      nonSfhaDiscount: 10,
      currentlyEffectiveMapDate: '12/17/2010',
      regularEmergencyProgramDate: '03/01/77',
      initialFloodInsuranceRateMap: '1977-03-01T00:00:00.000Z',
    }),
    expect: {
      listed: true,
      participating: true,
      program: 'regular',
      crsClass: 6,
      sfhaDiscountPercent: 20,
      nonSfhaDiscountPercent: 10,
      currentEffectiveMapDate: '2010-12-17',
      programEntryDate: '1977-03-01',
    },
  },
  {
    communityId: '510104',
    row: row({
      communityIdNumber: '510104',
      communityName: 'NORFOLK, CITY OF',
      state: 'VA',
      county: 'City of Norfolk',
      participatingInNFIP: true,
      classRating: '7',
      sfhaDiscount: 15,
      nonSfhaDiscount: 5,
      currentlyEffectiveMapDate: '2014-02-19',
      regularEmergencyProgramDate: '1975-09-02',
      initialFloodInsuranceRateMap: '1975-09-02T00:00:00.000Z',
    }),
    expect: {
      listed: true,
      participating: true,
      program: 'regular',
      crsClass: 7,
      sfhaDiscountPercent: 15,
      nonSfhaDiscountPercent: 5,
      currentEffectiveMapDate: '2014-02-19',
      programEntryDate: '1975-09-02',
    },
  },
  {
    // participating without an initial FIRM: the emergency program (its current map is a Flood Hazard Boundary Map)
    communityId: '200610',
    row: row({
      communityIdNumber: '200610',
      communityName: 'WILLOW CREEK, CITY OF',
      state: 'KS',
      county: 'Wabaunsee County',
      participatingInNFIP: true,
      classRating: null,
      sfhaDiscount: null,
      nonSfhaDiscount: null,
      currentlyEffectiveMapDate: '03/14/78',
      regularEmergencyProgramDate: '05/02/83',
      initialFloodInsuranceRateMap: null,
    }),
    expect: {
      listed: true,
      participating: true,
      program: 'emergency',
      crsClass: null,
      sfhaDiscountPercent: null,
      nonSfhaDiscountPercent: null,
      currentEffectiveMapDate: '1978-03-14',
      programEntryDate: '1983-05-02',
    },
  },
  {
    // participating with no map at all: no FIRM and no current map of any kind (the emergency program)
    communityId: '200612',
    row: row({
      communityIdNumber: '200612',
      communityName: 'PRAIRIE HOLLOW, TOWN OF',
      state: 'KS',
      county: 'Shawnee County',
      participatingInNFIP: true,
      classRating: null,
      sfhaDiscount: null,
      nonSfhaDiscount: null,
      currentlyEffectiveMapDate: null,
      regularEmergencyProgramDate: '07/11/86',
      initialFloodInsuranceRateMap: null,
    }),
    expect: {
      listed: true,
      participating: true,
      program: 'emergency',
      crsClass: null,
      sfhaDiscountPercent: null,
      nonSfhaDiscountPercent: null,
      currentEffectiveMapDate: null,
      programEntryDate: '1986-07-11',
    },
  },
];

/** A demo-map community the table lacks. */
export const DEMO_UNLISTED_COMMUNITY_ID = '260151';

/** The demo table, in the order OpenFEMA would page it. */
export const DEMO_COMMUNITY_STATUS_BOOK: readonly CommunityStatusBookRow[] = DEMO_COMMUNITY_STATUSES.map((c) => c.row);
