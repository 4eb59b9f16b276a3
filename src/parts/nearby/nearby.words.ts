/** The nearby hazards on the report page. Pure: the same hazards always give the same markup. */
import { Markup, html, isText } from '../../common/markup';
import type { Coverage, NearbyHazard, NearbyHazards } from '../../flood-hazard/flood-hazard.types';
import { NO_DIGITAL_MAP, ReportSection } from '../answer-part';

export const NEARBY_ON_REPORT: ReportSection<NearbyHazards> = {
  title: (nearby) => (nearby === null ? 'Nearby flood hazards' : `Nearby flood hazards (within ${nearby.radiusM} m)`),
  content(nearby, coverage) {
    const hazard = hazardRow(nearby, coverage);
    return html`<table class="nearby">
        <tbody>
          ${hazard('Nearest SFHA', nearby.sfha)}${hazard('Nearest floodway', nearby.floodway)}${hazard('Nearest moderate risk', nearby.moderate)}
        </tbody>
      </table>
      <p class="small">Distance to a mapped line, not a measure of risk: a geocoded point can be tens of metres off.</p>`;
  },
};

/** The table's row of the nearest hazard of one kind, or what its absence means. */
function hazardRow(nearby: NearbyHazards, coverage: Coverage): (name: string, found: NearbyHazard | null) => Markup {
  // Without a digital map at the point, the ground around it may be unmapped too: a kind not found is unknown.
  const unmapped = coverage === 'unmapped';
  return (name, found) => {
    const zone = found && [found.floodZone, found.zoneSubtype].filter(isText).join(' ');
    const bfe = typeof found?.staticBaseFloodElevationFt === 'number' ? `, BFE ${found.staticBaseFloodElevationFt} ft` : '';
    const distance =
      found === null
        ? unmapped
          ? NO_DIGITAL_MAP
          : html`none within <span class="nowrap">${nearby.radiusM} m</span>`
        : found.distanceM === 0
          ? html`<span class="nowrap">0 m</span> (the point is inside)`
          : html`<span class="nowrap">${found.distanceM} m</span>`;
    return html`<tr>
      <th>${name}</th>
      <td>${distance}</td>
      <td>${zone && `zone ${zone}${bfe}`}</td>
    </tr>`;
  };
}
