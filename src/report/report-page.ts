/**
 * The report page of one lookup: exactly the answer GET /flood-zone gives, as one printable HTML document (one
 * A4 or Letter page) with the map picture, every part in plain words, the sources with their dates and the
 * disclaimer. Pure: the same answer always gives the same bytes. No script, no resource of another origin, inline
 * styles only (the page's Content-Security-Policy allows nothing else).
 */
import type { FirmPanel, Loma, NearbyHazard } from '../flood-hazard/flood-hazard.types';
import { LOMA_REACH_M } from '../flood-hazard/loma-status';
import type { FloodZoneLookup, FloodZoneResult } from '../lookup/flood-zone-lookup';
import { Markup, html } from './markup';
import { pageDocument } from './page-document';
import {
  COASTAL_BARRIER_WORDS,
  LOMA_STATUS_WORDS,
  MAP_CHANGE_WORDS,
  RISK_WORDS,
  SFHA_CHANGE_WORDS,
  couldNotBeChecked,
  groundAgainstBfe,
  sfhaWords,
  zoneHeadline,
} from './plain-words';

/** The map picture of the point, served by this service (GET /flood-zone/map). */
export interface ReportPicture {
  src: string;
  width: number;
  height: number;
  spanM: number;
}

/** Where the page links to and what it embeds, all relative to this service. */
export interface ReportLinks {
  /** The same answer as JSON: the equivalent GET /flood-zone URL. */
  jsonAnswer: string;
  /** Null where no map picture can be drawn. */
  picture: ReportPicture | null;
}

/** More LOMAs than this are counted, not listed: the page stays one printed page (the JSON answer lists them all). */
export const LOMAS_LISTED = 8;

const NOT_ASKED = (item: string) => `Not asked for (add ${item} to include).`;

type Result = FloodZoneResult;

