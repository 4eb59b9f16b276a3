import { ApiError, UpstreamUnavailableError } from '../common/api-error';
import type { FloodZoneLookup, FloodZoneResult } from '../lookup/flood-zone-lookup';
import type { Structure, StructureZone } from '../parts/structure/structure.types';
import { lookupSummary, structuredAnswer, toolFailure } from './tool-answers';

type Source = FloodZoneLookup['location']['source'];

const answerOf = (fields: Partial<FloodZoneResult>, source: Source = 'coordinates') =>
  ({
    location: { source },
    result: { coverage: 'mapped', floodZone: null, zoneSubtype: null, inSpecialFloodHazardArea: null, structure: null, unavailable: [], ...fields },
  }) as Pick<FloodZoneLookup, 'location' | 'result'>;

describe('lookupSummary', () => {
  it.each([
    [
      'a zone in the SFHA',
      { floodZone: 'AE', inSpecialFloodHazardArea: true },
      'Coverage: mapped. Flood zone: AE. In the Special Flood Hazard Area: yes. Unavailable: nothing.',
    ],
    [
      'a subtyped zone outside it',
      { floodZone: 'X', zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', inSpecialFloodHazardArea: false },
      'Coverage: mapped. Flood zone: X 0.2 PCT ANNUAL CHANCE FLOOD HAZARD. In the Special Flood Hazard Area: no. Unavailable: nothing.',
    ],
    [
      'an unmapped point, unknown rather than safe',
      { coverage: 'unmapped' as const },
      'Coverage: unmapped. Flood zone: unknown. In the Special Flood Hazard Area: unknown. Unavailable: nothing.',
    ],
    [
      'parts that could not be had',
      { floodZone: 'AE', inSpecialFloodHazardArea: true, unavailable: ['lomas', 'community'] as FloodZoneResult['unavailable'] },
      'Coverage: mapped. Flood zone: AE. In the Special Flood Hazard Area: yes. Unavailable: lomas, community.',
    ],
  ])('%s', (_case, fields, summary) => {
    expect(lookupSummary(answerOf(fields))).toBe(summary);
  });
});

const zone = (floodZone: string, sharePercent: number, fields: Partial<StructureZone> = {}): StructureZone => ({
  floodZone,
  zoneSubtype: null,
  inSpecialFloodHazardArea: /^[AV]/.test(floodZone),
  staticBaseFloodElevationFt: null,
  areaSqFt: Math.round(sharePercent * 20),
  sharePercent,
  ...fields,
});

const building = (fields: Partial<Structure>): Structure => ({
  match: 'contains',
  distanceM: 0,
  buildId: '26109001',
  occupancy: 'Residential',
  primaryOccupancy: 'Single Family Dwelling',
  footprintAreaSqFt: 2000,
  heightM: null,
  imageDate: null,
  zones: [],
  unmappedSharePercent: 0,
  buildingInSfha: null,
  highestBfeFt: null,
  firmPanels: [],
  candidates: [],
  source: 'FEMA/ORNL USA Structures (CC BY 4.0)',
  note: '',
  footprint: null,
  ...fields,
});

const SHADED_X = { floodZone: 'X', zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD', inSpecialFloodHazardArea: false };
const SHADED_X_POINT = 'flood zone X 0.2 PCT ANNUAL CHANCE FLOOD HAZARD, in the Special Flood Hazard Area: no';

describe('lookupSummary with the building', () => {
  it.each<[string, Partial<FloodZoneResult>, Source, string]>([
    [
      'a building in the SFHA around a point outside it leads with the building',
      {
        ...SHADED_X,
        structure: building({
          zones: [zone('AE', 40), zone('X', 60, { zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD' })],
          buildingInSfha: true,
        }),
      },
      'coordinates',
      `Building: in the SFHA, AE over 40% of its footprint. At the address point: coverage mapped, ${SHADED_X_POINT}. Unavailable: nothing.`,
    ],
    [
      "a building outside the SFHA whose address point is in it: the point is named as the address's",
      {
        floodZone: 'AE',
        inSpecialFloodHazardArea: true,
        structure: building({ match: 'address', distanceM: 36, zones: [zone('X', 100)], buildingInSfha: false }),
      },
      'census_geocoder',
      'Building: outside the SFHA, X unshaded over 100% of its footprint. At the address point: coverage mapped, flood zone AE, in the Special Flood Hazard Area: yes. Unavailable: nothing.',
    ],
    [
      'several SFHA zones, each named with its share; two entries of one zone summed',
      {
        floodZone: 'AE',
        inSpecialFloodHazardArea: true,
        structure: building({
          zones: [
            zone('VE', 10.5),
            zone('AE', 20.2, { staticBaseFloodElevationFt: 11 }),
            zone('AE', 10.1, { staticBaseFloodElevationFt: 12 }),
            zone('X', 59.2),
          ],
          buildingInSfha: true,
        }),
      },
      'coordinates',
      'Building: in the SFHA, VE over 10.5% and AE over 30.3% of its footprint. At the address point: coverage mapped, flood zone AE, in the Special Flood Hazard Area: yes. Unavailable: nothing.',
    ],
    [
      'part of the footprint off the map and the rest outside the SFHA: unknown, never the point\'s "no"',
      { ...SHADED_X, structure: building({ zones: [zone('X', 50)], unmappedSharePercent: 50, buildingInSfha: null }) },
      'coordinates',
      `Building: SFHA status unknown, X unshaded over 50% and unmapped over 50% of its footprint. At the address point: coverage mapped, ${SHADED_X_POINT}. Unavailable: nothing.`,
    ],
    [
      'the whole footprint off the map: no "rest" is spoken of',
      { coverage: 'mapped_no_zone', structure: building({ zones: [], unmappedSharePercent: 100, buildingInSfha: null }) },
      'coordinates',
      'Building: SFHA status unknown, unmapped over 100% of its footprint. At the address point: coverage mapped_no_zone, flood zone unknown, in the Special Flood Hazard Area: unknown. Unavailable: nothing.',
    ],
    [
      "the footprint's zones not read this time",
      {
        ...SHADED_X,
        structure: building({ zones: null, unmappedSharePercent: null, firmPanels: null }),
        unavailable: ['structure'],
      },
      'coordinates',
      `Building: SFHA status unknown, FEMA's flood zones over its footprint could not be read this time. At the address point: coverage mapped, ${SHADED_X_POINT}. Unavailable: structure.`,
    ],
    [
      'USA Structures not answering',
      { ...SHADED_X, structure: null, unavailable: ['structure'] },
      'census_geocoder',
      `Building: SFHA status unknown, FEMA's building footprints did not answer this time. At the address point: coverage mapped, ${SHADED_X_POINT}. Unavailable: structure.`,
    ],
    [
      'no building at the location',
      { ...SHADED_X, structure: building({ match: 'none', distanceM: null, buildId: null, zones: null, unmappedSharePercent: null, firmPanels: null }) },
      'coordinates',
      `Building: none found at the location. At the address point: coverage mapped, ${SHADED_X_POINT}. Unavailable: nothing.`,
    ],
    [
      'several buildings, none chosen',
      {
        ...SHADED_X,
        structure: building({
          match: 'ambiguous',
          distanceM: null,
          buildId: null,
          zones: null,
          unmappedSharePercent: null,
          firmPanels: null,
          candidates: [
            { buildId: '1', distanceM: 12, address: null, buildingInSfha: false },
            { buildId: '2', distanceM: 15, address: null, buildingInSfha: true },
          ],
        }),
      },
      'census_geocoder',
      `Building: none chosen among 2 buildings near the address point. At the address point: coverage mapped, ${SHADED_X_POINT}. Unavailable: nothing.`,
    ],
    [
      'every building near the address across the street',
      {
        ...SHADED_X,
        structure: building({
          match: 'none',
          distanceM: null,
          buildId: null,
          zones: null,
          unmappedSharePercent: null,
          firmPanels: null,
          candidates: [{ buildId: '1', distanceM: 6, address: null, buildingInSfha: true }],
        }),
      },
      'census_geocoder',
      `Building: none on the address's side of the street; 1 across it near the address point. At the address point: coverage mapped, ${SHADED_X_POINT}. Unavailable: nothing.`,
    ],
  ])('%s', (_case, fields, source, summary) => {
    expect(lookupSummary(answerOf(fields, source))).toBe(summary);
  });
});

describe('structuredAnswer', () => {
  it('gives the structured content, the summary, and the content again as JSON text', () => {
    const content = { rows: [{ index: 0, id: null, status: 200, body: { a: 1.5, b: null, c: ['x'] } }] };
    const answer = structuredAnswer('1 location answered, 0 failed.', content);
    expect(answer).toEqual({
      structuredContent: content,
      content: [
        { type: 'text', text: '1 location answered, 0 failed.' },
        { type: 'text', text: JSON.stringify(content) },
      ],
    });
  });
});

describe('toolFailure', () => {
  it("carries the envelope's code and message", () => {
    const failure = toolFailure(new ApiError(422, 'COORDINATES_OUT_OF_RANGE', 'lat must be from -90 to 90'), 'req-1');
    expect(failure).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'COORDINATES_OUT_OF_RANGE: lat must be from -90 to 90\n{"error":"lat must be from -90 to 90","statusCode":422,"code":"COORDINATES_OUT_OF_RANGE","requestId":"req-1"}',
        },
      ],
    });
  });

  it('names the upstream that failed', () => {
    const failure = toolFailure(new UpstreamUnavailableError('flood_data', 'HTTP 503'), 'req-2');
    const text = (failure.content[0] as { text: string }).text;
    expect(text.split('\n')[0]).toBe(
      'UPSTREAM_UNAVAILABLE (upstream: flood_data): The FEMA flood data service (NFHL) is unavailable or returned an error; no answer can be given. Retry shortly.',
    );
  });
});
