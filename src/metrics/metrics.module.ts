import { Global, Module } from '@nestjs/common';
import { UPSTREAM_OBSERVER } from '../common/upstream/resilient-upstream';
import { MetricsController } from './metrics.controller';
import { ServiceMetrics } from './service-metrics';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [ServiceMetrics, { provide: UPSTREAM_OBSERVER, useExisting: ServiceMetrics }],
  exports: [ServiceMetrics, UPSTREAM_OBSERVER],
})
export class MetricsModule {}
