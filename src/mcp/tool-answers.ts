import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorAnswerOf } from '../common/filters/api-exception.filter';
import type { FloodZoneLookup, FloodZoneResult } from '../lookup/flood-zone-lookup';
import { buildingHeadline } from '../parts/structure/structure-headline';
import { MCP_PATH } from './mcp-path';

const yesNoUnknown = (value: boolean | null) => (value === null ? 'unknown' : value ? 'yes' : 'no');

/** "AE", "X 0.2 PCT ANNUAL CHANCE FLOOD HAZARD": a zone with its subtype, as FEMA names them. */
const zoneName = (zone: { floodZone: string; zoneSubtype: string | null }) => [zone.floodZone, zone.zoneSubtype].filter((part) => part !== null).join(' ');

/**
 * The building's line, when the building was asked for; undefined when it was not. Found or unknown, it is the report's
 * and the picture's headline; where none could be chosen the line says so, and the point's answer is the only one.
 */
function buildingLine({ structure, unavailable }: Pick<FloodZoneResult, 'structure' | 'unavailable'>): string | undefined {
  const headline = buildingHeadline(structure, unavailable.includes('structure'));
  if (headline) return headline.words;
  if (structure?.match === 'none' && structure.candidates.length > 0) {
    return `Building: none on the address's side of the street; ${structure.candidates.length} across it near the address point`;
  }
  if (structure?.match === 'none') return 'Building: none found at the location';
  if (structure?.match === 'ambiguous') return `Building: none chosen among ${structure.candidates.length} buildings near the address point`;
  return undefined;
}

/**
 * What an agent reads first, in one line: coverage, zone, SFHA and the parts that could not be had. Where the building
 * was asked for, its answer leads, and the point's follows named as the address point's, as the report names it.
 */
export function lookupSummary({ result }: Pick<FloodZoneLookup, 'result'>): string {
  const zone = result.floodZone === null ? 'unknown' : zoneName({ floodZone: result.floodZone, zoneSubtype: result.zoneSubtype });
  const sfha = yesNoUnknown(result.inSpecialFloodHazardArea);
  const unavailable = `Unavailable: ${result.unavailable.length > 0 ? result.unavailable.join(', ') : 'nothing'}.`;
  const building = buildingLine(result);
  if (building === undefined) {
    return `Coverage: ${result.coverage}. Flood zone: ${zone}. In the Special Flood Hazard Area: ${sfha}. ${unavailable}`;
  }
  return `${building}. At the address point: coverage ${result.coverage}, flood zone ${zone}, in the Special Flood Hazard Area: ${sfha}. ${unavailable}`;
}

/**
 * A tool's answer with structured content: the summary, then the content serialised as JSON text, for clients that read
 * only text (the protocol asks a tool to give both).
 */
export function structuredAnswer(summary: string, content: Record<string, unknown>): CallToolResult {
  return {
    structuredContent: content,
    content: [
      { type: 'text', text: summary },
      { type: 'text', text: JSON.stringify(content) },
    ],
  };
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
