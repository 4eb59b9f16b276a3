import { ApiError, UpstreamUnavailableError } from '../common/api-error';
import type { FloodZoneResult } from '../lookup/flood-zone-lookup';
import { lookupSummary, toolFailure } from './tool-answers';

const resultOf = (fields: Partial<FloodZoneResult>) =>
  ({ result: { coverage: 'mapped', floodZone: null, zoneSubtype: null, inSpecialFloodHazardArea: null, unavailable: [], ...fields } }) as {
    result: FloodZoneResult;
  };

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
      'Coverage: unmapped. Flood zone: none. In the Special Flood Hazard Area: unknown. Unavailable: nothing.',
    ],
    [
      'parts that could not be had',
      { floodZone: 'AE', inSpecialFloodHazardArea: true, unavailable: ['lomas', 'community'] as FloodZoneResult['unavailable'] },
      'Coverage: mapped. Flood zone: AE. In the Special Flood Hazard Area: yes. Unavailable: lomas, community.',
    ],
  ])('%s', (_case, fields, summary) => {
    expect(lookupSummary(resultOf(fields))).toBe(summary);
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
