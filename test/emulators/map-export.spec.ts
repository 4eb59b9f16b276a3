import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { NfhlMapServerEmulator } from './arcgis-emulator';
import { BASEMAP_COLORS, BasemapEmulator } from './basemap-emulator';
import { DemoPlace, demoPlace } from './demo-map';
import { lonLatToWebMercator } from './geometry';
import type { DrawingInfo, Rgba } from './map-export';
import { startEmulators } from './offline';

type Json = Record<string, any>;

const FIXTURE = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'nfhl-layer-28-drawing-info.json'), 'utf8')) as DrawingInfo;
const uniqueValues = FIXTURE.renderer.type === 'uniqueValue' ? FIXTURE.renderer.uniqueValueInfos : [];

/** The colour a zone value (FLD_ZONE;ZONE_SUBTY) has in the recorded renderer. */
const rendererColor = (value: string): Rgba => {
  const info = uniqueValues.find((i) => i.value === value);
  if (!info?.symbol.color) throw new Error(`the renderer lists no ${value}`);
  return info.symbol.color;
};
/** On a transparent picture a zone keeps its RGB; the layer's 70 % transparency leaves alpha round(255 * 0.3). */
const IN_TRANSPARENT_PICTURE = (rgb: Rgba): Rgba => [rgb[0], rgb[1], rgb[2], 77];
const CLEAR: Rgba = [0, 0, 0, 0];

/** A view of `spanM` Web Mercator metres across, centred on the place, as the service asks for it. */
function viewAround(p: { lat: number; lon: number }, width = 800, height = 600, spanM = 1000) {
  const [x, y] = lonLatToWebMercator(p.lon, p.lat);
  const halfX = spanM / 2;
  const halfY = (spanM * height) / width / 2;
  const bbox = [x - halfX, y - halfY, x + halfX, y + halfY];
  return { bbox, width, height };
}

type View = ReturnType<typeof viewAround>;

/** The pixel [column, row] of a lon/lat in the view (the projection the export must use). */
function pixelAt(view: View, lon: number, lat: number): [number, number] {
  const [x, y] = lonLatToWebMercator(lon, lat);
  const [xmin, ymin, xmax, ymax] = view.bbox;
  return [Math.floor(((x - xmin) / (xmax - xmin)) * view.width), Math.floor(((ymax - y) / (ymax - ymin)) * view.height)];
}

const exportQuery = (view: View, extra: Record<string, string> = {}) =>
  new URLSearchParams({
    bbox: view.bbox.join(','),
    bboxSR: '3857',
    imageSR: '3857',
    size: `${view.width},${view.height}`,
    format: 'png32',
    transparent: 'true',
    layers: 'show:28',
    dpi: '96',
    f: 'image',
    ...extra,
  }).toString();

interface Decoded {
  width: number;
  height: number;
  channels: number;
  at(x: number, y: number): Rgba;
  /** Every distinct RGBA in the picture. */
  colors(): Set<string>;
}

async function decode(png: Buffer): Promise<Decoded> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    channels: info.channels,
    at: (x, y) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x + 1) * info.channels)] as Rgba,
    colors() {
      const seen = new Set<string>();
      for (let i = 0; i < data.length; i += info.channels) seen.add(data.subarray(i, i + info.channels).join(','));
      return seen;
    },
  };
}

async function picture(url: string): Promise<{ status: number; contentType: string | null; body: Buffer }> {
  const response = await fetch(url);
  return { status: response.status, contentType: response.headers.get('content-type'), body: Buffer.from(await response.arrayBuffer()) };
}

