import { Module } from '@nestjs/common';
import { BatchModule } from '../batch/batch.module';
import { LookupModule } from '../lookup/lookup.module';
import { MapPictureModule } from '../map-picture/map-picture.module';
import { StructureModule } from '../parts/structure/structure.module';
import { FloodTools } from './flood-tools';
import { McpController } from './mcp.controller';

/** POST /mcp: the lookup, the determination, the map and the batch as tools for AI agents (MCP_ENABLED). */
@Module({
  imports: [LookupModule, MapPictureModule, BatchModule, StructureModule],
  controllers: [McpController],
  providers: [FloodTools],
})
export class McpModule {}
