import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { MapPixels } from '../common/upstream/arcgis-map-server';
import { nfhlZoneSymbol } from '../flood-hazard/nfhl-symbols';
import { PictureFrame, pinPixel } from './map-area';
import { PLAIN_BACKGROUND, composePicture } from './map-composer';
import { PictureContent, pictureDecorations } from './map-drawing';
import { LegendEntry, captionSegments, mapLegend } from './map-legend';

const CYAN = [0, 230, 255] as const;
const BASEMAP_LAND = [242, 239, 233] as const;
/** The alpha of FEMA's zones on its own export: the layer is 70% transparent. */
const FEMA_ALPHA = 77;

function layer(width: number, height: number, paint: (x: number, y: number) => readonly number[]): MapPixels {
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgba.set(paint(x, y), (y * width + x) * 4);
  return { width, height, rgba };
}

/** Cyan (as FEMA's export gives it, 70% transparent) on the left half, clear on the right. */
const zonesLeftHalf = (frame: PictureFrame) => layer(frame.width, frame.height, (x) => (x < frame.width / 2 ? [...CYAN, FEMA_ALPHA] : [0, 0, 0, 0]));
const zonesEverywhere = (frame: PictureFrame) => layer(frame.width, frame.height, () => [...CYAN, FEMA_ALPHA]);
const land = (frame: PictureFrame) => layer(frame.width, frame.height, () => [...BASEMAP_LAND, 255]);

const LONG_LEGEND: LegendEntry[] = mapLegend({
  zonesAtPoint: [
    { floodZone: 'VE', zoneSubtype: 'COASTAL FLOODPLAIN' },
    { floodZone: 'AE', zoneSubtype: null },
    { floodZone: 'X', zoneSubtype: '0.2 PCT ANNUAL CHANCE FLOOD HAZARD' },
    { floodZone: 'X', zoneSubtype: 'AREA OF MINIMAL FLOOD HAZARD' },
    { floodZone: 'OPEN WATER', zoneSubtype: null },
  ],
  nearby: {
    radiusM: 300,
    sfha: { floodZone: 'A', zoneSubtype: null, distanceM: 20, staticBaseFloodElevationFt: null },
    floodway: { floodZone: 'AE', zoneSubtype: 'FLOODWAY', distanceM: 40, staticBaseFloodElevationFt: null },
    moderate: { floodZone: 'X', zoneSubtype: 'AREA WITH REDUCED FLOOD RISK DUE TO LEVEE', distanceM: 60, staticBaseFloodElevationFt: null },
  },
  structure: null,
});

function content(frame: PictureFrame, overrides: Partial<PictureContent> = {}): PictureContent {
  return {
    frame,
    caption: captionSegments({
      coverage: 'mapped',
      floodZone: 'AE',
      zoneSubtype: null,
      riskLevel: 'high',
      firmPanel: { panel: '51710C0035G', panelNumber: '0035', suffix: 'G', effectiveDate: '2009-12-16', panelType: null },
      structure: null,
      unavailable: [],
    }),
    place: '7400 BUFFALO SPEEDWAY, HOUSTON, TX, 77025',
    legend: LONG_LEGEND,
    pointZone: nfhlZoneSymbol('AE', null),
    basemapShown: true,
    buildingOutline: [],
    footprintCredit: null,
    ...overrides,
  };
}

async function pixelsOf(png: Buffer) {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (column: number, row: number) => [...data.subarray((row * info.width + column) * info.channels, (row * info.width + column) * info.channels + 3)];
  return { info, at };
}

