/**
 * Ground elevation at a point (`include=elevation`), from the USGS Elevation Point Query Service (3DEP
 * bare earth), and how it stands against the base flood elevation. Pure functions: no I/O, no clock, no locale.
 */
import { EstimatedBaseFloodElevation, GeoPoint } from '../../flood-hazard/flood-hazard.types';
import { roundToTenth } from '../../flood-hazard/nfhl-values';

/**
 * The Elevation Point Query Service's reply at a point: its JSON body, or null when the body was plain
 * text ("Call failed."). Only a reply whose `elevationReading` is not `unreadable`: any other is a failure.
 */
export type ElevationReply = Readonly<Record<string, unknown>> | null;

/** What a reply says of the ground: its elevation in feet, no data (the service's documented forms), or nothing readable. */
export type ElevationReading = { kind: 'ground'; feet: number } | { kind: 'noData' } | { kind: 'unreadable'; reason: string };

export interface GroundElevationComparison {
  bfe: 'static' | 'estimated';
  bfeFt: number;
  differenceFt: number;
  position: 'above' | 'below' | 'within_uncertainty';
}

/** `result.groundElevation`. */
export interface GroundElevation {
  elevationFt: number | null;
  verticalDatum: 'NAVD88' | null;
  resolutionM: number | null;
  acquisitionDate: string | null;
  uncertaintyFt: number | null;
  comparedWith: GroundElevationComparison | null;
  note: string;
}

/** What the rest of the answer tells the rule: where the point is, how it was found, and the BFE to compare with. */
export interface GroundElevationContext {
  point: GeoPoint;
  /** The point's county (5 digits) when known: its first two digits are the state. */
  countyFips: string | null;
  /** The point came from geocoding an address, so it lies somewhere along the street. */
  fromAddress: boolean;
  staticBaseFloodElevationFt: number | null;
  /** The datum of the static BFE. */
  verticalDatum: string | null;
  estimatedBaseFloodElevation: EstimatedBaseFloodElevation | null;
}

/** USGS's published accuracy of EPQS (0.53 m RMSE) in feet, where the ground model is 3 m or finer. */
const FINE_UNCERTAINTY_FT = 1.7;
/** 3DEP 1/3 arc-second (about 10 m): 3.04 m at 95% confidence, in feet. */
const COARSE_UNCERTAINTY_FT = 5.1;
const FINE_RESOLUTION_MAX_M = 3;

/** The service's own "no data" numbers (-1000000) and anything below any ground in the US. */
const NO_DATA_BELOW_FT = -1000;
/** Above any ground on Earth (Denali is 20,310 ft): a value higher is garbled, not an elevation. */
const HIGHEST_GROUND_FT = 30_000;

/** The 48 conterminous states and DC by state FIPS code; Alaska (02), Hawaii (15) and the territories are outside. */
const CONTERMINOUS_STATE_FIPS: ReadonlySet<string> = new Set(
  '01 04 05 06 08 09 10 11 12 13 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 44 45 46 47 48 49 50 51 53 54 55 56'.split(
    ' ',
  ),
);
/** Used only when the county is unknown: a box around the conterminous US. */
const CONTERMINOUS_BOX = { south: 24.4, north: 49.4, west: -125.0, east: -66.9 };

const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s|$)/;
const NAVD88 = /^NAVD\s*-?\s*(?:19)?88$/i;

export const GROUND_ELEVATION_NOTES = {
  noData: 'USGS 3DEP has no ground elevation at this point.',
  notCertificate: 'Not the lowest adjacent grade or a floor elevation, and not an elevation certificate.',
  noBfe: 'There is no base flood elevation here to compare it with.',
  groundDatumUnknown: "Outside the conterminous US, 3DEP's vertical datum varies, so it is not compared with the base flood elevation.",
  bfeDatumUnknown: 'The map does not state the vertical datum of its base flood elevation, so the two are not compared.',
  streetPoint: 'The point of an address is placed along its street by the geocoder, so it may lie on the street, not at the building.',
} as const;

/** `result.groundElevation` from the service's reply at the point and what the rest of the answer says there. */
export function groundElevation(reply: ElevationReply, context: GroundElevationContext): GroundElevation {
  const streetNote = context.fromAddress ? [GROUND_ELEVATION_NOTES.streetPoint] : [];
  const reading = elevationReading(reply);
  if (reading.kind !== 'ground') {
    return {
      elevationFt: null,
      verticalDatum: null,
      resolutionM: null,
      acquisitionDate: null,
      uncertaintyFt: null,
      comparedWith: null,
      note: [GROUND_ELEVATION_NOTES.noData, ...streetNote].join(' '),
    };
  }
  const elevationFt = roundToTenth(reading.feet);
  const verticalDatum = isConterminous(context.point, context.countyFips) ? 'NAVD88' : null;
  const resolutionM = positiveNumber(reply?.resolution);
  const uncertaintyFt = resolutionM !== null && resolutionM <= FINE_RESOLUTION_MAX_M ? FINE_UNCERTAINTY_FT : COARSE_UNCERTAINTY_FT;
  const { comparedWith, sentence } = compareWithBfe(elevationFt, verticalDatum, uncertaintyFt, context);
  return {
    elevationFt,
    verticalDatum,
    resolutionM,
    acquisitionDate: acquisitionDate(reply?.attributes),
    uncertaintyFt,
    comparedWith,
    note: [sentence, GROUND_ELEVATION_NOTES.notCertificate, ...streetNote].join(' '),
  };
}