describe('NFHL export: the flood zones as a PNG', () => {
  let nfhl: NfhlMapServerEmulator;
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

  const zonesAt = async (p: DemoPlace, width = 800, height = 600, extra: Record<string, string> = {}) => {
    const view = viewAround(p, width, height);
    const answer = await picture(`${nfhl.exportUrl}?${exportQuery(view, extra)}`);
    expect([answer.status, answer.contentType]).toEqual([200, 'image/png']);
    return { view, image: await decode(answer.body) };
  };

  it('keeps the recorded renderer: FLD_ZONE;ZONE_SUBTY, no default symbol, 70 % transparency, the real colours', () => {
    expect(FIXTURE.renderer).toMatchObject({ type: 'uniqueValue', field1: 'FLD_ZONE', field2: 'ZONE_SUBTY', fieldDelimiter: ';' });
    expect('defaultSymbol' in FIXTURE.renderer).toBe(false);
    expect(FIXTURE.transparency).toBe(70);
    expect(uniqueValues).toHaveLength(106);
    const byLabel = new Map<string, Set<string>>();
    for (const { label, symbol } of uniqueValues) {
      byLabel.set(
        label,
        (byLabel.get(label) ?? new Set()).add(`${symbol.style} ${JSON.stringify(symbol.color)} ${JSON.stringify(symbol.outline?.color ?? null)}`),
      );
    }
    expect(Object.fromEntries([...byLabel].map(([label, symbols]) => [label, [...symbols]]))).toEqual({
      '1% Annual Chance Flood Hazard': ['esriSFSSolid [0,230,255,255] null'],
      'Regulatory Floodway ': ['esriSFSBackwardDiagonal [255,0,0,255] null'],
      'Special Floodway': ['esriSFSSolid [255,0,0,255] null'],
      'Area of Undetermined Flood Hazard': ['esriSFSSolid [242,230,115,255] null'],
      '0.2% Annual Chance Flood Hazard': ['esriSFSSolid [255,128,0,255] null'],
      'Future Conditions 1% Annual Chance Flood Hazard': ['esriSFSSolid [0,0,0,255] [110,110,110,255]'],
      'Area with Reduced Risk Due to Levee': ['esriSFSSolid [0,0,0,255] [110,110,110,255]'],
      'Area with Risk Due to Levee': ['esriSFSBackwardDiagonal [0,0,0,255] null'],
    });
  });

  it('answers a PNG of exactly the size asked, the AE zone at the White House in the renderer colour, clear outside it', async () => {
    const dc = demoPlace('dc-white-house-ae');
    const { view, image } = await zonesAt(dc, 640, 480);
    expect([image.width, image.height, image.channels]).toEqual([640, 480, 4]);
    expect(image.at(...pixelAt(view, dc.lon, dc.lat))).toEqual([0, 230, 255, 77]);
    expect(image.at(...pixelAt(view, dc.lon, dc.lat))).toEqual(IN_TRANSPARENT_PICTURE(rendererColor('AE;<Null>')));
    // the zone is a 300 m square; 1000 m of view leave its corners clear
    expect([image.at(0, 0), image.at(639, 479), image.at(5, 240)]).toEqual([CLEAR, CLEAR, CLEAR]);
    expect(nfhl.callsMatching({ endpoint: 'export' }).map((c) => c.path)).toEqual(['/arcgis/rest/services/public/NFHL/MapServer/export']);
  });

  it.each([
    ['houston-ah', 'AH;<Null>'],
    ['houston-ao', 'AO;<Null>'],
    ['houston-a', 'A;<Null>'],
    ['houston-x-shaded', 'X;0.2 PCT ANNUAL CHANCE FLOOD HAZARD'],
    ['sacramento-ar', 'AR;<Null>'],
    ['sacramento-a99', 'A99;<Null>'],
    ['sacramento-x-levee', 'X;AREA WITH REDUCED FLOOD RISK DUE TO LEVEE'],
    ['sacramento-d', 'D;<Null>'],
    ['menominee-ve', 'VE;COASTAL FLOODPLAIN'],
    ['menominee-v', 'V;<Null>'],
  ])('draws %s with the symbol of %s', async (id, value) => {
    const p = demoPlace(id);
    const { view, image } = await zonesAt(p);
    expect(image.at(...pixelAt(view, p.lon, p.lat))).toEqual(IN_TRANSPARENT_PICTURE(rendererColor(value)));
  });

  it('leaves the values the renderer does not list undrawn: X minimal, X with a null or blank subtype, open water', async () => {
    for (const id of ['houston-x-unshaded', 'houston-x-null-subtype', 'houston-x-blank-subtype', 'houston-open-water', 'houston-gap']) {
      const p = demoPlace(id);
      const { view, image } = await zonesAt(p, 200, 200);
      expect([id, image.at(...pixelAt(view, p.lon, p.lat))]).toEqual([id, CLEAR]);
    }
  });

  it('hatches a floodway: red lines at its pixels, clear between them', async () => {
    const p = demoPlace('houston-ae-floodway');
    const { view, image } = await zonesAt(p);
    const [cx, cy] = pixelAt(view, p.lon, p.lat);
    const counts = new Map<string, number>();
    for (let y = cy - 40; y < cy + 40; y++) {
      for (let x = cx - 40; x < cx + 40; x++) counts.set(image.at(x, y).join(','), (counts.get(image.at(x, y).join(',')) ?? 0) + 1);
    }
    // 2-pixel lines every 8 pixels: a quarter of the square
    expect(Object.fromEntries(counts)).toEqual({ '255,0,0,77': 1600, '0,0,0,0': 4800 });
  });

  it('outlines the levee area in the renderer grey', async () => {
    const p = demoPlace('sacramento-x-levee');
    const { view, image } = await zonesAt(p);
    const [cx, cy] = pixelAt(view, p.lon, p.lat);
    let x = cx;
    while (image.at(x, cy)[3] !== 0) x += 1;
    expect([image.at(x - 1, cy), image.at(x - 2, cy)]).toEqual([
      [110, 110, 110, 77],
      [0, 0, 0, 77],
    ]);
  });

  it('with transparent=false draws on white, the zone blended at its 70 % transparency', async () => {
    const dc = demoPlace('dc-white-house-ae');
    const { view, image } = await zonesAt(dc, 300, 300, { transparent: 'false' });
    expect(image.at(...pixelAt(view, dc.lon, dc.lat))).toEqual([178, 247, 255, 255]);
    expect(image.at(0, 0)).toEqual([255, 255, 255, 255]);
  });

  it('far from every zone the picture is entirely clear', async () => {
    const { image } = await zonesAt(demoPlace('outside-us-atlantic'), 400, 300);
    expect([...image.colors()]).toEqual(['0,0,0,0']);
  });

  it('draws only the layers asked: show:28 and the default draw the zones, show:16 and hide:28 do not', async () => {
    const dc = demoPlace('dc-white-house-ae');
    const at = async (extra: Record<string, string>) => {
      const { view, image } = await zonesAt(dc, 200, 200, extra);
      return image.at(...pixelAt(view, dc.lon, dc.lat));
    };
    expect(await at({ layers: 'show:28' })).toEqual([0, 230, 255, 77]);
    expect(await at({ layers: '' })).toEqual([0, 230, 255, 77]);
    expect(await at({ layers: 'include:16' })).toEqual([0, 230, 255, 77]);
    expect(await at({ layers: 'show:16' })).toEqual(CLEAR);
    expect(await at({ layers: 'hide:28' })).toEqual(CLEAR);
  });

  it('draws nothing beyond the layer minScale of 1:36,112, as the real service', async () => {
    const dc = demoPlace('dc-white-house-ae');
    // 20 km over 200 pixels is 100 m a pixel: about 1:378,000
    const view = viewAround(dc, 200, 200, 20_000);
    const description = (await (await fetch(`${nfhl.exportUrl}?${exportQuery(view, { f: 'json' })}`)).json()) as Json;
    expect(description.scale).toBeCloseTo((100 / 0.0254) * 96, 3);
    const image = await decode((await picture(`${nfhl.exportUrl}?${exportQuery(view)}`)).body);
    expect([...image.colors()]).toEqual(['0,0,0,0']);
  });

  it('f=json: href, size, the extent grown to the picture shape in Web Mercator, and the scale', async () => {
    const dc = demoPlace('dc-white-house-ae');
    const square = viewAround(dc, 400, 400, 1000);
    const wide = { ...square, width: 800 };
    const description = (await (await fetch(`${nfhl.exportUrl}?${exportQuery(wide, { f: 'json' })}`)).json()) as Json;
    const [xmin, ymin, xmax, ymax] = square.bbox;
    expect(description).toEqual({
      href: expect.stringMatching(/\/arcgis\/rest\/services\/public\/NFHL\/MapServer\/export\?.*f=image/),
      width: 800,
      height: 400,
      extent: { xmin: expect.closeTo(xmin - 500, 6), ymin, xmax: expect.closeTo(xmax + 500, 6), ymax, spatialReference: { wkid: 102100, latestWkid: 3857 } },
      scale: expect.closeTo((2.5 / 0.0254) * 96, 6),
    });
    const linked = await picture(description.href as string);
    expect([linked.status, linked.contentType]).toEqual([200, 'image/png']);
    const image = await decode(linked.body);
    // the place stays at the centre of the grown picture
    expect([image.width, image.height, image.at(400, 200)]).toEqual([800, 400, [0, 230, 255, 77]]);
  });

  it('reads a bbox in lon/lat (bboxSR=4326) as the same ground', async () => {
    const dc = demoPlace('dc-white-house-ae');
    const d = 0.004;
    const params = {
      bbox: [dc.lon - d, dc.lat - d, dc.lon + d, dc.lat + d].join(','),
      bboxSR: '4326',
      imageSR: '3857',
      size: '300,300',
      transparent: 'true',
      f: 'json',
    };
    const description = (await (await fetch(`${nfhl.exportUrl}?${new URLSearchParams(params).toString()}`)).json()) as Json;
    // taller than wide in Web Mercator: the latitudes bound it, the width grows around the place
    const [x, y0] = lonLatToWebMercator(dc.lon, dc.lat - d);
    const [, y1] = lonLatToWebMercator(dc.lon, dc.lat + d);
    expect(description.extent).toEqual({
      xmin: expect.closeTo(x - (y1 - y0) / 2, 6),
      ymin: expect.closeTo(y0, 6),
      xmax: expect.closeTo(x + (y1 - y0) / 2, 6),
      ymax: expect.closeTo(y1, 6),
      spatialReference: { wkid: 102100, latestWkid: 3857 },
    });
    const image = await decode((await picture(`${nfhl.exportUrl}?${new URLSearchParams({ ...params, f: 'image' }).toString()}`)).body);
    expect(image.at(150, 150)).toEqual([0, 230, 255, 77]);
  });

  it('answers bad parameters with the ArcGIS error in HTTP 200, and an HTML form without f', async () => {
    const view = viewAround(demoPlace('dc-white-house-ae'));
    const error = async (query: string) => {
      const response = await fetch(`${nfhl.exportUrl}?${query}`);
      return [response.status, response.headers.get('content-type'), await response.json()];
    };
    const invalid = (detail: string) => [
      200,
      'application/json;charset=UTF-8',
      { error: { code: 400, message: 'Invalid or missing input parameters.', details: [detail] } },
    ];
    expect(await error('size=800,600&f=image')).toEqual(invalid("'bbox' parameter is missing"));
    expect(await error(exportQuery(view, { bbox: '1,2,3' }))).toEqual(invalid("'bbox' parameter is invalid"));
    expect(await error(exportQuery(view, { bbox: '3,2,1,4' }))).toEqual(invalid("'bbox' parameter is invalid"));
    const badSize = invalid("'size' parameter is invalid: width and height are whole numbers from 1 to 4096 x 4096");
    for (const size of ['0,600', '800,4097', '800', '800.5,600']) expect(await error(exportQuery(view, { size }))).toEqual(badSize);
    expect(await error(exportQuery(view, { bboxSR: '2263' }))).toEqual(invalid("'bboxSR' parameter is invalid"));
    const page = await fetch(`${nfhl.exportUrl}?${exportQuery(view, { f: '' })}`);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html;charset=UTF-8']);
    expect(await page.text()).toContain('Export Map');
  });

  it('serves the recorded drawingInfo in the layer-28 metadata, without labels or the source note', async () => {
    const meta = (await (await fetch(`${nfhl.baseUrl}/28?f=json`)).json()) as Json;
    expect(meta.drawingInfo.renderer.uniqueValueInfos).toHaveLength(106);
    expect(meta.drawingInfo.transparency).toBe(70);
    expect(meta.drawingInfo.labelingInfo).toBeUndefined();
    expect(meta.drawingInfo._excerpt_note).toBeUndefined();
  });

  it('draws the zones layer wherever it has been moved', async () => {
    const moved = await NfhlMapServerEmulator.start({ layerIds: { floodHazardZones: 30 } });
    try {
      const dc = demoPlace('dc-white-house-ae');
      const view = viewAround(dc, 200, 200);
      const at = async (layers: string) =>
        (await decode((await picture(`${moved.exportUrl}?${exportQuery(view, { layers })}`)).body)).at(...pixelAt(view, dc.lon, dc.lat));
      expect([await at('show:30'), await at('show:28')]).toEqual([[0, 230, 255, 77], CLEAR]);
    } finally {
      await moved.close();
    }
  });

  describe('faults apply to export calls', () => {
    const view = viewAround(demoPlace('dc-white-house-ae'), 200, 200);
    const zones = () => fetch(`${nfhl.exportUrl}?${exportQuery(view)}`);

    it('http-status: the 5xx, logged as a faulted export call; queries stay untouched by match "export"', async () => {
      nfhl.injectFault({ kind: 'http-status', status: 503, match: 'export' });
      const response = await zones();
      expect([response.status, response.headers.get('content-type')]).toEqual([503, 'text/html;charset=UTF-8']);
      const dc = demoPlace('dc-white-house-ae');
      const query = await fetch(
        `${nfhl.queryUrl('floodHazardZones')}?geometry=${dc.lon},${dc.lat}&geometryType=esriGeometryPoint&inSR=4326&outFields=FLD_ZONE&f=json`,
      );
      expect(query.status).toBe(200);
      expect(nfhl.callsMatching({ endpoint: 'export' }).map((c) => c.fault)).toEqual(['http-status']);
      expect(nfhl.callCount({ endpoint: 'query' })).toBe(1);
    });

    it('reset: the connection is destroyed', async () => {
      nfhl.injectFault({ kind: 'reset', match: 'export', times: 1 });
      await expect(zones()).rejects.toThrow();
      expect((await zones()).status).toBe(200);
    });

    it('arcgis-error: the error envelope in HTTP 200 instead of the picture', async () => {
      nfhl.injectFault({ kind: 'arcgis-error', match: 'export', code: 500, message: 'Error exporting map' });
      const response = await zones();
      expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/json;charset=UTF-8']);
      expect(await response.json()).toEqual({ error: { code: 500, message: 'Error exporting map', details: [] } });
    });

    it('html and malformed-json: a page or broken JSON in HTTP 200', async () => {
      nfhl.injectFault({ kind: 'html', match: 'export', times: 1 });
      nfhl.injectFault({ kind: 'malformed-json', match: 'export', times: 1 });
      const page = await zones();
      expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html;charset=UTF-8']);
      await page.text();
      const broken = await zones();
      expect([broken.status, broken.headers.get('content-type')]).toEqual([200, 'application/json;charset=UTF-8']);
      await expect(broken.json()).rejects.toThrow();
    });

    it('a place fault matches the export centred there, not one elsewhere', async () => {
      const dc = demoPlace('dc-white-house-ae');
      nfhl.injectFault({ kind: 'http-status', status: 502, match: { near: [dc.lon, dc.lat], withinM: 50 } });
      expect((await zones()).status).toBe(502);
      const elsewhere = viewAround(demoPlace('houston-ah'), 200, 200);
      expect((await fetch(`${nfhl.exportUrl}?${exportQuery(elsewhere)}`)).status).toBe(200);
      expect(nfhl.callsMatching({ endpoint: 'export' }).map((c) => c.point?.map((v) => Number(v.toFixed(6))))).toEqual([
        [dc.lon, dc.lat],
        [demoPlace('houston-ah').lon, demoPlace('houston-ah').lat],
      ]);
    });
  });
});

