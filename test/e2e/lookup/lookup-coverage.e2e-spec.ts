/**
 * Every demo place looked up by lat/lon gives the full answer documented in docs/api.md (the
 * place's `expect`), whatever its coverage, with the same shape every time.
 */
import { DEMO_PLACES, demoPlace } from '../../emulators';
import {
  DEFAULT_GEOCODER_NAME,
  FLOOD_DATA_NAME,
  ISO_UTC_MS,
  LOCATION_KEYS,
  MEANING_BY_RISK,
  RESULT_KEYS,
  SOURCE_KEYS,
  Stack,
  TOP_LEVEL_KEYS,
  expectedResult,
  femaMapUrlOf,
  pointQuery,
  startStack,
} from '../../support/stack';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.close();
});

describe('GET /flood-zone?lat&lon for every demo place', () => {
  it('covers every coverage case: mapped, mapped_no_zone, unmapped', () => {
    const coverages = new Set(DEMO_PLACES.map((p) => p.expect.coverage));
    expect([...coverages].sort()).toEqual(['mapped', 'mapped_no_zone', 'unmapped']);
  });

  it.each(DEMO_PLACES.map((p) => [p.id, p] as const))('%s', async (_id, place) => {
    const started = Date.now();
    const res = await stack.get(pointQuery(place));
    const finished = Date.now();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = res.body;

    // shape: every field, every time
    expect(Object.keys(body).sort()).toEqual(TOP_LEVEL_KEYS);
    expect(Object.keys(body.result).sort()).toEqual(RESULT_KEYS);
    expect(Object.keys(body.location).sort()).toEqual(LOCATION_KEYS);
    expect(Object.keys(body.source).sort()).toEqual(SOURCE_KEYS);

    // the flood determination
    expect(body.result).toEqual(expectedResult(place));
    expect(body.result.femaMapUrl).toBe(femaMapUrlOf(place));
    expect(body.result.meaning).toMatch(MEANING_BY_RISK[place.expect.riskLevel]);

    // query echo and location
    expect(body.query).toStrictEqual({ address: null, lat: place.lat, lon: place.lon });
    expect(body.location).toStrictEqual({
      matchedAddress: null,
      lat: place.lat,
      lon: place.lon,
      county: place.expect.county,
      countyFips: place.expect.countyFips,
      zip: place.expect.zcta,
      source: 'coordinates',
    });

    // sources, time, disclaimer
    expect(body.source).toStrictEqual({
      floodData: FLOOD_DATA_NAME,
      floodService: stack.emulators.nfhl.baseUrl,
      geocoder: DEFAULT_GEOCODER_NAME,
    });
    expect(body.retrievedAt).toMatch(ISO_UTC_MS);
    const retrievedAt = Date.parse(body.retrievedAt);
    // first lookup of this point in this app: fetched during this request
    expect(retrievedAt).toBeGreaterThanOrEqual(started - 1000);
    expect(retrievedAt).toBeLessThanOrEqual(finished + 1000);
    expect(body.disclaimer).toMatch(/not an official flood determination/i);
    expect(body.disclaimer).toMatch(/elevation certificate/i);
    expect(body.disclaimer).toMatch(/insurance/i);
    expect(body.disclaimer).toMatch(/msc\.fema\.gov/);
  });
});

describe('coverage rules: mapped, mapped_no_zone, unmapped', () => {
  const lookup = async (id: string) => {
    const res = await stack.get(pointQuery(demoPlace(id)));
    expect(res.status).toBe(200);
    return res.body.result;
  };

  it.each(['houston-gap', 'houston-open-water', 'houston-area-not-included'])(
    '%s: mapped_no_zone, no zone fields, guidance to move the point or check the FEMA map',
    async (id) => {
      const result = await lookup(id);
      expect(result.coverage).toBe('mapped_no_zone');
      expect(result.isMapped).toBe(true);
      expect(result.floodZone).toBeNull();
      expect(result.inSpecialFloodHazardArea).toBeNull();
      expect(result.riskLevel).toBe('unknown');
      expect(result.guidance).toMatch(/move the point/i);
      expect(result.guidance).toMatch(/msc\.fema\.gov/);
    },
  );

  it('no panel and no NFHL data (Mount Vernon): unmapped, guidance says FEMA has no digital flood map', async () => {
    const result = await lookup('mount-vernon-unmapped');
    expect(result.coverage).toBe('unmapped');
    expect(result.isMapped).toBe(false);
    expect(result.inSpecialFloodHazardArea).toBeNull();
    expect(result.riskLevel).toBe('unknown');
    expect(result.firmPanel).toBeNull();
    expect(result.guidance).toMatch(/no digital flood map/i);
    expect(result.guidance).not.toMatch(/paper/i);
  });

  it('paper-only panel (Lampasas): unmapped with firmPanel, guidance names the panel as a possible paper map', async () => {
    const place = demoPlace('lampasas-paper-only');
    const result = await lookup(place.id);
    expect(result.coverage).toBe('unmapped');
    expect(result.isMapped).toBe(false);
    expect(result.firmPanel).toEqual(place.expect.firmPanel);
    expect(result.firmPanel).not.toBeNull();
    expect(result.guidance).toMatch(/no digital flood map/i);
    expect(result.guidance).toMatch(/paper/i);
    expect(result.guidance).toContain(place.expect.firmPanel!.panel);
  });

  it('outside the US (North Atlantic): unmapped, no panel, no community, no county or ZCTA', async () => {
    const place = demoPlace('outside-us-atlantic');
    const res = await stack.get(pointQuery(place));
    expect(res.status).toBe(200);
    expect(res.body.result.coverage).toBe('unmapped');
    expect(res.body.result.firmPanel).toBeNull();
    expect(res.body.result.community).toBeNull();
    expect(res.body.result.lomrs).toEqual([]);
    expect(res.body.result.zonesAtPoint).toEqual([]);
    expect(res.body.location).toMatchObject({ county: null, countyFips: null, zip: null });
  });

  it('never defaults to zone X: no place without a real zone polygon reports a zone', async () => {
    for (const place of DEMO_PLACES.filter((p) => p.expect.coverage !== 'mapped')) {
      const result = await lookup(place.id);
      expect({ id: place.id, floodZone: result.floodZone, sfha: result.inSpecialFloodHazardArea }).toEqual({
        id: place.id,
        floodZone: null,
        sfha: null,
      });
    }
  });

  it('the example of docs/api.md: White House AE 583 NAVD88 on 11001C0019C (2010-09-27), two effective LOMRs newest first', async () => {
    const result = await lookup('dc-white-house-ae');
    expect(result).toMatchObject({
      coverage: 'mapped',
      floodZone: 'AE',
      inSpecialFloodHazardArea: true,
      riskLevel: 'high',
      staticBaseFloodElevationFt: 583,
      verticalDatum: 'NAVD88',
      firmPanel: { panel: '11001C0019C', panelNumber: '0019', suffix: 'C', effectiveDate: '2010-09-27', panelType: 'Countywide, Panel Printed' },
      community: { name: 'District of Columbia', communityId: '110001' },
    });
    expect(result.lomrs.map((l: { caseNumber: string }) => l.caseNumber)).toEqual(['19-03-0123P', '12-03-0456P']);
  });
});