/**
 * The ground a reply gives. No data only in the service's documented forms: a plain-text body ("Call
 * failed."), `value` null, or a value at or below -1000 ft (its -1000000). Any other value that is not a
 * finite number up to 30,000 ft is unreadable, a failure of the service: never "no data", never an elevation.
 */
export function elevationReading(reply: ElevationReply): ElevationReading {
  if (reply === null) return { kind: 'noData' };
  if (!('value' in reply)) return { kind: 'unreadable', reason: 'answer without a value' };
  const { value } = reply;
  if (value === null) return { kind: 'noData' };
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    const written = typeof value === 'number' ? String(value) : JSON.stringify(value);
    return { kind: 'unreadable', reason: `value ${written} is not a number` };
  }
  if (value <= NO_DATA_BELOW_FT) return { kind: 'noData' };
  if (value > HIGHEST_GROUND_FT) return { kind: 'unreadable', reason: `value ${value} ft is above ${HIGHEST_GROUND_FT} ft` };
  return { kind: 'ground', feet: value };
}

/** The 48 states and DC by the county's state when known, else by the box around them. */
export function isConterminous(point: GeoPoint, countyFips: string | null): boolean {
  if (countyFips !== null && /^\d{5}$/.test(countyFips)) return CONTERMINOUS_STATE_FIPS.has(countyFips.slice(0, 2));
  const box = CONTERMINOUS_BOX;
  return point.lat >= box.south && point.lat <= box.north && point.lon >= box.west && point.lon <= box.east;
}

/** `AcquisitionDate` ("3/1/2020", M/D/YYYY) as YYYY-MM-DD, or null when missing or no real date. */
export function acquisitionDate(attributes: unknown): string | null {
  if (typeof attributes !== 'object' || attributes === null) return null;
  const written = (attributes as Record<string, unknown>).AcquisitionDate;
  const match = typeof written === 'string' ? US_DATE.exec(written.trim()) : null;
  if (!match) return null;
  const [, month, day, year] = match.map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

function positiveNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

interface BfeAtPoint {
  bfe: GroundElevationComparison['bfe'];
  bfeFt: number;
  verticalDatum: string | null;
}

/** The static BFE, else the estimated one: whichever the answer itself gives. */
function bfeAtPoint(context: GroundElevationContext): BfeAtPoint | null {
  if (context.staticBaseFloodElevationFt !== null) {
    return { bfe: 'static', bfeFt: context.staticBaseFloodElevationFt, verticalDatum: context.verticalDatum };
  }
  const estimated = context.estimatedBaseFloodElevation;
  return estimated ? { bfe: 'estimated', bfeFt: estimated.elevationFt, verticalDatum: estimated.verticalDatum } : null;
}

/** Compared only NAVD88 with NAVD88: datums are never converted, and NGVD29 differs from NAVD88 by place. */
function compareWithBfe(
  elevationFt: number,
  groundDatum: GroundElevation['verticalDatum'],
  uncertaintyFt: number,
  context: GroundElevationContext,
): { comparedWith: GroundElevationComparison | null; sentence: string } {
  const ground = 'Bare-earth ground at the point from USGS 3DEP';
  const bfe = bfeAtPoint(context);
  if (bfe === null) return { comparedWith: null, sentence: `${ground}. ${GROUND_ELEVATION_NOTES.noBfe}` };
  if (groundDatum === null) return { comparedWith: null, sentence: `${ground}. ${GROUND_ELEVATION_NOTES.groundDatumUnknown}` };
  if (bfe.verticalDatum === null) return { comparedWith: null, sentence: `${ground}. ${GROUND_ELEVATION_NOTES.bfeDatumUnknown}` };
  if (!NAVD88.test(bfe.verticalDatum.trim())) {
    return {
      comparedWith: null,
      sentence: `${ground}, in NAVD88. The map's base flood elevation is in ${bfe.verticalDatum.trim()}, which differs and is never converted, so the two are not compared.`,
    };
  }
  const differenceFt = roundToTenth(elevationFt - bfe.bfeFt) || 0;
  const position = Math.abs(differenceFt) <= uncertaintyFt ? 'within_uncertainty' : differenceFt > 0 ? 'above' : 'below';
  const bfeName = bfe.bfe === 'static' ? 'the base flood elevation' : 'the estimated base flood elevation';
  const where = differenceFt === 0 ? `at ${bfeName}` : `${Math.abs(differenceFt)} ft ${differenceFt > 0 ? 'above' : 'below'} ${bfeName}`;
  const within = position === 'within_uncertainty' ? `, within the ${uncertaintyFt} ft uncertainty of the terrain model` : '';
  return { comparedWith: { bfe: bfe.bfe, bfeFt: bfe.bfeFt, differenceFt, position }, sentence: `${ground}, ${where}${within}.` };
}
