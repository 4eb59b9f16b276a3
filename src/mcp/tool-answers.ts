import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorAnswerOf } from '../common/filters/api-exception.filter';
import type { FloodZoneLookup } from '../lookup/flood-zone-lookup';
import { MCP_PATH } from './mcp-path';

/** What an agent reads first: coverage, zone, SFHA and the parts that could not be had, in one line. */
export function lookupSummary({ result }: Pick<FloodZoneLookup, 'result'>): string {
  const sfha = result.inSpecialFloodHazardArea === null ? 'unknown' : result.inSpecialFloodHazardArea ? 'yes' : 'no';
  const zone = result.floodZone === null ? 'none' : [result.floodZone, result.zoneSubtype].filter((part) => part !== null).join(' ');
  const unavailable = result.unavailable.length > 0 ? result.unavailable.join(', ') : 'nothing';
  return `Coverage: ${result.coverage}. Flood zone: ${zone}. In the Special Flood Hazard Area: ${sfha}. Unavailable: ${unavailable}.`;
}

/**
 * A failed tool call: the error envelope REST would send (an upstream failure names its upstream), as the tool's
 * text, never a guessed answer.
 */
export function toolFailure(error: unknown, requestId: string): CallToolResult {
  const { body } = errorAnswerOf(error, { id: requestId, method: 'POST', path: MCP_PATH });
  const upstream = typeof body.upstream === 'string' ? ` (upstream: ${body.upstream})` : '';
  return { isError: true, content: [{ type: 'text', text: `${body.code}${upstream}: ${body.error}\n${JSON.stringify(body)}` }] };
}
