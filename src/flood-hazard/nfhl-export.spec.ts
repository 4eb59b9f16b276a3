import { HttpService } from '@nestjs/axios';
import { ConfigService } from '@nestjs/config';
import axios from 'axios';
import sharp from 'sharp';
import { NfhlMapServerEmulator } from '../../test/emulators/arcgis-emulator';
import { demoPlace } from '../../test/emulators/demo-map';
import { upstreamUnderTest, noHeldLayers } from '../../test/support/upstream-under-test';
import { UpstreamUnavailableError } from '../common/api-error';
import { UpstreamOutageError, UpstreamPolicyOptions } from '../common/upstream/resilient-upstream';
import { UPSTREAM_BY_NAME } from '../common/upstream/upstream-registry';
import type { AppConfig } from '../config/app-config';
import { MapExtent, MapPixels, exportScale, sampledDown } from '../common/upstream/arcgis-map-server';
import { NfhlClient } from './nfhl.client';

const RADIUS = 6_378_137;
/** `spanM` Web Mercator metres across, centred on the place. */
function extentAround(place: { lat: number; lon: number }, width: number, height: number, spanM: number): MapExtent {
  const x = (RADIUS * place.lon * Math.PI) / 180;
  const y = RADIUS * Math.log(Math.tan(Math.PI / 4 + (place.lat * Math.PI) / 360));
  const half = spanM / 2;
  return { bbox: [x - half, y - (half * height) / width, x + half, y + (half * height) / width], width, height };
}

const pixel = (image: MapPixels, column: number, row: number) => [
  ...image.rgba.subarray((row * image.width + column) * 4, (row * image.width + column + 1) * 4),
];

describe('exportScale: the scale ArcGIS draws an extent at', () => {
  it.each([
    // 800 px across 800 Web Mercator metres: 1 m per pixel, 96 dpi
    [800, 800, 96, 3779.527559],
    [800, 6000, 96, 28346.456693],
    [200, 5000, 96, 94488.188976],
    [200, 5000, 72, 70866.141732],
  ])('%d px across %d m at %d dpi is 1:%d', (width, metres, dpi, scale) => {
    expect(exportScale({ bbox: [0, 0, metres, 100], width, height: 100 }, dpi)).toBeCloseTo(scale, 4);
  });
});

describe('sampledDown: a picture made smaller without mixing colours', () => {
  const RED = [255, 0, 0, 77];
  const CYAN = [0, 230, 255, 77];
  const CLEAR = [0, 0, 0, 0];
  function picture(width: number, height: number, paint: (x: number, y: number) => number[]): MapPixels {
    const rgba = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgba.set(paint(x, y), (y * width + x) * 4);
    return { width, height, rgba };
  }

  it('takes each block centre', () => {
    const small = sampledDown(
      picture(8, 4, (x) => (x < 4 ? CYAN : RED)),
      4,
    );
    expect([small.width, small.height]).toEqual([2, 1]);
    expect([pixel(small, 0, 0), pixel(small, 1, 0)]).toEqual([CYAN, RED]);
  });

  it('keeps a thin line: a block with a clear centre takes its first coloured pixel', () => {
    // FEMA's floodway hatch: 2-pixel diagonal lines every 8 pixels; the centres of 4-pixel blocks may all miss them
    const hatch = picture(16, 16, (x, y) => ((x - y + 64) % 8 < 2 ? RED : CLEAR));
    const small = sampledDown(hatch, 4);
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) expect(pixel(small, x, y)).toEqual(RED);
  });

  it('leaves a clear block clear', () => {
    expect(
      pixel(
        sampledDown(
          picture(3, 3, () => CLEAR),
          3,
        ),
        0,
        0,
      ),
    ).toEqual(CLEAR);
  });
});

