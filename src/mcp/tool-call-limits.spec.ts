import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../common/api-error';
import { limitToolCalls, PICTURES_PER_REQUEST, TOOL_CALLS_PER_REQUEST } from './tool-call-limits';

const call = (id: number, name: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });

/** A transport whose messages go through limitToolCalls: what reached the server, what was answered in its stead, what was counted. */
function limitedTransport(admitOneMore: () => Promise<void>) {
  const dispatched: JSONRPCMessage[] = [];
  const sent: JSONRPCMessage[] = [];
  const transport = {
    start: () => Promise.resolve(),
    close: () => Promise.resolve(),
    send: (message: JSONRPCMessage) => {
      sent.push(message);
      return Promise.resolve();
    },
    onmessage: (message: JSONRPCMessage) => dispatched.push(message),
  } as Transport;
  limitToolCalls(transport, admitOneMore, 'req-1');
  const deliver = async (messages: JSONRPCMessage[]) => {
    for (const message of messages) transport.onmessage!(message);
    // Calls after the first wait for their admission.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { dispatched, sent, deliver };
}

const idsOf = (messages: JSONRPCMessage[]) => messages.map((message) => ('id' in message ? message.id : null));

describe('limitToolCalls', () => {
  it('passes every message but tools/call as it is, uncounted', async () => {
    const admit = jest.fn(() => Promise.resolve());
    const { dispatched, sent, deliver } = limitedTransport(admit);
    const others: JSONRPCMessage[] = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ];
    await deliver(others);
    expect([dispatched, sent, admit.mock.calls.length]).toEqual([others, [], 0]);
  });

  it(`runs ${TOOL_CALLS_PER_REQUEST} calls, counting each after the first against the rate limit; the rest are refused, uncounted`, async () => {
    const admit = jest.fn(() => Promise.resolve());
    const { dispatched, sent, deliver } = limitedTransport(admit);
    await deliver(Array.from({ length: TOOL_CALLS_PER_REQUEST + 3 }, (_, id) => call(id, 'flood_zone')));
    expect(idsOf(dispatched)).toEqual(Array.from({ length: TOOL_CALLS_PER_REQUEST }, (_, id) => id));
    expect(admit).toHaveBeenCalledTimes(TOOL_CALLS_PER_REQUEST - 1);
    expect(sent).toEqual(
      [10, 11, 12].map((id) => ({
        jsonrpc: '2.0',
        id,
        error: {
          code: -32600,
          message: 'Invalid Request: at most 10 tool calls are run per HTTP request; this one was not: send it again in another request.',
        },
      })),
    );
  });

  it(`draws ${PICTURES_PER_REQUEST} picture; a flood_map call beyond is refused yet counts among the request's calls`, async () => {
    const admit = jest.fn(() => Promise.resolve());
    const { dispatched, sent, deliver } = limitedTransport(admit);
    const maps = Array.from({ length: 3 }, (_, id) => call(id, 'flood_map'));
    const lookups = Array.from({ length: TOOL_CALLS_PER_REQUEST }, (_, id) => call(100 + id, 'flood_zone'));
    await deliver([...maps, ...lookups]);
    expect(idsOf(dispatched)).toEqual([0, ...lookups.slice(0, TOOL_CALLS_PER_REQUEST - 3).map((_, i) => 100 + i)]);
    expect(sent.map((answer) => ('error' in answer ? [answer.id, answer.error.message.split(';')[0]] : answer))).toEqual([
      [1, 'Invalid Request: at most 1 flood_map picture is drawn per HTTP request'],
      [2, 'Invalid Request: at most 1 flood_map picture is drawn per HTTP request'],
      [107, 'Invalid Request: at most 10 tool calls are run per HTTP request'],
      [108, 'Invalid Request: at most 10 tool calls are run per HTTP request'],
      [109, 'Invalid Request: at most 10 tool calls are run per HTTP request'],
    ]);
  });

  it("answers a call the rate limit refuses with the 429's envelope as a tool error, and never runs it", async () => {
    let left = 1;
    const admit = () => (left-- > 0 ? Promise.resolve() : Promise.reject(new ApiError(429, 'RATE_LIMITED', 'Too many requests.')));
    const { dispatched, sent, deliver } = limitedTransport(admit);
    await deliver([call(0, 'flood_zone'), call(1, 'flood_zone'), call(2, 'flood_zone')]);
    expect(idsOf(dispatched)).toEqual([0, 1]);
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 2,
        result: {
          isError: true,
          content: [
            {
              type: 'text',
              text: 'RATE_LIMITED: Too many requests.\n{"error":"Too many requests.","statusCode":429,"code":"RATE_LIMITED","requestId":"req-1"}',
            },
          ],
        },
      },
    ]);
  });
});
