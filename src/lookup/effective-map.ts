import type { PieceParts } from '../cache/piece-cache';
import type { UpstreamName } from '../common/upstream/upstream-registry';
import { estimateBaseFloodElevation, needsBfeEstimate } from '../flood-hazard/bfe-estimate';
import { determineFloodHazard, governingZone } from '../flood-hazard/classification';
import type { FloodHazardPort } from '../flood-hazard/flood-hazard-port';
import type { EstimatedBaseFloodElevation, FloodDetermination, FloodHazardZoneAttributes, GeoPoint, Loma } from '../flood-hazard/flood-hazard.types';
import { placedLomasNear } from '../flood-hazard/loma-status';
import { AnswerPart, inDocumentedOrder } from '../parts/answer-parts';

/**
 * What FEMA's effective map says at a point, cached as one: the v1 determination (zones, FIRM panel,
 * community, LOMRs), the LOMAs around it and the estimated BFE, with the parts whose query failed.
 */
export interface EffectiveMapPiece {
  determination: FloodDetermination;
  lomas: Loma[] | null;
  /** Where each of `lomas` is ([lon, lat], in the same order), for a building's distance to it; absent from pieces kept before it was. */
  lomaPositions?: Array<[number, number]> | null;
  estimatedBaseFloodElevation: EstimatedBaseFloodElevation | null;
  /** community, lomrs, lomas, estimatedBaseFloodElevation when their query failed. */
  unavailable: AnswerPart[];
}

/** The effective map comes from FEMA's NFHL: a lookup out of time waiting for it is a 502 naming this upstream. */
export const EFFECTIVE_MAP_UPSTREAM: UpstreamName = 'flood_data';

/** The BFE lines are asked for only when the governing zone is AE or AH without a printed BFE. */
function bfeLinesWanted(zones: FloodHazardZoneAttributes[]): boolean {
  const governing = governingZone(zones);
  return governing !== null && needsBfeEstimate(governing.zone);
}

/**
 * Reads the effective map at the (rounded) point, each layer a part of the piece (`layers`). Zones, panels and
 * availability are essential: their failure rejects (a 502). A failed supplementary query leaves its part null and named.
 */
export async function loadEffectiveMap(source: FloodHazardPort, point: GeoPoint, signal: AbortSignal, layers: PieceParts): Promise<EffectiveMapPiece> {
  const data = await source.pointData(point, signal, bfeLinesWanted, layers);
  const determination = determineFloodHazard(data);
  const failed: AnswerPart[] = [];
  if (data.jurisdictions === null) failed.push('community');
  if (data.lomrs === null) failed.push('lomrs');
  if (data.lomas === null) failed.push('lomas');
  if (data.bfeLines === null) failed.push('estimatedBaseFloodElevation');
  const dfirmId = governingZone(data.zones)?.attributes.DFIRM_ID ?? null;
  const lomas = data.lomas && placedLomasNear(data.lomas, point);
  return {
    determination,
    // A LOMA is evidence about its own structure or lot: listed, never a change to the point's zone.
    lomas: lomas && lomas.map(({ loma }) => loma),
    lomaPositions: lomas && lomas.map(({ position }) => position),
    estimatedBaseFloodElevation: data.bfeLines ? estimateBaseFloodElevation(point, dfirmId, data.bfeLines) : null,
    unavailable: inDocumentedOrder(failed),
  };
}
