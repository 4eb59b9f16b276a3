/**
 * The lender's form on the report page: section II of FEMA's Standard Flood Hazard Determination Form (FEMA Form
 * 086-0-32) as the form lays it out (A. the NFIP community, B. the NFIP data affecting the building, C. whether
 * federal flood insurance is available, D. the determination) with its notes. The report's only words on insurance
 * and lending. Pure: the same determination always gives the same markup. Nothing unknown is said as "no".
 */
import { html, isText } from '../../common/markup';
import type { ReportSection } from '../answer-part';
import { LENDING_NOTES, type LenderDetermination } from './determination';

type Insurance = LenderDetermination['insurance'];

/** Whether federal flood insurance (NFIP) can be bought, in a few words: the form's C. */
function insuranceAvailabilityWords(insurance: Insurance): string {
  switch (insurance.reason) {
    case 'participating':
      if (insurance.program === 'regular') return 'Available: regular program';
      if (insurance.program === 'emergency') return 'Available: emergency program (limited amounts of cover)';
      return 'Available: the community participates';
    case 'not_participating':
      return 'Not available: the community does not participate in the NFIP';
    case 'not_listed':
      return "Unknown: the community is not in FEMA's Community Status Book";
    case 'nfip_status_unknown':
      return 'Unknown: whether the community participates is not known';
    case 'community_ambiguous':
      return 'Unknown: several NFIP communities are mapped here and which one it lies in cannot be told';
    case 'coastal_barrier': {
      const barrier = insurance.coastalBarrier;
      const unit = [barrier?.unit ?? '(unnamed)', barrier?.type && `(${barrier.type})`].filter(isText).join(' ');
      const designated = barrier?.designationDate ? `, designated ${barrier.designationDate}` : '';
      return `Only for some buildings: inside Coastal Barrier Resources System unit ${unit}${designated}`;
    }
    case 'coastal_barrier_unknown':
      return 'Unknown: the community participates, but whether this is in a coastal barrier unit could not be checked';
  }
}

/** A yes / no / unknown answer of the form's D. */
const ANSWER: Record<'true' | 'false' | 'null', string> = { true: 'Yes', false: 'No', null: 'Unknown' };

/** The form answers for the building when one was found (or given), else for the point: said in its title. */
const BASIS_WORDS: Record<LenderDetermination['basis'], string> = {
  building: 'for the building',
  point: 'for the point',
};

function communityLine({ community }: LenderDetermination): string {
  const where = [community.county, community.state].filter(isText).join(', ');
  return [community.name ?? 'Name unknown', `community number ${community.number ?? 'unknown'}`, where || 'county unknown'].join(' · ');
}

/** Box B5: a map exists (digital, or a paper FIRM), none at all, or unknown. */
function nfipMapWords(map: LenderDetermination['map']): string[] {
  if (map.noNfipMap === true) return ["no NFIP map: FEMA's Community Status Book lists none for the community"];
  if (map.noNfipMap === null) return ['whether an NFIP map exists here is unknown'];
  return map.digital ? [] : ["a paper map only, not on FEMA's digital flood map"];
}

/** Why no zone is known (never "none"): the building not read this time, as its notes say, or FEMA's map giving none. */
function zonesUnknownWhy({ basis, notes }: LenderDetermination): string {
  if (notes.includes(LENDING_NOTES.sfhaUnknown.building_unavailable)) return 'the building could not be looked up this time';
  if (notes.includes(LENDING_NOTES.sfhaUnknown.footprint_unread)) return 'the zones over the building could not be read this time';
  return `FEMA's map gives none ${basis === 'building' ? 'over the building' : 'at the point'}`;
}

function mapFacts(form: LenderDetermination): string[] {
  const { map, floodZones } = form;
  const letter = map.letterOfMapChange;
  const letterWords = letter
    ? [
        letter.kind,
        letter.caseNumber ? `case ${letter.caseNumber}` : 'case number not published',
        letter.effectiveDate ? `effective ${letter.effectiveDate}` : 'date not published',
      ].join(', ')
    : 'none found';
  const nearby =
    map.nearbyLetters && map.nearbyLetters.length > 0
      ? [`nearby letters to read: ${map.nearbyLetters.map((near) => `${near.caseNumber ?? 'case number not published'} (${near.distanceM} m)`).join(', ')}`]
      : [];
  const panel = map.panel ? `${map.panel}, effective ${map.panelEffectiveDate ?? 'date not published'}` : map.noNfipMap ? 'none' : 'none found';
  const zones = floodZones === null ? `unknown: ${zonesUnknownWhy(form)}` : floodZones.join(', ');
  return [
    `Map panel ${panel}`,
    `letter of map change: ${letterWords}`,
    ...nearby,
    `flood zone${floodZones !== null && floodZones.length > 1 ? 's' : ''} ${zones}`,
    ...nfipMapWords(map),
  ];
}

export const DETERMINATION_ON_REPORT: ReportSection<LenderDetermination> = {
  title: (form) => `Flood hazard determination (SFHDF section II)${form ? `, ${BASIS_WORDS[form.basis]}` : ''}`,
  content: (form) => {
    const subject = form.basis === 'building' ? 'building' : 'point';
    const rows: Array<[string, string]> = [
      ['A. NFIP community', communityLine(form)],
      [`B. NFIP data affecting the ${subject}`, mapFacts(form).join('; ')],
      ['C. Federal flood insurance', insuranceAvailabilityWords(form.insurance)],
      [
        'D. Determination',
        `${subject === 'building' ? 'Building' : 'Point'} in the SFHA: ${ANSWER[String(form.buildingInSfha) as keyof typeof ANSWER]}; ` +
          `mandatory purchase requirement applies: ${ANSWER[String(form.floodInsuranceRequired) as keyof typeof ANSWER]}`,
      ],
    ];
    return html`${rows.map(([item, answer]) => html`<p class="form-item"><strong>${item}:</strong> ${answer}</p>`)}
      <ul class="notes small">
        ${form.notes.map((note) => html`<li>${note}</li>`)}
      </ul>`;
  },
};
