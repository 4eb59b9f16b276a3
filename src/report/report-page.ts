/**
 * The report page of one lookup: exactly the answer GET /flood-zone gives, as one printable HTML document (one
 * A4 or Letter page) headed by its date and id, with the map picture inside it, every part in plain words, the
 * sources with their dates and the disclaimer. Pure: the same answer, picture and heading always give the same
 * bytes. No script, no resource loaded at all, inline styles only (the page's Content-Security-Policy allows
 * nothing else), so a saved page is the whole report.
 */
import type { Community, FirmPanel, Loma } from '../flood-hazard/flood-hazard.types';
import { LOMA_REACH_M } from '../flood-hazard/loma-status';
import type { FloodZoneLookup, FloodZoneResult } from '../lookup/flood-zone-lookup';
import { Markup, html, isText } from '../common/markup';
import { pageDocument } from './page-document';
import { AnswerPart, DERIVED_PARTS, OPTIONAL_PARTS, RegisteredIncludedPart } from '../parts/answer-parts';
import { NO_DIGITAL_MAP } from '../parts/answer-part';
import { groundAgainstBfe } from '../parts/ground-elevation/ground-elevation.words';
import { USA_STRUCTURES_SOURCE } from '../parts/structure/structure-answer';
import { buildingHeadline } from '../parts/structure/structure-headline';
import type { Structure } from '../parts/structure/structure.types';
import { LOMA_STATUS_WORDS, RISK_WORDS, couldNotBeChecked, sfhaAnswer, zoneHeadline } from './plain-words';

/**
 * The map picture of the point (the PNG of GET /flood-zone/map), or why there is none: the point lies beyond the
 * latitudes a Web Mercator map shows, or the flood zones could not be drawn this time.
 */
export type ReportPicture = { png: Buffer; width: number; height: number; spanM: number } | 'beyond_web_mercator' | 'not_drawn';

/** What the page links to (relative to this service) and embeds. */
export interface ReportLinks {
  /** The same answer as JSON: the equivalent GET /flood-zone URL. */
  jsonAnswer: string;
  picture: ReportPicture;
}

/** What heads a report: when it was made and its id (the request's), so that a printed or saved copy can be traced. */
export interface ReportHeading {
  id: string;
  madeAt: Date;
}

/** More LOMAs than this are counted, not listed: the page stays one printed page (the JSON answer lists them all). */
export const LOMAS_LISTED = 8;

const NOT_ASKED = (item: string) => `Not asked for (add ${item} to include).`;

type Result = FloodZoneResult;

/** The report page of an answer; without a heading, the page its entity tag is taken of (the same for every copy). */
export function reportPage(answer: FloodZoneLookup, links: ReportLinks, heading: ReportHeading | null): string {
  const { result } = answer;
  const place = placeOf(answer);
  // Kept as written: the formatter would fold the parts' line into one, and the page's bytes (its ETag) would change.
  // prettier-ignore
  return pageDocument(
    `Flood zone report: ${place.title}`,
    html`<header>
        <h1>Flood zone report</h1>
        ${heading && stamp(heading)}
        <p class="place">${place.title}</p>
        <p class="where">${place.details.join(' · ')}</p>
      </header>
      ${verdict(result)}
      <div class="overview">${figure(links.picture)} ${keyFacts(answer)}</div>
      <div class="parts">
        ${nfipStatus(result)} ${partSections(result, WORKED_OUT_PARTS)} ${elevations(result)} ${partSections(result, PARTS_WITH_DATA)}
      </div>
      ${mapChangeLetters(result)} ${sources(answer, links)}
      <footer>
        <p class="disclaimer">${answer.disclaimer}</p>
      </footer>`,
  );
}

