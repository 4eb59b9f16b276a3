/**
 * Where a building stands, for the lender's form: the coastal barrier status, the community and the letters of map
 * change of its footprint, not of the point it was found from (an address point may lie across a boundary from the
 * house; a footprint given with POST may lie up to a kilometre from its point). The polygons of each map are asked over
 * the footprint's envelope with their exact geometry and cut by the footprint itself, as its flood zones are; less of
 * the footprint than a digitising sliver counts for nothing.
 */
import CheapRuler from 'cheap-ruler';
import type { LonLatBox } from '../common/geo-point';
import { communityKey, communityOf, toLomrs } from '../flood-hazard/classification';
import { roundToTenth } from '../flood-hazard/nfhl-values';
import type { FloodHazardPort } from '../flood-hazard/flood-hazard-port';
import type {
  AmbiguousCommunity,
  CoastalBarrier,
  Community,
  GeoPoint,
  Lomr,
  LomrAttributes,
  PoliticalJurisdictionAttributes,
  PolygonFeature,
} from '../flood-hazard/flood-hazard.types';
import { LOMA_REACH_M, PlacedLoma, placedLomasNear } from '../flood-hazard/loma-status';
import { coastalBarrierAt } from '../parts/coastal-barrier/coastal-barrier';
import type { CoastalBarrierPolygons, CoastalBarrierPort } from '../parts/coastal-barrier/coastal-barrier-port';
import { LETTER_OF_MAP_CHANGE_REACH_M } from '../parts/determination/determination';
import { footprintBox } from '../parts/structure/footprint-geometry';
import { BrokenPolygonError, SLIVER_SQUARE_METRES, footprintAreaSquareMetres, footprintAreasCovered } from '../parts/structure/footprint-zones';
import { UpstreamUnavailableError } from '../common/api-error';
import { PolygonWork, PolygonWorkRefused } from '../parts/structure/polygon-work.client';
import type { Footprint } from '../parts/structure/structure.types';

/** The CBRS status over a footprint (the point's `result.coastalBarrier` less its note, which speaks of the point). */
export type FootprintCoastalBarrier = Pick<CoastalBarrier, 'status' | 'unit' | 'type' | 'floodInsuranceProhibitionDate'>;

/** What FEMA's map says around a footprint: each part `unavailable` when its query failed. */
export interface FootprintMapSite {
  /** The community whose political jurisdictions cover the largest share of the footprint; ambiguous on a tie; null when none covers it. */
  community: Community | AmbiguousCommunity | null | 'unavailable';
  /** The effective LOMRs covering any part of the footprint, newest first. */
  lomrs: Lomr[] | 'unavailable';
  /** The LOMAs around the footprint, each with its place; null when those read around the point reach everything within 30 m of it. */
  lomas: PlacedLoma[] | 'unavailable' | null;
}

/** Square metres of the footprint each polygon covers, in the order given (footprintAreasCovered, wherever it runs). */
export type AreasCovered = number[];

/** The polygons covering more than a sliver of the footprint, each with the square metres it covers, in the order given. */
function covering<F extends { rings: number[][][] }>(polygons: readonly F[], areas: AreasCovered): Array<{ polygon: F; squareMetres: number }> {
  return polygons.map((polygon, i) => ({ polygon, squareMetres: areas[i] })).filter(({ squareMetres }) => squareMetres >= SLIVER_SQUARE_METRES);
}

/** Inside when any part of the footprint lies in a CBRS unit or OPA (chosen among them as at a point); buffer when any part lies in a buffer zone and none inside. */
export function coastalBarrierOverFootprint(
  footprint: Footprint,
  { prohibitions, buffers }: CoastalBarrierPolygons,
  areas: { prohibitions: AreasCovered; buffers: AreasCovered } = {
    prohibitions: footprintAreasCovered(footprint, prohibitions),
    buffers: footprintAreasCovered(footprint, buffers),
  },
): FootprintCoastalBarrier {
  const inside = covering(prohibitions, areas.prohibitions).map(({ polygon }) => polygon.attributes);
  const { status, unit, type, floodInsuranceProhibitionDate } = coastalBarrierAt(inside, covering(buffers, areas.buffers).length > 0);
  return { status, unit, type, floodInsuranceProhibitionDate };
}

/**
 * The community whose political jurisdictions cover the largest share of the footprint (a community's polygons
 * summed); null when none covers it. Shares equal to the tenth of a percent they are shown at (a building split evenly
 * at a boundary, or jurisdictions FEMA overlaps over all of it) cannot tell the building's community: ambiguous.
 */
