import { HttpService } from '@nestjs/axios';
import { ConfigService } from '@nestjs/config';
import axios from 'axios';
import { DEFAULT_MAX_RECORD_COUNT, NfhlMapServerEmulator } from '../../test/emulators/arcgis-emulator';
import { DEMO_MAP, type MapFeature } from '../../test/emulators/demo-map';
import { type Ring, bboxOfRings } from '../../test/emulators/geometry';
import { demoStructure } from '../../test/emulators/structure-footprints';
import { upstreamUnderTest, noHeldLayers } from '../../test/support/upstream-under-test';
import { UpstreamUnavailableError } from '../common/api-error';
import type { LonLatBox } from '../common/geo-point';
import { ResilientUpstream, UpstreamOutageError } from '../common/upstream/resilient-upstream';
import type { AppConfig } from '../config/app-config';
import { NfhlClient } from './nfhl.client';

const ZONE_FIELDS = ['FLD_ZONE', 'ZONE_SUBTY', 'SFHA_TF', 'STATIC_BFE', 'DEPTH', 'V_DATUM', 'LEN_UNIT'];
const PANEL_FIELDS = ['FIRM_PAN', 'PANEL', 'SUFFIX', 'EFF_DATE', 'PANEL_TYP'];
const ZONES = 28;
const PANELS = 3;

/** The envelope of a demo building's footprint. */
function envelopeOf(id: string): LonLatBox {
  const { xmin, ymin, xmax, ymax } = demoStructure(id).feature.bbox;
  return [xmin, ymin, xmax, ymax];
}

/** A polygon of `features` as the client returns it: the fields asked for, and its rings exactly as the map keeps them. */
function asReturned(features: MapFeature[], objectId: number, fields: string[]) {
  const [feature] = features.filter((f) => f.attributes.OBJECTID === objectId);
  return { attributes: Object.fromEntries(fields.map((field) => [field, feature.attributes[field]])), rings: feature.rings };
}

/** The query a footprint's layer is asked: exactly these parameters, neither maxAllowableOffset nor geometryPrecision. */
const envelopeQuery = (envelope: LonLatBox, fields: string[]) => ({
  geometry: envelope.join(','),
  geometryType: 'esriGeometryEnvelope',
  inSR: '4326',
  spatialRel: 'esriSpatialRelIntersects',
  outFields: fields.join(','),
  returnGeometry: 'true',
  outSR: '4326',
  f: 'json',
});

/**
 * The Menominee AE polygon (6430122) with every vertex 0.123 µ° (about 1 cm) east of the demo map's, at 9 decimals:
 * rounding to 6 decimals would move it back.
 */
const FINER_AE = ((): MapFeature => {
  const [ae] = DEMO_MAP.nfhl.floodHazardZones.filter((zone) => zone.attributes.OBJECTID === 6430122);
  const rings = (ae.rings as Ring[]).map((ring) => ring.map(([lon, lat]): [number, number] => [Number((lon + 0.000000123).toFixed(9)), lat]));
  return { ...ae, rings, bbox: bboxOfRings(rings) };
})();
const FINER_MAP = {
  ...DEMO_MAP,
  nfhl: { ...DEMO_MAP.nfhl, floodHazardZones: DEMO_MAP.nfhl.floodHazardZones.map((zone) => (zone.attributes.OBJECTID === 6430122 ? FINER_AE : zone)) },
};

