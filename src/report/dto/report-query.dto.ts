import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { FloodZoneQueryDto, INCLUDE_PARAMETER, RADIUS_DEFAULT_M, RADIUS_MAX_M, RADIUS_MIN_M, RADIUS_PARAMETER } from '../../lookup/dto/flood-zone-query.dto';
import { INCLUDE_ITEMS } from '../../parts/answer-parts';
import { PICTURE_LIMITS } from '../../map-picture/dto/map-picture-query.dto';

const SPAN = PICTURE_LIMITS.span;

/** A report asks for every opt-in part unless `include` says otherwise: a report is meant to be complete. */
export const EVERY_PART = INCLUDE_ITEMS.join(',');

/**
 * GET /flood-zone/report parameters as /openapi.json describes them: the location of GET /flood-zone, its `include`
 * (every part when not given) and `radius`, and the span of the map picture.
 */
export class ReportQueryDto extends OmitType(FloodZoneQueryDto, ['include', 'radius'] as const) {
  @ApiPropertyOptional({
    ...INCLUDE_PARAMETER,
    description:
      `${INCLUDE_PARAMETER.description} When not given, the report asks for every part (\`include=${EVERY_PART}\`): a report is meant to be complete. ` +
      "Whatever it names, the report asks for determination too (and so structure and cbrs): its words on insurance and lending are the lender's form's.",
    // Swagger UI's "Try it out" starts from the example: the report a person gets without include.
    default: [...INCLUDE_ITEMS],
    example: [...INCLUDE_ITEMS],
  })
  include?: unknown;

  @ApiPropertyOptional({
    ...RADIUS_PARAMETER,
    description:
      `Search radius in metres for the nearby hazards, a whole number from ${RADIUS_MIN_M} to ${RADIUS_MAX_M}; ${RADIUS_DEFAULT_M} when not given. ` +
      'Without `include` (every part asked for) it always applies; with `include`, only when that names nearby. Text other than digits is ' +
      'answered 400 INVALID_PARAMETERS by the service.',
  })
  radius?: unknown;

  @ApiPropertyOptional({
    description:
      `Ground distance across the width of the page's map picture (as for GET /flood-zone/map), a whole number of ${SPAN.unit} from ${SPAN.min} ` +
      `to ${SPAN.max}; ${SPAN.default} when not given. Text other than digits is answered 400 INVALID_PARAMETERS by the service, a number out ` +
      'of range 422 IMAGE_SIZE_OUT_OF_RANGE.',
    anyOf: [{ type: 'integer', minimum: SPAN.min, maximum: SPAN.max }, { type: 'string' }],
  })
  span?: unknown;
}
