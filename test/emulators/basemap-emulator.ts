/**
 * The USGS National Map basemap (the USGSTopo MapServer, a tile cache in Web Mercator) on loopback, base
 * /arcgis/rest/services/USGSTopo/MapServer:
 *
 *   GET {base}?f=json|pjson        a short root document (singleFusedMapCache, tileInfo, extents)
 *   GET {base}/export?bbox=...     an opaque PNG of the bbox at the size asked (map-export.ts reads the
 *                                  parameters, as for the NFHL), drawn from its own data
 *
 * The drawing is chosen here, deterministic and plain: pale land, a street grid every 200 m (Web Mercator metres)
 * with a main road every fifth line, some blocks green as parks, and water: a river along every floodway of the
 * demo map and the demo map's open water. None of its colours is one of the NFHL renderer's, so a test can tell
 * the two apart in a picture made of both. Faults, latency and the call log are those of every emulator.
 */
import { ArcGisEmulatorOptions, ArcGisMapServerEmulator } from './arcgis-emulator';
import { DEMO_MAP, DemoMap } from './demo-map';
import { BBox, Position, Ring, lonLatToWebMercator, webMercatorToLonLat } from './geometry';
import { ExportRequest, Picture, Rgba, fillLonLatRings } from './map-export';

export const BASEMAP_BASE_PATH = '/arcgis/rest/services/USGSTopo/MapServer';

/** The basemap's colours (none of them an NFHL renderer colour). */
export const BASEMAP_COLORS = {
  land: [242, 239, 233, 255],
  park: [205, 228, 190, 255],
  water: [166, 206, 227, 255],
  street: [255, 255, 255, 255],
  mainRoad: [214, 208, 198, 255],
} as const satisfies Record<string, Rgba>;

export interface BasemapEmulatorOptions extends ArcGisEmulatorOptions {
  /** The map whose floodways and open water become water; default the demo map. */
  map?: DemoMap;
  /** Default /arcgis/rest/services/USGSTopo/MapServer. */
  basePath?: string;
}

/** Street spacing, in Web Mercator metres. */
const BLOCK_M = 200;
const STREET_WIDTH_M = 12;
const MAIN_ROAD_WIDTH_M = 24;
const MAIN_ROAD_EVERY = 5;
/** Below this many pixels per block the streets and parks are left out (as a small-scale map does). */
const MIN_BLOCK_PX = 8;
/** Half the width of a river, in degrees of latitude (about 40 m). */
const RIVER_HALF_WIDTH_DEG = 0.00036;
/** How far a river runs past its floodway, in degrees of longitude. */
const RIVER_REACH_DEG = 0.02;

const ORIGIN_SHIFT = 20037508.342787;
/** Latitude kept within the square Web Mercator world (a geographic picture may reach past it). */
const MAX_LAT = 85;
const WEB_MERCATOR = { wkid: 102100, latestWkid: 3857 };
const WORLD = { xmin: -ORIGIN_SHIFT, ymin: -ORIGIN_SHIFT, xmax: ORIGIN_SHIFT, ymax: ORIGIN_SHIFT, spatialReference: WEB_MERCATOR };

/** Chosen to look like the real service's root document, kept short (17 cache levels). */
const USGS_TOPO_ROOT: Record<string, unknown> = {
  currentVersion: 10.81,
  serviceDescription:
    'USGS Topo is a tile cache base map that combines the most current data (Boundaries, Elevation, Geographic Names, Hydrography, Land Cover, Structures, Transportation, and other themes) that make up The National Map.',
  mapName: 'Layers',
  description: '',
  copyrightText:
    'USGS The National Map: National Boundaries Dataset, 3DEP Elevation Program, Geographic Names Information System, National Hydrography Dataset, National Land Cover Database, National Structures Dataset, and National Transportation Dataset; USGS Global Ecosystems; U.S. Census Bureau TIGER/Line data; USFS Road Data; Natural Earth Data; U.S. Department of State HIU; NOAA National Centers for Environmental Information.',
  supportsDynamicLayers: false,
  layers: [],
  tables: [],
  spatialReference: WEB_MERCATOR,
  singleFusedMapCache: true,
  tileInfo: {
    rows: 256,
    cols: 256,
    dpi: 96,
    format: 'JPEG',
    compressionQuality: 75,
    origin: { x: -ORIGIN_SHIFT, y: ORIGIN_SHIFT },
    spatialReference: WEB_MERCATOR,
    lods: Array.from({ length: 17 }, (_, level) => ({
      level,
      resolution: 156543.03392800014 / 2 ** level,
      scale: 591657527.591555 / 2 ** level,
    })),
  },
  initialExtent: WORLD,
  fullExtent: WORLD,
  minScale: 591657527.591555,
  maxScale: 9027.977411,
  units: 'esriMeters',
  supportedImageFormatTypes: 'PNG32,PNG24,PNG,JPG,DIB,TIFF,EMF,PS,PDF,GIF,SVG,SVGZ,BMP',
  capabilities: 'Map',
  maxImageHeight: 4096,
  maxImageWidth: 4096,
  exportTilesAllowed: false,
};

/** The USGS National Map basemap emulator. */
export class BasemapEmulator extends ArcGisMapServerEmulator {
  readonly map: DemoMap;

  private constructor(options: BasemapEmulatorOptions) {
    super(options.basePath ?? BASEMAP_BASE_PATH, options, { title: 'USGSTopo (MapServer)', root: USGS_TOPO_ROOT, layers: [] });
    this.map = options.map ?? DEMO_MAP;
  }

