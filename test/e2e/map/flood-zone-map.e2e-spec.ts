/**
 * GET /flood-zone/map against the emulators, which draw their own pictures (the NFHL's layer 28 in FEMA's recorded
 * renderer, a USGS basemap in colours of its own). Every expectation about a picture is read from the JSON answer
 * of GET /flood-zone for the same point and from FEMA's recorded renderer, never from the service's own tables:
 * the colour under the pin is the colour FEMA gives the zone the answer names, the legend lists the zones the
 * answer names, the ring is centred on the point.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { BASEMAP_COLORS, DEMO_ADDRESSES, DEMO_BUILDING_ADDRESSES, type DemoPlace, type Fault, demoPlace } from '../../emulators';
import type { DrawingInfo } from '../../emulators/map-export';
import { FAST_FAULTS, NO_CACHE, Stack, addressQuery, expectErrorEnvelope, pointQuery, startStack } from '../../support/stack';
import { PICTURE_DEMO_PLACE, picturePathOf } from '../../emulators/offline';
import { demoStructure } from '../../emulators/structure-footprints';
import { README_PICTURE_FILE } from '../../../scripts/docs-picture';

type Rgb = [number, number, number];

const ROOT = join(__dirname, '..', '..', '..');

const DRAWING = JSON.parse(readFileSync(join(__dirname, '..', '..', 'emulators', 'fixtures', 'nfhl-layer-28-drawing-info.json'), 'utf8')) as DrawingInfo;
const UNIQUE_VALUES = DRAWING.renderer.type === 'uniqueValue' ? DRAWING.renderer.uniqueValueInfos : [];
const RENDERER_COLOURS = new Set(UNIQUE_VALUES.map((info) => info.symbol.color?.slice(0, 3).join(',')));
const BASEMAP = new Set(Object.values(BASEMAP_COLORS).map((colour) => colour.slice(0, 3).join(',')));
const PLAIN_GREY: Rgb = [236, 236, 236];

/** How FEMA's recorded renderer draws a zone (`<Null>` or an empty text for no subtype), or null where it draws nothing. */
function femaSymbol(floodZone: string | null, zoneSubtype: string | null): { colour: Rgb; hatched: boolean } | null {
  if (floodZone === null) return null;
  const values = zoneSubtype === null ? [`${floodZone};<Null>`, `${floodZone};`] : [`${floodZone};${zoneSubtype}`];
  const info = UNIQUE_VALUES.find((i) => values.includes(i.value));
  if (!info?.symbol.color) return null;
  return { colour: info.symbol.color.slice(0, 3) as Rgb, hatched: info.symbol.style !== 'esriSFSSolid' };
}

/** A zone as the legend names it: the code, "floodway" for a floodway subtype, X shaded (0.2 PCT, 1 PCT, LEVEE) or unshaded. */
function designation(zone: { floodZone: string; zoneSubtype: string | null }): string {
  const subtype = (zone.zoneSubtype ?? '').toUpperCase();
  if (subtype.includes('FLOODWAY')) return `${zone.floodZone} floodway`;
  if (zone.floodZone === 'X') return /0\.2 PCT|1 PCT|LEVEE/.test(subtype) ? 'X shaded' : 'X unshaded';
  return zone.floodZone;
}

/** The zones a JSON answer names, at the point, over the building's footprint, then nearby (SFHA, floodway, moderate), each once. */
function namedZones(result: any): string[] {
  const zones = [...result.zonesAtPoint, ...(result.structure?.zones ?? []), result.nearby?.sfha, result.nearby?.floodway, result.nearby?.moderate].filter(
    Boolean,
  );
  return [...new Set(zones.map(designation))];
}

interface Picture {
  status: number;
  headers: Headers;
  png: Buffer;
  width: number;
  height: number;
  at(column: number, row: number): Rgb;
}

async function picture(stack: Stack, query: string, init: RequestInit = {}): Promise<Picture> {
  const response = await fetch(`${stack.url}/flood-zone/map?${query}`, init);
  const png = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200 || init.method === 'HEAD')
    return { status: response.status, headers: response.headers, png, width: 0, height: 0, at: () => [0, 0, 0] };
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (column: number, row: number): Rgb => {
    const i = (row * info.width + column) * info.channels;
    return [data[i], data[i + 1], data[i + 2]];
  };
  return { status: response.status, headers: response.headers, png, width: info.width, height: info.height, at };
}

/** The pixels within 4 px of the point's pixel (column ⌊width/2⌋, row ⌊height/2⌋), inside the ring. */
function nearPoint(p: Picture): Rgb[] {
  const column = Math.floor(p.width / 2);
  const row = Math.floor(p.height / 2);
  const pixels: Rgb[] = [];
  for (let dy = -4; dy <= 4; dy++) for (let dx = -4; dx <= 4; dx++) if (dx * dx + dy * dy <= 16) pixels.push(p.at(column + dx, row + dy));
  return pixels;
}

/** The ring's ink (#1a1a1a), which no zone and no basemap is drawn in. */
const RING_INK = '26,26,26';

