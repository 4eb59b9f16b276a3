import { Module } from '@nestjs/common';
import { upstreamHttpModule } from '../../common/upstream/upstream-providers';
import { AreaRecordPort } from './area-record-port';
import { OpenFemaHistoryClient } from './openfema-history.client';

/** OpenFEMA's NFIP claims and policies and disaster declarations, on the `openfema` upstream the Community Status Book provides. */
@Module({
  imports: [upstreamHttpModule()],
  providers: [OpenFemaHistoryClient, { provide: AreaRecordPort, useExisting: OpenFemaHistoryClient }],
  exports: [AreaRecordPort],
})
export class HistoryModule {}
