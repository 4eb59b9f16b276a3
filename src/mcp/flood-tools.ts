import { Injectable } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { errorAnswerOf } from '../common/filters/api-exception.filter';
import { numberAsPlainDecimal } from '../common/json-body';
import { SERVICE_NAME, SERVICE_VERSION } from '../health/service-description';
import { readGivenFootprint } from '../lookup/dto/footprint-lookup-body';
import { readLookupLocation, readLookupOptions } from '../lookup/dto/lookup-parameters';
import { LOOKUP_PATH } from '../lookup/answer-cache';
import type { LocationQuery } from '../lookup/location-query';
import { LookupService } from '../lookup/lookup.service';
import { readMapPictureQuery } from '../map-picture/dto/map-picture-query.pipe';
import { MapPictureService } from '../map-picture/map-picture.service';
import { INCLUDE_ITEMS, type IncludeItem } from '../parts/answer-parts';
import { lookupSummary, toolFailure } from './tool-answers';

/** Most locations one flood_zone_batch call answers; a longer list belongs to POST /flood-zone/batch. */
export const TOOL_BATCH_MAX_LOCATIONS = 100;

const LOCATION_SHAPE = {
  address: z
    .string()
    .optional()
    .describe('A US street address on one line, at most 200 characters, e.g. "1600 Pennsylvania Ave NW, Washington, DC 20500". Not with lat/lon.'),
  lat: z.number().optional().describe('Latitude in decimal degrees, -90 to 90; give lon too. Not with address.'),
  lon: z.number().optional().describe('Longitude in decimal degrees, -180 to 180; give lat too. Not with address.'),
};

const INCLUDE = z
  .array(z.enum(INCLUDE_ITEMS as [IncludeItem, ...IncludeItem[]]))
  .optional()
  .describe(`Optional parts of the answer, any of: ${INCLUDE_ITEMS.join(', ')}.`);
const RADIUS = z
  .number()
  .int()
  .optional()
  .describe('Metres around the point searched by the nearby part, 10 to 2000 (default 500); only with include ["nearby"].');

/** Every tool only reads FEMA's and Census's data: asking again gives the same answer. */
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: true } as const;

type LocationArguments = { address?: string; lat?: number; lon?: number };
type LookupArguments = LocationArguments & { include?: IncludeItem[]; radius?: number };

/** A number as the text a query string would carry, so that the GET rules check it unchanged. */
const asText = (value: number | undefined): string | undefined => (value === undefined ? undefined : String(numberAsPlainDecimal(value)));

/** The tool's arguments as GET /flood-zone's parameters (only those given). */
function asParameters({ address, lat, lon, include, radius }: LookupArguments): Record<string, string> {
  const parameters = { address, lat: asText(lat), lon: asText(lon), include: include?.join(','), radius: asText(radius) };
  return Object.fromEntries(Object.entries(parameters).filter(([, value]) => value !== undefined)) as Record<string, string>;
}