/** The centre of the ring's pixels around the middle of the picture (pixel centres at index + 0.5), and their radii. */
function ringAround(p: Picture): { x: number; y: number; radii: number[] } {
  const dark: Array<[number, number]> = [];
  const [cx, cy] = [Math.floor(p.width / 2), Math.floor(p.height / 2)];
  for (let y = cy - 14; y <= cy + 14; y++) for (let x = cx - 14; x <= cx + 14; x++) if (key(p.at(x, y)) === RING_INK) dark.push([x + 0.5, y + 0.5]);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const x = mean(dark.map(([px]) => px));
  const y = mean(dark.map(([, py]) => py));
  return { x, y, radii: dark.map(([px, py]) => Math.hypot(px - p.width / 2, py - p.height / 2)) };
}

const key = (rgb: Rgb) => rgb.join(',');

/** What the picture must show at the point, judged from the answer of GET /flood-zone and FEMA's renderer. */
function expectZoneAtPoint(p: Picture, result: any): void {
  const symbol = femaSymbol(result.floodZone, result.zoneSubtype);
  const pixels = nearPoint(p).map(key);
  if (symbol === null) {
    // nothing FEMA draws: the basemap shows through, in none of the renderer's colours
    expect(pixels.filter((pixel) => RENDERER_COLOURS.has(pixel))).toEqual([]);
    expect(pixels.every((pixel) => BASEMAP.has(pixel))).toBe(true);
  } else if (symbol.hatched) {
    // FEMA's hatch: its lines in the zone colour, one through the point, the basemap between them
    expect(key(pointPixel(p))).toBe(key(symbol.colour));
    expect(pixels.every((pixel) => pixel === key(symbol.colour) || BASEMAP.has(pixel))).toBe(true);
  } else {
    expect(new Set(pixels)).toEqual(new Set([key(symbol.colour)]));
  }
}

/** The pixel of the point: column ⌊width/2⌋, row ⌊height/2⌋. */
const pointPixel = (p: Picture) => p.at(Math.floor(p.width / 2), Math.floor(p.height / 2));

function expectRingOnThePoint(p: Picture): void {
  const ring = ringAround(p);
  expect(ring.radii.length).toBeGreaterThan(40);
  expect(ring.x).toBeCloseTo(p.width / 2, 1);
  expect(ring.y).toBeCloseTo(p.height / 2, 1);
  expect(Math.min(...ring.radii)).toBeGreaterThanOrEqual(7);
  expect(Math.max(...ring.radii)).toBeLessThanOrEqual(11);
}

/** The JSON answer the picture draws: GET /flood-zone with the building and the nearby zones within half the span (10 to 2000 m). */
async function answerOf(stack: Stack, place: { lat: number; lon: number }, spanM = 600): Promise<any> {
  const radius = Math.min(2000, Math.max(10, Math.round(spanM / 2)));
  const res = await stack.get(`${pointQuery(place)}&include=nearby,structure&radius=${radius}`);
  expect(res.status).toBe(200);
  return res.body;
}

const PLACES = [
  'dc-white-house-ae',
  'toa-baja-ae',
  'menominee-ve',
  'menominee-v',
  'houston-ah',
  'houston-ao',
  'sacramento-ar',
  'houston-x-shaded',
  'sacramento-x-levee',
  'sacramento-d',
  'houston-ae-floodway',
  'renton-ae-floodway',
  'houston-x-unshaded',
  'houston-open-water',
  'houston-gap',
  'lampasas-paper-only',
  'mount-vernon-unmapped',
];

