import { Module } from '@nestjs/common';
import { LookupModule } from '../lookup/lookup.module';
import { ReportController } from './report.controller';

/** GET /flood-zone/report: a lookup's answer as one printable page. */
@Module({
  imports: [LookupModule],
  controllers: [ReportController],
})
export class ReportModule {}
