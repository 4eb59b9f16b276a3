import { Module } from '@nestjs/common';
import { LookupModule } from '../lookup/lookup.module';
import { MapPictureModule } from '../map-picture/map-picture.module';
import { ReportController } from './report.controller';

/** GET /flood-zone/report: a lookup's answer, with its map picture inside, as one printable page. */
@Module({
  imports: [LookupModule, MapPictureModule],
  controllers: [ReportController],
})
export class ReportModule {}
