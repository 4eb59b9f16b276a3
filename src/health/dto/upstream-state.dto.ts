import { ApiProperty } from '@nestjs/swagger';
import type { UpstreamState } from '../upstream-state';

/** One upstream operation in /health `upstreams` (information only: /health never calls an upstream). */
export class UpstreamStateDto implements UpstreamState {
  @ApiProperty({
    enum: ['answering', 'failing', 'circuit_open', 'unreachable', 'not_called_yet'],
    description:
      'The one word to read first. `answering`: the latest call succeeded. `failing`: the latest call failed or timed out. ' +
      '`circuit_open`: too many outages lately, not called until the next probe. `unreachable`: not called yet, and its host ' +
      'could not be reached at start-up. `not_called_yet`: no call since start-up.',
  })
  state: UpstreamState['state'];

  @ApiProperty({ enum: ['closed', 'open', 'half_open', 'isolated'], description: 'The circuit breaker of this operation.' })
  circuit: UpstreamState['circuit'];

  @ApiProperty({
    enum: ['ok', 'failed', 'timed_out', 'none'],
    description: "The latest attempt on this upstream's host since start-up (a retry that succeeded counts as ok).",
  })
  lastCall: UpstreamState['lastCall'];

  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When the latest attempt ended (UTC); null before the first.' })
  lastCallAt: string | null;

  @ApiProperty({ example: 'hazards.fema.gov', description: 'The configured host (with its port when not the default).' })
  host: string;

  @ApiProperty({
    enum: ['not_checked', 'checking', 'reachable', 'unreachable'],
    description: 'The one check made when the service started: could a TCP connection to the host be opened? (No retries; never affects readiness.)',
  })
  atStartUp: UpstreamState['atStartUp'];

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Why the start-up check failed, e.g. "getaddrinfo ENOTFOUND hazards.fema.gov"; null otherwise.',
  })
  startUpError: string | null;
}
