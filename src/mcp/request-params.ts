import { getParseErrorMessage } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';

/** The requests the service answers, by method, each with the protocol's schema of it. */
const ANSWERED_REQUESTS = new Map(
  [InitializeRequestSchema, PingRequestSchema, ListToolsRequestSchema, CallToolRequestSchema].map((schema) => [schema.shape.method.value as string, schema]),
);

/** JSON-RPC's invalid params (-32602) for a request of the service whose params the protocol's schema refuses; undefined for any other message. */
function invalidParamsAnswer(message: JSONRPCMessage): JSONRPCErrorResponse | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const checked = ANSWERED_REQUESTS.get(message.method)?.safeParse(message);
  if (checked === undefined || checked.success) return undefined;
  const error = { code: ErrorCode.InvalidParams, message: `Invalid ${message.method} request: ${getParseErrorMessage(checked.error)}` };
  return { jsonrpc: '2.0', id: message.id, error };
}

/**
 * Answers a request whose params the protocol's schema refuses (a tools/call without params, or with arguments that
 * are no object) with JSON-RPC's invalid params, saying what is wrong. The SDK checks them only as it dispatches the
 * request, and answers a refusal there as an internal error (-32603) carrying the validator's raw report. Set once the
 * server is connected to the transport, in front of the server's own dispatch.
 */
export function refuseInvalidParams(transport: Transport): void {
  const dispatch = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const refusal = invalidParamsAnswer(message);
    if (refusal === undefined) dispatch?.(message, extra);
    else transport.send(refusal).catch((error: Error) => transport.onerror?.(error));
  };
}