/** The page title and what is known of the place. */
function placeOf(answer: FloodZoneLookup): { title: string; details: string[] } {
  const { query, location } = answer;
  const point = `${location.lat}, ${location.lon}`;
  const area = [location.county, location.zip && (location.source === 'coordinates' ? `ZIP code area ${location.zip}` : `ZIP ${location.zip}`)];
  if (location.source === 'census_geocoder') {
    return {
      title: location.matchedAddress ?? query.address ?? point,
      details: [`Asked: ${query.address}`, `geocoded to ${point}, along the street`, ...area].filter(isText),
    };
  }
  return { title: point, details: ['Latitude, longitude as given', ...area].filter(isText) };
}

function stamp({ id, madeAt }: ReportHeading): Markup {
  const iso = madeAt.toISOString();
  return html`<p class="stamp">Report date <time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC</time> · Report id ${id}</p>`;
}

function figure(picture: ReportPicture): Markup {
  if (picture === 'beyond_web_mercator')
    return html`<figure><p class="no-picture">No map picture: a Web Mercator map does not reach this latitude.</p></figure>`;
  // Said in words, never a broken image under a caption naming the sources it did not come from.
  if (picture === 'not_drawn') {
    return html`<figure>
      <p class="no-picture">
        No map picture: FEMA's National Flood Hazard Layer could not draw the flood zones this time. Every other part of this report was checked; retry shortly
        for the picture.
      </p>
    </figure>`;
  }
  return html`<figure>
    <img
      src="data:image/png;base64,${picture.png.toString('base64')}"
      width="${picture.width}"
      height="${picture.height}"
      alt="Map of the flood zones around the point, ${picture.spanM} m across"
    />
    <figcaption>Flood zones around the point (${picture.spanM} m across); its sources are named at its foot.</figcaption>
  </figure>`;
}

/**
 * The banner: the building's answer first where a building was found or given (or its answer is unknown), then the
 * point's, named "at the address point"; without a building, the point's alone.
 */
function verdict(result: Result): Markup {
  const building = buildingHeadline(result.structure, result.unavailable.includes('structure'));
  const meaning = html`<p>${result.meaning}</p>
    ${result.guidance && html`<p class="guidance">${result.guidance}</p>`}`;
  if (building === null) {
    const subtype = result.zoneSubtype && html` <span class="subtype">${result.zoneSubtype}</span>`;
    return html`<section class="verdict risk-${result.riskLevel}">
      <p class="zone">${zoneHeadline(result.coverage, result.floodZone)}${subtype}</p>
      <p class="sfha">${sfhaAnswer(result.inSpecialFloodHazardArea)} · ${RISK_WORDS[result.riskLevel]}</p>
      ${meaning}
    </section>`;
  }
  const zone = zoneHeadline(result.coverage, result.floodZone);
  return html`<section class="verdict risk-${building.riskLevel}">
    <p class="zone building">${building.words}</p>
    <p class="sfha">
      ${AT_THE_POINT}: ${zone.charAt(0).toLowerCase()}${zone.slice(1)}${POINT_SFHA[String(result.inSpecialFloodHazardArea)]} · ${RISK_WORDS[result.riskLevel]}
    </p>
    <div class="point-meaning">${meaning}</div>
  </section>`;
}

/** How the point's answer is named wherever the building's is shown too. */
const AT_THE_POINT = 'At the address point';

/** The point's SFHA after its zone in the banner; nothing where the zone is unknown (its words say so). */
const POINT_SFHA: Record<string, string> = { true: ', in the SFHA', false: ', outside the SFHA', null: '' };

