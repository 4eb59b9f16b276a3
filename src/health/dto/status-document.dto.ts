import { JobsAvailabilityDto } from './jobs-availability.dto';
import { UpstreamStateDto } from './upstream-state.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SourceDto } from '../../lookup/dto/flood-zone-response.dto';
import { UPSTREAM_CIRCUITS } from '../../common/upstream/upstream-registry';

export class EndpointDto {
  @ApiProperty({ enum: ['GET', 'POST', 'DELETE'], example: 'GET', description: 'The method the path is mainly for: the first of `methods`.' })
  method: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: ['GET', 'POST', 'DELETE'] },
    minItems: 1,
    example: ['GET', 'DELETE'],
    description: 'Every method the path serves (each path also answers HEAD beside GET, and the OPTIONS preflight; any other method is a 405).',
  })
  methods: string[];

  @ApiProperty()
  note: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'Parameter name to description (for /flood-zone).' })
  params?: Record<string, string>;

  @ApiPropertyOptional({
    type: [String],
    description: 'Working relative example URLs (for /flood-zone, /flood-zone/map and /flood-zone/report).',
  })
  examples?: string[];
}

/**
 * Every circuit of UPSTREAM_REGISTRY with its words, circuits sharing their words named together:
 * "`flood_data` (FEMA NFHL, effective maps), `flood_data_preliminary` and `flood_data_pending` (FEMA preliminary and pending maps), ...".
 */
function circuitsInWords(): string {
  const groups: Array<{ names: string[]; inHealth: string }> = [];
  for (const { name, inHealth } of UPSTREAM_CIRCUITS) {
    const last = groups.at(-1);
    if (last?.inHealth === inHealth) last.names.push(name);
    else groups.push({ names: [name], inHealth });
  }
  const listed = (names: string[]) => {
    const quoted = names.map((name) => `\`${name}\``);
    return quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
  };
  return groups.map(({ names, inHealth }) => `${listed(names)} (${inHealth})`).join(', ');
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

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/EndpointDto' },
    description: 'Endpoint catalogue keyed by path, written as /openapi.json writes it (`{id}` stands for a job id).',
  })
  endpoints: Record<string, EndpointDto>;

  @ApiProperty()
  coverageHonesty: string;

  @ApiProperty({ type: SourceDto })
  dataSource: SourceDto;

  @ApiProperty({ example: '/api-docs.html' })
  docs: string;

  @ApiPropertyOptional()
  uptimeSeconds?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/UpstreamStateDto' },
    description:
      'The state of each upstream operation (information only: /health never calls an upstream), one per upstream operation that fails on its own: ' +
      `${circuitsInWords()}. A circuit opens only on an outage: a high rate of timeouts, connection failures, 5xx or HTML answers among enough calls.`,
    example: {
      flood_data: {
        state: 'answering',
        circuit: 'closed',
        lastCall: 'ok',
        lastCallAt: '2026-01-02T03:04:05.678Z',
        host: 'hazards.fema.gov',
        atStartUp: 'reachable',
        startUpError: null,
      },
    },
  })
  upstreams?: Record<string, UpstreamStateDto>;

  @ApiProperty({ type: JobsAvailabilityDto, description: 'Whether the portfolio job endpoints (/flood-zone/jobs) can be served now (information only).' })
  jobs: JobsAvailabilityDto;
}

export class ReadinessDto {
  @ApiProperty({ enum: ['ok', 'shutting_down'] })
  status: string;
}
