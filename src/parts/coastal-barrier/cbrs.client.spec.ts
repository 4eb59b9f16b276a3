import { HttpService } from '@nestjs/axios';
import { ConfigService } from '@nestjs/config';
import axios from 'axios';
import { ArcGisServiceEmulator } from '../../../test/emulators/arcgis-service-emulator';
import { DEMO_CBRS, demoPlace } from '../../../test/emulators/demo-map';
import { upstreamUnderTest } from '../../../test/support/upstream-under-test';
import type { LonLatBox } from '../../common/geo-point';
import type { AppConfig } from '../../config/app-config';
import { CbrsClient } from './cbrs.client';

/** A square `halfDeg` degrees either side of a demo place. */
function around(id: string, halfDeg: number): LonLatBox {
  const { lat, lon } = demoPlace(id);
  return [lon - halfDeg, lat - halfDeg, lon + halfDeg, lat + halfDeg];
}

describe("CbrsClient.coastalBarrierOver: the units and buffer zones over a footprint's envelope, with exact geometry", () => {
  let cbrs: ArcGisServiceEmulator;

  beforeAll(async () => {
    cbrs = await ArcGisServiceEmulator.start(DEMO_CBRS);
  });
  afterAll(async () => {
    await cbrs.close();
  });
  beforeEach(() => {
    cbrs.clearFaults();
    cbrs.resetCalls();
  });

  const client = () =>
    new CbrsClient(new HttpService(axios.create()), upstreamUnderTest('coastal_barrier'), new ConfigService<AppConfig, true>({ CBRS_BASE_URL: cbrs.baseUrl }));
  const deadline = () => AbortSignal.timeout(10_000);
  const asked = (layer: string) => cbrs.callsMatching({ endpoint: 'query', layerId: cbrs.layerId(layer) }).map((call) => call.query);
  const layerOf = (name: string) => DEMO_CBRS.layers.find((layer) => layer.name === name)!;

  it('asks the prohibitions and the buffer zone for every polygon intersecting the envelope, every vertex as the service keeps it', async () => {
    const envelope = around('fernandina-cbrs-opa', 0.0001);
    const over = await client().coastalBarrierOver(envelope, deadline());
    const [opa] = layerOf('CBRS Prohibitions').features.filter((feature) => feature.attributes.Unit === 'FL-64P');
    expect(over).toEqual({
      prohibitions: [{ attributes: { Unit: 'FL-64P', CBRS_Type: 'Otherwise Protected Area', FI_Date: '11/16/1990' }, rings: opa.rings }],
      buffers: [],
    });
    const query = {
      geometry: envelope.join(','),
      geometryType: 'esriGeometryEnvelope',
      inSR: '4326',
      spatialRel: 'esriSpatialRelIntersects',
      returnGeometry: 'true',
      outSR: '4326',
      f: 'json',
    };
    expect(asked('CBRS Prohibitions')).toEqual([{ ...query, outFields: 'Unit,CBRS_Type,FI_Date' }]);
    expect(asked('CBRS Buffer Zone')).toEqual([{ ...query, outFields: '*' }]);
  });

  it('a buffer zone over the envelope: its polygon, whole', async () => {
    const over = await client().coastalBarrierOver(around('fernandina-cbrs-buffer', 0.0001), deadline());
    expect(over.prohibitions).toEqual([]);
    expect(over.buffers).toEqual(layerOf('CBRS Buffer Zone').features.map((feature) => ({ rings: feature.rings })));
  });

  it('fails when either layer fails', async () => {
    cbrs.injectFault({ kind: 'http-status', status: 503, match: 'CBRS Buffer Zone' });
    await expect(client().coastalBarrierOver(around('fernandina-cbrs-opa', 0.0001), deadline())).rejects.toMatchObject({ upstream: 'coastal_barrier' });
  });
});
