import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { ApiError } from '../common/api-error';
import { parseJsonBody } from '../common/json-body';
import { BodyLimits, bufferedBody, readBody } from '../common/request-body';
import { FloodTools } from './flood-tools';
import { MCP_PATH } from './mcp-path';

/** A batch of 100 locations, or a footprint of 2,000 vertices, fits well within this. */
const MCP_BODY_MAX_BYTES = 1024 * 1024;

const MCP_BODY: BodyLimits = {
  maxBytes: MCP_BODY_MAX_BYTES,
  tooLarge: () => new ApiError(413, 'REQUEST_BODY_TOO_LARGE', `A Model Context Protocol message holds at most ${MCP_BODY_MAX_BYTES} bytes (1 MiB).`),
  cutShort: () => new ApiError(400, 'INVALID_PARAMETERS', 'The body ended before it was complete.'),
};

/**
 * The Model Context Protocol over Streamable HTTP, without sessions: each POST gets its own server and transport,
 * closed with the response. Not in /openapi.json: the protocol describes its own tools (tools/list).
 */
@ApiExcludeController()
@Controller(MCP_PATH)
export class McpController {
  constructor(private readonly tools: FloodTools) {}

  @Post()
  @HttpCode(200)
  async message(@Req() req: Request, @Res() res: Response): Promise<void> {
    const { document } = parseJsonBody(await readBody(req, MCP_BODY, bufferedBody), (message) => new ApiError(400, 'INVALID_PARAMETERS', message));
    const server = this.tools.serverFor(String(req.id ?? ''));
    // No session id: every request stands alone, so any replica answers it. JSON answers rather than an event stream: each tool answers once.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, document);
  }
}
