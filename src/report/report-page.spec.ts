import { DISCLAIMER, FLOOD_DATA_NAME, type CommunityWithNfip, type FloodZoneLookup } from '../lookup/flood-zone-lookup';
import { ANSWER_PARTS, type AnswerPart } from '../parts/answer-parts';
import { NOT_LISTED, NOT_LISTED_NOTE } from '../parts/nfip-status/nfip-status';
import { LENDING_NOTES, coastalBarrierNote, lenderDetermination, nearbyLettersNote } from '../parts/determination/determination';
import { determinationFacts } from '../lookup/determination-facts';
import { NO_DIGITAL_MAP_NOTE } from '../parts/map-change/map-change';
import { errorPage } from './error-page';
import { couldNotBeChecked } from './plain-words';
import { LOMAS_LISTED, ReportLinks, reportPage } from './report-page';
import { readerText } from '../../test/support/page-text';
import { HISTORY_NOTE, HISTORY_SOURCE } from '../parts/history/area-history';

/** A complete answer with every part, as GET /flood-zone?…&include=nearby,preliminary,cbrs,elevation gives it. */
/** The NFIP community at the point, with its standing. */
const HOUSTON_COMMUNITY: CommunityWithNfip = {
  name: 'City of Houston',
  communityId: '480296',
  nfip: {
    listed: true,
    participating: true,
    program: 'regular',
    floodInsuranceAvailable: true,
    crsClass: 5,
    sfhaDiscountPercent: 25,
    nonSfhaDiscountPercent: 10,
    currentEffectiveMapDate: '2007-06-18',
    programEntryDate: '1979-09-28',
    asOf: '2026-11-22',
    note: 'Federal flood insurance (NFIP) is available: the community participates. Its Community Rating System class 5 gives a 25% discount in the SFHA and 10% outside it.',
  },
};

function completeAnswer(): FloodZoneLookup {
  return {
    query: { address: '7400 Buffalo Speedway, Houston, TX 77025', lat: null, lon: null },
    location: {
      matchedAddress: '7400 BUFFALO SPEEDWAY, HOUSTON, TX, 77025',
      lat: 29.7,
      lon: -95.43,
      county: 'Harris County',
      countyFips: '48201',
      zip: '77025',
      source: 'census_geocoder',
    },
    result: {
      coverage: 'mapped',
      isMapped: true,
      floodZone: 'AE',
      zoneSubtype: null,
      isFloodway: false,
      inSpecialFloodHazardArea: true,
      riskLevel: 'high',
      staticBaseFloodElevationFt: 38,
      verticalDatum: 'NAVD88',
      depthFt: null,
      meaning: 'High-risk area (1% annual chance flood) with a base flood elevation determined.',
      guidance: null,
      firmPanel: { panel: '48201C0865L', panelNumber: '0865', suffix: 'L', effectiveDate: '2007-06-18', panelType: 'Countywide, Panel Printed' },
      community: HOUSTON_COMMUNITY,
      communitiesAtPoint: [HOUSTON_COMMUNITY],
      lomrs: [{ caseNumber: '19-06-0123P', effectiveDate: '2020-02-14' }],
      zonesAtPoint: [{ floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 38 }],
      femaMapUrl: 'https://msc.fema.gov/portal/search?AddressQuery=29.7%2C-95.43',
      lomas: [
        {
          caseNumber: '15-06-1489A',
          effectiveDate: '2015-06-02',
          status: 'valid',
          outcome: 'Structure removed-Property partially inundated',
          category: 'LOMA',
          distanceM: 23,
        },
        { caseNumber: '12-06-1170A', effectiveDate: '2012-04-24', status: 'reevaluation_needed', outcome: 'Multiple', category: 'LOMA', distanceM: 72 },
        { caseNumber: '99-06-1002A', effectiveDate: null, status: 'contact_community', outcome: null, category: 'LOMR-F', distanceM: 95 },
      ],
      estimatedBaseFloodElevation: null,
      nearby: {
        radiusM: 500,
        sfha: { distanceM: 0, floodZone: 'AE', zoneSubtype: null, staticBaseFloodElevationFt: 38 },
        floodway: { distanceM: 120, floodZone: 'AE', zoneSubtype: 'FLOODWAY', staticBaseFloodElevationFt: null },
        moderate: null,
        note: "Distances to FEMA's digital flood map; a null entry means none of that kind lies within 500 m.",
      },
      mapChange: {
        status: 'preliminary',
        issuedDate: '2025-05-15',
        floodZone: 'VE',
        zoneSubtype: null,
        inSpecialFloodHazardArea: true,
        staticBaseFloodElevationFt: 41,
        sfhaChange: 'unchanged',
        note: 'A preliminary map is not the effective map and does not yet set flood insurance requirements.',
      },
      coastalBarrier: {
        status: 'inside',
        unit: 'TX-04P',
        type: 'Otherwise Protected Area',
        floodInsuranceProhibitionDate: '1990-11-16',
        note: 'New federal flood insurance is generally unavailable here for buildings built or substantially improved after the prohibition date.',
      },
      groundElevation: {
        elevationFt: 30.7,
        verticalDatum: 'NAVD88',
        resolutionM: 1,
        acquisitionDate: '2020-03-01',
        uncertaintyFt: 1.7,
        comparedWith: { bfe: 'static', bfeFt: 38, differenceFt: -7.3, position: 'below' },
        note: 'Bare-earth ground at the point from USGS 3DEP, 7.3 ft below the base flood elevation. Not the lowest adjacent grade or a floor elevation, and not an elevation certificate.',
      },
      structure: {
        match: 'contains',
        distanceM: 0,
        buildId: '48020009',
        occupancy: 'Residential',
        primaryOccupancy: 'Single Family Dwelling',
        footprintAreaSqFt: 2210,
        heightM: null,
        imageDate: '2019-03-02',
        zones: [{ floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 38, areaSqFt: 2210, sharePercent: 100 }],
        unmappedSharePercent: 0,
        buildingInSfha: true,
        highestBfeFt: 38,
        firmPanels: ['48201C0865L'],
        candidates: [],
        source: 'FEMA/ORNL USA Structures (CC BY 4.0)',
        note: "All of the building's footprint lies in zone AE: a building any part of which is in the SFHA is in the SFHA.",
        footprint: null,
      },
      history: {
        area: { kind: 'census_tract', geoid: '48201312300', county: 'Harris County', countyFips: '48201' },
        claims: {
          count: 214,
          firstYear: 1978,
          lastYear: 2024,
          outsideSfhaSharePercent: 31.3,
          paidUsd: 18_400_000,
          byYear: [{ year: 2017, count: 160 }],
          largestEvents: [{ year: 2017, count: 160, event: 'Hurricane Harvey' }],
        },
        policies: { inForce: 388, asOf: '2026-10-31' },
        declarations: [{ disasterNumber: 4332, declarationDate: '2017-08-25', incidentType: 'Hurricane', title: 'HURRICANE HARVEY', declarationType: 'DR' }],
        source: HISTORY_SOURCE,
        note: HISTORY_NOTE,
      },
      determination: null,
      unavailable: [],
    },
    source: {
      floodData: FLOOD_DATA_NAME,
      floodService: 'https://hazards.fema.gov/arcgis/rest/services/public/NFHL/MapServer',
      geocoder: 'U.S. Census Bureau Geocoder (Public_AR_Current)',
    },
    retrievedAt: '2026-11-22T06:56:31.963Z',
    disclaimer: DISCLAIMER,
  };
}

