import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SourceDto } from '../../lookup/dto/flood-zone-response.dto';

export class EndpointDto {
  @ApiProperty({ example: 'GET' })
  method: string;

  @ApiProperty()
  note: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'Parameter name to description (for /flood-zone).' })
  params?: Record<string, string>;

  @ApiPropertyOptional({ type: [String], description: 'Working relative example URLs (for /flood-zone).' })
  examples?: string[];
}

export class CircuitDto {
  @ApiProperty({ enum: ['closed', 'open', 'half_open', 'isolated'] })
  circuit: string;
}

export class UpstreamStatesDto {
  @ApiProperty({ type: CircuitDto })
  flood_data: CircuitDto;

  @ApiProperty({ type: CircuitDto })
  geocoder: CircuitDto;
}

export class StatusDocumentDto {
  @ApiProperty({ example: 'flood-zone-lookup' })
  name: string;

  @ApiProperty({ example: 'ok' })
  status: string;

  @ApiProperty({ example: '1.0.0' })
  version: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/EndpointDto' }, description: 'Endpoint catalogue keyed by path.' })
  endpoints: Record<string, EndpointDto>;

  @ApiProperty()
  coverageHonesty: string;

  @ApiProperty({ type: SourceDto })
  dataSource: SourceDto;

  @ApiProperty({ example: '/api-docs.html' })
  docs: string;

  @ApiPropertyOptional()
  uptimeSeconds?: number;

  @ApiPropertyOptional({ type: UpstreamStatesDto, description: 'Circuit state per upstream (information only).' })
  upstreams?: UpstreamStatesDto;
}

export class ReadinessDto {
  @ApiProperty({ enum: ['ok', 'shutting_down'] })
  status: string;
}
