/**
 * The building's answer as the headlines give it: where a building was found or given, the report's banner and the
 * picture's caption lead with it, and the point's answer follows, named "at the address point". Unknown stays unknown:
 * a building that could not be looked up, or whose footprint is partly off the map, never takes the point's answer.
 * Pure: the same structure always gives the same words.
 */
import { classifyNamedZone, moreSevereFirst, zoneDesignation } from '../../flood-hazard/classification';
import type { RiskLevel } from '../../flood-hazard/flood-hazard.types';
import { roundToTenth } from '../../flood-hazard/nfhl-values';
import { USA_STRUCTURES_SOURCE, shareWords } from './structure-answer';
import type { Structure, StructureZone } from './structure.types';

/** What a headline reads of `result.structure`. */
export type BuildingAnswer = Pick<Structure, 'match' | 'zones' | 'unmappedSharePercent' | 'buildingInSfha'>;

export interface BuildingHeadline {
  /** E.g. "Building: in the SFHA, AE over 40.1% of its footprint". */
  words: string;
  /** The building's SFHA answer; null when unknown. */
  inSfha: boolean | null;
  /** The risk of the most severe zone that decides the answer (an SFHA zone when it is in the SFHA); unknown when the answer is. */
  riskLevel: RiskLevel;
}

const UNKNOWN = 'Building: SFHA status unknown';

/**
 * The headline of the building the answer is for; null when there is none to lead with (no building within reach,
 * several and none chosen, or the building not asked for): the headline is then the point's.
 * `structureUnavailable`: `structure` is named in the answer's `unavailable`.
 */
export function buildingHeadline(structure: BuildingAnswer | null, structureUnavailable: boolean): BuildingHeadline | null {
  if (structure === null) return structureUnavailable ? unknown("FEMA's building footprints did not answer this time") : null;
  if (structure.match === 'none' || structure.match === 'ambiguous') return null;
  const { zones, buildingInSfha, unmappedSharePercent } = structure;
  if (zones === null) return unknown("FEMA's flood zones over its footprint could not be read this time");
  if (buildingInSfha === true) {
    const sfha = zones.filter((zone) => zone.inSpecialFloodHazardArea);
    return { words: `Building: in the SFHA, ${overFootprint(sharesByName(sfha))}`, inSfha: true, riskLevel: mostSevereRisk(sfha) };
  }
  if (buildingInSfha === false)
    return { words: `Building: outside the SFHA, ${overFootprint(sharesByName(zones))}`, inSfha: false, riskLevel: mostSevereRisk(zones) };
  const unmapped: Array<[string, number]> = unmappedSharePercent === null ? [] : [['unmapped', unmappedSharePercent]];
  return unknown(overFootprint([...sharesByName(zones), ...unmapped]));
}

function unknown(why: string): BuildingHeadline {
  return { words: `${UNKNOWN}, ${why}`, inSfha: null, riskLevel: 'unknown' };
}

/** Each zone once, as the picture's legend names it, with its share of the footprint summed (entries of one zone differ by BFE). */
function sharesByName(zones: readonly StructureZone[]): Array<[string, number]> {
  const shares = new Map<string, number>();
  for (const zone of zones) {
    const name = zoneDesignation(zone);
    shares.set(name, roundToTenth((shares.get(name) ?? 0) + zone.sharePercent));
  }
  return [...shares];
}

/** "AE over 40.1% of its footprint", "AE over 30% and VE over 5.2% of its footprint". */
function overFootprint(shares: ReadonlyArray<[string, number]>): string {
  const parts = shares.map(([name, share]) => `${name} over ${shareWords(share)}`);
  const listed = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
  return `${listed} of its footprint`;
}

function mostSevereRisk(zones: readonly StructureZone[]): RiskLevel {
  const [worst] = zones
    .map((zone) => classifyNamedZone(zone))
    .filter((zone) => zone !== null)
    .sort(moreSevereFirst);
  return worst?.riskLevel ?? 'unknown';
}

/**
 * The credit the footprint's data asks for wherever the footprint is shown (USA Structures is CC BY 4.0); null for a
 * footprint the caller gave, or no footprint.
 */
export function footprintCredit(structure: Pick<Structure, 'footprint' | 'source'> | null): string | null {
  return structure?.footprint && structure.source === USA_STRUCTURES_SOURCE ? USA_STRUCTURES_SOURCE : null;
}
