import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, isJSONRPCRequest, type JSONRPCMessage, type JSONRPCResponse, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { toolFailure } from './tool-answers';

/**
 * Most tool calls one HTTP request runs. The SDK's transport takes a JSON-RPC batch of up to 100 messages and starts
 * them all at once; a client that needs more answers asks again, or gives flood_zone_batch many locations.
 */
export const TOOL_CALLS_PER_REQUEST = 10;

/** Most flood_map pictures one HTTP request draws: one, as GET /flood-zone/map draws one. */
export const PICTURES_PER_REQUEST = 1;

/** The calls of a tool one request runs at most, where the tool has a limit of its own, and what the limit counts. */
const TOOL_LIMITS: ReadonlyMap<string, { most: number; counted: string }> = new Map([
  ['flood_map', { most: PICTURES_PER_REQUEST, counted: 'flood_map picture is drawn' }],
]);

/** JSON-RPC's invalid request for a call past one of the request's limits: the call was not run. */
function overLimit(id: RequestId, most: number, counted: string): JSONRPCResponse {
  const message = `Invalid Request: at most ${most} ${counted} per HTTP request; this one was not: send it again in another request.`;
  return { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message } };
}

/**
 * Bounds what one HTTP request's tool calls may cost, whatever the request carries. Past TOOL_CALLS_PER_REQUEST calls,
 * or a tool's own limit (PICTURES_PER_REQUEST), a call is answered with JSON-RPC's invalid request and not run: a limit
 * of the request, not of the call, which the client (or the library that batched its calls) must act upon, as the SDK
 * answers a batch of more than 100 messages. Every call run after the first counts one more request against the
 * client's rate limit (`admitOneMore`, which throws the 429; the request's own admission counted the first), and a
 * call over the limit is the API's RATE_LIMITED as a tool error, as an agent is told of any failure it may retry.
 * Set once the server is connected to the transport, in front of everything else that reads the messages.
 */
export function limitToolCalls(transport: Transport, admitOneMore: () => Promise<void>, requestId: string): void {
  const dispatch = transport.onmessage;
  const send = (answer: JSONRPCMessage) => transport.send(answer).catch((error: Error) => transport.onerror?.(error));
  let calls = 0;
  let run = 0;
  const callsOfTool = new Map<string, number>();
  transport.onmessage = (message, extra) => {
    if (!isJSONRPCRequest(message) || message.method !== 'tools/call') return dispatch?.(message, extra);
    calls++;
    if (calls > TOOL_CALLS_PER_REQUEST) return void send(overLimit(message.id, TOOL_CALLS_PER_REQUEST, 'tool calls are run'));
    const tool = String(message.params?.name);
    const limit = TOOL_LIMITS.get(tool);
    const ofTool = (callsOfTool.get(tool) ?? 0) + 1;
    callsOfTool.set(tool, ofTool);
    if (limit && ofTool > limit.most) return void send(overLimit(message.id, limit.most, limit.counted));
    if (++run === 1) return dispatch?.(message, extra);
    admitOneMore().then(
      () => dispatch?.(message, extra),
      (error: unknown) => send({ jsonrpc: '2.0', id: message.id, result: toolFailure(error, requestId) }),
    );
  };
}