/** A PNG's signature and the start of its header: the page carries the bytes it is given, whatever they are. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const PICTURE = { png: PNG, width: 560, height: 420, spanM: 600 };
const HEADING = { id: 'req-7f3a', madeAt: new Date('2026-11-27T00:12:34.567Z') };
const LINKS: ReportLinks = {
  jsonAnswer: '/flood-zone?address=7400%20Buffalo%20Speedway&include=nearby,preliminary,cbrs,elevation',
  picture: PICTURE,
};

type Result = FloodZoneLookup['result'];

/**
 * The answer with the lender's form filled in from it as the lookup fills it (its building's governing panel, community,
 * coastal barrier and letters the point's, its community's standing the one the answer joined).
 */
function withForm(answer: FloodZoneLookup): FloodZoneLookup {
  const { result, location, retrievedAt } = answer;
  const building = result.structure && {
    structure: result.structure,
    governingPanel: result.firmPanel,
    complete: result.structure.zones !== null,
    tract: null,
  };
  const site = result.structure && {
    coastalBarrier: result.coastalBarrier ?? ('unavailable' as const),
    map: { community: result.community, lomrs: result.lomrs ?? ('unavailable' as const), lomas: null },
  };
  const statusBook = { lookup: () => result.community?.nfip ?? undefined, mapDated: () => true };
  const facts = determinationFacts({ result, missing: result.unavailable, location, building, site, lomaPositions: undefined, statusBook, retrievedAt });
  return { ...answer, result: { ...result, determination: lenderDetermination(facts).determination } };
}

const withResult = (changes: Partial<Result>): FloodZoneLookup => {
  const answer = completeAnswer();
  return withForm({ ...answer, result: { ...answer.result, ...changes } });
};