/** The report page of an answer. */
export function reportPage(answer: FloodZoneLookup, links: ReportLinks): string {
  const { result } = answer;
  const place = placeOf(answer);
  return pageDocument(
    `Flood zone report: ${place.title}`,
    html`<header>
        <h1>Flood zone report</h1>
        <p class="place">${place.title}</p>
        <p class="where">${place.details.join(' · ')}</p>
      </header>
      ${verdict(result)}
      <div class="overview">${figure(links.picture)} ${keyFacts(answer)}</div>
      <div class="parts">${insuranceAndLending(result)} ${elevations(result)} ${nearbyHazards(result)} ${comingMaps(result)} ${coastalBarrier(result)}</div>
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

const isText = (value: string | false | null | undefined): value is string => typeof value === 'string' && value.length > 0;

function figure(picture: ReportPicture | null): Markup {
  if (picture === null) return html`<figure><figcaption>No map picture: a Web Mercator map does not reach this latitude.</figcaption></figure>`;
  // The aspect ratio keeps the page's layout, and so its one printed page, while the picture loads or if it fails.
  return html`<figure>
    <img
      src="${picture.src}"
      width="${picture.width}"
      height="${picture.height}"
      style="aspect-ratio: ${picture.width} / ${picture.height}"
      alt="Map of the flood zones around the point, ${picture.spanM} m across"
    />
    <figcaption>Flood zones around the point (${picture.spanM} m across), from FEMA's National Flood Hazard Layer over USGS The National Map.</figcaption>
  </figure>`;
}

function verdict(result: Result): Markup {
  const sfha = sfhaWords(result.inSpecialFloodHazardArea);
  const subtype = result.zoneSubtype && html` <span class="subtype">${result.zoneSubtype}</span>`;
  return html`<section class="verdict risk-${result.riskLevel}">
    <p class="zone">${zoneHeadline(result.coverage, result.floodZone)}${subtype}</p>
    <p class="sfha">${sfha.answer} · ${RISK_WORDS[result.riskLevel]}</p>
    <p>${result.meaning}</p>
    ${result.guidance && html`<p class="guidance">${result.guidance}</p>`}
  </section>`;
}

function keyFacts(answer: FloodZoneLookup): Markup {
  const { result } = answer;
  const rows: Array<[string, unknown]> = [
    ['Flood zone', zoneFact(result)],
    ['Special Flood Hazard Area', sfhaWords(result.inSpecialFloodHazardArea).answer],
    ['Base flood elevation', bfeFact(result)],
    ['Ground elevation', groundFact(result)],
    ['FIRM panel', panelFact(result.firmPanel)],
    ['NFIP community', communityFact(result)],
    ['Federal flood insurance (NFIP)', nfipFact(result)],
  ];
  if (result.depthFt !== null) rows.splice(3, 0, ['Flood depth', `${result.depthFt} ft`]);
  if (result.zonesAtPoint.length > 1) {
    rows.splice(1, 0, ['Zones at the point', result.zonesAtPoint.map((zone) => [zone.floodZone, zone.zoneSubtype].filter(isText).join(' ')).join('; ')]);
  }
  return html`<dl class="facts">
    ${rows.map(
      ([name, value]) =>
        html`<div>
          <dt>${name}</dt>
          <dd>${value}</dd>
        </div>`,
    )}
  </dl>`;
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
  if (community === null) return result.unavailable.includes('community') ? couldNotBeChecked('community') : 'None mapped at the point';
  return [community.name, community.communityId && `community ID ${community.communityId}`].filter(isText).join(', ') || 'Unnamed community';
}

/** The community's NFIP standing in the answer's own words (its note), or why it is unknown. */
function nfipFact(result: Result): string {
  const community = result.community;
  if (community === null) return result.unavailable.includes('community') ? couldNotBeChecked('community') : 'Unknown: no NFIP community at the point';
  return community.nfip === null ? couldNotBeChecked('nfipStatus') : community.nfip.note;
}

function part(title: string, content: unknown, className = ''): Markup {
  return html`<section class="part ${className}">
    <h2>${title}</h2>
    ${content}
  </section>`;
}

function insuranceAndLending(result: Result): Markup {
  const nfip = result.community?.nfip;
  const book =
    nfip?.listed &&
    [
      nfip.crsClass === null
        ? 'not in the Community Rating System'
        : `CRS class ${nfip.crsClass}: ${nfip.sfhaDiscountPercent ?? 0}% discount in the SFHA, ${nfip.nonSfhaDiscountPercent ?? 0}% outside (the community's discount on NFIP premiums, not a quote for any building)`,
      nfip.programEntryDate && `in the NFIP since ${nfip.programEntryDate}`,
      nfip.currentEffectiveMapDate && `current effective map ${nfip.currentEffectiveMapDate}`,
      nfip.asOf && `Community Status Book as of ${nfip.asOf}`,
    ].filter(isText);
  return part(
    'Insurance and lending',
    html`<p>${sfhaWords(result.inSpecialFloodHazardArea).lending}</p>
      ${book && book.length > 0 && html`<p class="small">${book.join('; ')}.</p>`}`,
  );
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

function nearbyHazards(result: Result): Markup {
  const nearby = result.nearby;
  if (nearby === null)
    return part('Nearby flood hazards', html`<p>${result.unavailable.includes('nearby') ? couldNotBeChecked('nearby') : NOT_ASKED('nearby')}</p>`);
  const hazard = (name: string, found: NearbyHazard | null) => {
    const zone = found && [found.floodZone, found.zoneSubtype].filter(isText).join(' ');
    const bfe = typeof found?.staticBaseFloodElevationFt === 'number' ? `, BFE ${found.staticBaseFloodElevationFt} ft` : '';
    const distance = found === null ? `none within ${nearby.radiusM} m` : found.distanceM === 0 ? '0 m (the point is inside)' : `${found.distanceM} m`;
    return html`<tr>
      <th>${name}</th>
      <td>${distance}</td>
      <td>${zone && `zone ${zone}${bfe}`}</td>
    </tr>`;
  };
  return part(
    `Nearby flood hazards (within ${nearby.radiusM} m)`,
    html`<table class="nearby">
        <tbody>
          ${hazard('Nearest SFHA', nearby.sfha)}${hazard('Nearest floodway', nearby.floodway)}${hazard('Nearest moderate risk', nearby.moderate)}
        </tbody>
      </table>
      <p class="small">Distance to a mapped line, not a measure of risk: a geocoded point can be tens of metres off.</p>`,
  );
}

function comingMaps(result: Result): Markup {
  const change = result.mapChange;
  if (change === null)
    return part('Coming map changes', html`<p>${result.unavailable.includes('mapChange') ? couldNotBeChecked('mapChange') : NOT_ASKED('preliminary')}</p>`);
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
  return part(
    'Coming map changes',
    html`<p>${MAP_CHANGE_WORDS[change.status]}${facts && `: ${facts.join('; ')}`}.</p>
      <p class="small">${change.note}</p>`,
  );
}

function coastalBarrier(result: Result): Markup {
  const barrier = result.coastalBarrier;
  const title = 'Coastal Barrier Resources System';
  if (barrier === null)
    return part(title, html`<p>${result.unavailable.includes('coastalBarrier') ? couldNotBeChecked('coastalBarrier') : NOT_ASKED('cbrs')}</p>`);
  const unit =
    barrier.status === 'inside' &&
    [
      barrier.unit && `unit ${barrier.unit}`,
      barrier.type,
      barrier.floodInsuranceProhibitionDate && `flood insurance prohibition since ${barrier.floodInsuranceProhibitionDate}`,
    ].filter(isText);
  return part(
    title,
    html`<p>${COASTAL_BARRIER_WORDS[barrier.status]}${unit && unit.length > 0 && `: ${unit.join(', ')}`}.</p>
      <p class="small">${barrier.note}</p>`,
  );
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
