import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODES } from './api-error';

/** OpenAPI description of the one error body every failure uses (see error-envelope.ts). */

export class AddressCandidateDto {
  @ApiProperty({ example: '100 MAIN ST, SPRINGFIELD, IL, 62701' })
  matchedAddress: string;

  @ApiProperty({ example: 39.8 })
  lat: number;

  @ApiProperty({ example: -89.65 })
  lon: number;
}

export class ErrorEnvelopeDto {
  @ApiProperty({ description: 'Plain-language message.' })
  error: string;

  @ApiProperty({ example: 400 })
  statusCode: number;

  @ApiProperty({ enum: ERROR_CODES })
  code: string;

  @ApiProperty({ description: 'The X-Request-Id of the request.' })
  requestId: string;

  @ApiPropertyOptional({ enum: ['flood_data', 'geocoder'], description: 'With UPSTREAM_UNAVAILABLE: which upstream failed.' })
  upstream?: string;

  @ApiPropertyOptional({ type: [AddressCandidateDto], description: 'With AMBIGUOUS_ADDRESS: the matches, to retry with coordinates.' })
  candidates?: AddressCandidateDto[];
}