describe("NfhlClient.exportFloodZones against the NFHL emulator's export", () => {
  let nfhl: NfhlMapServerEmulator;
  const dc = demoPlace('dc-white-house-ae');
  beforeAll(async () => {
    nfhl = await NfhlMapServerEmulator.start();
  });
  afterAll(async () => {
    await nfhl.close();
  });
  beforeEach(() => {
    nfhl.clearFaults();
    nfhl.resetCalls();
  });

  function client(policy: Partial<UpstreamPolicyOptions> = {}) {
    const config = new ConfigService<AppConfig, true>({ NFHL_BASE_URL: nfhl.baseUrl });
    return new NfhlClient(new HttpService(axios.create()), upstreamUnderTest('flood_data', policy), config, noHeldLayers());
  }
  const deadline = () => AbortSignal.timeout(10_000);
  const exportCalls = () => nfhl.callsMatching({ endpoint: 'export' });

  it('asks for layer 28 alone, transparent, at 96 dpi, in Web Mercator, and decodes the picture (the zone colour at the point)', async () => {
    const extent = extentAround(dc, 640, 480, 600);
    const image = await client().exportFloodZones(extent, deadline());
    expect([image.width, image.height, image.rgba.length]).toEqual([640, 480, 640 * 480 * 4]);
    // FEMA's export keeps the renderer's RGB and lowers alpha (the layer is 70% transparent)
    expect(pixel(image, 320, 240)).toEqual([0, 230, 255, 77]);
    expect(pixel(image, 0, 0)).toEqual([0, 0, 0, 0]);
    expect(exportCalls().map((call) => call.query)).toEqual([
      {
        bbox: extent.bbox.join(','),
        bboxSR: '3857',
        imageSR: '3857',
        size: '640,480',
        layers: 'show:28',
        format: 'png32',
        transparent: 'true',
        dpi: '96',
        f: 'image',
      },
    ]);
  });

  it('asks a picture coarser than the layer draws at (minScale 1:36,112) larger, and samples it down: the zones are there', async () => {
    // 5000 m across 200 px is 1:94,488: FEMA leaves the zones out of such a picture
    const extent = extentAround(dc, 200, 150, 5000);
    const image = await client().exportFloodZones(extent, deadline());
    expect([image.width, image.height]).toEqual([200, 150]);
    expect(exportCalls().map((call) => call.query.size)).toEqual(['600,450']);
    expect(pixel(image, 100, 75)).toEqual([0, 230, 255, 77]);
    // asked as it is, the same extent comes back empty
    const direct = await fetch(
      `${nfhl.exportUrl}?bbox=${extent.bbox.join(',')}&bboxSR=3857&imageSR=3857&size=200,150&format=png32&transparent=true&layers=show:28&dpi=96&f=image`,
    );
    const { data, info } = await sharp(Buffer.from(await direct.arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([200, 150, 4]);
    expect(data.every((byte) => byte === 0)).toBe(true);
  });

  it('never asks more than 4096 pixels a side', async () => {
    // 1:1,889,764 would call for 53 times the size: 2 times is FEMA's most for a side of 1500 px
    const extent = extentAround(dc, 1500, 200, 1_000_000);
    await client().exportFloodZones(extent, deadline());
    expect(exportCalls().map((call) => call.query.size)).toEqual(['3000,400']);
  });

  it.each([
    ['a 5xx', { kind: 'http-status' as const, status: 503 }],
    ['an HTML page in HTTP 200', { kind: 'html' as const }],
    ['a reset connection', { kind: 'reset' as const }],
    ['an ArcGIS 500 error in HTTP 200', { kind: 'arcgis-error' as const, code: 500 }],
  ])('fails as an outage on %s, after its retry', async (_case, fault) => {
    nfhl.injectFault({ ...fault, match: 'export' });
    // an attempt timeout long enough that only the fault can end it (a body read to its cap may be slow on a busy machine)
    const failure = client({ timeoutMs: 50_000 }).exportFloodZones(extentAround(dc, 200, 200, 600), AbortSignal.timeout(50_000));
    await expect(failure).rejects.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'flood_data' });
    expect(exportCalls()).toHaveLength(2);
  });

  it.each([
    ['an ArcGIS 400 error in HTTP 200', { kind: 'arcgis-error' as const, code: 400 }, 'export: ArcGIS error 400: '],
    ['a cut JSON answer', { kind: 'malformed-json' as const }, 'export: application/json;charset=UTF-8 instead of a PNG (HTTP 200)'],
    ['an empty JSON object', { kind: 'empty-object' as const }, 'export: application/json;charset=UTF-8 instead of a PNG (HTTP 200)'],
    [
      'a 404 page of text',
      { kind: 'http-status' as const, status: 404, body: 'Not Found', contentType: 'text/plain' },
      'export: text/plain instead of a PNG (HTTP 404)',
    ],
    ['a PNG that never ends', { kind: 'endless-body' as const }, `an answer over its cap of ${UPSTREAM_BY_NAME.flood_data.bodyCapBytes} bytes`],
  ])('fails at this extent only, without a retry, on %s', async (_case, fault, reason) => {
    nfhl.injectFault({ ...fault, match: 'export' });
    const failure = client().exportFloodZones(extentAround(dc, 200, 200, 600), deadline());
    await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(failure).rejects.not.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'flood_data', reason: expect.stringContaining(reason) });
    expect(exportCalls()).toHaveLength(1);
  });
});
