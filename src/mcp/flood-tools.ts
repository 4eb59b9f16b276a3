import { Injectable } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { BatchLookupService } from '../batch/batch-lookup.service';
import { BatchSlots } from '../batch/batch-slots';
import { rowObject } from '../batch/row-answer';
import { numberAsPlainDecimal } from '../common/json-body';
import { refuseUnreadParameters } from '../common/query-string';
import { SERVICE_NAME, SERVICE_VERSION } from '../health/service-description';
import { checkGivenFootprint } from '../lookup/dto/footprint-lookup-body';
import { PolygonWork } from '../parts/structure/polygon-work.client';
import { ApiError } from '../common/api-error';
import { readBuildId, readLookupLocation, readLookupOptions } from '../lookup/dto/lookup-parameters';
import type { LocationQuery } from '../lookup/location-query';
import { LookupService } from '../lookup/lookup.service';
import { readMapPictureQuery } from '../map-picture/dto/map-picture-query.pipe';
import { MapPictureService } from '../map-picture/map-picture.service';
import type { IncludeItem } from '../parts/answer-parts';
import { lookupSummary, structuredAnswer, toolFailure } from './tool-answers';
import {
  BATCH_ANSWER,
  BATCH_SHAPE,
  DETERMINATION_ANSWER,
  DETERMINATION_SHAPE,
  LOOKUP_ANSWER,
  LOOKUP_SHAPE,
  MAP_SHAPE,
  TOOL_BATCH_MAX_LOCATIONS,
  toolArguments,
  type ToolArguments,
} from './tool-schemas';

/** Every tool only reads FEMA's and Census's data: asking again gives the same answer. */
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: true } as const;

type LocationArguments = { address?: string; lat?: number; lon?: number };
type LookupArguments = LocationArguments & { include?: IncludeItem[]; radius?: number; buildId?: string };

/** A number as the text a query string would carry, so that the GET rules check it unchanged. */
const asText = (value: number | undefined): string | undefined => (value === undefined ? undefined : String(numberAsPlainDecimal(value)));

/** The tool's arguments as GET /flood-zone's parameters (only those given). */
function asParameters({ address, lat, lon, include, radius, buildId }: LookupArguments): Record<string, string> {
  const parameters = { address, lat: asText(lat), lon: asText(lon), include: include?.join(','), radius: asText(radius), buildId };
  return Object.fromEntries(Object.entries(parameters).filter(([, value]) => value !== undefined)) as Record<string, string>;
}

/** The lookup a tool asks for, checked by GET /flood-zone's rules in their order (400, then 422). */
function lookupQuery(args: LookupArguments): LocationQuery {
  const parameters = asParameters(args);
  return { ...readLookupLocation(parameters), ...readLookupOptions(parameters), ...readBuildId(parameters) };
}

/**
 * The service's tools for AI agents (the Model Context Protocol), each answering as its REST endpoint does.
 * A server is built per request: the protocol is served without sessions.
 */
@Injectable()
export class FloodTools {
  constructor(
    private readonly lookups: LookupService,
    private readonly pictures: MapPictureService,
    private readonly batches: BatchLookupService,
    private readonly batchSlots: BatchSlots,
    private readonly polygons: PolygonWork,
  ) {}