function keyFacts(answer: FloodZoneLookup): Markup {
  const { result } = answer;
  const rows: Array<[string, unknown]> = [
    ['Flood zone', zoneFact(result)],
    ['Special Flood Hazard Area', sfhaAnswer(result.inSpecialFloodHazardArea)],
    ['Base flood elevation', bfeFact(result)],
    ['Ground elevation', groundFact(result)],
    ['FIRM panel', panelFact(result.firmPanel)],
    ['NFIP community', communityFact(result)],
  ];

  if (result.depthFt !== null) rows.splice(3, 0, ['Flood depth', `${result.depthFt} ft`]);
  if (result.zonesAtPoint.length > 1) {
    rows.splice(1, 0, ['Zones at the point', result.zonesAtPoint.map((zone) => [zone.floodZone, zone.zoneSubtype].filter(isText).join(' ')).join('; ')]);
  }
  // Beside the building's headline, these facts are the point's, and named so.
  const building = buildingHeadline(result.structure, result.unavailable.includes('structure'));
  return html`<div>
    ${building && html`<p class="facts-title">${AT_THE_POINT}</p>`}
    <dl class="facts">
      ${rows.map(
        ([name, value]) =>
          html`<div>
            <dt>${name}</dt>
            <dd>${value}</dd>
          </div>`,
      )}
    </dl>
  </div>`;
}

function zoneFact(result: Result): string {
  if (result.floodZone === null) return zoneHeadline(result.coverage, null);
  const floodway = result.isFloodway ? ', in the regulatory floodway' : '';
  return `${[result.floodZone, result.zoneSubtype].filter(isText).join(' ')}${floodway} (${RISK_WORDS[result.riskLevel].toLowerCase()})`;
}

function bfeFact(result: Result): string {
  if (result.staticBaseFloodElevationFt !== null) {
    return `${result.staticBaseFloodElevationFt} ft ${result.verticalDatum ?? '(vertical datum not stated)'}, static, printed on the flood map`;
  }
  const estimated = result.estimatedBaseFloodElevation;
  if (estimated) return `About ${estimated.elevationFt} ft ${estimated.verticalDatum ?? '(vertical datum not stated)'}, estimated: not an official BFE`;
  if (result.unavailable.includes('estimatedBaseFloodElevation')) return couldNotBeChecked('estimatedBaseFloodElevation');
  if (result.floodZone === null) return 'Unknown: there is no flood zone at this point';
  return `None on the flood map for zone ${result.floodZone}`;
}

function groundFact(result: Result): string {
  const ground = result.groundElevation;
  if (ground === null) return result.unavailable.includes('groundElevation') ? couldNotBeChecked('groundElevation') : NOT_ASKED('elevation');
  if (ground.elevationFt === null) return 'No data: USGS 3DEP has no ground elevation at this point';
  const level = `${ground.elevationFt} ft ${ground.verticalDatum ?? '(vertical datum unknown here)'}`;
  return ground.comparedWith ? `${level}, ${groundAgainstBfe(ground.comparedWith, ground.uncertaintyFt)}` : `${level}, not compared with a BFE`;
}

function panelFact(panel: FirmPanel | null): string {
  if (panel === null) return 'No FIRM panel contains the point';
  const effective = panel.effectiveDate ? `effective ${panel.effectiveDate}` : 'effective date not published';
  return `${panel.panel}, ${effective}${panel.panelType ? ` (${panel.panelType})` : ''}`;
}

function communityFact(result: Result): string {
  const community = result.community;
  if (community === null) {
    if (result.unavailable.includes('community')) return couldNotBeChecked('community');
    const several = result.communitiesAtPoint ?? [];
    if (several.length > 1) return `Cannot be told: ${several.length} are mapped at the point (${several.map(communityWords).join('; ')})`;
    // Without a digital flood map FEMA maps no community either: unknown, not "none".
    return result.coverage === 'unmapped' ? NO_DIGITAL_MAP : 'None mapped at the point';
  }
  return communityWords(community);
}

function communityWords(community: Community): string {
  return [community.name, community.communityId && `community ID ${community.communityId}`].filter(isText).join(', ') || 'Unnamed community';
}

/**
 * The community's standing in the NFIP as FEMA's Status Book gives it; what it means for a loan is the lender's
 * form's. Nothing where there is no community to look up.
 */