describe('GET /flood-zone/map: the picture of a place', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it.each(PLACES.map((id) => [id, demoPlace(id)] as const))(
    '%s: a PNG of 800x600; the colour at the point is the one FEMA gives the zone the JSON names; the legend is its zones; the ring is on the point',
    async (_id, place) => {
      const p = await picture(stack, `lat=${place.lat}&lon=${place.lon}`);
      expect(p.status).toBe(200);
      expect(p.headers.get('content-type')).toBe('image/png');
      expect(Number(p.headers.get('content-length'))).toBe(p.png.length);
      expect((await sharp(p.png).metadata()).format).toBe('png');
      expect([p.width, p.height]).toEqual([800, 600]);
      const answer = await answerOf(stack, place);
      expectZoneAtPoint(p, answer.result);
      expect(p.headers.get('x-map-legend')).toBe(namedZones(answer.result).join(', '));
      expect(p.headers.get('x-map-unavailable')).toBeNull();
      expectRingOnThePoint(p);
    },
  );

  it('checks itself: the places cover solid, hatched and clear zones, and an unmapped point', async () => {
    const kinds = new Set<string>();
    for (const id of PLACES) {
      const { result } = await answerOf(stack, demoPlace(id));
      const symbol = femaSymbol(result.floodZone, result.zoneSubtype);
      kinds.add(result.coverage === 'unmapped' ? 'unmapped' : symbol === null ? 'clear' : symbol.hatched ? 'hatched' : 'solid');
    }
    expect([...kinds].sort()).toEqual(['clear', 'hatched', 'solid', 'unmapped']);
  });

  it.each([
    [800, 600],
    [801, 601],
  ])(
    "a seam (%dx%d): both zones the answer names are in the legend; the point shows the answer's own, the floodway hatched as FEMA draws it",
    async (width, height) => {
      const seam = demoPlace('houston-seam');
      const p = await picture(stack, `lat=${seam.lat}&lon=${seam.lon}&width=${width}&height=${height}`);
      const { result } = await answerOf(stack, seam);
      expect(result.zonesAtPoint.length).toBeGreaterThan(1);
      expect([result.floodZone, result.zoneSubtype]).toEqual(['AE', 'FLOODWAY']);
      expect(p.headers.get('x-map-legend')).toBe(namedZones(result).join(', '));
      expect(p.headers.get('x-map-legend')?.split(', ')[0]).toBe('AE floodway');
      // the legend's first entry, the answer's zone: FEMA's red hatch at the point, never the AE cyan beside it
      expect(femaSymbol(result.floodZone, result.zoneSubtype)).toEqual({ colour: [255, 0, 0], hatched: true });
      expect(pointPixel(p)).toEqual([255, 0, 0]);
      expectZoneAtPoint(p, result);
    },
  );

  describe("the building the answer is for: its footprint outlined, black, where the JSON answer's footprint lies", () => {
    const BLACK = '0,0,0';
    /** Where [lon, lat] falls on a picture centred on `centre`: Web Mercator, span metres of ground across its width. */
    const onPicture =
      (centre: { lat: number; lon: number }, width: number, height: number, spanM: number) =>
      ([lon, lat]: number[]) => {
        const R = 6_378_137;
        const mercatorY = (latitude: number) => R * Math.log(Math.tan(Math.PI / 4 + (latitude * Math.PI) / 360));
        const metresPerPixel = spanM / width / Math.cos((centre.lat * Math.PI) / 180);
        return [
          width / 2 + (R * ((lon! - centre.lon) * Math.PI)) / 180 / metresPerPixel,
          height / 2 - (mercatorY(lat!) - mercatorY(centre.lat)) / metresPerPixel,
        ];
      };
    const blackPixels = (p: Picture) => {
      let count = 0;
      for (let y = 0; y < p.height; y++) for (let x = 0; x < p.width; x++) if (p.at(x, y).join() === BLACK) count++;
      return count;
    };

    it('the house across the AE edge: each side of its footprint is a black line, the zones inside it as FEMA drew them, under the ring', async () => {
      const ring = demoStructure('menominee-straddles-ae-x').feature.rings![0]!;
      const middle = (values: number[]) => Number(((Math.min(...values) + Math.max(...values)) / 2).toFixed(7));
      const centre = { lat: middle(ring.map(([, lat]) => lat!)), lon: middle(ring.map(([lon]) => lon!)) };
      const p = await picture(stack, `lat=${centre.lat}&lon=${centre.lon}&span=150`);
      const { body } = await stack.get(`${pointQuery(centre)}&include=structure`);
      expect(body.result.structure).toMatchObject({ match: 'contains', buildingInSfha: true });
      const corners = (body.result.structure.footprint.coordinates[0] as number[][]).map(onPicture(centre, 800, 600, 150));
      const [west, east] = [Math.min(...corners.map(([x]) => x!)), Math.max(...corners.map(([x]) => x!))];
      const [north, south] = [Math.min(...corners.map(([, y]) => y!)), Math.max(...corners.map(([, y]) => y!))];
      // 18 m by 12 m at 0.1875 m a pixel
      expect([Math.round(east - west), Math.round(south - north)]).toEqual([96, 64]);
      const blackNear = (x: number, y: number) => [-1, 0].some((d) => p.at(Math.round(x) + d, y).join() === BLACK);
      const blackAcross = (x: number, y: number) => [-1, 0].some((d) => p.at(x, Math.round(y) + d).join() === BLACK);
      for (let y = Math.ceil(north) + 3; y < south - 3; y += 4)
        expect({ y, west: blackNear(west, y), east: blackNear(east, y) }).toEqual({ y, west: true, east: true });
      for (let x = Math.ceil(west) + 3; x < east - 3; x += 4) {
        // the ring around the point (radius 9 px and its halo) is drawn over the outline
        if (Math.abs(x - 400) <= 12) continue;
        expect({ x, north: blackAcross(x, north), south: blackAcross(x, south) }).toEqual({ x, north: true, south: true });
      }
      // inside it, either side of the AE edge: FEMA's X shaded orange, then its AE cyan
      expect(p.at(Math.round(west) + 10, 300 + 20)).toEqual(femaSymbol('X', '0.2 PCT ANNUAL CHANCE FLOOD HAZARD')!.colour);
      expect(p.at(Math.round(east) - 10, 300 + 20)).toEqual(femaSymbol('AE', null)!.colour);
    });

    it('the legend names every zone over the footprint: by address, a house wholly in unshaded X whose point is in AE, where no nearby zone is that X', async () => {
      const { address } = DEMO_BUILDING_ADDRESSES.houstonXHouse;
      const p = await picture(stack, `${addressQuery(address).split('?')[1]}&span=150`);
      const { body } = await stack.get(`${addressQuery(address)}&include=nearby,structure&radius=75`);
      expect(body.result.structure).toMatchObject({
        match: 'nearest',
        buildingInSfha: false,
        zones: [expect.objectContaining({ floodZone: 'X', sharePercent: 100 })],
      });
      expect(namedZones({ ...body.result, structure: null })).not.toContain('X unshaded');
      expect(p.headers.get('x-map-legend')).toBe('AE, X unshaded');
      expect(p.headers.get('x-map-legend')).toBe(namedZones(body.result).join(', '));
    });

    it('a point with no building draws none: not one black pixel, and no building in the legend', async () => {
      const place = demoPlace('houston-gap');
      const { body } = await stack.get(`${pointQuery(place)}&include=structure`);
      expect(body.result.structure).toMatchObject({ match: 'none', footprint: null });
      const p = await picture(stack, `lat=${place.lat}&lon=${place.lon}`);
      expect(p.status).toBe(200);
      expect(blackPixels(p)).toBe(0);
    });
  });

  it('hazards nearby: the legend names the zone at the point, then the nearest SFHA, floodway and shaded X within half the span', async () => {
    const place = demoPlace('houston-nearby-hazards');
    const p = await picture(stack, `lat=${place.lat}&lon=${place.lon}`);
    const answer = await answerOf(stack, place);
    expect(namedZones(answer.result)).toEqual(['X unshaded', 'AE', 'AE floodway', 'X shaded']);
    expect(p.headers.get('x-map-legend')).toBe('X unshaded, AE, AE floodway, X shaded');
    // a smaller span reaches fewer of them: the legend follows the answer with the smaller radius
    const narrow = await picture(stack, `lat=${place.lat}&lon=${place.lon}&span=100`);
    const narrowAnswer = await answerOf(stack, place, 100);
    expect(narrow.headers.get('x-map-legend')).toBe(namedZones(narrowAnswer.result).join(', '));
    expect(namedZones(narrowAnswer.result).length).toBeLessThan(4);
  });

  it("README's picture is what the service draws today, from the URL README gives (npm run docs:picture makes it again)", async () => {
    const place = demoPlace(PICTURE_DEMO_PLACE);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`](${README_PICTURE_FILE})`);
    expect(readme).toContain(`'http://localhost:3000${picturePathOf(place)}'`);
    const drawn = await picture(stack, picturePathOf(place).split('?')[1]);
    const pixels = (png: Buffer) => sharp(png).raw().toBuffer({ resolveWithObject: true });
    const [today, committed] = await Promise.all([pixels(drawn.png), pixels(readFileSync(join(ROOT, README_PICTURE_FILE)))]);
    expect(committed.info).toEqual(today.info);
    // pixels, not bytes: another build of zlib may pack the same picture differently
    expect(committed.data.equals(today.data)).toBe(true);
  });

  it.each([
    [201, 203, 300],
    [200, 1600, 100],
    [1600, 200, 5000],
    [1024, 768, 2500],
  ])('%dx%d across %d m: that size, the zone colour at the point, the ring on it', async (width, height, span) => {
    const dc = demoPlace('dc-white-house-ae');
    const p = await picture(stack, `lat=${dc.lat}&lon=${dc.lon}&width=${width}&height=${height}&span=${span}`);
    expect([p.status, p.width, p.height]).toEqual([200, width, height]);
    expectZoneAtPoint(p, (await answerOf(stack, dc, span)).result);
    expectRingOnThePoint(p);
  });

  it('a picture too coarse for FEMA to draw its zones at (5000 m across 200 px) still shows them', async () => {
    const dc = demoPlace('dc-white-house-ae');
    const p = await picture(stack, `lat=${dc.lat}&lon=${dc.lon}&width=200&height=200&span=5000`);
    expect(p.status).toBe(200);
    expectZoneAtPoint(p, (await answerOf(stack, dc, 5000)).result);
  });

  it('by address: the picture of the geocoded point, its zones as GET /flood-zone by address names them', async () => {
    const p = await picture(stack, `address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}`);
    const byAddress = (await stack.get(`${addressQuery(DEMO_ADDRESSES.whiteHouse)}&include=nearby&radius=300`)).body;
    expect(p.status).toBe(200);
    expectZoneAtPoint(p, byAddress.result);
    expect(p.headers.get('x-map-legend')).toBe(namedZones(byAddress.result).join(', '));
    expectRingOnThePoint(p);
  });

  it('an address with two matches 40 m apart is one place, the first: its picture', async () => {
    const p = await picture(stack, `address=${encodeURIComponent(DEMO_ADDRESSES.nearDuplicate)}`);
    const byAddress = (await stack.get(`${addressQuery(DEMO_ADDRESSES.nearDuplicate)}&include=nearby&radius=300`)).body;
    expect(p.status).toBe(200);
    expectZoneAtPoint(p, byAddress.result);
  });

  it("a parameter the picture does not read is refused, GET /flood-zone's include and radius too (test/e2e/http/unread-parameters covers every kind)", async () => {
    const dc = demoPlace('dc-white-house-ae');
    const extra = await stack.get(`/flood-zone/map?lat=${dc.lat}&lon=${dc.lon}&include=elevation&radius=5`);
    expectErrorEnvelope(extra, 400, 'INVALID_PARAMETERS');
    expect(extra.body.error).toBe('Unknown parameter "include": this endpoint reads only address, lat, lon, buildId, width, height and span.');
  });
});

