/**
 * What the picture says in words: the legend of the zones the answer names, the caption (the building's answer, the
 * zone and risk at the point, FIRM panel and date) and the attribution. Pure functions of the lookup's answer: the picture never says more than the JSON.
 */
import { NamedZone, zoneDesignation } from '../flood-hazard/classification';
import type { NearbyHazardsFound } from '../flood-hazard/flood-hazard.types';
import { ZoneSymbol, nfhlZoneSymbol } from '../flood-hazard/nfhl-symbols';
import type { FloodZoneResult } from '../lookup/flood-zone-lookup';
import type { AnswerPart } from '../parts/answer-parts';
import { BuildingAnswer, buildingHeadline } from '../parts/structure/structure-headline';

/** Why FEMA's map leaves a zone clear, in words. */
const CLEAR_ZONE_LABEL: Record<string, string> = {
  'X unshaded': 'Area of Minimal Flood Hazard (not shaded)',
  'OPEN WATER': 'Open water, not a flood zone (not shaded)',
  'AREA NOT INCLUDED': 'Area not included in the flood map (not shaded)',
};

export interface LegendEntry {
  /** The zone as the picture names it: its code, with "floodway", or "shaded"/"unshaded" for X, where the map tells them apart. */
  zone: string;
  /** The words beside the swatch: FEMA's own label for how its map draws the zone, or why it is left clear. */
  label: string;
  /** How FEMA's map draws it; null when it leaves the zone clear. */
  symbol: ZoneSymbol | null;
}

function legendEntry(zone: NamedZone): LegendEntry {
  const designation = zoneDesignation(zone);
  const symbol = nfhlZoneSymbol(zone.floodZone, zone.zoneSubtype);
  return { zone: designation, label: symbol?.label ?? CLEAR_ZONE_LABEL[designation] ?? "Not shaded on FEMA's map", symbol };
}

/**
 * How FEMA's map draws the zone the answer names at the point (its legend entry's symbol), or null where it draws
 * none: the picture shows it inside the ring, so that the point never wears the colour of a neighbour across a seam.
 */
export function pointZoneSymbol(result: { floodZone: string | null; zoneSubtype: string | null }): ZoneSymbol | null {
  return result.floodZone === null ? null : nfhlZoneSymbol(result.floodZone, result.zoneSubtype);
}

/**
 * Exactly the zones the answer names: those at the point (most severe first, as `zonesAtPoint` lists them), then
 * every zone over the building's footprint (`structure.zones`, SFHA zones first), then the nearest SFHA, floodway and
 * moderate-risk zone of `nearby`. Each once: zones the map draws alike under one name are one entry.
 */
export function mapLegend(result: {
  zonesAtPoint: readonly NamedZone[];
  structure: { zones: readonly NamedZone[] | null } | null;
  nearby: NearbyHazardsFound | null;
}): LegendEntry[] {
  const named: NamedZone[] = [...result.zonesAtPoint, ...(result.structure?.zones ?? [])];
  for (const hazard of [result.nearby?.sfha, result.nearby?.floodway, result.nearby?.moderate]) if (hazard) named.push(hazard);
  const entries = new Map<string, LegendEntry>();
  for (const zone of named) {
    const entry = legendEntry(zone);
    const key = `${entry.zone}|${entry.label}`;
    if (!entries.has(key)) entries.set(key, entry);
  }
  return [...entries.values()];
}

/** Each risk level in a few words, with the SFHA where it applies. */
const RISK_WORDS: Record<Exclude<FloodZoneResult['riskLevel'], 'unknown'>, string> = {
  very_high: 'very high risk (SFHA, coastal)',
  high: 'high risk (SFHA)',
  moderate: 'moderate risk, outside the SFHA',
  minimal: 'minimal risk, outside the SFHA',
  undetermined: 'undetermined risk (not studied)',
};

const UNMAPPED_WORDS = 'No digital flood map here (unknown, not low risk)';
const NO_ZONE_WORDS = "No flood zone at this exact point: inside FEMA's map, risk unknown";

/** What the caption reads of the answer. */
export type CaptionFacts = Pick<FloodZoneResult, 'coverage' | 'floodZone' | 'zoneSubtype' | 'riskLevel' | 'firmPanel'> & {
  structure: BuildingAnswer | null;
  unavailable: readonly AnswerPart[];
};

/**
 * The caption's segments: where there is a building, its answer first, then the point's named "at the address point";
 * the zone at the point and its risk (or why there is none); then the FIRM panel and its effective date. Joined by
 * " · " on the picture, e.g. "Zone AE · high risk (SFHA) · FIRM panel 51710C0035G, effective 2009-12-16", or
 * "Building: in the SFHA, AE over 40.1% of its footprint · At the address point: zone X shaded, moderate risk, outside
 * the SFHA · FIRM panel …".
 */
export function captionSegments(result: CaptionFacts): string[] {
  const building = buildingHeadline(result.structure, result.unavailable.includes('structure'));
  const point = pointSegments(result);
  const segments = building ? [building.words, `At the address point: ${point.join(', ').replace(/^./, (first) => first.toLowerCase())}`] : point;
  const panel = result.firmPanel;
  if (panel === null) segments.push('no FIRM panel here');
  else {
    const effective = panel.effectiveDate === null ? 'effective date not published' : `effective ${panel.effectiveDate}`;
    // Without a digital map, the panel that covers the point may exist on paper only.
    segments.push(`FIRM panel ${panel.panel}, ${effective}${result.coverage === 'unmapped' ? ', perhaps on paper only' : ''}`);
  }
  return segments;
}

/** The zone at the point and its risk, or why there is none. */
function pointSegments(result: CaptionFacts): string[] {
  if (result.coverage === 'unmapped') return [UNMAPPED_WORDS];
  if (result.floodZone === null || result.riskLevel === 'unknown') return [NO_ZONE_WORDS];
  return [`Zone ${zoneDesignation({ floodZone: result.floodZone, zoneSubtype: result.zoneSubtype })}`, RISK_WORDS[result.riskLevel]];
}

/**
 * The foot of the picture: the sources of what it draws (the National Map only when its basemap is drawn, the
 * building's data with the credit its licence asks for when its footprint is drawn), and why the ground is plain when
 * it is not.
 */
export function attributionSegments(basemapShown: boolean, footprintCredit: string | null): string[] {
  const sources = ['FEMA National Flood Hazard Layer', ...(basemapShown ? ['USGS The National Map'] : []), ...(footprintCredit ? [footprintCredit] : [])];
  if (basemapShown) return [...sources, 'informational only'];
  return [...sources, 'informational only', 'Basemap unavailable: the zones on a plain background'];
}
