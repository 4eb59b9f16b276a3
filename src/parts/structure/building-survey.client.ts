import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { CacheableMemory } from 'cacheable';
import { ApiError, UpstreamUnavailableError, unknownOnFailure } from '../../common/api-error';
import type { AppConfig } from '../../config/app-config';
import { toFirmPanel } from '../../flood-hazard/classification';
import { FloodHazardPort } from '../../flood-hazard/flood-hazard-port';
import { Geocoder } from '../../geocoding/geocoder';
import type { PartRequest } from '../answer-part';
import { BuildingChoice, MeasuredCandidate, buildingChosenById, buildingsToPlace, chooseBuilding, interiorPoint } from './building-choice';
import { boxOf, footprintBox, polygonsOfFootprint } from './footprint-geometry';
import { PolygonWork, PolygonWorkRefused } from './polygon-work.client';
import { BuildingSearch, StructureBuilding, structureAnswer } from './structure-answer';
import { buildingTract, structureText } from './structure-values';
import type { Footprint, FootprintFloodZones, FootprintLayers, Structure, StructureCandidate, StructureFeature } from './structure.types';
import { StructuresPort } from './structures-port';

/** Buildings whose census block is held: a building does not move, and one street's lookups ask the same few. */
const BLOCKS_HELD = 10_000;

/** What the building part keeps for a request: the answer, and the panel a determination names. */
export interface BuildingSurveyed {
  structure: Structure;
  /** The FIRM panel covering the largest share of the footprint; null when there is none or it is unknown. */
  governingPanel: { panel: string; effectiveDate: string | null } | null;
  /** False when the building was found but the flood zones over it (or over the buildings listed) could not be read. */
  complete: boolean;
  /**
   * The census tract USA Structures names for the building found (its CENSUSCODE, see buildingTract); null when none was
   * found, the footprint was given, or the code names no tract for sure. Missing from a building kept before it was read.
   */
  tract: string | null;
}

/**
 * Finds the building at a request's point (or takes the caller's footprint, or the building the caller chose) and
 * measures the flood zones over the whole footprint: one USA Structures call, the census block of each building near
 * an address that its tract does not already place (held per building), then one query of FEMA's zones and panels
 * over the footprint's envelope (or, when no building was chosen, over the listed buildings' envelope).
 */
@Injectable()
export class BuildingSurvey {
  private readonly searchM: number;
  private readonly blocks: CacheableMemory;

  constructor(
    private readonly structures: StructuresPort,
    private readonly floodHazard: FloodHazardPort,
    private readonly polygons: PolygonWork,
    private readonly geocoder: Geocoder,
    config: ConfigService<AppConfig, true>,
  ) {
    this.searchM = config.get('STRUCTURE_SEARCH_M', { infer: true });
    this.blocks = new CacheableMemory({ lruSize: BLOCKS_HELD, ttl: config.get('GEOCODE_CACHE_TTL_SECONDS', { infer: true }) * 1000, useClone: false });
  }

  /** The reach a request's building is looked for within: a caller's exact coordinates only name the building they are in, unless they chose one. */
  reachOf(request: PartRequest): number {
    return request.matchedAddress === null && request.buildId === null ? 0 : this.searchM;
  }

  async survey(request: PartRequest, signal: AbortSignal): Promise<BuildingSurveyed> {
    const search: BuildingSearch = { locationSource: request.matchedAddress === null ? 'coordinates' : 'census_geocoder', searchM: this.searchM };
    if (request.footprint) return this.measured({ match: 'given', footprint: request.footprint }, request.footprint, search, null, signal);
    const buildings = await this.structures.buildingsNear(request.point, this.reachOf(request), signal);
    const { choice, sidesRead } = request.buildId === null ? await this.chosenFor(buildings, request, signal) : chosenById(buildings, request, this.searchM);
    if (!('building' in choice)) {
      const { candidates, complete } = await this.candidatesOf(choice.candidates, signal);
      // A building's block unread leaves the choice open this time only: the answer is kept as an incomplete one.
      return {
        structure: structureAnswer({ match: choice.match, candidates }, null, search),
        governingPanel: null,
        complete: complete && sidesRead,
        tract: null,
      };
    }
    // USA Structures' footprint meets the caller's rules before anything is asked over it or measured of it.
    const footprint = await this.polygons.run('upstreamFootprint', choice.building.rings, signal).catch((error: unknown) => {
      if (error instanceof PolygonWorkRefused)
        throw new UpstreamUnavailableError('structures', `the chosen building's footprint was not checked: ${error.message}`);
      throw error;
    });
    if ('broken' in footprint) throw new UpstreamUnavailableError('structures', `the chosen building's footprint breaks a rule: ${footprint.broken}`);
    return this.measured(choice, footprint.value, search, buildingTract(choice.building.attributes), signal);
  }