/** The lookup a tool asks for, checked by GET /flood-zone's rules in their order (400, then 422). */
function lookupQuery(args: LookupArguments): LocationQuery {
  const parameters = asParameters(args);
  return { ...readLookupLocation(parameters), ...readLookupOptions(parameters) };
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
  ) {}

  serverFor(requestId: string): McpServer {
    const server = new McpServer({ name: SERVICE_NAME, version: SERVICE_VERSION });
    const answered = async (answer: () => Promise<CallToolResult>): Promise<CallToolResult> => {
      try {
        return await answer();
      } catch (error) {
        return toolFailure(error, requestId);
      }
    };

    server.registerTool(
      'flood_zone',
      {
        title: 'Flood zone of a US address or point',
        description:
          "FEMA flood zone, Special Flood Hazard Area status, FIRM panel and plain-language meaning at a US address or lat/lon, live from FEMA's National Flood Hazard Layer. " +
          'structuredContent is the GET /flood-zone answer. Coverage "unmapped" means unknown, never "not in a flood zone". Informational only.',
        inputSchema: { ...LOCATION_SHAPE, include: INCLUDE, radius: RADIUS },
        annotations: READ_ONLY,
      },
      (args) =>
        answered(async () => {
          const { body } = await this.lookups.lookup(lookupQuery(args));
          return { structuredContent: { ...body }, content: [{ type: 'text', text: lookupSummary(body) }] };
        }),
    );

    server.registerTool(
      'flood_determination',
      {
        title: 'Flood determination for a lender',
        description:
          "The answer as section II of FEMA's Standard Flood Hazard Determination Form would take it (for the building when one is found or given, else the point), " +
          'with the notes a lender needs. Give footprint, a GeoJSON Polygon, MultiPolygon or Feature of one in lon/lat, when you have the building outline.',
        inputSchema: {
          ...LOCATION_SHAPE,
          footprint: z
            .record(z.string(), z.unknown())
            .optional()
            .describe("The building's outline as GeoJSON (Polygon, MultiPolygon or a Feature of one), within 1 km of the location."),
        },
        annotations: READ_ONLY,
      },
      ({ footprint, ...location }) =>
        answered(async () => {
          const query = lookupQuery({ ...location, include: ['determination'] });
          const given = footprint === undefined ? {} : { footprint: readGivenFootprint(footprint) };
          const { body } = await this.lookups.lookup({ ...query, ...given });
          const determination = body.result.determination;
          return {
            structuredContent: { ...determination },
            content: [{ type: 'text', text: `${lookupSummary(body)}\n${JSON.stringify(determination)}` }],
          };
        }),
    );

    server.registerTool(
      'flood_map',
      {
        title: 'Flood map picture',
        description:
          "A PNG map of FEMA's flood zones around a US address or lat/lon over the USGS National Map, the point ringed at its centre, as GET /flood-zone/map draws it; the legend follows as text.",
        inputSchema: {
          ...LOCATION_SHAPE,
          width: z.number().int().optional().describe('Picture width in pixels, 200 to 1600 (default 800).'),
          height: z.number().int().optional().describe('Picture height in pixels, 200 to 1600 (default 600).'),
          span: z.number().int().optional().describe('Metres of ground across the picture, 100 to 5000 (default 600).'),
        },
        annotations: READ_ONLY,
      },
      ({ width, height, span, ...location }) =>
        answered(async () => {
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
        }),
    );

    server.registerTool(
      'flood_zone_batch',
      {
        title: 'Flood zones of many locations',
        description:
          `Up to ${TOOL_BATCH_MAX_LOCATIONS} lookups at once, each answered as flood_zone answers it, in input order: each row is {index, id, status, body}, ` +
          'body being the GET /flood-zone answer (status 200) or its error envelope. include and radius apply to every row.',
        inputSchema: {
          locations: z
            .array(z.object({ id: z.string().optional().describe('Your own label, echoed in the row.'), ...LOCATION_SHAPE }))
            .min(1)
            .max(TOOL_BATCH_MAX_LOCATIONS)
            .describe('The locations: each an address, or lat and lon.'),
          include: INCLUDE,
          radius: RADIUS,
        },
        annotations: READ_ONLY,
      },
      ({ locations, include, radius }) =>
        answered(async () => {
          const options = readLookupOptions(asParameters({ include, radius }));
          const rows = await Promise.all(
            locations.map(async ({ id, ...location }, index) => {
              try {
                const { body } = await this.lookups.lookup({ ...readLookupLocation(asParameters(location)), ...options });
                return { index, id: id ?? null, status: 200, body };
              } catch (error) {
                const { status, body } = errorAnswerOf(error, { id: requestId, method: 'GET', path: LOOKUP_PATH });
                return { index, id: id ?? null, status, body };
              }
            }),
          );
          const failed = rows.filter((row) => row.status !== 200).length;
          return { structuredContent: { rows }, content: [{ type: 'text', text: `${rows.length} locations answered, ${failed} failed.` }] };
        }),
    );
    return server;
  }
}