describe("NfhlClient.footprintLayers: the zones and panels over a footprint's envelope, with exact geometry", () => {
  let nfhl: NfhlMapServerEmulator;
  const straddling = envelopeOf('menominee-straddles-ae-x');

  beforeAll(async () => {
    nfhl = await NfhlMapServerEmulator.start({ map: FINER_MAP });
  });
  afterAll(async () => {
    await nfhl.close();
  });
  beforeEach(() => {
    nfhl.clearFaults();
    nfhl.resetCalls();
    nfhl.maxRecordCount = DEFAULT_MAX_RECORD_COUNT;
  });

  function client(upstream: ResilientUpstream = upstreamUnderTest('flood_data')) {
    const config = new ConfigService<AppConfig, true>({ NFHL_BASE_URL: nfhl.baseUrl });
    return new NfhlClient(new HttpService(axios.create()), upstream, config, noHeldLayers());
  }
  const deadline = (ms = 10_000) => AbortSignal.timeout(ms);
  const asked = (layerId: number) => nfhl.callsMatching({ endpoint: 'query', layerId });

  it('asks layers 28 and 3 for every polygon intersecting the envelope, with every vertex as FEMA keeps it', async () => {
    const layers = await client().footprintLayers(straddling, deadline());
    expect(layers).toEqual({
      // X shaded, and the AE whose west edge crosses the house; not the VE 43 m away
      zones: [asReturned(FINER_MAP.nfhl.floodHazardZones, 6430121, ZONE_FIELDS), asReturned(FINER_MAP.nfhl.floodHazardZones, 6430122, ZONE_FIELDS)],
      panels: [asReturned(FINER_MAP.nfhl.firmPanels, 81004, PANEL_FIELDS)],
    });
    expect(layers.zones.map((zone) => zone.attributes.FLD_ZONE)).toEqual(['X', 'AE']);
    expect(layers.panels.map((panel) => panel.attributes.FIRM_PAN)).toEqual(['26109C0263D']);
    // the 9 decimals came back whole
    expect(layers.zones[1].rings[0][0][0]).toBe(FINER_AE.rings?.[0][0][0]);
    expect(String(layers.zones[1].rings[0][0][0]).split('.')[1]).toHaveLength(9);
    expect(asked(ZONES).map((call) => call.query)).toEqual([envelopeQuery(straddling, ZONE_FIELDS)]);
    expect(asked(PANELS).map((call) => call.query)).toEqual([envelopeQuery(straddling, PANEL_FIELDS)]);
    expect(asked(ZONES)[0].query).not.toHaveProperty('geometryPrecision');
    expect(asked(ZONES)[0].query).not.toHaveProperty('maxAllowableOffset');
  });

  it('where the nearby part, asking for 6 decimals and a 1 m generalisation, gets the same polygon rounded', async () => {
    const [lon, lat] = FINER_AE.rings?.[0][0] as [number, number];
    const near = await client().zonePolygonsNear({ lat, lon }, 10, deadline());
    const ae = near.filter((zone) => zone.attributes.FLD_ZONE === 'AE');
    expect(ae).toHaveLength(1);
    expect(ae[0].rings.flat().every(([x]) => Number(x.toFixed(6)) === x)).toBe(true);
    expect(asked(ZONES)[0].query).toMatchObject({ geometryPrecision: '6', maxAllowableOffset: '0.00001' });
  });

  it('reads every page of both layers while the answer exceeds the transfer limit', async () => {
    nfhl.maxRecordCount = 1;
    const layers = await client().footprintLayers(straddling, deadline());
    expect(layers.zones.map((zone) => zone.attributes.FLD_ZONE)).toEqual(['X', 'AE']);
    expect(layers.panels).toHaveLength(1);
    expect(asked(ZONES).map((call) => call.query.resultOffset)).toEqual([undefined, '1']);
    expect(asked(PANELS).map((call) => call.query.resultOffset)).toEqual([undefined]);
  });

  it('answers no polygon off the map', async () => {
    expect(await client().footprintLayers([-100.0002, 40, -100, 40.0002], deadline())).toEqual({ zones: [], panels: [] });
  });

  it('asks both layers at once: the panels are asked while the zones have not answered', async () => {
    nfhl.injectFault({ kind: 'delay', ms: 5000, match: 'Flood Hazard Zones' });
    const failure = client().footprintLayers(straddling, deadline(500));
    await expect(failure).rejects.toMatchObject({ upstream: 'flood_data', reason: 'no answer within the lookup deadline' });
    expect([asked(ZONES).length, asked(PANELS).length]).toEqual([1, 1]);
    expect(asked(PANELS)[0].answered).toBe(true);
    expect(asked(ZONES)[0].answered).toBeUndefined();
  });

  it('fails as a whole when either layer fails: a 400 ArcGIS error at once, an outage after its retry', async () => {
    nfhl.injectFault({ kind: 'arcgis-error', code: 400, match: 'FIRM Panels' });
    await expect(client().footprintLayers(straddling, deadline())).rejects.toMatchObject({
      upstream: 'flood_data',
      reason: 'ArcGIS error 400: Error performing query operation',
    });
    expect(asked(PANELS)).toHaveLength(1);
    nfhl.clearFaults();
    nfhl.resetCalls();
    nfhl.injectFault({ kind: 'http-status', status: 503, match: 'Flood Hazard Zones' });
    const outage = client().footprintLayers(straddling, deadline());
    await expect(outage).rejects.toBeInstanceOf(UpstreamOutageError);
    await expect(outage).rejects.toMatchObject({ upstream: 'flood_data', reason: 'HTTP 503' });
    expect(asked(ZONES)).toHaveLength(2);
  });

  it('fails on a polygon without rings, at this footprint only', async () => {
    nfhl.injectFault({
      kind: 'http-status',
      status: 200,
      body: { features: [{ attributes: { FLD_ZONE: 'AE' }, geometry: { paths: [] } }] },
      match: 'Flood Hazard Zones',
    });
    const failure = client().footprintLayers(straddling, deadline());
    await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(failure).rejects.not.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'flood_data', reason: 'rings: a feature without rings' });
  });

  it("is this part's failure alone: its outages never open the flood data circuit, which still refuses it while open", async () => {
    const breaker = { retries: 0, breakerMinCalls: 2, breakerFailureRate: 50 };
    const alone = upstreamUnderTest('flood_data', breaker);
    nfhl.injectFault({ kind: 'http-status', status: 503, match: 'Flood Hazard Zones' });
    for (let i = 0; i < 3; i += 1) await expect(client(alone).footprintLayers(straddling, deadline())).rejects.toBeInstanceOf(UpstreamOutageError);
    expect(alone.circuitStates).toEqual([['flood_data', 'closed']]);
    // point lookups failing as outages open it; the footprint's layers are then refused without a call
    const opened = upstreamUnderTest('flood_data', breaker);
    const [lon, lat] = FINER_AE.rings?.[0][0] as [number, number];
    for (let i = 0; i < 2; i += 1) {
      const lookup = client(opened).pointData({ lat, lon }, deadline(), () => false, { kept: (_part, load) => load(() => undefined) });
      await expect(lookup).rejects.toBeInstanceOf(UpstreamOutageError);
    }
    expect(opened.circuitStates).toEqual([['flood_data', 'open']]);
    nfhl.clearFaults();
    const calls = nfhl.callCount();
    await expect(client(opened).footprintLayers(straddling, deadline())).rejects.toMatchObject({
      upstream: 'flood_data',
      reason: 'circuit open after an outage; not called',
    });
    expect(nfhl.callCount()).toBe(calls);
  });
});

