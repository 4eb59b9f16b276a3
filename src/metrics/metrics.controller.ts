import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ServiceMetrics } from './service-metrics';
import { SkipThrottle } from '@nestjs/throttler';

@ApiTags('operations')
@SkipThrottle()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: ServiceMetrics) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'scrapeMetrics',
    summary: 'Prometheus metrics',
    description: 'Request counts and latency by route and status, upstream latency and outcome, cache hits and misses, circuit state, process metrics.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition format', schema: { type: 'string' } })
  async scrape(@Res() res: Response): Promise<void> {
    res.type(this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }
}