describe('USGS basemap emulator', () => {
  let basemap: BasemapEmulator;
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

  const topoAt = async (p: { lat: number; lon: number }, width: number, height: number) => {
    const view = viewAround(p, width, height, 1200);
    const answer = await picture(`${basemap.exportUrl}?${exportQuery(view, { format: 'png', transparent: 'false', layers: '' })}`);
    expect([answer.status, answer.contentType]).toEqual([200, 'image/png']);
    return { view, image: await decode(answer.body) };
  };

  it('serves a short USGSTopo root document: a fused tile cache in Web Mercator', async () => {
    expect(basemap.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/arcgis\/rest\/services\/USGSTopo\/MapServer$/);
    const root = (await (await fetch(`${basemap.baseUrl}?f=json`)).json()) as Json;
    expect(root).toMatchObject({ singleFusedMapCache: true, spatialReference: { wkid: 102100, latestWkid: 3857 }, maxImageWidth: 4096, maxImageHeight: 4096 });
    expect(root.tileInfo.lods[0]).toEqual({ level: 0, resolution: 156543.03392800014, scale: 591657527.591555 });
  });

  it('exports an opaque picture of the size asked, in none of the NFHL renderer colours', async () => {
    const { image } = await topoAt(demoPlace('houston-ae-floodway'), 640, 360);
    expect([image.width, image.height]).toEqual([640, 360]);
    const colors = image.colors();
    expect([...colors].every((c) => c.endsWith(',255'))).toBe(true);
    const nfhlColors = new Set(uniqueValues.flatMap((i) => [i.symbol.color, i.symbol.outline?.color].filter(Boolean).map((c) => (c as Rgba).join(','))));
    expect([...colors].filter((c) => nfhlColors.has(c))).toEqual([]);
    expect([...colors].sort()).toEqual(
      Object.values(BASEMAP_COLORS)
        .map((c) => c.join(','))
        .sort(),
    );
  });

  it('draws a river through a floodway and land around the White House', async () => {
    const floodway = demoPlace('houston-ae-floodway');
    const river = await topoAt(floodway, 300, 300);
    expect(river.image.at(...pixelAt(river.view, floodway.lon, floodway.lat))).toEqual([...BASEMAP_COLORS.water]);
    const dc = demoPlace('dc-white-house-ae');
    const land = await topoAt(dc, 300, 300);
    expect(land.image.colors().has(BASEMAP_COLORS.land.join(','))).toBe(true);
    expect(land.image.colors().has(BASEMAP_COLORS.water.join(','))).toBe(false);
  });

  it('takes the faults of every emulator and logs its export calls', async () => {
    basemap.injectFault({ kind: 'http-status', status: 502, match: 'export', times: 1 });
    const view = viewAround(demoPlace('dc-white-house-ae'), 100, 100);
    expect((await fetch(`${basemap.exportUrl}?${exportQuery(view)}`)).status).toBe(502);
    expect((await fetch(`${basemap.exportUrl}?${exportQuery(view)}`)).status).toBe(200);
    expect(basemap.callsMatching({ endpoint: 'export' }).map((c) => c.fault ?? 'none')).toEqual(['http-status', 'none']);
  });
});

describe('startEmulators() and the basemap', () => {
  it('starts the basemap, names it in the environment and clears it with the others', async () => {
    const emulators = await startEmulators();
    try {
      expect(emulators.env.BASEMAP_BASE_URL).toBe(emulators.basemap.baseUrl);
      emulators.basemap.injectFault({ kind: 'reset' });
      await fetch(`${emulators.basemap.baseUrl}?f=json`).catch(() => undefined);
      expect([emulators.basemap.activeFaults.length, emulators.basemap.callCount()]).toEqual([1, 1]);
      emulators.clearFaults();
      emulators.resetCalls();
      expect([emulators.basemap.activeFaults.length, emulators.basemap.callCount()]).toEqual([0, 0]);
    } finally {
      await emulators.close();
    }
  });
});