describe('NfhlClient.footprintSurroundings: the communities, LOMRs and LOMAs around a footprint, each failing alone', () => {
  let nfhl: NfhlMapServerEmulator;
  // A 20 m square 200 m east of the White House: in DC, inside the 600 m LOMR square and outside the 250 m one.
  const dc = { lat: 38.898754, lon: -77.03535 };
  const dLon = 200 / (111_320 * Math.cos((dc.lat * Math.PI) / 180));
  const half = 0.00009;
  const envelope: LonLatBox = [dc.lon + dLon - half, dc.lat - half, dc.lon + dLon + half, dc.lat + half];
  const lomaBox: LonLatBox = [-95.4306, 29.6995, -95.4294, 29.7005];
  const JURISDICTION_FIELDS = ['POL_NAME1', 'CID'];
  const LOMR_FIELDS = ['CASE_NO', 'EFF_DATE', 'STATUS'];
  const [JURISDICTIONS, LOMRS, LOMAS] = [22, 1, 34];

  beforeAll(async () => {
    nfhl = await NfhlMapServerEmulator.start({ map: DEMO_MAP });
  });
  afterAll(async () => {
    await nfhl.close();
  });
  beforeEach(() => {
    nfhl.clearFaults();
    nfhl.resetCalls();
  });

  const client = () =>
    new NfhlClient(
      new HttpService(axios.create()),
      upstreamUnderTest('flood_data'),
      new ConfigService<AppConfig, true>({ NFHL_BASE_URL: nfhl.baseUrl }),
      noHeldLayers(),
    );
  const deadline = () => AbortSignal.timeout(10_000);
  const asked = (layerId: number) => nfhl.callsMatching({ endpoint: 'query', layerId });
  const lomrIds = () => DEMO_MAP.nfhl.lomrs.filter((lomr) => lomr.attributes.CASE_NO === '12-03-0456P').map((lomr) => Number(lomr.attributes.OBJECTID));

  it('asks layers 22 and 1 for every polygon intersecting the envelope, with every vertex as FEMA keeps it; no LOMA without a box for them', async () => {
    const around = await client().footprintSurroundings(envelope, null, deadline());
    expect(around.jurisdictions?.map((jurisdiction) => jurisdiction.attributes)).toEqual([{ POL_NAME1: 'District of Columbia', CID: '110001' }]);
    const [dcArea] = DEMO_MAP.nfhl.politicalJurisdictions.filter((jurisdiction) => jurisdiction.attributes.CID === '110001');
    expect(around.jurisdictions?.[0].rings).toEqual(dcArea.rings);
    // the 600 m LOMR (its superseded 400 m neighbour too: the form keeps the effective ones), not the 250 m one
    expect(around.lomrs?.map((lomr) => lomr.attributes.CASE_NO).sort()).toEqual(['08-03-0789P', '12-03-0456P']);
    expect(around.lomrs?.find((lomr) => lomr.attributes.CASE_NO === '12-03-0456P')).toEqual(asReturned(DEMO_MAP.nfhl.lomrs, lomrIds()[0], LOMR_FIELDS));
    expect(around).not.toHaveProperty('lomas');
    expect(asked(JURISDICTIONS).map((call) => call.query)).toEqual([envelopeQuery(envelope, JURISDICTION_FIELDS)]);
    expect(asked(LOMRS).map((call) => call.query)).toEqual([envelopeQuery(envelope, LOMR_FIELDS)]);
    expect(asked(LOMAS)).toEqual([]);
  });

  it('asks the LOMAs within the box given, each with its place', async () => {
    const { lomas } = await client().footprintSurroundings(envelope, lomaBox, deadline());
    expect(lomas?.map((loma) => loma.attributes.CASENUMBER)).toEqual(expect.arrayContaining(['15-06-1489A']));
    expect(lomas?.every((loma) => loma.lon >= lomaBox[0] && loma.lon <= lomaBox[2] && loma.lat >= lomaBox[1] && loma.lat <= lomaBox[3])).toBe(true);
    expect(asked(LOMAS).map((call) => call.query)).toEqual([
      { ...envelopeQuery(lomaBox, ['CASENUMBER', 'DATEENDED', 'OUTCOME', 'REVAL_STAT', 'PROJECTCATEGORY', 'LAT', 'LON']), geometryPrecision: '6' },
    ]);
  });

  it.each([
    ['the communities', 'Political Jurisdictions', { jurisdictions: null }],
    ['the LOMRs', 'LOMRs', { lomrs: null }],
    ['the LOMAs', 'LOMAs', { lomas: null }],
  ])('%s failing: null, the others answered', async (_what, layer, failed) => {
    nfhl.injectFault({ kind: 'http-status', status: 503, match: layer });
    const around = await client().footprintSurroundings(envelope, lomaBox, deadline());
    expect(around).toMatchObject(failed);
    const answered = (['jurisdictions', 'lomrs', 'lomas'] as const).filter((key) => !(key in failed));
    for (const key of answered) expect(around[key]).not.toBeNull();
  });
});
