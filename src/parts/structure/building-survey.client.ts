import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { UpstreamUnavailableError, unknownOnFailure } from '../../common/api-error';
import type { AppConfig } from '../../config/app-config';
import { toFirmPanel } from '../../flood-hazard/classification';
import { FloodHazardPort } from '../../flood-hazard/flood-hazard-port';
import type { PartRequest } from '../answer-part';
import { chooseBuilding } from './building-choice';
import { footprintBox } from './footprint-geometry';
import { PolygonWork, PolygonWorkRefused } from './polygon-work.client';
import { BuildingSearch, StructureBuilding, structureAnswer } from './structure-answer';
import type { Footprint, FootprintFloodZones, FootprintLayers, Structure } from './structure.types';
import { StructuresPort } from './structures-port';

/** What the building part keeps for a request: the answer, and the panel a determination names. */
export interface BuildingSurveyed {
  structure: Structure;
  /** The FIRM panel covering the largest share of the footprint; null when there is none or it is unknown. */
  governingPanel: { panel: string; effectiveDate: string | null } | null;
  /** False when the building was found but the flood zones over it could not be read. */
  complete: boolean;
}

/**
 * Finds the building at a request's point (or takes the caller's footprint) and measures the flood zones over the
 * whole footprint: one USA Structures call, then one query of FEMA's zones and panels over the footprint's envelope.
 */
@Injectable()
export class BuildingSurvey {
  private readonly searchM: number;

  constructor(
    private readonly structures: StructuresPort,
    private readonly floodHazard: FloodHazardPort,
    private readonly polygons: PolygonWork,
    config: ConfigService<AppConfig, true>,
  ) {
    this.searchM = config.get('STRUCTURE_SEARCH_M', { infer: true });
  }

  /** The reach a request's building is looked for within: a caller's exact coordinates only name the building they are in. */
  reachOf(request: PartRequest): number {
    return request.matchedAddress === null ? 0 : this.searchM;
  }

  async survey(request: PartRequest, signal: AbortSignal): Promise<BuildingSurveyed> {
    const search: BuildingSearch = { locationSource: request.matchedAddress === null ? 'coordinates' : 'census_geocoder', searchM: this.searchM };
    if (request.footprint) return this.measured({ match: 'given', footprint: request.footprint }, request.footprint, search, signal);
    const buildings = await this.structures.buildingsNear(request.point, this.reachOf(request), signal);
    const choice = chooseBuilding(
      buildings,
      { point: request.point, locationSource: search.locationSource, matchedAddress: request.matchedAddress },
      this.searchM,
    );
    if (!('building' in choice)) return { structure: structureAnswer(choice, null, search), governingPanel: null, complete: true };
    // USA Structures' footprint meets the caller's rules before anything is asked over it or measured of it.
    const footprint = await this.polygons.run('upstreamFootprint', choice.building.rings, signal).catch((error: unknown) => {
      if (error instanceof PolygonWorkRefused)
        throw new UpstreamUnavailableError('structures', `the chosen building's footprint was not checked: ${error.message}`);
      throw error;
    });
    if ('broken' in footprint) throw new UpstreamUnavailableError('structures', `the chosen building's footprint breaks a rule: ${footprint.broken}`);
    return this.measured(choice, footprint.value, search, signal);
  }

  private async measured(building: StructureBuilding, footprint: Footprint, search: BuildingSearch, signal: AbortSignal): Promise<BuildingSurveyed> {
    // The zones over the building are this part's alone: their failure leaves the building without them, named unavailable.
    const layers = await unknownOnFailure(this.floodHazard.footprintLayers(footprintBox(footprint), signal));
    const zones = layers && (await this.zonesOrNone(footprint, layers, signal));
    const governing = zones?.governingPanel ? toFirmPanel(zones.governingPanel) : null;
    return {
      structure: structureAnswer(building, zones, search),
      governingPanel: governing && { panel: governing.panel, effectiveDate: governing.effectiveDate },
      complete: zones !== null,
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