function nfipStatus(result: Result): Markup | null {
  if (result.unavailable.includes('nfipStatus')) return part('NFIP status', html`<p>${couldNotBeChecked('nfipStatus')}</p>`);
  const nfip = result.community?.nfip;
  if (!nfip) return null;
  // The standing's own words say its Community Rating System class and discounts.
  const book =
    nfip.listed &&
    [
      nfip.programEntryDate && `in the NFIP since ${nfip.programEntryDate}`,
      nfip.currentEffectiveMapDate && `current effective map ${nfip.currentEffectiveMapDate}`,
      nfip.asOf && `Community Status Book as of ${nfip.asOf}`,
    ].filter(isText);
  const details = book && book.length > 0 && `${book.join('; ')}.`;
  return part('NFIP status', html`<p class="small">${nfip.note} ${details && details.charAt(0).toUpperCase() + details.slice(1)}</p>`);
}

function part(title: string, content: unknown, className = ''): Markup {
  return html`<section class="part ${className}">
    <h2>${title}</h2>
    ${content}
  </section>`;
}

/** How the elevations of the key facts were found; nothing when neither an estimate nor a ground elevation was given. */
function elevations(result: Result): Markup | null {
  const estimated = result.estimatedBaseFloodElevation;
  const ground = result.groundElevation;
  if (estimated === null && ground === null) return null;
  const lines =
    estimated &&
    html`<p>
      Estimated BFE ${estimated.elevationFt} ft: ${estimated.method === 'interpolated' ? 'interpolated between' : 'from the nearest of'} FEMA's BFE lines
      ${estimated.lines.map((line) => `${line.elevationFt} ft at ${line.distanceM} m`).join(' and ')}. ${estimated.note}
    </p>`;
  const model =
    ground &&
    ground.elevationFt !== null &&
    [
      ground.resolutionM !== null && `${ground.resolutionM} m terrain model`,
      ground.acquisitionDate && `acquired ${ground.acquisitionDate}`,
      ground.uncertaintyFt !== null && `uncertainty ${ground.uncertaintyFt} ft`,
    ].filter(isText);
  return part(
    'Elevations',
    html`${lines} ${model && model.length > 0 && html`<p>Ground ${ground!.elevationFt} ft from USGS 3DEP: ${model.join(', ')}.</p>`}
    ${ground && html`<p class="small">${ground.note}</p>`}`,
  );
}

function mapChangeLetters(result: Result): Markup {
  const lomrs =
    result.lomrs === null
      ? couldNotBeChecked('lomrs')
      : result.lomrs.length === 0
        ? 'none in effect.'
        : `${result.lomrs.map((lomr) => `${lomr.caseNumber ?? 'case number not published'} (effective ${lomr.effectiveDate ?? 'date not published'})`).join(', ')}.`;
  return part(
    'Letters of Map Change',
    html`<p>Letters of Map Revision at the point: ${lomrs}</p>
      ${lomas(result.lomas)}`,
    'letters',
  );
}

