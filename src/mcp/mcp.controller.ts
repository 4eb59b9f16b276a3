import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { ApiError } from '../common/api-error';
import { parseJsonBody } from '../common/json-body';
import { BodyLimits, bufferedBody, readBody } from '../common/request-body';
import { ClientRateLimit } from '../rate-limit/client-rate-limit.guard';
import { FloodTools } from './flood-tools';
import { MCP_PATH } from './mcp-path';
import { refuseInvalidParams } from './request-params';
import { limitToolCalls } from './tool-call-limits';

/** A batch of 100 locations, or a footprint of 2,000 vertices, fits well within this. */
const MCP_BODY_MAX_BYTES = 1024 * 1024;

const MCP_BODY: BodyLimits = {
  maxBytes: MCP_BODY_MAX_BYTES,
  tooLarge: () => new ApiError(413, 'REQUEST_BODY_TOO_LARGE', `A Model Context Protocol message holds at most ${MCP_BODY_MAX_BYTES} bytes (1 MiB).`),
  cutShort: () => new ApiError(400, 'INVALID_PARAMETERS', 'The body ended before it was complete.'),
};

/** JSON-RPC 2.0's code for a message that is not JSON. */
const JSON_RPC_PARSE_ERROR = -32700;

/** A body that is not JSON, told apart from the other failures of reading it (those keep the API's envelope). */
class JsonRpcParseError extends ApiError {
  constructor(message: string) {
    super(400, 'INVALID_PARAMETERS', message);
  }
}

/**
 * The Model Context Protocol over Streamable HTTP, without sessions: each POST gets its own server and transport,
 * closed with the response. Not in /openapi.json: the protocol describes its own tools (tools/list).
 */
@ApiExcludeController()
@Controller(MCP_PATH)
export class McpController {
  constructor(
    private readonly tools: FloodTools,
    private readonly rateLimit: ClientRateLimit,
  ) {}

  @Post()
  @HttpCode(200)
  async message(@Req() req: Request, @Res() res: Response): Promise<void> {
    const body = await readBody(req, MCP_BODY, bufferedBody);
    let document: unknown;
    try {
      ({ document } = parseJsonBody(body, (message) => new JsonRpcParseError(message)));
    } catch (error) {
      if (!(error instanceof JsonRpcParseError)) throw error;
      // A message that is not JSON gets the protocol's own answer, as the SDK gives one that is not JSON-RPC.
      res.status(400).json({ jsonrpc: '2.0', error: { code: JSON_RPC_PARSE_ERROR, message: `Parse error: ${error.message}` }, id: null });
      return;
    }
    const requestId = String(req.id ?? '');
    const server = this.tools.serverFor(requestId);
    // No session id: every request stands alone, so any replica answers it. JSON answers rather than an event stream: each tool answers once.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    refuseInvalidParams(transport);
    limitToolCalls(transport, async () => this.rateLimit.admission?.(req, res), requestId);
    await transport.handleRequest(req, res, document);
  }
}