  /**
   * The building the point stands for, asking the census block of each building near an address that the rule needs;
   * `sidesRead` is false when the geocoder failed for one of them.
   */
  private async chosenFor(buildings: StructureFeature[], request: PartRequest, signal: AbortSignal): Promise<{ choice: BuildingChoice; sidesRead: boolean }> {
    const at = {
      point: request.point,
      locationSource: request.matchedAddress === null ? ('coordinates' as const) : ('census_geocoder' as const),
      matchedAddress: request.matchedAddress,
      addressBlock: request.addressBlock,
    };
    const placed = await Promise.all(
      buildingsToPlace(buildings, at, this.searchM).map(async (building) => [building, await this.blockOf(building, signal)] as const),
    );
    const blocks = new Map<StructureFeature, string | null | undefined>(placed);
    const choice = chooseBuilding(buildings, at, this.searchM, (building) => blocks.get(building));
    return { choice, sidesRead: placed.every(([, block]) => block !== undefined) };
  }

  /**
   * The census block of the building's interior point, held per building: null when the geocoder names none, undefined
   * when it failed (either way its side is unknown).
   */
  private async blockOf(building: StructureFeature, signal: AbortSignal): Promise<string | null | undefined> {
    const buildId = structureText(building.attributes.BUILD_ID);
    const held = buildId === null ? undefined : this.blocks.get<string>(buildId);
    if (held !== undefined) return held;
    try {
      const block = await this.geocoder.blockAt(interiorPoint(building.rings), signal);
      if (buildId !== null && block !== null) this.blocks.set(buildId, block);
      return block;
    } catch (error) {
      if (error instanceof UpstreamUnavailableError) return undefined;
      throw error;
    }
  }

  /**
   * The buildings listed when none was chosen, each with whether it would be in the SFHA: one query of FEMA's zones
   * over the envelope of them all (never one per building); null for each when it fails or a polygon breaks the rules.
   */
  private async candidatesOf(listed: MeasuredCandidate[], signal: AbortSignal): Promise<{ candidates: StructureCandidate[]; complete: boolean }> {
    // Each footprint meets the polygon rules (in the pool when large) before it is measured; a broken one stays unknown.
    const footprints = await Promise.all(listed.map(({ building }) => this.checkedFootprint(building.rings, signal)));
    const measurable = footprints.filter((footprint): footprint is Footprint => footprint !== null);
    const zones = measurable.length === 0 ? null : await unknownOnFailure(this.floodHazard.zonesOver(boxOf(measurable.flatMap(polygonsOfFootprint)), signal));
    // Panels are not read for a building not chosen: whether it is in the SFHA needs the zones alone.
    const layers = zones && { zones, panels: [] };
    const candidates = await Promise.all(
      listed.map(async ({ building, distanceM }, index) => {
        const footprint = footprints[index];
        const measured = layers && footprint ? await this.zonesOrNone(footprint, layers, signal) : null;
        return {
          buildId: structureText(building.attributes.BUILD_ID),
          distanceM,
          address: structureText(building.attributes.PROP_ADDR),
          buildingInSfha: measured?.buildingInSfha ?? null,
        };
      }),
    );
    // The zones not read, the answer is kept no longer than an incomplete one and names the building part unavailable.
    return { candidates, complete: measurable.length === 0 || layers !== null };
  }

  /** USA Structures' rings as a footprint that meets the polygon rules; null when they break one or could not be checked. */
  private async checkedFootprint(rings: StructureFeature['rings'], signal: AbortSignal): Promise<Footprint | null> {
    try {
      const checked = await this.polygons.run('upstreamFootprint', rings, signal);
      return 'broken' in checked ? null : checked.value;
    } catch (error) {
      if (error instanceof PolygonWorkRefused) return null;
      throw error;
    }
  }

  private async measured(
    building: StructureBuilding,
    footprint: Footprint,
    search: BuildingSearch,
    tract: string | null,
    signal: AbortSignal,
  ): Promise<BuildingSurveyed> {
    // The zones over the building are this part's alone: their failure leaves the building without them, named unavailable.
    const layers = await unknownOnFailure(this.floodHazard.footprintLayers(footprintBox(footprint), signal));
    const zones = layers && (await this.zonesOrNone(footprint, layers, signal));
    const governing = zones?.governingPanel ? toFirmPanel(zones.governingPanel) : null;
    return {
      structure: structureAnswer(building, zones, search),
      governingPanel: governing && { panel: governing.panel, effectiveDate: governing.effectiveDate },
      complete: zones !== null,
      tract,
    };
  }

  /**
   * The zones over the footprint; null when a polygon FEMA drew over it breaks the polygon rules (never measured), or
   * the measure was not done in time or found no room in the polygon pool.
   */
  private async zonesOrNone(footprint: Footprint, layers: FootprintLayers, signal: AbortSignal): Promise<FootprintFloodZones | null> {
    try {
      const measured = await this.polygons.run('floodZones', { footprint, layers }, signal);
      return 'value' in measured ? measured.value : null;
    } catch (error) {
      if (error instanceof PolygonWorkRefused) return null;
      throw error;
    }
  }
}

/** The building the caller chose by its BUILD_ID; a 422 when it is not among those within `searchM` of the point. */
function chosenById(buildings: StructureFeature[], { point, buildId }: PartRequest, searchM: number): { choice: BuildingChoice; sidesRead: true } {
  const choice = buildId === null ? null : buildingChosenById(buildings, point, buildId);
  if (choice === null) {
    throw new ApiError(
      422,
      'BUILDING_NOT_FOUND',
      `No building ${buildId} of USA Structures lies within ${searchM} m of the location; an answer without buildId lists the buildings near an address.`,
    );
  }
  return { choice, sidesRead: true };
}
