/**
 * The census tracts the Census emulator names: the demo map has counties but no tract outlines, so each county is cut
 * into tracts along a grid of 0.02° squares (about 2 km, the size of a suburban tract). A tract's record has the
 * shape of a recorded real `Census Tracts` element (fixtures/census-tracts-layer-record.fitnr.json): its values are
 * the demo's own.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The side of a demo tract, in degrees. */
export const TRACT_SQUARE_DEGREES = 0.02;

const RECORDED = (
  JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'census-tracts-layer-record.fitnr.json'), 'utf8')) as { record: Record<string, unknown> }
).record;

/** The 6-digit tract code of the square holding the point (unique within any county narrower than 20°). */
function tractCode(lon: number, lat: number): string {
  const column = Math.floor((lon + 180) / TRACT_SQUARE_DEGREES) % 1000;
  const row = Math.floor((lat + 90) / TRACT_SQUARE_DEGREES) % 1000;
  return String(column * 1000 + row).padStart(6, '0');
}

/** The 11-digit GEOID of the demo tract holding the point, in the county given by its 2-digit state and 3-digit county codes. */
export function tractGeoidAt(state: string, county: string, lon: number, lat: number): string {
  return `${state}${county}${tractCode(lon, lat)}`;
}

/** The `Census Tracts` record of the point, in the county whose attributes (STATE, COUNTY) are given. */
export function tractRecordAt(countyAttributes: Record<string, unknown>, lon: number, lat: number): Record<string, unknown> {
  const state = String(countyAttributes.STATE);
  const county = String(countyAttributes.COUNTY);
  const tract = tractCode(lon, lat);
  const centLon = (Math.floor(lon / TRACT_SQUARE_DEGREES) + 0.5) * TRACT_SQUARE_DEGREES;
  const centLat = (Math.floor(lat / TRACT_SQUARE_DEGREES) + 0.5) * TRACT_SQUARE_DEGREES;
  const signed = (value: number, digits: number) =>
    `${value < 0 ? '-' : '+'}${Math.abs(value)
      .toFixed(7)
      .padStart(digits + 8, '0')}`;
  const basename = String(Number(tract) / 100);
  return {
    ...RECORDED,
    OID: 20790000000000 + Number(tract),
    STATE: state,
    COUNTY: county,
    TRACT: tract,
    GEOID: `${state}${county}${tract}`,
    BASENAME: basename,
    NAME: `Census Tract ${basename}`,
    CENTLON: signed(centLon, 3),
    CENTLAT: signed(centLat, 2),
    INTPTLON: signed(centLon, 3),
    INTPTLAT: signed(centLat, 2),
    OBJECTID: Number(tract) % 100000,
  };
}
