/**
 * What the tools take and give, as zod schemas: the SDK publishes them as JSON Schema in tools/list, checks the
 * arguments' types against the input shapes and every structured answer against the output schema.
 */
import { z } from 'zod';
import { ID_MAX_LENGTH } from '../batch/batch-row';
import { ERROR_CODES } from '../common/api-error';
import { COVERAGES, RISK_LEVELS } from '../flood-hazard/flood-hazard.types';
import { LAT_MAX_DEGREES, LON_MAX_DEGREES, RADIUS_DEFAULT_M, RADIUS_MAX_M, RADIUS_MIN_M } from '../lookup/dto/flood-zone-query.dto';
import { PICTURE_LIMITS, type PictureParameter } from '../map-picture/dto/map-picture-query.dto';
import { ANSWER_PARTS, INCLUDED_PARTS, INCLUDE_ITEMS } from '../parts/answer-parts';

/** Most locations one flood_zone_batch call answers; a longer list belongs to POST /flood-zone/batch. */
export const TOOL_BATCH_MAX_LOCATIONS = 100;

/**
 * The bounds an agent reads in the input schema. They are declared, not checked by zod: the tool checks them by the REST
 * rules, so that a value beyond them is the REST API's error (its code and message), as for every other rule.
 */
const within = (minimum: number, maximum: number, description: string) => ({ minimum, maximum, description });

export const LOCATION_SHAPE = {
  address: z
    .string()
    .optional()
    .describe('A US street address on one line, at most 200 characters, e.g. "1600 Pennsylvania Ave NW, Washington, DC 20500". Not with lat/lon.'),
  lat: z
    .number()
    .optional()
    .meta(within(-LAT_MAX_DEGREES, LAT_MAX_DEGREES, `Latitude in decimal degrees, -${LAT_MAX_DEGREES} to ${LAT_MAX_DEGREES}; give lon too. Not with address.`)),
  lon: z
    .number()
    .optional()
    .meta(
      within(-LON_MAX_DEGREES, LON_MAX_DEGREES, `Longitude in decimal degrees, -${LON_MAX_DEGREES} to ${LON_MAX_DEGREES}; give lat too. Not with address.`),
    ),
};

const INCLUDE = z
  .array(z.enum(INCLUDE_ITEMS))
  .optional()
  .describe(`Optional parts of the answer, any of: ${INCLUDE_ITEMS.join(', ')}.`);

const RADIUS = z
  .number()
  .int()
  .optional()
  .meta(
    within(
      RADIUS_MIN_M,
      RADIUS_MAX_M,
      `Metres around the point searched by the nearby part, ${RADIUS_MIN_M} to ${RADIUS_MAX_M} (default ${RADIUS_DEFAULT_M}); only with include ["nearby"].`,
    ),
  );

function pictureSize(name: PictureParameter, what: string) {
  const { default: fallback, min, max, unit } = PICTURE_LIMITS[name];
  return z
    .number()
    .int()
    .optional()
    .meta(within(min, max, `${what} in ${unit}, ${min} to ${max} (default ${fallback}).`));
}

/** The building chosen among those near the location, as GET /flood-zone's buildId. */
const BUILD_ID = z
  .string()
  .regex(/^\d{1,12}$/)
  .optional()
  .describe(
    'A USA Structures BUILD_ID (result.structure.buildId or one of result.structure.candidates) of a building within 40 m of the location: the answer is ' +
      'then for that building. Not with footprint.',
  );

export const LOOKUP_SHAPE = { ...LOCATION_SHAPE, include: INCLUDE, radius: RADIUS, buildId: BUILD_ID };

export const DETERMINATION_SHAPE = {
  ...LOCATION_SHAPE,
  buildId: BUILD_ID,
  footprint: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("The building's outline as GeoJSON (Polygon, MultiPolygon or a Feature of one), within 1 km of the location."),
};

export const MAP_SHAPE = {
  ...LOCATION_SHAPE,
  width: pictureSize('width', 'Picture width'),
  height: pictureSize('height', 'Picture height'),
  span: pictureSize('span', 'Ground across the picture'),
};

export const BATCH_SHAPE = {
  locations: z
    .array(z.object({ id: z.string().optional().describe(`Your own label, at most ${ID_MAX_LENGTH} characters, echoed in the row.`), ...LOCATION_SHAPE }))
    .min(1)
    .max(TOOL_BATCH_MAX_LOCATIONS)
    .describe('The locations: each an address, or lat and lon.'),
  include: INCLUDE,
  radius: RADIUS,
};