describe('composePicture', () => {
  it.each([
    [800, 600],
    [201, 199],
    [200, 200],
    [1600, 1600],
    [1600, 200],
  ])('%dx%d: a PNG of that size; FEMA colours whole over the basemap, the basemap elsewhere; the words never cover the point', async (width, height) => {
    const frame = { width, height, spanM: 600 };
    const png = await composePicture(zonesLeftHalf(frame), land(frame), content(frame));
    const { info, at } = await pixelsOf(png);
    expect({ format: info.format, width: info.width, height: info.height, channels: info.channels }).toEqual({ format: 'raw', width, height, channels: 3 });
    expect((await sharp(png).metadata()).format).toBe('png');
    const { column, row } = pinPixel(frame);
    // outside the ring: the zone (left) and the basemap (right), as FEMA and the basemap drew them
    expect([at(column - 20, row), at(column + 20, row)]).toEqual([[...CYAN], [...BASEMAP_LAND]]);
  });

  /** The pixels within 4 px of the point, inside the ring. */
  function nearPoint(frame: PictureFrame, at: (column: number, row: number) => number[]): string[] {
    const { column, row } = pinPixel(frame);
    const pixels: string[] = [];
    for (let dy = -4; dy <= 4; dy++) for (let dx = -4; dx <= 4; dx++) if (dx * dx + dy * dy <= 16) pixels.push(at(column + dx, row + dy).join());
    return pixels;
  }

  it.each([
    [800, 600],
    [201, 199],
  ])('%dx%d: on a seam, inside the ring is the zone the answer names at the point, whichever side FEMA drew it on', async (width, height) => {
    const frame = { width, height, spanM: 600 };
    // the answer's zone: the AE left of the point, though the pixel of the point is right of it
    const onAe = await pixelsOf(await composePicture(zonesLeftHalf(frame), land(frame), content(frame)));
    expect(new Set(nearPoint(frame, onAe.at))).toEqual(new Set([CYAN.join()]));
    // no zone drawn at the point (unshaded X): the basemap, though FEMA coloured half of it
    const clear = await pixelsOf(await composePicture(zonesLeftHalf(frame), land(frame), content(frame, { pointZone: null })));
    expect(new Set(nearPoint(frame, clear.at))).toEqual(new Set([BASEMAP_LAND.join()]));
    // and on the plain background without the basemap
    const plain = await pixelsOf(await composePicture(zonesLeftHalf(frame), null, content(frame, { pointZone: null, basemapShown: false })));
    expect(new Set(nearPoint(frame, plain.at))).toEqual(new Set([PLAIN_BACKGROUND.join()]));
  });

  it.each([
    [800, 600],
    [201, 199],
  ])('%dx%d: a floodway at the point is hatched as FEMA hatches it, a red line through the pixel of the point', async (width, height) => {
    const frame = { width, height, spanM: 600 };
    const floodway = nfhlZoneSymbol('AE', 'FLOODWAY')!;
    const { at } = await pixelsOf(await composePicture(zonesEverywhere(frame), land(frame), content(frame, { pointZone: floodway })));
    const { column, row } = pinPixel(frame);
    const red = floodway.color.slice(0, 3).join();
    expect(at(column, row).join()).toBe(red);
    const pixels = nearPoint(frame, at);
    // FEMA's backward diagonal: red lines, the basemap between them (never the zones FEMA drew beneath)
    expect(new Set(pixels)).toEqual(new Set([red, BASEMAP_LAND.join()]));
    // the line runs from top left to bottom right
    expect([at(column + 3, row + 3).join(), at(column - 3, row - 3).join(), at(column + 3, row - 3).join()]).toEqual([red, red, BASEMAP_LAND.join()]);
  });

  it.each([
    [800, 600],
    [201, 199],
  ])('%dx%d: the ring is dark all round the point, centred on it', async (width, height) => {
    const frame = { width, height, spanM: 600 };
    const { at } = await pixelsOf(await composePicture(zonesEverywhere(frame), land(frame), content(frame, { legend: [] })));
    const dark = (colour: number[]) => colour.every((channel) => channel <= 40);
    const ring: Array<[number, number]> = [];
    for (let y = Math.floor(height / 2) - 14; y <= Math.floor(height / 2) + 14; y++) {
      for (let x = Math.floor(width / 2) - 14; x <= Math.floor(width / 2) + 14; x++) if (dark(at(x, y))) ring.push([x, y]);
    }
    // pixel centres are at index + 0.5: the ring's centre is the point, the picture's centre
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    expect(mean(ring.map(([x]) => x + 0.5))).toBeCloseTo(width / 2, 1);
    expect(mean(ring.map(([, y]) => y + 0.5))).toBeCloseTo(height / 2, 1);
    const radii = ring.map(([x, y]) => Math.hypot(x + 0.5 - width / 2, y + 0.5 - height / 2));
    expect(Math.min(...radii)).toBeGreaterThanOrEqual(7);
    expect(Math.max(...radii)).toBeLessThanOrEqual(11);
    expect(ring.length).toBeGreaterThan(40);
  });

  it('without the basemap: the plain light grey where FEMA draws nothing, and the words say so', async () => {
    const frame = { width: 800, height: 600, spanM: 600 };
    const withBasemap = await composePicture(zonesLeftHalf(frame), land(frame), content(frame));
    const plain = await composePicture(zonesLeftHalf(frame), null, content(frame, { basemapShown: false }));
    const { at } = await pixelsOf(plain);
    expect(at(500, 300)).toEqual([...PLAIN_BACKGROUND]);
    expect(at(300, 300)).toEqual([...CYAN]);
    // the foot carries one more line of words
    const foot = async (png: Buffer) => (await sharp(png).extract({ left: 0, top: 540, width: 800, height: 60 }).raw().toBuffer()).toString('base64');
    expect(await foot(plain)).not.toBe(await foot(withBasemap));
  });

  it('a clear pixel of a basemap that is not opaque shows the plain background through it', async () => {
    const frame = { width: 200, height: 200, spanM: 600 };
    const halfClear = layer(200, 200, () => [0, 0, 0, 0]);
    const { at } = await pixelsOf(await composePicture(halfClear, halfClear, content(frame, { legend: [] })));
    expect(at(120, 100)).toEqual([...PLAIN_BACKGROUND]);
  });

  it.each([
    ['VE', 'COASTAL FLOODPLAIN'],
    ['AE', 'FLOODWAY'],
  ])('the swatch of %s %s is drawn in the renderer colour, the colour the zone has at the point', async (floodZone, zoneSubtype) => {
    const frame = { width: 800, height: 600, spanM: 600 };
    const legend = mapLegend({ zonesAtPoint: [{ floodZone, zoneSubtype }], nearby: null, structure: null });
    const { at } = await pixelsOf(await composePicture(zonesEverywhere(frame), land(frame), content(frame, { legend, pointZone: legend[0].symbol })));
    // the one swatch sits in the bottom-right legend box: find the colour of the point there
    const { column, row } = pinPixel(frame);
    const atPoint = at(column, row).join();
    expect(atPoint).toBe(legend[0].symbol!.color.slice(0, 3).join());
    let found = false;
    for (let y = 450; y < 600 && !found; y++) for (let x = 500; x < 800 && !found; x++) found = at(x, y).join() === atPoint && at(x, y - 1).join() === atPoint;
    expect(found).toBe(true);
  });

  /** A building 80 px by 60 px, its corners on pixel corners, wholly right of the point and clear of every box. */
  const BUILDING = [
    [560, 180],
    [640, 180],
    [640, 240],
    [560, 240],
    [560, 180],
  ] as const;

  it('a building: a black line 2 px wide on its edges, a white pixel either side, the zones inside and outside it as FEMA drew them', async () => {
    const frame = { width: 800, height: 600, spanM: 600 };
    const { at } = await pixelsOf(await composePicture(zonesEverywhere(frame), land(frame), content(frame, { buildingOutline: [BUILDING] })));
    const [black, white, cyan] = [[0, 0, 0], [255, 255, 255], [...CYAN]];
    // across the west edge (x = 560) and the north edge (y = 180), 30 px from the corners
    expect([557, 558, 559, 560, 561, 562].map((x) => at(x, 210))).toEqual([cyan, white, black, black, white, cyan]);
    expect([177, 178, 179, 180, 181, 182].map((y) => at(600, y))).toEqual([cyan, white, black, black, white, cyan]);
    // the east and south edges too, and inside it nothing but the zone
    expect([at(639, 210), at(640, 210), at(600, 239), at(600, 240), at(600, 210)]).toEqual([black, black, black, black, cyan]);
  });

  it('a building under the pin: the ring is drawn over its outline, the outline goes on beyond it', async () => {
    const frame = { width: 800, height: 600, spanM: 600 };
    // its east edge at x = 410, across the ring (radius 9 around 400, 300)
    const under = [
      [380, 280],
      [410, 280],
      [410, 340],
      [380, 340],
      [380, 280],
    ] as const;
    const { at } = await pixelsOf(await composePicture(zonesEverywhere(frame), land(frame), content(frame, { legend: [], buildingOutline: [under] })));
    expect([at(409, 300), at(409, 330)]).toEqual([
      [26, 26, 26],
      [0, 0, 0],
    ]);
  });

  it('without a building nothing is outlined; with one, the legend names it: one row more, drawn with its outline', async () => {
    const frame = { width: 800, height: 600, spanM: 600 };
    const legend = mapLegend({ zonesAtPoint: [{ floodZone: 'AE', zoneSubtype: null }], nearby: null, structure: null });
    const without = await pixelsOf(await composePicture(zonesEverywhere(frame), land(frame), content(frame, { legend })));
    expect([559, 560].map((x) => without.at(x, 210))).toEqual([[...CYAN], [...CYAN]]);
    const svg = (buildingOutline: PictureContent['buildingOutline']) => pictureDecorations({ ...content(frame, { legend }), buildingOutline });
    const legendBox = (drawing: string) => Number(/<rect x="[\d.]+" y="[\d.]+" width="[\d.]+" height="([\d.]+)" rx="3"[^>]*\/>(?!.*rx="3")/s.exec(drawing)![1]);
    expect(svg([])).not.toContain('class="building"');
    expect(svg([BUILDING])).toContain('<path class="building" d="M560,180L640,180L640,240L560,240L560,180Z"');
    expect(legendBox(svg([BUILDING])) - legendBox(svg([]))).toBeGreaterThan(10);
    const withBuilding = await pixelsOf(await composePicture(zonesEverywhere(frame), land(frame), content(frame, { legend, buildingOutline: [BUILDING] })));
    // the legend's last row: a black outlined swatch on white, below the AE swatch
    let swatchFound = false;
    for (let y = 450; y < 560 && !swatchFound; y++) {
      for (let x = 500; x < 800 && !swatchFound; x++)
        swatchFound =
          withBuilding.at(x, y).join() === '0,0,0' && withBuilding.at(x, y + 1).join() === '0,0,0' && withBuilding.at(x + 3, y + 3).join() === '255,255,255';
    }
    expect(swatchFound).toBe(true);
  });

  it('draws the same bytes where the machine has no fonts at all (fontconfig given an empty configuration)', async () => {
    const frame = { width: 640, height: 480, spanM: 600 };
    const here = await composePicture(zonesLeftHalf(frame), land(frame), content(frame));
    const dir = mkdtempSync(join(tmpdir(), 'no-fonts-'));
    try {
      writeFileSync(join(dir, 'fonts.conf'), '<?xml version="1.0"?>\n<fontconfig></fontconfig>\n');
      const script = join(dir, 'compose.ts');
      // The same picture, composed in a process whose fontconfig knows no font directory, written to stdout.
      writeFileSync(
        script,
        `import { composePicture } from ${JSON.stringify(join(__dirname, 'map-composer'))};\n` +
          `import { mapLegend, captionSegments } from ${JSON.stringify(join(__dirname, 'map-legend'))};\n` +
          `const frame = ${JSON.stringify(frame)};\n` +
          `const layer = (paint: (x: number) => number[]) => { const rgba = Buffer.alloc(frame.width * frame.height * 4);` +
          ` for (let y = 0; y < frame.height; y++) for (let x = 0; x < frame.width; x++) rgba.set(paint(x), (y * frame.width + x) * 4);` +
          ` return { width: frame.width, height: frame.height, rgba }; };\n` +
          `const zones = layer((x) => (x < frame.width / 2 ? [${CYAN.join(',')}, ${FEMA_ALPHA}] : [0, 0, 0, 0]));\n` +
          `const land = layer(() => [${BASEMAP_LAND.join(',')}, 255]);\n` +
          `void mapLegend; void captionSegments;\n` +
          `composePicture(zones, land, ${JSON.stringify(content(frame))}).then((png) => process.stdout.write(png.toString('base64')));\n`,
      );
      const elsewhere = await new Promise<Buffer>((resolve, reject) => {
        execFile(
          process.execPath,
          ['-r', 'ts-node/register/transpile-only', script],
          {
            cwd: join(__dirname, '..', '..'),
            maxBuffer: 64 * 1024 * 1024,
            env: {
              PATH: process.env.PATH,
              FONTCONFIG_FILE: join(dir, 'fonts.conf'),
              FONTCONFIG_PATH: dir,
              HOME: dir,
              XDG_CONFIG_HOME: dir,
              XDG_DATA_HOME: dir,
              XDG_CACHE_HOME: dir,
              XDG_DATA_DIRS: dir,
            },
          },
          (error, stdout) => (error ? reject(error) : resolve(Buffer.from(stdout, 'base64'))),
        );
      });
      expect(elsewhere.length).toBeGreaterThan(0);
      expect(elsewhere.equals(here)).toBe(true);
      // and the words are there: dark pixels in the caption box
      const caption = await sharp(elsewhere).extract({ left: 8, top: 8, width: 300, height: 20 }).raw().toBuffer();
      let dark = 0;
      for (let i = 0; i < caption.length; i += 3) if (caption[i] < 80 && caption[i + 1] < 80 && caption[i + 2] < 80) dark++;
      expect(dark).toBeGreaterThan(100);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
