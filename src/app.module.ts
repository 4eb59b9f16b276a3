import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import type { AppConfig } from './config/app-config';
import { BatchModule } from './batch/batch.module';
import { ServiceLog } from './common/request-log';
import { CommunityStatusModule } from './community-status/community-status.module';
import { HealthModule } from './health/health.module';
import { JobsModule } from './jobs/jobs.module';
import { LookupModule } from './lookup/lookup.module';
import { MapPictureModule } from './map-picture/map-picture.module';
import { McpModule } from './mcp/mcp.module';
import { MetricsModule } from './metrics/metrics.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { ReportModule } from './report/report.module';
import { WatchesModule } from './watches/watches.module';

/** The application, built from an already validated configuration (so tests can run several side by side). */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    // One jobs module for the jobs and the watches, which share its Redis and budget.
    const jobs = JobsModule.forRoot(config);
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, skipProcessEnv: true, load: [() => ({ ...config })] }),
        MetricsModule,
        HealthModule,
        CommunityStatusModule,
        LookupModule,
        MapPictureModule,
        BatchModule,
        jobs,
        WatchesModule.forRoot(config, jobs),
        ReportModule,
        ...(config.MCP_ENABLED ? [McpModule] : []),
        RateLimitModule.forRoot(config),
      ],
      providers: [{ provide: ServiceLog, useValue: new ServiceLog(config.LOG_LEVEL) }],
    };
  }
}
