/** The coming map change on the report page. Pure: the same change always gives the same markup. */
import { html, isText } from '../../common/markup';
import type { MapChange } from '../../flood-hazard/flood-hazard.types';
import { NO_DIGITAL_MAP, ReportSection } from '../answer-part';

export const MAP_CHANGE_WORDS: Record<MapChange['status'], string> = {
  pending: 'Pending map (adopted; it takes effect on a set date)',
  preliminary: 'Preliminary map (proposed, still open to appeal)',
  none: 'No preliminary or pending map here',
};

export const SFHA_CHANGE_WORDS: Record<MapChange['sfhaChange'], string> = {
  into_sfha: 'the point would move into the SFHA',
  out_of_sfha: 'the point would move out of the SFHA',
  unchanged: 'the SFHA status would not change',
  unknown: 'whether the SFHA status would change is unknown (a map has no zone at the point)',
};

export const MAP_CHANGE_ON_REPORT: ReportSection<MapChange> = {
  title: () => 'Coming map changes',
  content: (change, coverage) => {
    const zone = [change.floodZone, change.zoneSubtype].filter(isText).join(' ');
    const facts =
      change.status !== 'none' &&
      [
        change.issuedDate && `issued ${change.issuedDate}`,
        zone ? `zone ${zone}` : 'no zone at the point',
        change.inSpecialFloodHazardArea !== null && (change.inSpecialFloodHazardArea ? 'in the SFHA' : 'outside the SFHA'),
        change.staticBaseFloodElevationFt !== null && `BFE ${change.staticBaseFloodElevationFt} ft`,
        SFHA_CHANGE_WORDS[change.sfhaChange],
      ].filter(isText);
    return html`<p>
        ${
          change.status === 'none' && coverage === 'unmapped'
            ? `${NO_DIGITAL_MAP}, and no preliminary or pending map either.`
            : `${MAP_CHANGE_WORDS[change.status]}${facts ? `: ${facts.join('; ')}` : ''}.`
        }
      </p>
      <p class="small">${change.note}</p>`;
  },
};
