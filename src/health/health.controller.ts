import { Controller, Get, Header, HttpCode, Res } from '@nestjs/common';
import { ModuleRef, ModulesContainer } from '@nestjs/core';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { SkipThrottle } from '@nestjs/throttler';
import type { Response } from 'express';
import { CircuitStateName, ResilientUpstream } from '../common/upstream/resilient-upstream';
import { FloodHazardPort } from '../flood-hazard/flood-hazard-port';
import { Geocoder } from '../geocoding/geocoder';
import { FLOOD_DATA_NAME } from '../lookup/flood-zone-lookup';
import { PortfolioJobs } from '../jobs/portfolio-jobs';
import { ServiceMetrics } from '../metrics/service-metrics';
import { DrainState } from '../common/drain-state';
import { EndpointDto, ReadinessDto, StatusDocumentDto } from './dto/status-document.dto';
import { UpstreamStateDto } from './dto/upstream-state.dto';
import { COVERAGE_HONESTY, DOCS_PATH, ENDPOINT_CATALOGUE, SERVICE_DESCRIPTION, SERVICE_NAME, SERVICE_VERSION } from './service-description';
import { UpstreamReachability } from './upstream-reachability';
import { upstreamState } from './upstream-state';

@ApiTags('operations')
@ApiExtraModels(EndpointDto, UpstreamStateDto)
@SkipThrottle()
@Controller('health')
export class HealthController {
  private readonly startedAt = Date.now();
  private upstreams?: ResilientUpstream[];

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly drain: DrainState,
    private readonly floodHazard: FloodHazardPort,
    private readonly geocoder: Geocoder,
    private readonly modules: ModulesContainer,
    private readonly metrics: ServiceMetrics,
    private readonly reachability: UpstreamReachability,
    private readonly moduleRef: ModuleRef,
  ) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'getServiceStatus',
    summary: 'Status document and endpoint catalogue (liveness)',
    description: 'Never calls FEMA or Census; 200 whenever the process serves requests.',
  })
  @ApiOkResponse({ type: StatusDocumentDto })
  async status(): Promise<StatusDocumentDto> {
    // Circuit states are information only: an open circuit is reported, never a failed liveness.
    const circuits = this.resilientUpstreams().flatMap((upstream) =>
      upstream.circuitStates.map(([circuit, state]) => [circuit, state, upstream.name] as const),
    );
    const check = await this.health.check(
      circuits.map(
        ([circuit, state]) =>
          () =>
            this.indicators.check(circuit).up({ circuit: state }),
      ),
    );
    return {
      name: SERVICE_NAME,
      status: 'ok',
      version: SERVICE_VERSION,
      description: SERVICE_DESCRIPTION,
      endpoints: ENDPOINT_CATALOGUE,
      coverageHonesty: COVERAGE_HONESTY,
      dataSource: { floodData: FLOOD_DATA_NAME, floodService: this.floodHazard.serviceUrl, geocoder: this.geocoder.description },
      docs: DOCS_PATH,
      uptimeSeconds: Math.floor((Date.now() - this.startedAt) / 1000),
      upstreams: Object.fromEntries(
        circuits.map(([circuit, , upstream]) => [
          circuit,
          upstreamState(check.details[circuit].circuit as CircuitStateName, this.metrics.lastAttempt(upstream), this.reachability.atStartUp(upstream)),
        ]),
      ),
      // What the process already knows of the jobs Redis: asking it here would make liveness depend on it.
      jobs: this.moduleRef.get(PortfolioJobs, { strict: false }).availability(),
    };
  }

  @Get('ready')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ operationId: 'checkReadiness', summary: 'Readiness probe', description: 'Never depends on FEMA, Census or Redis.' })
  @ApiOkResponse({ type: ReadinessDto, description: '{"status":"ok"} while serving.' })
  @ApiServiceUnavailableResponse({
    type: ReadinessDto,
    description: '{"status":"shutting_down"} while draining after SIGTERM.',
    example: { status: 'shutting_down' },
  })
  ready(@Res({ passthrough: true }) res: Response): ReadinessDto {
    if (this.drain.draining) {
      res.status(503);
      return { status: 'shutting_down' };
    }
    return { status: 'ok' };
  }

  /** Every upstream's policies, found among the providers, so that a new upstream is reported without a change here. */
  private resilientUpstreams(): ResilientUpstream[] {
    this.upstreams ??= [
      ...new Set(
        [...this.modules.values()]
          .flatMap((module) => [...module.providers.values()].map((provider) => provider.instance as unknown))
          .filter((instance): instance is ResilientUpstream => instance instanceof ResilientUpstream),
      ),
    ].sort((a, b) => a.name.localeCompare(b.name));
    return this.upstreams;
  }
}
