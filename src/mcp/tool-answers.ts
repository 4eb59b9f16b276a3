import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorAnswerOf } from '../common/filters/api-exception.filter';
import { listed } from '../common/query-string';
import { roundToTenth } from '../flood-hazard/nfhl-values';
import type { FloodZoneLookup, FloodZoneResult } from '../lookup/flood-zone-lookup';
import type { Structure, StructureZone } from '../parts/structure/structure.types';
import { MCP_PATH } from './mcp-path';

const yesNoUnknown = (value: boolean | null) => (value === null ? 'unknown' : value ? 'yes' : 'no');

/** "AE", "X 0.2 PCT ANNUAL CHANCE FLOOD HAZARD": a zone with its subtype, as FEMA names them. */
const zoneName = (zone: { floodZone: string; zoneSubtype: string | null }) => [zone.floodZone, zone.zoneSubtype].filter((part) => part !== null).join(' ');

/** "VE over 10.5% and AE over 30.3%": each zone once (its entries' shares summed), in the entries' order. */
function footprintShares(zones: readonly StructureZone[]): string {
  const shares = new Map<string, number>();
  for (const zone of zones) shares.set(zoneName(zone), (shares.get(zoneName(zone)) ?? 0) + zone.sharePercent);
  return listed([...shares].map(([name, share]) => `${name} over ${roundToTenth(share)}%`));
}

const UNKNOWN = 'unknown whether in the SFHA';

/**
 * What the building's answer says, when the building was asked for; undefined when it was not. A building that could
 * not be looked up, or part of which is off the map, is unknown: never the point's answer, never "no".
 */
function buildingWords({ structure, unavailable }: Pick<FloodZoneResult, 'structure' | 'unavailable'>, pointName: string): string | undefined {
  if (structure === null) return unavailable.includes('structure') ? `${UNKNOWN}, USA Structures could not be looked up this time (retry)` : undefined;
  if (structure.match === 'none') return 'none found at the location';
  if (structure.match === 'ambiguous') return `none chosen among ${structure.candidates.length} buildings near the ${pointName}`;
  return footprintWords(structure);
}

function footprintWords({ zones, buildingInSfha, unmappedSharePercent }: Structure): string {
  if (zones === null) return `${UNKNOWN}, the flood zones over its footprint could not be read this time (retry)`;
  if (buildingInSfha === true) return `in the SFHA, ${footprintShares(zones.filter((zone) => zone.inSpecialFloodHazardArea))} of its footprint`;
  if (buildingInSfha === false) return `outside the SFHA, ${footprintShares(zones)} of its footprint`;
  const unmapped = `${unmappedSharePercent}% of its footprint unmapped (off FEMA's digital flood map or not included in it)`;
  return zones.length === 0 ? `${UNKNOWN}, ${unmapped}` : `${UNKNOWN}, ${unmapped}, ${footprintShares(zones)}`;
}

/**
 * What an agent reads first, in one line: coverage, zone, SFHA and the parts that could not be had. Where the building
 * was asked for, its answer leads, and the point's follows named as the point's.
 */
export function lookupSummary({ location, result }: Pick<FloodZoneLookup, 'location' | 'result'>): string {
  const zone = result.floodZone === null ? 'none' : zoneName({ floodZone: result.floodZone, zoneSubtype: result.zoneSubtype });
  const sfha = yesNoUnknown(result.inSpecialFloodHazardArea);
  const unavailable = `Unavailable: ${result.unavailable.length > 0 ? result.unavailable.join(', ') : 'nothing'}.`;
  const pointName = location.source === 'census_geocoder' ? 'address point' : 'given point';
  const building = buildingWords(result, pointName);
  if (building === undefined) {
    return `Coverage: ${result.coverage}. Flood zone: ${zone}. In the Special Flood Hazard Area: ${sfha}. ${unavailable}`;
  }
  return `Building: ${building}. At the ${pointName}: coverage ${result.coverage}, flood zone ${zone}, in the Special Flood Hazard Area: ${sfha}. ${unavailable}`;
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