describe('reportPage: the answer in words', () => {
  const page = reportPage(withForm(completeAnswer()), LINKS, HEADING);
  const text = readerText(page);

  it.each([
    ['the place', '7400 BUFFALO SPEEDWAY, HOUSTON, TX, 77025'],
    ['the address asked and where it was placed', 'Asked: 7400 Buffalo Speedway, Houston, TX 77025 · geocoded to 29.7, -95.43, along the street'],
    ['the county and ZIP', 'Harris County · ZIP 77025'],
    ['the building first', 'Building: in the SFHA, AE over 100% of its footprint'],
    ['the zone at the address point', 'At the address point: zone AE, in the SFHA · High risk'],
    ['the SFHA', 'Yes: in a Special Flood Hazard Area (SFHA)'],
    ['the meaning', 'High-risk area (1% annual chance flood) with a base flood elevation determined.'],
    ['the static BFE', '38 ft NAVD88, static, printed on the flood map'],
    ['the ground against the BFE', '30.7 ft NAVD88, 7.3 ft below the static BFE of 38 ft'],
    ['the ground model', 'Ground 30.7 ft from USGS 3DEP: 1 m terrain model, acquired 2020-03-01, uncertainty 1.7 ft.'],
    ['the ground note', 'not an elevation certificate'],
    ['the FIRM panel and its date', '48201C0865L, effective 2007-06-18 (Countywide, Panel Printed)'],
    ['the community', 'City of Houston, community ID 480296'],
    [
      "the lender's form, first of the parts, for the building",
      'Flood hazard determination (SFHDF section II), for the building ' +
        'A. NFIP community: City of Houston · community number 480296 · Harris County, TX ' +
        'B. NFIP data affecting the building: Map panel 48201C0865L, effective 2007-06-18; letter of map change: LOMR, case 19-06-0123P, effective 2020-02-14; ' +
        'nearby letters to read: 15-06-1489A (23 m); flood zone AE ' +
        'C. Federal flood insurance: Only for some buildings: inside Coastal Barrier Resources System unit TX-04P (Otherwise Protected Area), designated 1990-11-16 ' +
        'D. Determination: Building in the SFHA: Yes; mandatory purchase requirement applies: Unknown ' +
        coastalBarrierNote({ unit: 'TX-04P', type: 'Otherwise Protected Area', designationDate: '1990-11-16' }, true, 'footprint') +
        ' ' +
        nearbyLettersNote([{ caseNumber: '15-06-1489A', effectiveDate: '2015-06-02', distanceM: 23 }], 'building'),
    ],
    [
      "the community's NFIP standing, in the answer's words, and the NFIP dates",
      'NFIP status Federal flood insurance (NFIP) is available: the community participates. Its Community Rating System class 5 gives a 25% discount in the ' +
        'SFHA and 10% outside it. In the NFIP since 1979-09-28; current effective map 2007-06-18; Community Status Book as of 2026-11-22.',
    ],
    ['a LOMR', '19-06-0123P (effective 2020-02-14)'],
    ['a LOMA', '15-06-1489A LOMA valid Structure removed-Property partially inundated 2015-06-02 23 m'],
    ['a LOMA status in words', '12-06-1170A LOMA reevaluation needed Multiple 2012-04-24 72 m'],
    ['a LOMA without date or outcome', '99-06-1002A LOMR-F contact community - - 95 m'],
    ['the nearest SFHA (inside)', 'Nearest SFHA 0 m (the point is inside) zone AE, BFE 38 ft'],
    ['the nearest floodway', 'Nearest floodway 120 m zone AE FLOODWAY'],
    ['no moderate risk within the radius', 'Nearest moderate risk none within 500 m'],
    [
      'the coming map',
      'Preliminary map (proposed, still open to appeal): issued 2025-05-15; zone VE; in the SFHA; BFE 41 ft; the SFHA status would not change.',
    ],
    ['the coming map note', 'does not yet set flood insurance requirements'],
    [
      'the coastal barrier',
      'Inside a Coastal Barrier Resources System unit: unit TX-04P, Otherwise Protected Area, flood insurance prohibition since 1990-11-16.',
    ],
    ['the retrieval time', `${FLOOD_DATA_NAME}, retrieved 2026-11-22 06:56:31 UTC from https://hazards.fema.gov/arcgis/rest/services/public/NFHL/MapServer`],
    ['the geocoder', 'Address matched by U.S. Census Bureau Geocoder (Public_AR_Current)'],
    ['the NFIP source', 'FEMA Community Status Book (OpenFEMA), as of 2026-11-22'],
    ['the disclaimer', DISCLAIMER],
  ])('says %s', (_what, words) => {
    expect(text).toContain(words);
  });

  it('links to the JSON answer and to FEMA, and carries its picture inside it', () => {
    expect(page).toContain(`<a href="${LINKS.jsonAnswer.replace(/&/g, '&amp;')}">The same answer as JSON</a>`);
    expect(page).toContain(
      '<a href="https://msc.fema.gov/portal/search?AddressQuery=29.7%2C-95.43">https://msc.fema.gov/portal/search?AddressQuery=29.7%2C-95.43</a>',
    );
    const image = /<img\s([^>]*)\/?>/.exec(page)![1]!.replace(/\s*\/$/, '');
    expect(image.trim().split(/"\s+/)).toEqual([
      'src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==',
      'width="560',
      'height="420',
      'alt="Map of the flood zones around the point, 600 m across"',
    ]);
    expect(text).toContain('Flood zones around the point (600 m across)');
  });

  it('is one HTML document with no script and no resource: its picture is a data: image', () => {
    expect(page.startsWith('<!DOCTYPE html>\n')).toBe(true);
    expect(page).toMatch(/<html lang="en">\s*<head>\s*<meta charset="utf-8" \/>/);
    expect(page).not.toMatch(/<script|<link|<iframe|<object|<embed|<form|<base|\son[a-z]+=|javascript:|url\(|@import/i);
    expect([...page.matchAll(/\ssrc="([^"]*)"/g)].map((match) => match[1])).toEqual([`data:image/png;base64,${PNG.toString('base64')}`]);
    expect(page).toMatch(/@media print/);
    expect(page).toMatch(/@page \{ margin: 9mm; \}/);
  });

  it('says so where no picture can be drawn', () => {
    const far = reportPage(completeAnswer(), { ...LINKS, picture: 'beyond_web_mercator' }, HEADING);
    expect(far).not.toMatch(/<img/);
    expect(readerText(far)).toContain('No map picture: a Web Mercator map does not reach this latitude.');
  });

  it('says in words that the flood zones could not be drawn, with no caption naming sources it did not draw from', () => {
    const failed = reportPage(completeAnswer(), { ...LINKS, picture: 'not_drawn' }, HEADING);
    expect(failed).not.toMatch(/<img|<figcaption/);
    expect(readerText(failed)).toContain(
      "No map picture: FEMA's National Flood Hazard Layer could not draw the flood zones this time. Every other part of this report was checked; retry shortly for the picture.",
    );
  });

  it('is headed by its date and id', () => {
    expect(text).toMatch(/^ Flood zone report Report date 2026-11-27 00:12:34 UTC · Report id req-7f3a 7400 BUFFALO SPEEDWAY/);
    expect(page).toContain('<time datetime="2026-11-27T00:12:34.567Z">');
  });

  it('is the same bytes for the same answer, picture and heading; without a heading, the same bytes for every copy', () => {
    expect(reportPage(withForm(completeAnswer()), LINKS, HEADING)).toBe(page);
    const unheaded = reportPage(withForm(completeAnswer()), LINKS, null);
    expect(readerText(unheaded)).not.toContain('Report id');
    expect(reportPage(withForm(completeAnswer()), LINKS, null)).toBe(unheaded);
  });

  it('prints a zone and its risk without nested parentheses, and a distance with its unit unbroken', () => {
    const veryHigh = readerText(reportPage(withResult({ floodZone: 'VE', riskLevel: 'very_high' }), LINKS, HEADING));
    expect(veryHigh).toContain('Flood zone VE (very high risk: coastal, with waves)');
    expect(page).toContain('<span class="nowrap">120 m</span>');
  });
});

/** The banner of a page (its verdict section) as a reader sees it, and the class that colours it. */
function banner(page: string): { risk: string; text: string } {
  const [, risk, inner] = /<section class="verdict risk-([a-z_]+)">([\s\S]*?)<\/section>/.exec(page)!;
  return { risk: risk!, text: readerText(inner!).trim() };
}

describe('reportPage: the banner leads with the building, then names the point "at the address point"', () => {
  const found = completeAnswer().result.structure!;
  const outside = { status: 'outside', unit: null, type: null, floodInsuranceProhibitionDate: null, note: 'Outside.' } as const;
  const xShaded = { floodZone: 'X', zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', inSpecialFloodHazardArea: false, staticBaseFloodElevationFt: null };
  const xUnshaded = { floodZone: 'X', zoneSubtype: 'AREA OF MINIMAL FLOOD HAZARD', inSpecialFloodHazardArea: false, staticBaseFloodElevationFt: null };
  /** The point in shaded X, outside the SFHA. */
  const pointInX: Partial<Result> = {
    floodZone: 'X',
    zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD',
    inSpecialFloodHazardArea: false,
    riskLevel: 'moderate',
    staticBaseFloodElevationFt: null,
    meaning: 'Moderate flood hazard area (0.2% annual chance flood).',
    zonesAtPoint: [xShaded],
    coastalBarrier: outside,
  };

  it('a house across the AE edge whose point is in X: the building in the SFHA first, never a bare "No"', () => {
    const straddles = {
      ...found,
      zones: [
        { floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 584, areaSqFt: 932, sharePercent: 40.1 },
        { ...xShaded, areaSqFt: 1392, sharePercent: 59.9 },
      ],
    };
    const page = reportPage(withResult({ ...pointInX, structure: straddles }), LINKS, HEADING);
    expect(banner(page)).toEqual({
      risk: 'high',
      text:
        'Building: in the SFHA, AE over 40.1% of its footprint ' +
        'At the address point: zone X, outside the SFHA · Moderate risk ' +
        'Moderate flood hazard area (0.2% annual chance flood).',
    });
    expect(readerText(page)).toContain('D. Determination: Building in the SFHA: Yes');
  });

  it('the reverse: the point in AE, the house wholly in X', () => {
    const inX = { ...found, zones: [{ ...xUnshaded, areaSqFt: 2210, sharePercent: 100 }], buildingInSfha: false, highestBfeFt: null };
    const page = reportPage(withResult({ coastalBarrier: outside, structure: inX }), LINKS, HEADING);
    expect(banner(page)).toEqual({
      risk: 'minimal',
      text:
        'Building: outside the SFHA, X unshaded over 100% of its footprint ' +
        'At the address point: zone AE, in the SFHA · High risk ' +
        'High-risk area (1% annual chance flood) with a base flood elevation determined.',
    });
    expect(readerText(page)).toContain('D. Determination: Building in the SFHA: No');
  });

  it.each([
    [
      'USA Structures did not answer',
      { structure: null, unavailable: ['structure'] as AnswerPart[] },
      "Building: SFHA status unknown, FEMA's building footprints did not answer this time",
    ],
    [
      'the zones over the footprint could not be read',
      {
        structure: { ...found, zones: null, unmappedSharePercent: null, buildingInSfha: null, highestBfeFt: null, firmPanels: null },
        unavailable: ['structure'] as AnswerPart[],
      },
      "Building: SFHA status unknown, FEMA's flood zones over its footprint could not be read this time",
    ],
    [
      'part of the footprint off the map, the rest outside the SFHA',
      {
        structure: {
          ...found,
          zones: [{ ...xShaded, areaSqFt: 1094, sharePercent: 49.5 }],
          unmappedSharePercent: 50.5,
          buildingInSfha: null,
          highestBfeFt: null,
        },
      },
      'Building: SFHA status unknown, X shaded over 49.5% and unmapped over 50.5% of its footprint',
    ],
  ])('the building\'s answer unknown (%s): the banner says so first, never the point\'s "no"', (_why, changes, headline) => {
    const page = reportPage(withResult({ ...pointInX, ...changes }), LINKS, HEADING);
    const { risk, text } = banner(page);
    expect({ risk, headline: text.slice(0, headline.length) }).toEqual({ risk: 'unknown', headline });
    expect(text).toContain('At the address point: zone X, outside the SFHA · Moderate risk');
    expect(text).not.toMatch(/^No|Building: outside|Building: (?!SFHA status unknown)/);
  });

  it("no building located: the banner is the point's, as before", () => {
    const none = { ...found, match: 'none' as const, buildId: null, zones: null, buildingInSfha: null, footprint: null };
    const { risk, text } = banner(reportPage(withResult({ structure: none }), LINKS, HEADING));
    expect(risk).toBe('high');
    expect(text).toMatch(/^Zone AE Yes: in a Special Flood Hazard Area \(SFHA\) · High risk /);
    expect(text).not.toMatch(/Building|address point/);
  });

  it("the key facts beside the picture are the point's, named so when a building leads", () => {
    const withBuilding = readerText(reportPage(withForm(completeAnswer()), LINKS, HEADING));
    expect(withBuilding).toContain('At the address point Flood zone AE (high risk)');
    const none = { ...found, match: 'none' as const, buildId: null, zones: null, buildingInSfha: null, footprint: null };
    expect(readerText(reportPage(withResult({ structure: none }), LINKS, HEADING))).not.toContain('At the address point');
  });
});

describe("reportPage: the building data's credit", () => {
  const found = completeAnswer().result.structure!;

  it('a building from USA Structures: its sources credit it (CC BY 4.0), with the imagery date', () => {
    expect(readerText(reportPage(withForm(completeAnswer()), LINKS, HEADING))).toContain(
      'Building footprint: FEMA/ORNL USA Structures (CC BY 4.0), from imagery of 2019-03-02',
    );
  });

  it('a footprint given with the request is credited to the request', () => {
    const given = { ...found, match: 'given' as const, buildId: null, imageDate: null, source: 'Footprint given by the caller' };
    const text = readerText(reportPage(withResult({ structure: given }), LINKS, HEADING));
    expect(text).toContain('Building footprint: given with the request');
    expect(text).not.toContain('USA Structures (CC BY 4.0)');
  });

  it('no building asked for: no building source', () => {
    expect(readerText(reportPage(withResult({ structure: null }), LINKS, HEADING))).not.toContain('Building footprint:');
  });
});

describe('reportPage: text from the request and from upstreams stays text', () => {
  const hostile = `<script>alert("x")</script> & 'quoted' <img src=x onerror=alert(1)>`;

  it.each([
    ['the address asked', (answer: FloodZoneLookup) => ({ ...answer, query: { ...answer.query, address: hostile } })],
    ['the matched address', (answer: FloodZoneLookup) => ({ ...answer, location: { ...answer.location, matchedAddress: hostile } })],
    ['a LOMA outcome', (answer: FloodZoneLookup) => ({ ...answer, result: { ...answer.result, lomas: [{ ...answer.result.lomas![0]!, outcome: hostile }] } })],
    [
      'the community name',
      (answer: FloodZoneLookup) => ({ ...answer, result: { ...answer.result, community: { ...answer.result.community!, name: hostile } } }),
    ],
  ])('escapes %s', (_where, change) => {
    const page = reportPage(change(completeAnswer()), LINKS, HEADING);
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39; &lt;img src=x onerror=alert(1)&gt;');
    expect(readerText(page)).toContain(hostile);
  });

  it('escapes the links it is given', () => {
    const page = reportPage(completeAnswer(), { ...LINKS, jsonAnswer: '/flood-zone?address="><script>x</script>' }, HEADING);
    expect(page).toContain('<a href="/flood-zone?address=&quot;&gt;&lt;script&gt;x&lt;/script&gt;">');
    expect(page).not.toContain('<script>');
  });
});

describe('reportPage: a part that could not be checked says so, never "none"', () => {
  const cases: Array<[AnswerPart, Partial<Result>]> = [
    ['community', { community: null }],
    ['nfipStatus', { community: { ...completeAnswer().result.community!, nfip: null } }],
    ['lomrs', { lomrs: null }],
    ['lomas', { lomas: null }],
    ['estimatedBaseFloodElevation', { staticBaseFloodElevationFt: null, estimatedBaseFloodElevation: null }],
    ['nearby', { nearby: null }],
    ['mapChange', { mapChange: null }],
    ['coastalBarrier', { coastalBarrier: null }],
    ['groundElevation', { groundElevation: null }],
    ['structure', { structure: null }],
    ['history', { history: null }],
  ];

  it('covers every part an answer may miss', () => {
    expect(cases.map(([part]) => part).sort()).toEqual([...ANSWER_PARTS].sort());
  });

  it.each(cases)('%s', (part, missing) => {
    // Every other part found something, so that any "none" on the page would be said of the missing part.
    const moderate = { distanceM: 250, floodZone: 'X', zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', staticBaseFloodElevationFt: null };
    const text = readerText(
      reportPage(withResult({ nearby: { ...completeAnswer().result.nearby!, moderate }, ...missing, unavailable: [part] }), LINKS, HEADING),
    );
    expect(text).toContain(couldNotBeChecked(part));
    expect(text).not.toMatch(/none filed|none in effect|none within|None mapped|None on the flood map|Not asked for/);
  });

  it('a part not asked for is said to be not asked for, naming the include item', () => {
    const text = readerText(
      reportPage(withResult({ nearby: null, mapChange: null, coastalBarrier: null, groundElevation: null, history: null }), LINKS, HEADING),
    );
    for (const item of ['nearby', 'preliminary', 'cbrs', 'elevation', 'history']) expect(text).toContain(`Not asked for (add ${item} to include).`);
    expect(text).not.toContain('Could not be checked');
  });

  it('an empty part is "none", with its reach', () => {
    const text = readerText(reportPage(withResult({ lomrs: [], lomas: [] }), LINKS, HEADING));
    expect(text).toContain('Letters of Map Revision at the point: none in effect.');
    expect(text).toContain('Letters of Map Amendment within 100 m: none filed.');
  });
});

describe('reportPage: no flood zone is unknown, never low risk', () => {
  const noZone = {
    floodZone: null,
    zoneSubtype: null,
    isFloodway: null,
    inSpecialFloodHazardArea: null,
    riskLevel: 'unknown' as const,
    staticBaseFloodElevationFt: null,
    verticalDatum: null,
    meaning: 'Unknown flood risk: FEMA gives no flood zone for this exact point, so the flood hazard here is unknown.',
    zonesAtPoint: [],
    nearby: null,
    mapChange: null,
    coastalBarrier: null,
    lomas: [],
    lomrs: [],
    // FEMA's building footprints did not answer: the form's building is unknown (never the point's answer)
    structure: null,
  };

  it.each([
    ['unmapped', 'No digital flood map here (unknown, not low risk)', 'FEMA has no digital flood map (NFHL) for this location.'],
    ['mapped_no_zone', 'No flood zone at this exact point (unknown, not low risk)', 'Move the point slightly.'],
  ] as const)('%s: "%s"', (coverage, headline, guidance) => {
    const page = reportPage(withResult({ ...noZone, coverage, isMapped: coverage !== 'unmapped', guidance }), LINKS, HEADING);
    const text = readerText(page);
    expect(text).toContain(headline);
    expect(text).toContain(guidance);
    expect(text).toContain('Unknown: FEMA gives no flood zone at this point');
    expect(text).toContain('Base flood elevation Unknown: there is no flood zone at this point');
    expect(text).toContain(LENDING_NOTES.sfhaUnknown.building_unavailable);
    expect(text.replace(/not low risk/g, '')).not.toMatch(/low[- ]risk|minimal risk|not in a flood zone|Zone X/i);
    expect(text).not.toMatch(/flood zones? none|zones?:? none\b/i);
    expect(text).toContain('flood zone unknown: the building could not be looked up this time');
    expect(page).toContain('class="verdict risk-unknown"');
  });

  it('a building wholly off the map: its zones unknown on the form, never "none"', () => {
    const offMap = { ...completeAnswer().result.structure!, zones: [], unmappedSharePercent: 100, buildingInSfha: null, highestBfeFt: null, firmPanels: [] };
    const text = readerText(reportPage(withResult({ structure: offMap }), LINKS, HEADING));
    expect(text).not.toMatch(/flood zones? none|zones?:? none\b/i);
    expect(text).toContain("flood zone unknown: FEMA's map gives none over the building");
    expect(text).toContain('Building: SFHA status unknown, unmapped over 100% of its footprint');
  });
});

describe("reportPage: insurance and lending are the lender's form's: the community and the coastal barrier with the SFHA, never the SFHA alone", () => {
  const houston = completeAnswer().result.community!;
  const outside = { status: 'outside', unit: null, type: null, floodInsuranceProhibitionDate: null, note: 'Outside.' } as const;
  const nfip = (changes: object) => ({ community: { ...houston, nfip: { ...houston.nfip!, ...changes } } });

  it.each([
    ['participating, outside any barrier: required', { coastalBarrier: outside }, 'Available: regular program', 'Yes', [LENDING_NOTES.required]],
    [
      'not participating: a notice, never a purchase',
      { coastalBarrier: outside, ...nfip({ participating: false, program: null, floodInsuranceAvailable: false }) },
      'Not available: the community does not participate in the NFIP',
      'No',
      [LENDING_NOTES.notParticipating],
    ],
    [
      'listed without saying whether it participates: unknown',
      { coastalBarrier: outside, ...nfip({ participating: null, program: null, floodInsuranceAvailable: null }) },
      'Unknown: whether the community participates is not known',
      'Unknown',
      [LENDING_NOTES.nfipStatusUnknown],
    ],
    [
      'not in the Status Book: unknown',
      { coastalBarrier: outside, community: { ...houston, nfip: NOT_LISTED } },
      "Unknown: the community is not in FEMA's Community Status Book",
      'Unknown',
      [LENDING_NOTES.notListed],
    ],
    [
      'the coastal barrier could not be checked: unknown',
      { coastalBarrier: null, unavailable: ['coastalBarrier'] as AnswerPart[] },
      'Unknown: the community participates, but whether this is in a coastal barrier unit could not be checked',
      'Unknown',
      [LENDING_NOTES.coastalBarrierUnavailable.footprint],
    ],
  ])('%s', (_what, changes, availability, required, notes) => {
    const text = readerText(reportPage(withResult(changes), LINKS, HEADING));
    expect(text).toContain(
      `C. Federal flood insurance: ${availability} D. Determination: Building in the SFHA: Yes; mandatory purchase requirement applies: ${required} ${notes.join(' ')}`,
    );
    if (required !== 'Yes') expect(text).not.toMatch(/insurance is required|requires flood insurance/);
  });

  it('the building outside the SFHA, the point in it: the form answers for the building, and nothing is required', () => {
    const structure = completeAnswer().result.structure!;
    const xZone = {
      floodZone: 'X',
      zoneSubtype: 'AREA OF MINIMAL FLOOD HAZARD',
      inSpecialFloodHazardArea: false,
      staticBaseFloodElevationFt: null,
      areaSqFt: 2210,
      sharePercent: 100,
    };
    const text = readerText(
      reportPage(withResult({ coastalBarrier: outside, structure: { ...structure, zones: [xZone], buildingInSfha: false } }), LINKS, HEADING),
    );
    expect(text).toContain('Yes: in a Special Flood Hazard Area (SFHA)');
    expect(text).toContain(`D. Determination: Building in the SFHA: No; mandatory purchase requirement applies: No ${LENDING_NOTES.outsideSfha}`);
    expect(text).not.toMatch(/insurance is required|requires flood insurance/);
  });

  it('no building located: the form answers for the point and says why', () => {
    const none = { ...completeAnswer().result.structure!, match: 'none' as const, buildId: null, zones: null, buildingInSfha: null, footprint: null };
    const text = readerText(reportPage(withResult({ coastalBarrier: outside, structure: none }), LINKS, HEADING));
    expect(text).toContain('Flood hazard determination (SFHDF section II), for the point A. NFIP community');
    expect(text).toContain('B. NFIP data affecting the point:');
    expect(text).toContain('D. Determination: Point in the SFHA: Yes; mandatory purchase requirement applies: Yes');
  });

  it('an answer without the form (kept from before the report asked for it) says it was not asked for, and nothing on lending', () => {
    const text = readerText(reportPage(completeAnswer(), LINKS, HEADING));
    expect(text).toContain('Flood hazard determination (SFHDF section II) Not asked for (add determination to include).');
    expect(text).not.toMatch(/insurance is required|requires flood insurance|mandatory purchase/);
  });

  it("the Status Book's details are a sentence, starting in capitals", () => {
    const text = readerText(reportPage(withResult(nfip({ crsClass: null, sfhaDiscountPercent: null, nonSfhaDiscountPercent: null })), LINKS, HEADING));
    expect(text).toContain('In the NFIP since 1979-09-28; current effective map 2007-06-18; Community Status Book as of 2026-11-22.');
  });
});

describe('reportPage: without a digital flood map, nearby hazards and coming maps are unknown', () => {
  const unmapped = withResult({
    coverage: 'unmapped',
    isMapped: false,
    floodZone: null,
    inSpecialFloodHazardArea: null,
    riskLevel: 'unknown',
    zonesAtPoint: [],
    nearby: { radiusM: 500, sfha: null, floodway: null, moderate: null, note: 'No digital flood map here.' },
    mapChange: {
      status: 'none',
      issuedDate: null,
      floodZone: null,
      zoneSubtype: null,
      inSpecialFloodHazardArea: null,
      staticBaseFloodElevationFt: null,
      sfhaChange: 'unknown',
      note: NO_DIGITAL_MAP_NOTE,
    },
  });

  it('never "none within" nor "no preliminary or pending map here" alone', () => {
    const text = readerText(reportPage(unmapped, LINKS, HEADING));
    expect(text).toContain(
      'Nearest SFHA Unknown: no digital flood map here Nearest floodway Unknown: no digital flood map here Nearest moderate risk Unknown: no digital flood map here',
    );
    expect(text).toContain(`Coming map changes Unknown: no digital flood map here, and no preliminary or pending map either. ${NO_DIGITAL_MAP_NOTE}`);
    expect(text).not.toMatch(/none within|the effective map is the current one/);
  });

  it('no community mapped there is unknown, never "none mapped"', () => {
    const text = readerText(reportPage({ ...unmapped, result: { ...unmapped.result, community: null } }, LINKS, HEADING));
    expect(text).toContain('NFIP community Unknown: no digital flood map here');
    expect(text).not.toMatch(/none mapped/i);
  });
});

describe('reportPage: the other forms of each part', () => {
  it('an estimated BFE, interpolated between two lines, not official', () => {
    const text = readerText(
      reportPage(
        withResult({
          staticBaseFloodElevationFt: null,
          estimatedBaseFloodElevation: {
            elevationFt: 612.4,
            verticalDatum: 'NAVD88',
            method: 'interpolated',
            lines: [
              { elevationFt: 612, distanceM: 41 },
              { elevationFt: 613, distanceM: 62 },
            ],
            note: "Estimated from FEMA's whole-foot BFE lines; not an official base flood elevation.",
          },
          groundElevation: null,
        }),
        LINKS,
        HEADING,
      ),
    );
    expect(text).toContain('About 612.4 ft NAVD88, estimated: not an official BFE');
    expect(text).toContain("interpolated between FEMA's BFE lines 612 ft at 41 m and 613 ft at 62 m.");
  });

  it('a depth (zone AO), several zones at the point, a floodway', () => {
    const text = readerText(
      reportPage(
        withResult({
          floodZone: 'AO',
          zoneSubtype: 'FLOODWAY',
          isFloodway: true,
          staticBaseFloodElevationFt: null,
          depthFt: 2,
          zonesAtPoint: [
            { floodZone: 'AO', zoneSubtype: 'FLOODWAY', inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: null },
            { floodZone: 'X', zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', inSpecialFloodHazardArea: false, staticBaseFloodElevationFt: null },
          ],
        }),
        LINKS,
        HEADING,
      ),
    );
    expect(text).toContain('Flood zone AO FLOODWAY, in the regulatory floodway (high risk)');
    expect(text).toContain('Zones at the point AO FLOODWAY; X 0.2 PCT ANNUAL CHANCE FLOOD HAZARD');
    expect(text).toContain('Flood depth 2 ft');
    expect(text).toContain('None on the flood map for zone AO');
  });

  it('outside the SFHA, ground not compared, a community not in the book, no FIRM panel', () => {
    const answer = completeAnswer();
    const text = readerText(
      reportPage(
        withResult({
          floodZone: 'X',
          inSpecialFloodHazardArea: false,
          riskLevel: 'minimal',
          staticBaseFloodElevationFt: null,
          firmPanel: null,
          community: { ...answer.result.community!, nfip: NOT_LISTED },
          groundElevation: { ...answer.result.groundElevation!, comparedWith: null, note: 'There is no base flood elevation here to compare it with.' },
          mapChange: {
            ...answer.result.mapChange!,
            status: 'none',
            issuedDate: null,
            floodZone: null,
            inSpecialFloodHazardArea: null,
            staticBaseFloodElevationFt: null,
          },
          coastalBarrier: { status: 'buffer', unit: null, type: null, floodInsuranceProhibitionDate: null, note: 'Ask for an official CBRS determination.' },
          structure: {
            ...answer.result.structure!,
            zones: [
              { floodZone: 'X', zoneSubtype: null, inSpecialFloodHazardArea: false, staticBaseFloodElevationFt: null, areaSqFt: 2210, sharePercent: 100 },
            ],
            buildingInSfha: false,
          },
        }),
        LINKS,
        HEADING,
      ),
    );
    expect(text).toContain('No: outside the Special Flood Hazard Area (SFHA)');
    expect(text).toContain(LENDING_NOTES.outsideSfha);
    expect(text).toContain('30.7 ft NAVD88, not compared with a BFE');
    expect(text).toContain("C. Federal flood insurance: Unknown: the community is not in FEMA's Community Status Book");
    expect(text).toContain(`NFIP status ${NOT_LISTED_NOTE}`);
    expect(text).toContain('B. NFIP data affecting the building: Map panel none found');
    expect(text).toContain('No FIRM panel contains the point');
    expect(text).toContain('No preliminary or pending map here.');
    expect(text).toContain('In the buffer zone at the edge of a Coastal Barrier Resources System unit.');
  });

  it('no ground elevation data', () => {
    const answer = completeAnswer();
    const text = readerText(
      reportPage(
        withResult({
          groundElevation: {
            ...answer.result.groundElevation!,
            elevationFt: null,
            verticalDatum: null,
            resolutionM: null,
            acquisitionDate: null,
            uncertaintyFt: null,
            comparedWith: null,
            note: 'USGS 3DEP has no ground elevation at this point.',
          },
        }),
        LINKS,
        HEADING,
      ),
    );
    expect(text).toContain('Ground elevation No data: USGS 3DEP has no ground elevation at this point');
    expect(text).not.toContain('from USGS 3DEP:');
  });

  it(`lists the nearest ${LOMAS_LISTED} LOMAs and counts the rest`, () => {
    const loma = completeAnswer().result.lomas![0]!;
    const many = Array.from({ length: LOMAS_LISTED + 4 }, (_, i) => ({ ...loma, caseNumber: `CASE-${i}`, distanceM: i }));
    const text = readerText(reportPage(withResult({ lomas: many }), LINKS, HEADING));
    expect(text).toContain(`CASE-${LOMAS_LISTED - 1}`);
    expect(text).not.toContain(`CASE-${LOMAS_LISTED} `);
    expect(text).toContain('And 4 more within 100 m, listed in the JSON answer.');
  });

  it('a point given as coordinates: the point is the title, the ZIP is a ZIP code area', () => {
    const answer = completeAnswer();
    const text = readerText(
      reportPage(
        {
          ...answer,
          query: { address: null, lat: 29.7, lon: -95.43 },
          location: { ...answer.location, matchedAddress: null, source: 'coordinates' },
          source: { ...answer.source },
        },
        LINKS,
        HEADING,
      ),
    );
    expect(text).toContain('Report id req-7f3a 29.7, -95.43 Latitude, longitude as given · Harris County · ZIP code area 77025');
    expect(text).toContain('County and ZIP code area from U.S. Census Bureau Geocoder (Public_AR_Current)');
  });
});

describe('errorPage', () => {
  const reportOf = (candidate: { lat: number; lon: number }) => `/flood-zone/report?lat=${candidate.lat}&lon=${candidate.lon}`;

  it("says the envelope's status, code, message and request id", () => {
    const page = errorPage({ error: 'lat must be between -90 and 90', statusCode: 422, code: 'COORDINATES_OUT_OF_RANGE', requestId: 'req-1' }, reportOf);
    const text = readerText(page);
    expect(page).toContain('<title>Flood zone report: 422 COORDINATES_OUT_OF_RANGE</title>');
    expect(text).toContain('No report: 422 COORDINATES_OUT_OF_RANGE lat must be between -90 and 90');
    expect(text).toContain('Request id req-1');
    expect(page).not.toMatch(/<script|\ssrc=/i);
  });

  it('lists the matches of an ambiguous address, each linked to its report, escaped', () => {
    const page = errorPage(
      {
        error: 'The address matches several places; retry with the lat and lon of the one you mean.',
        statusCode: 404,
        code: 'AMBIGUOUS_ADDRESS',
        requestId: 'req-2',
        candidates: [
          { matchedAddress: '200 MAIN ST, HOUSTON, TX, 77002', lat: 29.7589, lon: -95.3632 },
          { matchedAddress: '200 <b>MAIN</b> AVE S, RENTON, WA, 98057', lat: 47.4797, lon: -122.2079 },
        ],
      },
      reportOf,
    );
    expect(page).toContain('<li><a href="/flood-zone/report?lat=29.7589&amp;lon=-95.3632">200 MAIN ST, HOUSTON, TX, 77002</a> (29.7589, -95.3632)</li>');
    expect(page).toContain('200 &lt;b&gt;MAIN&lt;/b&gt; AVE S, RENTON, WA, 98057');
  });

  it('names the upstream that failed', () => {
    const text = readerText(
      errorPage(
        { error: 'The FEMA flood data service (NFHL) is unavailable.', statusCode: 502, code: 'UPSTREAM_UNAVAILABLE', requestId: 'r', upstream: 'flood_data' },
        reportOf,
      ),
    );
    expect(text).toContain('Service that failed: flood_data');
  });
});