function lomas(found: Loma[] | null): Markup {
  if (found === null) return html`<p>Letters of Map Amendment within ${LOMA_REACH_M} m: ${couldNotBeChecked('lomas')}</p>`;
  if (found.length === 0) return html`<p>Letters of Map Amendment within ${LOMA_REACH_M} m: none filed.</p>`;
  const listed = found.slice(0, LOMAS_LISTED);
  const more = found.length - listed.length;
  return html`<p>Letters of Map Amendment within ${LOMA_REACH_M} m, nearest first:</p>
    <table>
      <thead>
        <tr>
          <th>Case</th>
          <th>Kind</th>
          <th>Status</th>
          <th>Outcome</th>
          <th>Effective</th>
          <th>Distance</th>
        </tr>
      </thead>
      <tbody>
        ${listed.map(
          (loma) =>
            html`<tr>
              <td class="nowrap">${loma.caseNumber ?? '-'}</td>
              <td>${loma.category ?? '-'}</td>
              <td>${LOMA_STATUS_WORDS[loma.status]}</td>
              <td>${loma.outcome ?? '-'}</td>
              <td class="nowrap">${loma.effectiveDate ?? '-'}</td>
              <td class="nowrap">${loma.distanceM} m</td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${more > 0 && html`<p class="small">And ${more} more within ${LOMA_REACH_M} m, listed in the JSON answer.</p>`}
    <p class="small">
      A LOMA is evidence about one structure or lot, located by its own geocode: it never changes the zone of this point. Ask the owner for the letter.
    </p>`;
}

/** The parts worked out from the others (the lender's form): first of the parts, where a lender looks. */
const WORKED_OUT_PARTS: readonly RegisteredIncludedPart[] = DERIVED_PARTS;
/** The parts with data of their own, after the elevations. */
const PARTS_WITH_DATA: readonly RegisteredIncludedPart[] = OPTIONAL_PARTS;

/**
 * The sections of the opt-in parts given that have one, in the registry's order, a space apart: each says what the part
 * found, or that it was not asked for or could not be checked (unknown, never "none").
 */
function partSections(result: Result, parts: readonly RegisteredIncludedPart[]): Markup {
  const sections = parts.flatMap((optional) => {
    if (optional.report === null) return [];
    // An answer kept from before a part existed has no field for it: the same as a part not asked for.
    const value = result[optional.field] ?? null;
    if (value === null) {
      const failed = result.unavailable.find((missing: AnswerPart) => missing === optional.field);
      const why = failed ? couldNotBeChecked(failed) : NOT_ASKED(optional.include);
      return [part(optional.report.title(null), html`<p>${why}</p>`, `part-${optional.include}`)];
    }
    return [part(optional.report.title(value), optional.report.content(value, result.coverage), `part-${optional.include}`)];
  });
  return new Markup(sections.join(' '));
}

function sources(answer: FloodZoneLookup, links: ReportLinks): Markup {
  const { result, source, location } = answer;
  const retrieved = `${answer.retrievedAt.slice(0, 10)} ${answer.retrievedAt.slice(11, 19)} UTC`;
  const nfipAsOf = result.community?.nfip?.asOf;
  const groundDate = result.groundElevation?.acquisitionDate;
  const items: unknown[] = [
    html`<li>${source.floodData}, retrieved <time datetime="${answer.retrievedAt}">${retrieved}</time> from ${source.floodService}</li>`,
    html`<li>FIRM panel: ${panelFact(result.firmPanel)}</li>`,
    html`<li>${location.source === 'census_geocoder' ? 'Address matched by' : 'County and ZIP code area from'} ${source.geocoder}</li>`,
    nfipAsOf && html`<li>NFIP status: FEMA Community Status Book (OpenFEMA), as of ${nfipAsOf}</li>`,
    result.groundElevation && html`<li>Ground: USGS 3DEP, Elevation Point Query Service${groundDate ? `, acquired ${groundDate}` : ''}</li>`,
    result.mapChange && html`<li>Coming maps: FEMA preliminary and pending National Flood Hazard Layer</li>`,
    result.coastalBarrier && html`<li>Coastal barriers: U.S. Fish and Wildlife Service, Coastal Barrier Resources System</li>`,
    result.structure && html`<li>${buildingSource(result.structure)}</li>`,
    result.history && html`<li>Flood record of the area: ${result.history.source}</li>`,
  ];
  return part(
    'Sources and dates',
    html`<ul>
        ${items}
      </ul>
      <p class="links">
        <a href="${links.jsonAnswer}">The same answer as JSON</a> · FEMA Flood Map Service Center for this point:
        <a href="${result.femaMapUrl}">${result.femaMapUrl}</a>
      </p>`,
    'sources',
  );
}

/** Where the building's footprint came from, credited as its licence asks (USA Structures is CC BY 4.0), with the date of its imagery. */
function buildingSource(structure: Structure): string {
  if (structure.match === 'given') return 'Building footprint: given with the request';
  if (structure.match === 'none' || structure.match === 'ambiguous') return `Building footprints searched: ${USA_STRUCTURES_SOURCE}`;
  return `Building footprint: ${USA_STRUCTURES_SOURCE}${structure.imageDate ? `, from imagery of ${structure.imageDate}` : ''}`;
}
