/** The coastal barrier on the report page. Pure: the same status always gives the same markup. */
import { html, isText } from '../../common/markup';
import type { CoastalBarrier } from '../../flood-hazard/flood-hazard.types';
import type { ReportSection } from '../answer-part';

export const COASTAL_BARRIER_WORDS: Record<CoastalBarrier['status'], string> = {
  inside: 'Inside a Coastal Barrier Resources System unit',
  buffer: 'In the buffer zone at the edge of a Coastal Barrier Resources System unit',
  outside: 'Outside the Coastal Barrier Resources System',
};

export const COASTAL_BARRIER_ON_REPORT: ReportSection<CoastalBarrier> = {
  title: () => 'Coastal Barrier Resources System',
  content: (barrier) => {
    const unit =
      barrier.status === 'inside' &&
      [
        barrier.unit && `unit ${barrier.unit}`,
        barrier.type,
        barrier.floodInsuranceProhibitionDate && `flood insurance prohibition since ${barrier.floodInsuranceProhibitionDate}`,
      ].filter(isText);
    return html`<p>${COASTAL_BARRIER_WORDS[barrier.status]}${unit && unit.length > 0 && `: ${unit.join(', ')}`}.</p>
      <p class="small">${barrier.note}</p>`;
  },
};