/**
 * A tool's arguments: open to names the shape does not list, so that the tool sees such an argument and refuses it by
 * name as the REST API refuses an unknown parameter; the schema an agent reads says that none is taken.
 */
export const toolArguments = <Shape extends z.ZodRawShape>(shape: Shape) => z.looseObject(shape).meta({ additionalProperties: false });

/** The arguments a tool's handler is given: the shape's, and any other the caller sent (to be refused). */
export type ToolArguments<Shape extends z.ZodRawShape> = z.output<ReturnType<typeof toolArguments<Shape>>>;

// The answers. Objects stay open to fields a later version adds; where a field's own shape varies it is only said to be
// an object (docs/api.md describes each).
const anObject = z.looseObject({});
const text = z.string();
const textOrNull = z.string().nullable();
const numberOrNull = z.number().nullable();
const yesNoOrNull = z.boolean().nullable();

/** `result.determination`: section II of FEMA's Standard Flood Hazard Determination Form, filled in. */
export const DETERMINATION_ANSWER = z.looseObject({
  basis: text,
  community: z.looseObject({ name: textOrNull, number: textOrNull, county: textOrNull, state: textOrNull }),
  map: z.looseObject({
    noNfipMap: yesNoOrNull,
    panel: textOrNull,
    panelEffectiveDate: textOrNull,
    letterOfMapChange: z.looseObject({ kind: text, caseNumber: textOrNull, effectiveDate: textOrNull }).nullable(),
  }),
  floodZones: z.array(text).nullable(),
  insurance: z.looseObject({ available: yesNoOrNull, program: textOrNull, reason: text, coastalBarrier: anObject.nullable() }),
  buildingInSfha: yesNoOrNull,
  floodInsuranceRequired: yesNoOrNull,
  notes: z.array(text),
  determinedAt: text,
});

/** Each opt-in part's field: null when not asked for or when its query failed. */
const PART_FIELDS = Object.fromEntries(INCLUDED_PARTS.map((part) => [part.field, anObject.nullable()]));

/** The GET /flood-zone answer. */
export const LOOKUP_ANSWER = z.looseObject({
  query: z.looseObject({ address: textOrNull, lat: numberOrNull, lon: numberOrNull }),
  location: z.looseObject({
    matchedAddress: textOrNull,
    lat: z.number(),
    lon: z.number(),
    county: textOrNull,
    countyFips: textOrNull,
    zip: textOrNull,
    source: text,
  }),
  result: z.looseObject({
    coverage: z.enum(COVERAGES),
    isMapped: z.boolean(),
    floodZone: textOrNull,
    zoneSubtype: textOrNull,
    isFloodway: yesNoOrNull,
    inSpecialFloodHazardArea: yesNoOrNull,
    riskLevel: z.enum(RISK_LEVELS),
    staticBaseFloodElevationFt: numberOrNull,
    verticalDatum: textOrNull,
    depthFt: numberOrNull,
    meaning: text,
    guidance: textOrNull,
    firmPanel: anObject.nullable(),
    community: anObject.nullable(),
    lomrs: z.array(anObject).nullable(),
    zonesAtPoint: z.array(anObject),
    femaMapUrl: text,
    lomas: z.array(anObject).nullable(),
    estimatedBaseFloodElevation: anObject.nullable(),
    ...PART_FIELDS,
    determination: DETERMINATION_ANSWER.nullable(),
    unavailable: z.array(z.enum(ANSWER_PARTS)),
  }),
  source: z.looseObject({ floodData: text, floodService: text, geocoder: text }),
  retrievedAt: text,
  disclaimer: text,
});

/** A whole number from `minimum` to `maximum` (zod's own bounds of a whole number are the double's safe range). */
const wholeNumber = (minimum: number, maximum: number) => z.number().int().meta({ minimum, maximum });
/** An HTTP status, as RFC 9110 bounds it. */
const HTTP_STATUS = wholeNumber(100, 599);

/** The error envelope every failure answers with. */
const ERROR_ENVELOPE = z.looseObject({ error: text, statusCode: HTTP_STATUS, code: z.enum(ERROR_CODES), requestId: text });

/** flood_zone_batch's rows, in input order: each the lookup's answer or its error envelope. */
export const BATCH_ANSWER = z.looseObject({
  rows: z.array(
    z.looseObject({
      index: wholeNumber(0, TOOL_BATCH_MAX_LOCATIONS - 1),
      id: textOrNull,
      status: HTTP_STATUS,
      body: z.union([LOOKUP_ANSWER, ERROR_ENVELOPE]),
    }),
  ),
});
