/** The area's flood record on the report page, with its claims drawn by year. Pure: the same record always gives the same markup. */
import { Markup, html, isText } from '../../common/markup';
import type { ReportSection } from '../answer-part';
import { AreaHistory, FloodDeclaration, MOST_DECLARATIONS, SMALLEST_SHOWN_COUNT, YearCount } from './area-history';

export const HISTORY_TITLE = 'Flood record of the area';

/** Declarations named on the page (the JSON answer lists up to 20): the page stays one printed page. */
export const DECLARATIONS_NAMED = 1;

/** The chart's size in its own units (it scales to the column's width). */
const CHART_WIDTH = 300;
const CHART_HEIGHT = 26;
const AXIS_LABEL_HEIGHT = 9;

function counted(count: number | null, one: string, many: string): string {
  if (count === null) return `Fewer than ${SMALLEST_SHOWN_COUNT} ${many}`;
  if (count === 0) return `No ${many}`;
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

function usd(amount: number): string {
  return amount >= 1_000_000 ? `$${(amount / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 1 })} million` : `$${amount.toLocaleString('en-US')}`;
}

/**
 * Claims by year as bars, from the first year of loss to the last (years without claims left empty). A withheld year
 * is drawn at half the smallest count shown, paler, so a year with 1 claim and one with 9 look alike.
 */
export function claimsChart(byYear: readonly YearCount[]): Markup | null {
  if (byYear.length === 0) return null;
  const first = byYear[0]!.year;
  const last = byYear.at(-1)!.year;
  const span = last - first + 1;
  const highest = Math.max(SMALLEST_SHOWN_COUNT, ...byYear.map(({ count }) => count ?? 0));
  const slot = CHART_WIDTH / span;
  const plot = CHART_HEIGHT - AXIS_LABEL_HEIGHT;
  const bars = byYear.map(({ year, count }) => {
    const shown = count ?? SMALLEST_SHOWN_COUNT / 2;
    const height = Math.max(1, (shown / highest) * plot);
    const x = ((year - first) * slot + slot * 0.1).toFixed(1);
    const label = `${year}: ${count === null ? `fewer than ${SMALLEST_SHOWN_COUNT}` : count} claims`;
    return html`<rect
      x="${x}"
      y="${(plot - height).toFixed(1)}"
      width="${Math.max(0.5, slot * 0.8).toFixed(1)}"
      height="${height.toFixed(1)}"
      fill="${count === null ? '#9ecbf0' : '#0969da'}"
      ><title>${label}</title></rect
    >`;
  });
  return html`<svg
    class="claims-chart"
    role="img"
    aria-label="NFIP claims in the tract by year of loss, ${first} to ${last}"
    viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}"
    width="100%"
    height="${CHART_HEIGHT}"
    preserveAspectRatio="none"
    xmlns="http://www.w3.org/2000/svg"
  >
    <line x1="0" y1="${plot}" x2="${CHART_WIDTH}" y2="${plot}" stroke="#57606a" stroke-width="0.5" />
    ${bars}
    <text x="0" y="${CHART_HEIGHT - 1}" font-size="7" fill="#57606a">${first}</text>
    <text x="${CHART_WIDTH}" y="${CHART_HEIGHT - 1}" font-size="7" fill="#57606a" text-anchor="end">${last}</text>
    <text x="${CHART_WIDTH}" y="7" font-size="7" fill="#57606a" text-anchor="end">most in a year: ${highest}</text>
  </svg>`;
}

function declarationWords({ title, declarationType, disasterNumber, declarationDate }: FloodDeclaration): string {
  return `${title} (${declarationType ? `${declarationType}-` : ''}${disasterNumber}, ${declarationDate})`;
}

export const HISTORY_ON_REPORT: ReportSection<AreaHistory> = {
  title: () => HISTORY_TITLE,
  // Kept to a paragraph and a short chart: the fullest report still prints on one page.
  content: ({ area, claims, policies, declarations, note }) => {
    const claimFacts = [
      claims.firstYear !== null && (claims.firstYear === claims.lastYear ? `in ${claims.firstYear}` : `${claims.firstYear} to ${claims.lastYear}`),
      claims.outsideSfhaSharePercent !== null && `${claims.outsideSfhaSharePercent}% outside the SFHA`,
      claims.paidUsd !== null && claims.paidUsd > 0 && `about ${usd(claims.paidUsd)} paid`,
    ].filter(isText);
    const events = claims.largestEvents.map(({ year, count, event }) => `${event ? `${event} (${year})` : year} ${count}`);
    const insured =
      claims.count === 0 && policies.inForce === 0
        ? `No NFIP claims or policies in force (${policies.asOf}) in census tract ${area.geoid}.`
        : `${counted(claims.count, 'NFIP claim', 'NFIP claims')} in census tract ${area.geoid}${claimFacts.length > 0 ? `, ${claimFacts.join(', ')}` : ''}.` +
          `${events.length > 0 ? ` Most: ${events.join('; ')}.` : ''} ${counted(policies.inForce, 'policy', 'policies')} in force (${policies.asOf}).`;
    const latest = declarations.slice(0, DECLARATIONS_NAMED).map(declarationWords);
    const declared =
      declarations.length === 0
        ? 'No flood declaration for the county.'
        : `${declarations.length}${declarations.length === MOST_DECLARATIONS ? ' or more' : ''} flood declarations for the county, latest ${latest.join('; ')}.`;
    return html`<p>${insured} ${declared} <span class="small">${note}</span></p>
      ${claimsChart(claims.byYear)}`;
  },
};
