/**
 * The two-letter USPS code of a state, DC or territory, from the first two digits of a county's FIPS code (the
 * Census Bureau's state code). Pure: a table.
 */

/** USPS codes by state FIPS code: the 50 states, DC, and the territories the Census Bureau maps by county. */
const USPS_BY_STATE_FIPS: Readonly<Record<string, string>> = {
  '01': 'AL',
  '02': 'AK',
  '04': 'AZ',
  '05': 'AR',
  '06': 'CA',
  '08': 'CO',
  '09': 'CT',
  '10': 'DE',
  '11': 'DC',
  '12': 'FL',
  '13': 'GA',
  '15': 'HI',
  '16': 'ID',
  '17': 'IL',
  '18': 'IN',
  '19': 'IA',
  '20': 'KS',
  '21': 'KY',
  '22': 'LA',
  '23': 'ME',
  '24': 'MD',
  '25': 'MA',
  '26': 'MI',
  '27': 'MN',
  '28': 'MS',
  '29': 'MO',
  '30': 'MT',
  '31': 'NE',
  '32': 'NV',
  '33': 'NH',
  '34': 'NJ',
  '35': 'NM',
  '36': 'NY',
  '37': 'NC',
  '38': 'ND',
  '39': 'OH',
  '40': 'OK',
  '41': 'OR',
  '42': 'PA',
  '44': 'RI',
  '45': 'SC',
  '46': 'SD',
  '47': 'TN',
  '48': 'TX',
  '49': 'UT',
  '50': 'VT',
  '51': 'VA',
  '53': 'WA',
  '54': 'WV',
  '55': 'WI',
  '56': 'WY',
  '60': 'AS',
  '66': 'GU',
  '69': 'MP',
  '72': 'PR',
  '78': 'VI',
};

/** The USPS code of the state a 5-digit county FIPS code lies in; null for anything else or a code no state has. */
export function stateOfCountyFips(countyFips: string | null): string | null {
  if (countyFips === null || !/^\d{5}$/.test(countyFips)) return null;
  return USPS_BY_STATE_FIPS[countyFips.slice(0, 2)] ?? null;
}