describe('GET /flood-zone/map: parameters and their errors, as GET /flood-zone', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it.each([
    ['width=199', 'width must be from 200 to 1600 pixels'],
    ['width=1601', 'width must be from 200 to 1600 pixels'],
    ['height=100', 'height must be from 200 to 1600 pixels'],
    ['height=2000', 'height must be from 200 to 1600 pixels'],
    ['span=99', 'span must be from 100 to 5000 metres'],
    ['span=5001', 'span must be from 100 to 5000 metres'],
    ['width=99999999999999999999999', 'width must be from 200 to 1600 pixels'],
  ])('%s → 422 IMAGE_SIZE_OUT_OF_RANGE', async (size, message) => {
    const res = await stack.get(`/flood-zone/map?lat=29.7&lon=-95.43&${size}`);
    expectErrorEnvelope(res, 422, 'IMAGE_SIZE_OUT_OF_RANGE');
    expect(res.body.error).toBe(message);
  });

  it.each([
    ['width=abc', 'width must be a whole number of pixels (digits only), from 200 to 1600'],
    ['width=800.5', 'width must be a whole number of pixels (digits only), from 200 to 1600'],
    ['height=-300', 'height must be a whole number of pixels (digits only), from 200 to 1600'],
    ['span=', 'span must be a whole number of metres (digits only), from 100 to 5000'],
    ['span=1e3', 'span must be a whole number of metres (digits only), from 100 to 5000'],
    ['width=800&width=600', 'width is repeated; give it once'],
  ])('%s → 400 INVALID_PARAMETERS, as a malformed radius is', async (size, message) => {
    const res = await stack.get(`/flood-zone/map?lat=29.7&lon=-95.43&${size}`);
    expectErrorEnvelope(res, 400, 'INVALID_PARAMETERS');
    expect(res.body.error).toBe(message);
  });

  it.each([
    ['', 400, 'INVALID_PARAMETERS'],
    ['address=x&lat=1&lon=2', 400, 'INVALID_PARAMETERS'],
    ['lat=29.7', 400, 'INVALID_PARAMETERS'],
    ['lat=abc&lon=1', 400, 'INVALID_PARAMETERS'],
    ['lat=0x1A&lon=1', 400, 'INVALID_PARAMETERS'],
    ['lat=1&lat=2&lon=3', 400, 'INVALID_PARAMETERS'],
    [`address=${'a'.repeat(201)}`, 400, 'INVALID_PARAMETERS'],
    ['address=%20%20', 400, 'INVALID_PARAMETERS'],
    ['lat=91&lon=1', 422, 'COORDINATES_OUT_OF_RANGE'],
    ['lat=1&lon=-181', 422, 'COORDINATES_OUT_OF_RANGE'],
    [`address=${encodeURIComponent(DEMO_ADDRESSES.noMatch)}`, 404, 'ADDRESS_NOT_FOUND'],
  ])('the location "%s": %d %s, the very envelope GET /flood-zone gives', async (query, status, code) => {
    const map = await stack.get(`/flood-zone/map?${query}`);
    const lookup = await stack.get(`/flood-zone?${query}`);
    expectErrorEnvelope(map, status, code);
    expect({ ...map.body, requestId: null }).toEqual({ ...lookup.body, requestId: null });
  });

  it('an ambiguous address: 404 AMBIGUOUS_ADDRESS with the same candidates, and no picture asked for', async () => {
    stack.emulators.resetCalls();
    const map = await stack.get(`/flood-zone/map?address=${encodeURIComponent(DEMO_ADDRESSES.ambiguous)}`);
    expectErrorEnvelope(map, 404, 'AMBIGUOUS_ADDRESS');
    const lookup = await stack.get(addressQuery(DEMO_ADDRESSES.ambiguous));
    expect(map.body.candidates).toEqual(lookup.body.candidates);
    expect(map.body.candidates.length).toBe(2);
    expect(stack.emulators.nfhl.callCount({ endpoint: 'export' }) + stack.emulators.basemap.callCount({ endpoint: 'export' })).toBe(0);
  });

  it('a latitude beyond Web Mercator (85.05°) → 422 COORDINATES_OUT_OF_RANGE saying so; GET /flood-zone still answers there', async () => {
    const map = await stack.get('/flood-zone/map?lat=86&lon=0');
    expectErrorEnvelope(map, 422, 'COORDINATES_OUT_OF_RANGE');
    expect(map.body.error).toMatch(/85\.051128.*Web Mercator/);
    expect((await stack.get('/flood-zone?lat=86&lon=0')).status).toBe(200);
  });

  it('HEAD: the headers of GET without the body; POST: 405 with Allow; OPTIONS: the preflight', async () => {
    const dc = demoPlace('dc-white-house-ae');
    const got = await picture(stack, `lat=${dc.lat}&lon=${dc.lon}`);
    const head = await picture(stack, `lat=${dc.lat}&lon=${dc.lon}`, { method: 'HEAD' });
    expect([head.status, head.png.length]).toEqual([200, 0]);
    for (const name of ['content-type', 'content-length', 'etag', 'x-map-legend']) expect(head.headers.get(name)).toBe(got.headers.get(name));
    const post = await fetch(`${stack.url}/flood-zone/map?lat=1&lon=2`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(((await post.json()) as { code: string }).code).toBe('METHOD_NOT_ALLOWED');
    const preflight = await fetch(`${stack.url}/flood-zone/map`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://listing.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect([preflight.status, preflight.headers.get('access-control-allow-methods')]).toEqual([204, 'GET, HEAD, OPTIONS']);
  });

  it('another origin may show the picture and read its legend: open CORS, exposed X-Map-Legend and X-Map-Unavailable', async () => {
    const dc = demoPlace('dc-white-house-ae');
    const p = await picture(stack, `lat=${dc.lat}&lon=${dc.lon}`, { headers: { Origin: 'https://listing.example' } });
    expect(p.headers.get('access-control-allow-origin')).toBe('*');
    expect(p.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const exposed = (p.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['ETag', 'X-Cache', 'X-Map-Legend', 'X-Map-Unavailable']));
  });
});

describe('GET /flood-zone/map: caching as lookups', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  const calls = () => ({
    nfhl: stack.emulators.nfhl.callCount(),
    basemap: stack.emulators.basemap.callCount(),
    census: stack.emulators.census.callCount(),
  });

  it('a repeated picture is a HIT with the same bytes and ETag, and makes no upstream call; If-None-Match gives 304', async () => {
    const place = demoPlace('houston-ah');
    const first = await picture(stack, `lat=${place.lat}&lon=${place.lon}`);
    expect(first.headers.get('x-cache')).toBe('MISS');
    const maxAge = Number(/^public, max-age=(\d+)$/.exec(first.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(86_000);
    expect(maxAge).toBeLessThanOrEqual(86_400);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    const before = calls();
    // parameter order changes nothing
    const second = await picture(stack, `lon=${place.lon}&lat=${place.lat}`);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.headers.get('etag')).toBe(etag);
    expect(second.png.equals(first.png)).toBe(true);
    expect(second.headers.get('x-map-legend')).toBe(first.headers.get('x-map-legend'));
    expect(calls()).toEqual(before);
    const notModified = await fetch(`${stack.url}/flood-zone/map?lat=${place.lat}&lon=${place.lon}`, { headers: { 'If-None-Match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe(etag);
    expect((await notModified.arrayBuffer()).byteLength).toBe(0);
    const otherTag = await fetch(`${stack.url}/flood-zone/map?lat=${place.lat}&lon=${place.lon}`, { headers: { 'If-None-Match': '"other"' } });
    expect(otherTag.status).toBe(200);
    expect(calls()).toEqual(before);
  });

  it("a cached picture goes out as the first one did: the same headers, the caller's request id, HEAD without a body", async () => {
    const place = demoPlace('menominee-overlap');
    const query = `lat=${place.lat}&lon=${place.lon}&width=400&height=300`;
    const first = await picture(stack, query);
    const again = await picture(stack, query, { headers: { 'X-Request-Id': 'picture-hit-1' } });
    expect([first.headers.get('x-cache'), again.headers.get('x-cache'), again.headers.get('x-request-id')]).toEqual(['MISS', 'HIT', 'picture-hit-1']);
    const same = ['content-type', 'content-length', 'etag', 'x-map-legend', 'content-security-policy', 'x-content-type-options', 'access-control-allow-origin'];
    const of = (p: Picture) => Object.fromEntries(same.map((name) => [name, p.headers.get(name)]));
    expect(of(again)).toEqual(of(first));
    expect(of(again)).toMatchObject({ 'content-type': 'image/png', 'content-length': String(first.png.length) });
    const head = await picture(stack, query, { method: 'HEAD' });
    expect([head.status, head.headers.get('x-cache'), head.headers.get('content-length'), head.png.length]).toEqual([200, 'HIT', String(first.png.length), 0]);
    // a query the controller refuses is refused, however cached its place
    const refused = await fetch(`${stack.url}/flood-zone/map?${query}&span=99`);
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([422, 'IMAGE_SIZE_OUT_OF_RANGE']);
  });

  it('a cached picture counts against the rate limit, and over it is refused like any request', async () => {
    const limited = await startStack({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const place = demoPlace('houston-ah');
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await picture(limited, `lat=${place.lat}&lon=${place.lon}`));
      expect(answers.map((p) => [p.status, p.headers.get('x-cache'), p.headers.get('ratelimit-remaining')])).toEqual([
        [200, 'MISS', '2'],
        [200, 'HIT', '1'],
        [200, 'HIT', '0'],
        [429, null, null],
      ]);
      expect(JSON.parse(answers[3].png.toString('utf8'))).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    } finally {
      await limited.close();
    }
  });

  it('the same place in another size: the cached answer, only the two pictures asked again', async () => {
    const place = demoPlace('houston-ao');
    await picture(stack, `lat=${place.lat}&lon=${place.lon}`);
    const before = {
      query: stack.emulators.nfhl.callCount({ endpoint: 'query' }),
      export: stack.emulators.nfhl.callCount({ endpoint: 'export' }),
      basemap: calls().basemap,
    };
    const wider = await picture(stack, `lat=${place.lat}&lon=${place.lon}&width=1000&height=500`);
    expect([wider.status, wider.headers.get('x-cache'), wider.width, wider.height]).toEqual([200, 'MISS', 1000, 500]);
    expect({
      query: stack.emulators.nfhl.callCount({ endpoint: 'query' }),
      export: stack.emulators.nfhl.callCount({ endpoint: 'export' }),
      basemap: calls().basemap,
    }).toEqual({ query: before.query, export: before.export + 1, basemap: before.basemap + 1 });
  });

  it('concurrent identical requests compose once: one NFHL export and one basemap export for all of them', async () => {
    const place = demoPlace('sacramento-ar');
    stack.emulators.nfhl.setLatency(150);
    try {
      const before = { export: stack.emulators.nfhl.callCount({ endpoint: 'export' }), basemap: calls().basemap };
      const all = await Promise.all(Array.from({ length: 6 }, () => picture(stack, `lat=${place.lat}&lon=${place.lon}`)));
      expect(all.map((p) => p.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(new Set(all.map((p) => p.headers.get('etag'))).size).toBe(1);
      expect({ export: stack.emulators.nfhl.callCount({ endpoint: 'export' }), basemap: calls().basemap }).toEqual({
        export: before.export + 1,
        basemap: before.basemap + 1,
      });
    } finally {
      stack.emulators.nfhl.setLatency(0);
    }
  });

  it('by address: one geocode for the picture and its answer, even with every cache off', async () => {
    const uncached = await startStack({ ...NO_CACHE });
    try {
      const p = await picture(uncached, `address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}`);
      expect([p.status, p.headers.get('x-cache'), p.headers.get('cache-control')]).toEqual([200, 'MISS', 'public, max-age=0']);
      expect(uncached.emulators.census.callCount({ endpoint: 'onelineaddress' })).toBe(1);
      expect(uncached.emulators.nfhl.callCount({ endpoint: 'export' })).toBe(1);
      // nothing is kept with the cache off: the same picture is made again
      await picture(uncached, `address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}`);
      expect(uncached.emulators.nfhl.callCount({ endpoint: 'export' })).toBe(2);
    } finally {
      await uncached.close();
    }
  });

  it('/health lists the map and the basemap upstream; /metrics counts pictures, their cache and the basemap calls', async () => {
    const health = await stack.get('/health');
    expect(health.body.endpoints['/flood-zone/map']).toMatchObject({ method: 'GET', note: expect.stringMatching(/PNG/) });
    for (const example of health.body.endpoints['/flood-zone/map'].examples as string[]) expect((await picture(stack, example.split('?')[1])).status).toBe(200);
    expect(health.body.upstreams.basemap).toMatchObject({
      state: 'answering',
      circuit: 'closed',
      lastCall: 'ok',
      host: new URL(stack.emulators.basemap.baseUrl).host,
    });
    const metrics = await (await fetch(`${stack.url}/metrics`)).text();
    expect(metrics).toMatch(/^map_picture_compose_seconds_count\{basemap="shown"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^cache_lookups_total\{cache="picture",outcome="hit"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^cache_lookups_total\{cache="picture",outcome="miss"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^upstream_request_duration_seconds_count\{upstream="basemap",outcome="success"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^upstream_circuit_state\{upstream="basemap"\} 0$/m);
    expect(metrics).toMatch(/^http_requests_total\{route="\/flood-zone\/map",method="GET",status="200"\} [1-9]\d*$/m);
  });
});

describe('GET /flood-zone/map: failures', () => {
  let stack: Stack;
  beforeAll(async () => {
    // The emulators draw each picture in the test's own process: a timeout of FAST_FAULTS' 300 ms could be the drawing's, not the fault's.
    stack = await startStack({ ...FAST_FAULTS, UPSTREAM_TIMEOUT_MS: '1500', LOOKUP_DEADLINE_MS: '5000' });
  });
  afterAll(async () => {
    await stack?.close();
  });
  beforeEach(() => stack.emulators.resetCalls());
  afterEach(() => stack.emulators.clearFaults());

  const unmapped = demoPlace('mount-vernon-unmapped');
  const dc = demoPlace('dc-white-house-ae');

  const EXPORT_FAULTS: Array<[string, Fault]> = [
    ['HTTP 503', { kind: 'http-status', status: 503 }],
    ['a reset connection', { kind: 'reset' }],
    ['an HTML page with HTTP 200', { kind: 'html' }],
    ['an ArcGIS error in HTTP 200 (code 500)', { kind: 'arcgis-error' }],
    ['an ArcGIS error in HTTP 200 (code 400)', { kind: 'arcgis-error', code: 400, message: 'Invalid or missing input parameters.' }],
    ['JSON cut in half', { kind: 'malformed-json' }],
    ['a delay beyond UPSTREAM_TIMEOUT_MS', { kind: 'delay', ms: 2500 }],
  ];

  it.each(EXPORT_FAULTS)("FEMA's picture fails (%s) → 502 UPSTREAM_UNAVAILABLE flood_data, though the lookup answered", async (_what, fault) => {
    stack.emulators.nfhl.injectFault({ ...fault, match: 'export' });
    const res = await stack.get(`/flood-zone/map?lat=${dc.lat}&lon=${dc.lon}`);
    expectErrorEnvelope(res, 502, 'UPSTREAM_UNAVAILABLE');
    expect(res.body.upstream).toBe('flood_data');
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.headers.get('x-cache')).toBe('MISS');
    expect((await stack.get(pointQuery(dc))).status).toBe(200);
  });

  it.each(EXPORT_FAULTS)('the basemap fails (%s) → 200, the zones on a plain light grey, X-Map-Unavailable: basemap', async (_what, fault) => {
    stack.emulators.basemap.injectFault(fault);
    const plain = await picture(stack, `lat=${unmapped.lat}&lon=${unmapped.lon}`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('x-map-unavailable')).toBe('basemap');
    // no zone here: the background itself shows inside the ring
    expect(new Set(nearPoint(plain).map(key))).toEqual(new Set([key(PLAIN_GREY)]));
    const zones = await picture(stack, `lat=${dc.lat}&lon=${dc.lon}`);
    expect(zones.headers.get('x-map-unavailable')).toBe('basemap');
    expectZoneAtPoint(zones, (await answerOf(stack, dc)).result);
    expectRingOnThePoint(zones);
  });

  it('with the basemap back, the picture shows it again', async () => {
    const p = await picture(stack, `lat=${unmapped.lat}&lon=${unmapped.lon}`);
    expect(p.headers.get('x-map-unavailable')).toBeNull();
    expect(nearPoint(p).every((pixel) => BASEMAP.has(key(pixel)))).toBe(true);
  });

  it("the lookup's own failures are the picture's: FEMA's zones layer → 502 flood_data, the geocoder → 502 geocoder", async () => {
    stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503, match: 'floodHazardZones' });
    const zones = await stack.get(`/flood-zone/map?lat=${dc.lat}&lon=${dc.lon}`);
    expectErrorEnvelope(zones, 502, 'UPSTREAM_UNAVAILABLE');
    expect(zones.body.upstream).toBe('flood_data');
    stack.emulators.clearFaults();
    stack.emulators.resetCalls();
    stack.emulators.census.injectFault({ kind: 'http-status', status: 503, match: 'onelineaddress' });
    const geocoder = await stack.get(`/flood-zone/map?address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}`);
    expectErrorEnvelope(geocoder, 502, 'UPSTREAM_UNAVAILABLE');
    expect(geocoder.body.upstream).toBe('geocoder');
    // no picture is asked for a place that could not be found
    expect(stack.emulators.nfhl.callCount({ endpoint: 'export' }) + stack.emulators.basemap.callCount({ endpoint: 'export' })).toBe(0);
  });
});

describe('GET /flood-zone/map: a picture without its basemap is kept briefly', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ UPSTREAM_RETRIES: '0' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("max-age at most 60 s while a whole picture is kept for the answer's day; the plain one is served from the cache meanwhile", async () => {
    const place: DemoPlace = demoPlace('houston-a');
    stack.emulators.basemap.injectFault({ kind: 'http-status', status: 503 });
    const plain = await picture(stack, `lat=${place.lat}&lon=${place.lon}`);
    expect(plain.headers.get('x-map-unavailable')).toBe('basemap');
    const maxAge = Number(/max-age=(\d+)/.exec(plain.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(60);
    stack.emulators.clearFaults();
    const again = await picture(stack, `lat=${place.lat}&lon=${place.lon}`);
    expect([again.headers.get('x-cache'), again.headers.get('x-map-unavailable')]).toEqual(['HIT', 'basemap']);
    const whole = await picture(stack, `lat=${place.lat}&lon=${place.lon}&span=601`);
    expect(whole.headers.get('x-map-unavailable')).toBeNull();
    expect(Number(/max-age=(\d+)/.exec(whole.headers.get('cache-control') ?? '')?.[1])).toBeGreaterThan(60);
  });
});
