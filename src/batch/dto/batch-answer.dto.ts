import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from '../../common/error-envelope.dto';
import { FloodZoneLookupDto } from '../../lookup/dto/flood-zone-response.dto';

/** One row's answer: an NDJSON line, or an element of `results` (see the batch section of docs/api.md). */
export class BatchRowAnswerDto {
  @ApiProperty({ description: 'Position of the row in the request, from 0.', example: 0 })
  index: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The row's id as sent (a number as its text); null when none was given or it was unusable.",
    example: 'r1',
  })
  id: string | null;

  @ApiProperty({
    description:
      'The status GET /flood-zone gives for this row: 200, 400, 404, 422 or 502; a row with a footprint as POST /flood-zone gives it, so also 503 (POLYGONS_BUSY).',
    example: 200,
  })
  status: number;

  @ApiProperty({
    oneOf: [{ $ref: getSchemaPath(FloodZoneLookupDto) }, { $ref: getSchemaPath(ErrorEnvelopeDto) }],
    description: 'The body GET /flood-zone gives for this row: the lookup answer (200) or the error envelope.',
  })
  body: FloodZoneLookupDto | ErrorEnvelopeDto;
}

export class BatchAnswerDto {
  @ApiProperty({ type: [BatchRowAnswerDto], description: 'One answer per location, in input order.' })
  results: BatchRowAnswerDto[];
}

/**
 * The NDJSON answer as /openapi.json declares it: text, since its body is a stream of lines rather than one JSON
 * value, and a validator given an object schema rejects every answer. Each line is a BatchRowAnswerDto.
 */
export const NDJSON_STREAM = {
  type: 'string',
  description: `Newline-delimited JSON: one BatchRowAnswerDto (see components.schemas) per line, in input order, each line ending in "\\n".`,
  example: '{"index":0,"id":"r1","status":200,"body":{…}}\n{"index":1,"id":"r2","status":422,"body":{…}}\n',
};