  static async start(options: BasemapEmulatorOptions = {}): Promise<BasemapEmulator> {
    const emulator = new BasemapEmulator(options);
    await emulator.listen(options);
    return emulator;
  }

  /** Land, parks and streets, then water; opaque whatever `transparent` says (the basemap covers everything). */
  protected drawExport(req: ExportRequest): Picture {
    const picture = new Picture(req.width, req.height);
    picture.fill(BASEMAP_COLORS.land);
    const fill = (ring: Ring, color: Rgba) => fillLonLatRings(picture, [ring], color, req);
    for (const block of parkBlocks(req)) fill(block, BASEMAP_COLORS.park);
    for (const [street, main] of streets(req)) fill(street, main ? BASEMAP_COLORS.mainRoad : BASEMAP_COLORS.street);
    for (const ring of waterRings(this.map)) fill(ring, BASEMAP_COLORS.water);
    return picture;
  }
}

/** The picture's extent in Web Mercator metres, and its metres per pixel. */
function mercatorView(req: ExportRequest): BBox & { perPixel: number } {
  let box = req.extent;
  if (req.geographic) {
    const [xmin, ymin] = lonLatToWebMercator(box.xmin, Math.max(box.ymin, -MAX_LAT));
    const [xmax, ymax] = lonLatToWebMercator(box.xmax, Math.min(box.ymax, MAX_LAT));
    box = { xmin, ymin, xmax, ymax };
  }
  return { ...box, perPixel: (box.xmax - box.xmin) / req.width };
}

/** A rectangle given in Web Mercator metres, as a lon/lat ring. */
function mercatorRect(xmin: number, ymin: number, xmax: number, ymax: number): Ring {
  const corners: Position[] = [
    webMercatorToLonLat(xmin, ymin),
    webMercatorToLonLat(xmin, ymax),
    webMercatorToLonLat(xmax, ymax),
    webMercatorToLonLat(xmax, ymin),
  ];
  return [...corners, corners[0]];
}

/** The indexes i of the street lines at i * BLOCK_M from `from` to `to` (metres). */
function gridLines(from: number, to: number): number[] {
  const lines: number[] = [];
  for (let i = Math.floor(from / BLOCK_M); i * BLOCK_M <= to + MAIN_ROAD_WIDTH_M; i++) lines.push(i);
  return lines;
}

function streets(req: ExportRequest): Array<[Ring, boolean]> {
  const v = mercatorView(req);
  if (BLOCK_M / v.perPixel < MIN_BLOCK_PX) return [];
  // at least a pixel wide, as a drawn map keeps its streets visible
  const half = (widthM: number) => Math.max(widthM, v.perPixel) / 2;
  const out: Array<[Ring, boolean]> = [];
  for (const i of gridLines(v.xmin - MAIN_ROAD_WIDTH_M, v.xmax)) {
    const main = i % MAIN_ROAD_EVERY === 0;
    const h = half(main ? MAIN_ROAD_WIDTH_M : STREET_WIDTH_M);
    out.push([mercatorRect(i * BLOCK_M - h, v.ymin, i * BLOCK_M + h, v.ymax), main]);
  }
  for (const j of gridLines(v.ymin - MAIN_ROAD_WIDTH_M, v.ymax)) {
    const main = j % MAIN_ROAD_EVERY === 0;
    const h = half(main ? MAIN_ROAD_WIDTH_M : STREET_WIDTH_M);
    out.push([mercatorRect(v.xmin, j * BLOCK_M - h, v.xmax, j * BLOCK_M + h), main]);
  }
  return out;
}

/** About one block in eleven is a park, the same blocks in every picture. */
function isPark(i: number, j: number): boolean {
  return ((Math.imul(i, 73856093) ^ Math.imul(j, 19349663)) >>> 0) % 11 === 0;
}

function parkBlocks(req: ExportRequest): Ring[] {
  const v = mercatorView(req);
  if (BLOCK_M / v.perPixel < MIN_BLOCK_PX) return [];
  const out: Ring[] = [];
  for (let i = Math.floor(v.xmin / BLOCK_M); i * BLOCK_M < v.xmax; i++) {
    for (let j = Math.floor(v.ymin / BLOCK_M); j * BLOCK_M < v.ymax; j++) {
      if (isPark(i, j)) out.push(mercatorRect(i * BLOCK_M, j * BLOCK_M, (i + 1) * BLOCK_M, (j + 1) * BLOCK_M));
    }
  }
  return out;
}

/** A river west to east through the middle of every floodway, and the map's open water. */
function waterRings(map: DemoMap): Ring[] {
  const rings: Ring[] = [];
  for (const zone of map.nfhl.floodHazardZones) {
    const subtype = zone.attributes.ZONE_SUBTY;
    if (zone.attributes.FLD_ZONE === 'OPEN WATER' && zone.rings) rings.push(...zone.rings);
    else if (typeof subtype === 'string' && subtype.includes('FLOODWAY')) {
      const { xmin, xmax, ymin, ymax } = zone.bbox;
      const lat = (ymin + ymax) / 2;
      const west = xmin - RIVER_REACH_DEG;
      const east = xmax + RIVER_REACH_DEG;
      const [south, north] = [lat - RIVER_HALF_WIDTH_DEG, lat + RIVER_HALF_WIDTH_DEG];
      rings.push([
        [west, south],
        [west, north],
        [east, north],
        [east, south],
        [west, south],
      ]);
    }
  }
  return rings;
}
