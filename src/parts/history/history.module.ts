import { Module } from '@nestjs/common';
import { PieceCacheModule } from '../../cache/piece-cache.module';
import { upstreamHttpModule } from '../../common/upstream/upstream-providers';
import { AreaRecordPort } from './area-record-port';
import { OpenFemaHistoryClient } from './openfema-history.client';
import { TractRecords } from './tract-records.client';

/**
 * OpenFEMA's NFIP claims and policies and disaster declarations, on the `openfema` upstream the Community Status Book
 * provides, asked per tract or, for a portfolio job, per county (TractRecords).
 */
@Module({
  imports: [upstreamHttpModule(), PieceCacheModule],
  providers: [OpenFemaHistoryClient, { provide: AreaRecordPort, useExisting: OpenFemaHistoryClient }, TractRecords],
  exports: [TractRecords],
})
export class HistoryModule {}
