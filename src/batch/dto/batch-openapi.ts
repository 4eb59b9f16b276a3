import { applyDecorators } from '@nestjs/common';
import {
  ApiPayloadTooLargeResponse,
  ApiQuery,
  ApiResponse,
  ApiUnprocessableEntityResponse,
  ApiUnsupportedMediaTypeResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { INCLUDE_PARAMETER, RADIUS_PARAMETER } from '../../lookup/dto/flood-zone-query.dto';
import { ErrorEnvelopeDto } from '../../common/error-envelope.dto';
import { NDJSON } from '../answer-formats';
import { BatchAnswerDto, NDJSON_STREAM } from './batch-answer.dto';
import { otherJsonTypes } from '../../common/other-json-types';
import { BatchRequestDto, CSV_BATCH_EXAMPLE } from './batch-request.dto';

/** The media types of a body of locations, as POST /flood-zone/batch and POST /flood-zone/jobs read it. */
export const LOCATIONS_BODY_CONTENT = {
  'application/json': {
    schema: { anyOf: [{ $ref: getSchemaPath(BatchRequestDto) }, ...otherJsonTypes('object')] },
    example: {
      locations: [
        { id: 'r1', address: '1600 Pennsylvania Ave NW, Washington, DC 20500' },
        { id: 'r2', lat: 29.9511, lon: -90.0715 },
      ],
    },
  },
  'text/csv': {
    schema: {
      type: 'string',
      description:
        'UTF-8, RFC 4180: a header row naming any of id, address, lat (or latitude), lon (or longitude, lng, long), in any case, then one row per ' +
        "location. A blank cell is not given. A footprint column holds a row's building outline as GeoJSON text, read as a JSON row's footprint. " +
        'Other columns are not read as a location: the answer warns of them (a Warning header; a job ' +
        "also in its `warnings`), and a job keeps their cells for its results with the input's columns (columns=all).",
    },
    example: CSV_BATCH_EXAMPLE,
  },
  // Any other type, so that a validating gateway forwards it and the client gets the service's 415, not the gateway's
  // own 422. Last, since a typed client sends the first media type listed.
  '*/*': { schema: {} },
};

/** The media types of the answers to many locations, in input order, chosen by Accept. */
export const ROW_ANSWERS_CONTENT = {
  'application/json': { schema: { $ref: getSchemaPath(BatchAnswerDto) } },
  // A stream of lines, not one JSON value: declared as text (OpenAPI 3.1 has no per-line schema), each line described.
  [NDJSON]: { schema: NDJSON_STREAM },
  'text/csv': { schema: { type: 'string' } },
};

/** `include` and `radius`, as GET /flood-zone reads them, applied to every row. */
export function ApiRowOptions(): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'include',
      required: false,
      style: 'form',
      explode: false,
      description: `As for GET /flood-zone, for every row. ${INCLUDE_PARAMETER.description}`,
      schema: { type: 'array', items: INCLUDE_PARAMETER.items },
    }),
    ApiQuery({
      name: 'radius',
      required: false,
      description: `As for GET /flood-zone, for every row. ${RADIUS_PARAMETER.description}`,
      schema: { anyOf: RADIUS_PARAMETER.anyOf },
    }),
  );
}

/**
 * The errors of a POST whose body is read as a body of locations (see batch-request), beside its own 400: the
 * setting that bounds its rows and the largest body it takes differ by endpoint, the rest is the one reading.
 */
export function ApiLocationsBodyErrors(limits: { maxRowsSetting: string; maxBody: string }): MethodDecorator {
  return applyDecorators(
    ApiResponse({
      status: 408,
      type: ErrorEnvelopeDto,
      description:
        'REQUEST_TIMEOUT: past BATCH_UPLOAD_GRACE_MS, the body came slower than 1 KiB/s on average over the last 10 s (see Slow uploads); the connection is closed.',
    }),
    ApiPayloadTooLargeResponse({
      type: ErrorEnvelopeDto,
      description: `BATCH_TOO_LARGE: more than ${limits.maxRowsSetting} rows, or a body over ${limits.maxBody}.`,
    }),
    ApiUnsupportedMediaTypeResponse({
      type: ErrorEnvelopeDto,
      description: 'UNSUPPORTED_MEDIA_TYPE: a body that is neither application/json nor text/csv, or a compressed body (any Content-Encoding but identity).',
    }),
    ApiUnprocessableEntityResponse({ type: ErrorEnvelopeDto, description: 'RADIUS_OUT_OF_RANGE: radius outside [10, 2000].' }),
  );
}

/** The Warning header of an answer to a body whose reader warned of something (columns it did not read). */
export const READER_WARNING_HEADER = {
  Warning: {
    description:
      'Present when the CSV body has columns not read as a location (a misspelt "Lattitude" shows here): `299 - "…"`, the warning as a JSON string ' +
      '(characters outside printable ASCII escaped).',
    schema: { type: 'string' },
  },
};
