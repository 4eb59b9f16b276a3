/**
 * What the picture says in words: the legend of the zones the answer names, and the caption (zone, risk,
 * FIRM panel and date). Pure functions of the lookup's answer: the picture never says more than the JSON.
 */
import { classifyZone } from '../flood-hazard/classification';
import type { NearbyHazardsFound, ZoneAtPoint } from '../flood-hazard/flood-hazard.types';
import { ZoneSymbol, nfhlZoneSymbol } from '../flood-hazard/nfhl-symbols';
import type { FloodZoneResult } from '../lookup/flood-zone-lookup';

/** A zone as the answer names it (at the point or nearby). */
type NamedZone = Pick<ZoneAtPoint, 'floodZone' | 'zoneSubtype'>;

export interface LegendEntry {
  /** The zone as the picture names it: its code, with "floodway", or "shaded"/"unshaded" for X, where the map tells them apart. */
  zone: string;
  /** The words beside the swatch: FEMA's own label for how its map draws the zone, or why it is left clear. */
  label: string;
  /** How FEMA's map draws it; null when it leaves the zone clear. */
  symbol: ZoneSymbol | null;
}

/** Why FEMA's map leaves a zone clear, in words. */
const CLEAR_ZONE_LABEL: Record<string, string> = {
  'X unshaded': 'Area of Minimal Flood Hazard (not shaded)',
  'OPEN WATER': 'Open water, not a flood zone (not shaded)',
  'AREA NOT INCLUDED': 'Area not included in the flood map (not shaded)',
};

/** The zone's name on the picture: the code, with "floodway" or X's "shaded"/"unshaded" by the service's own zone rules. */
export function zoneDesignation(zone: NamedZone): string {
  const classified = classifyZone({
    FLD_ZONE: zone.floodZone,
    ZONE_SUBTY: zone.zoneSubtype,
    SFHA_TF: null,
    STATIC_BFE: null,
    DEPTH: null,
    V_DATUM: null,
    LEN_UNIT: null,
  });
  if (classified === null) return zone.floodZone;
  if (classified.isFloodway) return `${classified.floodZone} floodway`;
  if (classified.severityClass === 'X_SHADED') return 'X shaded';
  if (classified.severityClass === 'X_UNSHADED') return 'X unshaded';
  return classified.floodZone;
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
 * Exactly the zones the answer names: those at the point (most severe first, as `zonesAtPoint` lists them),
 * then the nearest SFHA, floodway and moderate-risk zone of `nearby`. Each once: zones the map draws
 * alike under one name are one entry.
 */
export function mapLegend(result: { zonesAtPoint: readonly NamedZone[]; nearby: NearbyHazardsFound | null }): LegendEntry[] {
  const named: NamedZone[] = [...result.zonesAtPoint];
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

/**
 * The caption's segments: the zone and its risk (or why there is none), then the FIRM panel and its
 * effective date. Joined by " · " on the picture, e.g. "Zone AE · high risk (SFHA) · FIRM panel
 * 51710C0035G, effective 2009-12-16".
 */
export function captionSegments(result: Pick<FloodZoneResult, 'coverage' | 'floodZone' | 'zoneSubtype' | 'riskLevel' | 'firmPanel'>): string[] {
  const segments: string[] = [];
  if (result.coverage === 'unmapped') segments.push(UNMAPPED_WORDS);
  else if (result.floodZone === null || result.riskLevel === 'unknown') segments.push(NO_ZONE_WORDS);
  else segments.push(`Zone ${zoneDesignation({ floodZone: result.floodZone, zoneSubtype: result.zoneSubtype })}`, RISK_WORDS[result.riskLevel]);
  const panel = result.firmPanel;
  if (panel === null) segments.push('no FIRM panel here');
  else {
    const effective = panel.effectiveDate === null ? 'effective date not published' : `effective ${panel.effectiveDate}`;
    // Without a digital map, the panel that covers the point may exist on paper only.
    segments.push(`FIRM panel ${panel.panel}, ${effective}${result.coverage === 'unmapped' ? ', perhaps on paper only' : ''}`);
  }
  return segments;
}

/**
 * The foot of the picture: the sources of what it draws (the National Map only when its basemap is drawn), and
 * why the ground is plain when it is not.
 */
export function attributionSegments(basemapShown: boolean): string[] {
  if (basemapShown) return ['FEMA National Flood Hazard Layer', 'USGS The National Map', 'informational only'];
  return ['FEMA National Flood Hazard Layer', 'informational only', 'Basemap unavailable: the zones on a plain background'];
}
