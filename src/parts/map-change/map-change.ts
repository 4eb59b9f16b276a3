/**
 * Coming map changes (`include=preliminary`): what FEMA's pending or preliminary map says at the point,
 * compared with the effective map. Pure functions: no I/O, no clock, no locale.
 */
import { governingZone } from '../../flood-hazard/classification';
import { formatNfhlDate } from '../../flood-hazard/nfhl-values';
import { MapChangeMapData, FloodDetermination, MapChange } from '../../flood-hazard/flood-hazard.types';

export const MAP_CHANGE_NOTES: Readonly<Record<MapChange['status'], string>> = {
  pending:
    'A pending map has been adopted and becomes the effective map on its effective date; until then the current effective map sets flood insurance requirements.',
  preliminary: 'A preliminary map is not the effective map and does not yet set flood insurance requirements.',
  none: 'No preliminary or pending FEMA flood map covers this location; the effective map is the current one.',
};

/** Said where neither a digital effective map nor a coming one covers the point: nothing is known to change, or to stay. */
export const NO_DIGITAL_MAP_NOTE =
  'No digital flood map here, and no preliminary or pending FEMA flood map covers this location either: whether its flood zone will change is unknown.';

/**
 * The coming map at the point. Pending (adopted, effective date set) wins over preliminary (still
 * open to appeal); a map counts only where its availability layer contains the point. `null` data
 * means that map was not found at the point; a failed query is the caller's to report as unavailable.
 * `effective` is the effective map's determination at the point: its coverage and SFHA answer (null when it has no zone there).
 */
export function mapChange(
  pending: MapChangeMapData | null,
  preliminary: MapChangeMapData | null,
  effective: Pick<FloodDetermination, 'coverage' | 'inSpecialFloodHazardArea'>,
): MapChange {
  const effectiveInSfha = effective.inSpecialFloodHazardArea;
  const coming = covers(pending)
    ? { status: 'pending' as const, data: pending }
    : covers(preliminary)
      ? { status: 'preliminary' as const, data: preliminary }
      : null;
  if (coming === null) {
    const unmapped = effective.coverage === 'unmapped';
    return {
      status: 'none',
      issuedDate: null,
      floodZone: null,
      zoneSubtype: null,
      inSpecialFloodHazardArea: null,
      staticBaseFloodElevationFt: null,
      sfhaChange: unmapped ? 'unknown' : 'unchanged',
      note: unmapped ? NO_DIGITAL_MAP_NOTE : MAP_CHANGE_NOTES.none,
    };
  }
  const governing = governingZone(coming.data.zones)?.zone ?? null;
  const comingInSfha = governing?.inSpecialFloodHazardArea ?? null;
  return {
    status: coming.status,
    issuedDate: latestIssueDate(coming.data),
    floodZone: governing?.floodZone ?? null,
    zoneSubtype: governing?.zoneSubtype ?? null,
    inSpecialFloodHazardArea: comingInSfha,
    staticBaseFloodElevationFt: governing?.staticBaseFloodElevationFt ?? null,
    sfhaChange: sfhaChange(effectiveInSfha, comingInSfha),
    note: MAP_CHANGE_NOTES[coming.status],
  };
}

function covers(data: MapChangeMapData | null): data is MapChangeMapData {
  return data !== null && data.availability.length > 0;
}

/** Where study areas overlap, the most recently issued map is the one that will take effect. */
function latestIssueDate(data: MapChangeMapData): string | null {
  const issued = data.availability.map((area) => area.PRELM_ISSUE_DATE).filter((date): date is number => formatNfhlDate(date) !== null);
  return issued.length > 0 ? formatNfhlDate(Math.max(...issued)) : null;
}

function sfhaChange(effective: boolean | null, coming: boolean | null): MapChange['sfhaChange'] {
  if (effective === null || coming === null) return 'unknown';
  if (effective === coming) return 'unchanged';
  return coming ? 'into_sfha' : 'out_of_sfha';
}