export function communityOverFootprint(
  footprint: Footprint,
  jurisdictions: ReadonlyArray<PolygonFeature<PoliticalJurisdictionAttributes>>,
  areas: AreasCovered = footprintAreasCovered(footprint, jurisdictions),
): Community | AmbiguousCommunity | null {
  const whole = footprintAreaSquareMetres(footprint);
  const byCommunity = new Map<string, { community: Community; squareMetres: number }>();
  for (const { polygon, squareMetres } of covering(jurisdictions, areas)) {
    const community = communityOf(polygon.attributes);
    const entry = byCommunity.get(communityKey(community)) ?? { community, squareMetres: 0 };
    entry.squareMetres += squareMetres;
    byCommunity.set(communityKey(community), entry);
  }
  const shares = [...byCommunity.values()].map(({ community, squareMetres }) => ({ community, sharePercent: roundToTenth((100 * squareMetres) / whole) }));
  const largest = Math.max(...shares.map(({ sharePercent }) => sharePercent));
  const tied = shares.filter(({ sharePercent }) => sharePercent === largest).map(({ community }) => community);
  if (tied.length === 0) return null;
  return tied.length === 1 ? tied[0] : { ambiguousAmong: tied };
}

/** The effective LOMRs whose area covers any part of the footprint, newest first, each case once. */
export function lomrsOverFootprint(
  footprint: Footprint,
  lomrs: ReadonlyArray<PolygonFeature<LomrAttributes>>,
  areas: AreasCovered = footprintAreasCovered(footprint, lomrs),
): Lomr[] {
  return toLomrs(covering(lomrs, areas).map(({ polygon }) => polygon.attributes)) ?? [];
}

/**
 * Where the LOMAs that may concern the building are to be read: the footprint's box grown by the reach of a nearby
 * letter; null when every place within that reach of the footprint lies within the reach the point's LOMAs were read in.
 */
export function lomaEnvelopeOf(footprint: Footprint, point: GeoPoint): LonLatBox | null {
  const ruler = new CheapRuler(point.lat, 'meters');
  const [west, south, east, north] = footprintBox(footprint);
  const farthest = Math.max(
    ...[
      [west, south],
      [west, north],
      [east, south],
      [east, north],
    ].map((corner) => ruler.distance([point.lon, point.lat], corner as [number, number])),
  );
  if (farthest + LETTER_OF_MAP_CHANGE_REACH_M <= LOMA_REACH_M) return null;
  const [w, s, e, n] = ruler.bufferBBox([west, south, east, north], LETTER_OF_MAP_CHANGE_REACH_M);
  return [w, s, e, n];
}

/** The CBRS status over the footprint; the map failing rejects (the coastal barrier unavailable). */
export async function loadCoastalBarrierOver(
  port: CoastalBarrierPort,
  work: PolygonWork,
  footprint: Footprint,
  signal: AbortSignal,
): Promise<FootprintCoastalBarrier> {
  const polygons = await port.coastalBarrierOver(footprintBox(footprint), signal);
  try {
    const [prohibitions, buffers] = await Promise.all([
      work.areasCovered(footprint, polygons.prohibitions, signal),
      work.areasCovered(footprint, polygons.buffers, signal),
    ]);
    return coastalBarrierOverFootprint(footprint, polygons, { prohibitions, buffers });
  } catch (error) {
    if (isUnmeasured(error)) throw new UpstreamUnavailableError('coastal_barrier', error.message);
    throw error;
  }
}

/** A measure not made: a polygon broke the polygon rules, or the polygon work was past its deadline or found the pool full. */
const isUnmeasured = (error: unknown): error is Error => error instanceof BrokenPolygonError || error instanceof PolygonWorkRefused;

/** What a map layer says over the footprint, from the areas its polygons cover; 'unavailable' when they were not measured. */
async function unlessUnmeasured<T>(areas: Promise<AreasCovered>, answer: (areas: AreasCovered) => T): Promise<T | 'unavailable'> {
  try {
    return answer(await areas);
  } catch (error) {
    if (isUnmeasured(error)) return 'unavailable';
    throw error;
  }
}

/** FEMA's map around the footprint, its LOMAs read within `lomaEnvelope` when there is one (`lomaEnvelopeOf`); each layer failing alone. */
export async function loadMapSiteOver(
  port: FloodHazardPort,
  work: PolygonWork,
  footprint: Footprint,
  lomaEnvelope: LonLatBox | null,
  signal: AbortSignal,
): Promise<FootprintMapSite> {
  const { jurisdictions, lomrs, lomas } = await port.footprintSurroundings(footprintBox(footprint), lomaEnvelope, signal);
  const [west, south, east, north] = footprintBox(footprint);
  const centre = { lon: (west + east) / 2, lat: (south + north) / 2 };
  const [community, lomrsOver] = await Promise.all([
    jurisdictions === null
      ? ('unavailable' as const)
      : unlessUnmeasured(work.areasCovered(footprint, jurisdictions, signal), (areas) => communityOverFootprint(footprint, jurisdictions, areas)),
    lomrs === null
      ? ('unavailable' as const)
      : unlessUnmeasured(work.areasCovered(footprint, lomrs, signal), (areas) => lomrsOverFootprint(footprint, lomrs, areas)),
  ]);
  return {
    community,
    lomrs: lomrsOver,
    // Every LOMA read is kept: how far each lies from the footprint is the form's to measure.
    lomas: lomaEnvelope === null ? null : lomas ? placedLomasNear(lomas, centre, Number.POSITIVE_INFINITY) : 'unavailable',
  };
}
