import { HttpService } from '@nestjs/axios';
import { ConfigService } from '@nestjs/config';
import axios from 'axios';
import { BASEMAP_COLORS, BasemapEmulator } from '../../test/emulators/basemap-emulator';
import { demoPlace } from '../../test/emulators/demo-map';
import { SOCKET_BUFFERS_BYTES, upstreamUnderTest } from '../../test/support/upstream-under-test';
import { UpstreamUnavailableError } from '../common/api-error';
import { UpstreamOutageError, UpstreamPolicyOptions } from '../common/upstream/resilient-upstream';
import { UPSTREAM_BY_NAME } from '../common/upstream/upstream-registry';
import type { AppConfig } from '../config/app-config';
import { BasemapClient } from './basemap.client';
import { mapExtentAround } from './map-area';

describe('BasemapClient against the USGS basemap emulator', () => {
  let basemap: BasemapEmulator;
  const dc = demoPlace('dc-white-house-ae');
  const extent = mapExtentAround(dc, { width: 400, height: 300, spanM: 600 });
  beforeAll(async () => {
    basemap = await BasemapEmulator.start();
  });
  afterAll(async () => {
    await basemap.close();
  });
  beforeEach(() => {
    basemap.clearFaults();
    basemap.resetCalls();
  });

  function client(policy: Partial<UpstreamPolicyOptions> = {}, baseUrl = basemap.baseUrl) {
    const config = new ConfigService<AppConfig, true>({ BASEMAP_BASE_URL: baseUrl });
    return new BasemapClient(new HttpService(axios.create()), upstreamUnderTest('basemap', policy), config);
  }
  const deadline = () => AbortSignal.timeout(10_000);

  it('exports the extent as a PNG of every default layer, decoded to the size asked, opaque', async () => {
    const image = await client().exportBasemap(extent, deadline());
    expect([image.width, image.height]).toEqual([400, 300]);
    const opaque = image.rgba.every((byte, i) => i % 4 !== 3 || byte === 255);
    expect(opaque).toBe(true);
    const known = new Set(Object.values(BASEMAP_COLORS).map((c) => c.join(',')));
    for (let i = 0; i < image.rgba.length; i += 4 * 997) expect(known.has([...image.rgba.subarray(i, i + 4)].join(','))).toBe(true);
    expect(basemap.callsMatching({ endpoint: 'export' }).map((call) => call.query)).toEqual([
      { bbox: extent.bbox.join(','), bboxSR: '3857', imageSR: '3857', size: '400,300', format: 'png', f: 'image' },
    ]);
  });

  it('accepts a base URL with a trailing slash', async () => {
    await client({}, `${basemap.baseUrl}/`).exportBasemap(extent, deadline());
    expect(basemap.callsMatching({ endpoint: 'export' })).toHaveLength(1);
  });

  it.each([
    ['a 5xx', { kind: 'http-status' as const, status: 503 }],
    ['an HTML page', { kind: 'html' as const }],
    ['a reset connection', { kind: 'reset' as const }],
  ])('fails as an outage of the basemap on %s, after its retry', async (_case, fault) => {
    basemap.injectFault(fault);
    const failure = client().exportBasemap(extent, deadline());
    await expect(failure).rejects.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'basemap' });
    expect(basemap.callCount({ endpoint: 'export' })).toBe(2);
  });

  it('fails on a JSON error answer, without a retry', async () => {
    basemap.injectFault({ kind: 'arcgis-error', code: 400 });
    const failure = client().exportBasemap(extent, deadline());
    await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(failure).rejects.toMatchObject({ upstream: 'basemap', reason: expect.stringMatching(/^export: ArcGIS error 400/) });
    expect(basemap.callCount({ endpoint: 'export' })).toBe(1);
  });

  it('fails on a PNG that never ends, read no further than its byte cap, without a retry', async () => {
    basemap.injectFault({ kind: 'endless-body' });
    // an attempt timeout long enough that only the cap can end the read, however busy the machine
    const failure = client({ timeoutMs: 50_000 }).exportBasemap(extent, AbortSignal.timeout(50_000));
    await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(failure).rejects.not.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'basemap', reason: `an answer over its cap of ${UPSTREAM_BY_NAME.basemap.bodyCapBytes} bytes` });
    await basemap.endlessBodiesStopped();
    expect(basemap.callCount({ endpoint: 'export' })).toBe(1);
    expect(basemap.calls[0].bodyBytes).toBeGreaterThan(UPSTREAM_BY_NAME.basemap.bodyCapBytes);
    expect(basemap.calls[0].bodyBytes).toBeLessThan(UPSTREAM_BY_NAME.basemap.bodyCapBytes + SOCKET_BUFFERS_BYTES);
  });

  it('fails as an outage when an attempt outlives its timeout', async () => {
    basemap.injectFault({ kind: 'delay', ms: 500 });
    const failure = client({ timeoutMs: 100, retries: 0 }).exportBasemap(extent, deadline());
    await expect(failure).rejects.toMatchObject({ upstream: 'basemap', reason: 'no answer within 100 ms' });
  });
});
