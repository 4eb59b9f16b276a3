import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { FloodZoneQueryDto } from '../../lookup/dto/flood-zone-query.dto';

/** A picture's size in pixels and the ground metres across its width: default, least and most. */
export const PICTURE_LIMITS = {
  width: { default: 800, min: 200, max: 1600, unit: 'pixels' },
  height: { default: 600, min: 200, max: 1600, unit: 'pixels' },
  span: { default: 600, min: 100, max: 5000, unit: 'metres' },
} as const;

export type PictureParameter = keyof typeof PICTURE_LIMITS;

function sizeParameter(name: PictureParameter, what: string) {
  const { default: fallback, min, max, unit } = PICTURE_LIMITS[name];
  return {
    description:
      `${what}, a whole number of ${unit} from ${min} to ${max}; ${fallback} when not given. ` +
      'Text other than digits is answered 400 INVALID_PARAMETERS by the service, a number out of range 422 IMAGE_SIZE_OUT_OF_RANGE.',
    // A number or text, as lat and radius: a validating gateway then forwards both refusals to the service.
    anyOf: [{ type: 'integer', minimum: min, maximum: max }, { type: 'string' }],
  };
}

/**
 * GET /flood-zone/map parameters as /openapi.json describes them: the location of GET /flood-zone (same
 * rules, same errors) and the picture's size and span. Any other parameter is refused (400), GET /flood-zone's
 * include and radius too: the picture always shows the nearby zones it has room for.
 */
export class MapPictureQueryDto extends OmitType(FloodZoneQueryDto, ['include', 'radius'] as const) {
  @ApiPropertyOptional(sizeParameter('width', 'Width of the picture'))
  width?: unknown;

  @ApiPropertyOptional(sizeParameter('height', 'Height of the picture'))
  height?: unknown;

  @ApiPropertyOptional(sizeParameter('span', 'Ground distance across the width of the picture, the point at its centre'))
  span?: unknown;
}