  serverFor(requestId: string): McpServer {
    const server = new McpServer({ name: SERVICE_NAME, version: SERVICE_VERSION });
    /**
     * A read-only tool taking the arguments of `shape` and no other (one it does not read is refused by name, before the
     * rest are checked, as REST refuses an unknown parameter); any failure is a tool error carrying REST's envelope.
     * `answer` is given the call's signal, aborted once nobody waits for its answer (the client has gone).
     */
    const register = <Shape extends z.ZodRawShape>(
      name: string,
      config: { title: string; description: string; outputSchema?: z.ZodObject },
      shape: Shape,
      answer: (args: ToolArguments<Shape>, cancelled: AbortSignal) => Promise<CallToolResult>,
    ) =>
      server.registerTool<z.ZodObject, z.ZodType>(name, { ...config, inputSchema: toolArguments(shape), annotations: READ_ONLY }, async (args, extra) => {
        // The SDK has checked the arguments against the shape (the compiler cannot follow a generic shape through it).
        const given = args as ToolArguments<Shape>;
        try {
          refuseUnreadParameters(given, Object.keys(shape), 'argument');
          return await answer(given, extra.signal);
        } catch (error) {
          return toolFailure(error, requestId);
        }
      });

    register(
      'flood_zone',
      {
        title: 'Flood zone of a US address or point',
        description:
          "FEMA flood zone, Special Flood Hazard Area status, FIRM panel and plain-language meaning at a US address or lat/lon, live from FEMA's National Flood Hazard Layer. " +
          'structuredContent is the GET /flood-zone answer. Coverage "unmapped" means unknown, never "not in a flood zone". ' +
          "With include structure, the building's answer leads the summary. Informational only.",
        outputSchema: LOOKUP_ANSWER,
      },
      LOOKUP_SHAPE,
      async (args) => {
        const { body } = await this.lookups.lookup(lookupQuery(args));
        return structuredAnswer(lookupSummary(body), { ...body });
      },
    );

    register(
      'flood_determination',
      {
        title: 'Flood determination for a lender',
        description:
          "The answer as section II of FEMA's Standard Flood Hazard Determination Form would take it (for the building when one is found or given, else the point), " +
          'with the notes a lender needs. Give footprint, a GeoJSON Polygon, MultiPolygon or Feature of one in lon/lat, when you have the building outline.',
        outputSchema: DETERMINATION_ANSWER,
      },
      DETERMINATION_SHAPE,
      async ({ footprint, ...location }) => {
        if (footprint !== undefined && location.buildId !== undefined) {
          throw new ApiError(400, 'INVALID_PARAMETERS', 'Give footprint or buildId, not both: each names the building to answer for.');
        }
        const query = lookupQuery({ ...location, include: ['determination'] });
        const given = footprint === undefined ? {} : { footprint: await checkGivenFootprint(footprint, this.polygons) };
        const { body } = await this.lookups.lookup({ ...query, ...given });
        return structuredAnswer(lookupSummary(body), { ...body.result.determination });
      },
    );

    register(
      'flood_map',
      {
        title: 'Flood map picture',
        description:
          "A PNG map of FEMA's flood zones around a US address or lat/lon over the USGS National Map, the point ringed at its centre, as GET /flood-zone/map draws it; the legend follows as text.",
      },
      MAP_SHAPE,
      async ({ width, height, span, ...location }) => {
        const sizes = Object.entries({ width, height, span }).filter(([, value]) => value !== undefined);
        const query = readMapPictureQuery({ ...asParameters(location), ...Object.fromEntries(sizes.map(([name, value]) => [name, asText(value)])) });
        const { entity } = await this.pictures.picture(query);
        const headers = new Map<string, string>();
        for (let i = 0; i + 1 < (entity.headers?.length ?? 0); i += 2) headers.set(entity.headers![i], entity.headers![i + 1]);
        const missing = headers.has('X-Map-Unavailable')
          ? ` Unavailable: ${headers.get('X-Map-Unavailable')} (the zones are drawn on a plain background).`
          : '';
        return {
          content: [
            { type: 'image', data: Buffer.from(entity.body).toString('base64'), mimeType: entity.contentType },
            { type: 'text', text: `Legend: ${headers.get('X-Map-Legend') || 'no zone drawn'}.${missing}` },
          ],
        };
      },
    );

    register(
      'flood_zone_batch',
      {
        title: 'Flood zones of many locations',
        description:
          `Up to ${TOOL_BATCH_MAX_LOCATIONS} lookups at once, each answered as flood_zone answers it, in input order: each row is {index, id, status, body}, ` +
          'body being the GET /flood-zone answer (status 200) or its error envelope. include and radius apply to every row. ' +
          'It is a batch as POST /flood-zone/batch runs one: while the service runs its most batches at once, the call is a BATCH_BUSY tool error; retry in a few seconds.',
        outputSchema: BATCH_ANSWER,
      },
      BATCH_SHAPE,
      // A batch as POST /flood-zone/batch runs one: in one of its BATCH_MAX_CONCURRENT slots (or BATCH_BUSY), its
      // upstream calls in the batch lane, so that interactive lookups keep their half of each upstream.
      async ({ locations, include, radius }, cancelled) => {
        const options = readLookupOptions(asParameters({ include, radius }));
        const release = this.batchSlots.tryTake();
        if (!release) throw this.batchSlots.busy();
        const rows: Array<ReturnType<typeof rowObject>> = [];
        try {
          const asked = locations.map(({ id, ...location }) => ({ id, ...asParameters(location) }));
          await this.batches.run(asked, options, requestId, cancelled, (row) => {
            rows.push(rowObject(row));
            return Promise.resolve();
          });
        } finally {
          release();
        }
        // Rows stop once the client has gone: what was answered is no whole batch.
        cancelled.throwIfAborted();
        const failed = rows.filter((row) => row.status !== 200).length;
        return structuredAnswer(`${rows.length} location${rows.length === 1 ? '' : 's'} answered, ${failed} failed.`, { rows });
      },
    );
    return server;
  }
}
