/**
 * The nearest flood hazards around a point (`include=nearby`). A geocoded point can be tens of
 * metres off, so how far the nearest high-risk polygon lies matters as much as the zone at the point.
 * Pure functions: no I/O, no clock, no locale.
 */
import CheapRuler from 'cheap-ruler';
import { ZoneClassification, classifyZone } from '../../flood-hazard/classification';
import { compareDescendingNullsLast } from '../../flood-hazard/nfhl-values';
import { distanceToPolygon } from '../../flood-hazard/polygon-distance';
import { Coverage, GeoPoint, NearbyHazard, NearbyHazards, NearbyHazardsFound, ZonePolygonFeature } from '../../flood-hazard/flood-hazard.types';

/** Distances closer than this (a millimetre) are equal: shared edges come back with rounding noise. */
const TIE_TOLERANCE_M = 0.001;

type HazardKind = 'sfha' | 'floodway' | 'moderate';

/** Which kinds of hazard a polygon is, by the service's own classification (never SFHA_TF). */
const IS_HAZARD: Readonly<Record<HazardKind, (zone: ZoneClassification) => boolean>> = {
  sfha: (zone) => zone.inSpecialFloodHazardArea,
  floodway: (zone) => zone.isFloodway,
  moderate: (zone) => zone.severityClass === 'X_SHADED' || zone.severityClass === 'B',
};

interface MeasuredPolygon {
  zone: ZoneClassification;
  distanceM: number;
}

/**
 * The nearest SFHA, floodway and moderate-risk (shaded X or B) polygon within `radiusM` of the point.
 * Every polygon is classified here, so an upstream that ignored the query's `where` changes nothing.
 * Equally near polygons: the more severe, then the higher static BFE.
 */
export function nearbyHazards(point: GeoPoint, radiusM: number, polygons: ZonePolygonFeature[]): NearbyHazardsFound {
  const ruler = new CheapRuler(point.lat, 'meters');
  const measured = polygons
    .map((polygon) => {
      const zone = classifyZone(polygon.attributes);
      return zone === null ? null : { zone, distanceM: distanceToPolygon(ruler, point, polygon.rings) };
    })
    .filter((polygon): polygon is MeasuredPolygon => polygon !== null && polygon.distanceM <= radiusM)
    .sort(nearestFirst);
  const nearest = (kind: HazardKind): NearbyHazard | null => {
    const found = measured.find((polygon) => IS_HAZARD[kind](polygon.zone));
    return found ? toNearbyHazard(found) : null;
  };
  return { radiusM, sfha: nearest('sfha'), floodway: nearest('floodway'), moderate: nearest('moderate') };
}

/**
 * The nearby hazards as the answer gives them: where FEMA has no digital map at the point, the ground around it
 * may be unmapped too, so a kind not found is unknown there, never "none".
 */
export function nearbyHazardsAt(found: NearbyHazardsFound, coverage: Coverage): NearbyHazards {
  const note =
    coverage === 'unmapped'
      ? `No digital flood map here: FEMA's National Flood Hazard Layer does not cover the point, so a hazard may lie within ${found.radiusM} m unseen (a null entry is unknown, not none).`
      : `Distances to FEMA's digital flood map; a null entry means none of that kind lies within ${found.radiusM} m.`;
  return { ...found, note };
}

function nearestFirst(a: MeasuredPolygon, b: MeasuredPolygon): number {
  if (Math.abs(a.distanceM - b.distanceM) > TIE_TOLERANCE_M) return a.distanceM - b.distanceM;
  return a.zone.severityRank - b.zone.severityRank || compareDescendingNullsLast(a.zone.staticBaseFloodElevationFt, b.zone.staticBaseFloodElevationFt);
}

function toNearbyHazard({ zone, distanceM }: MeasuredPolygon): NearbyHazard {
  return {
    distanceM: Math.round(distanceM),
    floodZone: zone.floodZone,
    zoneSubtype: zone.zoneSubtype,
    staticBaseFloodElevationFt: zone.staticBaseFloodElevationFt,
  };
}
