/**
 * Emulator of the U.S. Census Bureau geocoder, on loopback, answering as the real service does. Base path /geocoder:
 *
 *   GET /geocoder/geographies/onelineaddress?address=&benchmark=&vintage=&layers=&format=json
 *   GET /geocoder/geographies/coordinates?x=&y=&benchmark=&vintage=&layers=&format=json
 *   GET /geocoder/locations/onelineaddress?address=&benchmark=&format=json      (no geographies)
 *   GET /geocoder/benchmarks, /geocoder/vintages?benchmark=                        (fixture lists)
 *   POST /geocoder/geographies/addressbatch, /geocoder/locations/addressbatch      (multipart CSV batch)
 *
 * Answers use the shapes of recorded real one-line address and coordinates answers:
 * result.input, result.addressMatches[] {tigerLine, geographies, matchedAddress, coordinates{x,y},
 * addressComponents}, result.geographies keyed by layer name. Bad or missing parameters: HTTP 400 with a
 * top-level `errors` array. `format` other than json: an HTML page. Outside every county: empty layer arrays.
 *
 * The batch endpoints read a multipart form (`addressFile`: CSV without header `id,street,city,state,zip`,
 * ISO-8859-1; `benchmark`; `vintage` for geographies) and answer CSV as the real service does
 * (fixtures/pablotron-batch-geographies-4-4.csv, fixtures/fitnr-address-batch-1.csv): text/plain in ISO-8859-1,
 * every field quoted, rows in reverse input order, `Match` rows with "lon,lat", TIGER line, side and (for
 * geographies) state, county, tract and block FIPS, `No_Match` and `Tie` rows with 3 columns. An address
 * resolves exactly as on the one-line endpoint (the street, city, state and ZIP columns joined).
 */
import busboy from 'busboy';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Answer, CallRecord, EmulatorOptions, RequestContext, UpstreamEmulator, escapeHtml, htmlAnswer, jsonAnswer } from './emulator-core';
import { CensusAddressEntry, CensusAddressMatch, CensusArea, DEMO_BLOCKS, DEMO_MAP, DemoBlock, DemoMap, featuresAt } from './demo-map';
import { type Position, bboxOfRings, rectRing } from './geometry';
import { DEMO_STRUCTURES } from './structure-footprints';
import { tractRecordAt } from './census-tracts';

export const CENSUS_BASE_PATH = '/geocoder';

export interface CensusEmulatorOptions extends EmulatorOptions {
  /** The data served; default the demo map. */
  map?: DemoMap;
  /** Default /geocoder. */
  basePath?: string;
  /** The 2020 census blocks served; default the demo buildings' blocks and DEMO_BLOCKS. */
  blocks?: readonly DemoBlock[];
}

interface Benchmark {
  isDefault: boolean;
  benchmarkDescription: string;
  id: string;
  benchmarkName: string;
}
interface Vintage {
  isDefault: boolean;
  id: string;
  vintageName: string;
  vintageDescription: string;
}

const FIXTURES = path.join(__dirname, 'fixtures');
const BENCHMARKS = (JSON.parse(fs.readFileSync(path.join(FIXTURES, 'pablotron-benchmarks.json'), 'utf8')) as { benchmarks: Benchmark[] }).benchmarks;
const VINTAGES_4 = (JSON.parse(fs.readFileSync(path.join(FIXTURES, 'pablotron-vintages-benchmark4.json'), 'utf8')) as { vintages: Vintage[] }).vintages;

/** Vintages per benchmark id: benchmark 4 from the recorded list, 2020 from recorded answers' `input.vintage`. */
const VINTAGES: Record<string, Vintage[]> = {
  '4': VINTAGES_4,
  '2020': [
    { isDefault: true, id: '2020', vintageName: 'Census2020_Census2020', vintageDescription: 'Census 2020 Vintage - Census 2020 Benchmark' },
    { isDefault: false, id: '2010', vintageName: 'Census2010_Census2020', vintageDescription: 'Census 2010 Vintage - Census 2020 Benchmark' },
  ],
  '8': [],
};

/** The geographies layers this emulator knows (ids as in the Current_Current vintage). */
export const CENSUS_LAYERS = {
  states: { id: '80', name: 'States' },
  counties: { id: '82', name: 'Counties' },
  zcta: { id: '2', name: '2020 Census ZIP Code Tabulation Areas' },
  blocks: { id: '10', name: '2020 Census Blocks' },
  tracts: { id: '8', name: 'Census Tracts' },
} as const;
type LayerName = (typeof CENSUS_LAYERS)[keyof typeof CENSUS_LAYERS]['name'];
const ALL_LAYERS: LayerName[] = [
  CENSUS_LAYERS.states.name,
  CENSUS_LAYERS.counties.name,
  CENSUS_LAYERS.zcta.name,
  CENSUS_LAYERS.tracts.name,
  CENSUS_LAYERS.blocks.name,
];
const DEFAULT_LAYERS: LayerName[] = [CENSUS_LAYERS.states.name, CENSUS_LAYERS.counties.name];

/** The most rows the real batch service takes in one file. */
export const CENSUS_BATCH_MAX_ROWS = 10_000;

/** The transient per-layer failure the real service puts inside a 200 (seen in recorded one-line address answers). */
export const LAYER_ERROR_STATUS = 'Layer query encountered an error: java.lang.RuntimeException: Failed to return';

/** Case-, whitespace- and punctuation-insensitive form of an address ("N.W." = "NW", "Ave." = "Ave", commas ignored). */
export function normaliseAddress(s: string): string {
  return s
    .toLowerCase()
    .replace(/[.'’]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

type Geographies = Record<string, unknown[]>;

/** The Census geocoder emulator. */
export class CensusGeocoderEmulator extends UpstreamEmulator {
  readonly map: DemoMap;
  /** The 2020 census blocks, one record each (a block drawn in several boxes has a ring per box). */
  readonly blocks: CensusArea[];
  private readonly addressIndex = new Map<string, CensusAddressEntry>();
  /** Rows of every batch call answered (a faulted call is not read), in arrival order; cleared by resetCalls(). */
  readonly batchRowsPerCall: number[] = [];

  private constructor(options: CensusEmulatorOptions) {
    super(options.basePath ?? CENSUS_BASE_PATH, options);
    this.map = options.map ?? DEMO_MAP;
    this.blocks = blockRecords(options.blocks ?? [...Object.values(DEMO_BLOCKS), ...DEMO_STRUCTURES.map((structure) => structure.block)]);
    for (const entry of this.map.census.addresses) {
      for (const spelling of entry.spellings) this.addressIndex.set(normaliseAddress(spelling), entry);
    }
  }

  static async start(options: CensusEmulatorOptions = {}): Promise<CensusGeocoderEmulator> {
    const emulator = new CensusGeocoderEmulator(options);
    await emulator.listen(options);
    return emulator;
  }

  /** The address-book entry an input address resolves to (undefined = no match). */
  lookupAddress(address: string): CensusAddressEntry | undefined {
    return this.addressIndex.get(normaliseAddress(address));
  }

  override resetCalls(): void {
    super.resetCalls();
    this.batchRowsPerCall.length = 0;
  }

  protected describe(subPath: string): Pick<CallRecord, 'endpoint'> {
    switch (subPath) {
      case 'geographies/onelineaddress':
        return { endpoint: 'onelineaddress' };
      case 'geographies/coordinates':
        return { endpoint: 'coordinates' };
      case 'locations/onelineaddress':
        return { endpoint: 'locations/onelineaddress' };
      case 'geographies/addressbatch':
        return { endpoint: 'addressbatch' };
      case 'locations/addressbatch':
        return { endpoint: 'locations/addressbatch' };
      case 'benchmarks':
        return { endpoint: 'benchmarks' };
      case 'vintages':
        return { endpoint: 'vintages' };
      default:
        return { endpoint: 'unknown' };
    }
  }

  /** A coordinates lookup's point (what a `near` fault matches); address lookups have none. */
  protected queryPoint(params: Record<string, string>): Position | undefined {
    const [lon, lat] = [params.x, params.y].map((v) => (v === undefined || v.trim() === '' ? NaN : Number(v)));
    return Number.isFinite(lon) && Number.isFinite(lat) ? [lon, lat] : undefined;
  }

  protected htmlErrorPage(status: number): string {
    return `<!DOCTYPE html><html><head><title>Error</title></head><body><h1>Census Geocoder</h1><p>An error has occurred (${status}). Please try your request again.</p></body></html>`;
  }

  protected answer(ctx: RequestContext): Answer {
    const { call, params } = ctx;
    if (call.endpoint === 'unknown') return htmlAnswer(notFoundPage(call.path), 404);
    if (call.endpoint === 'addressbatch' || call.endpoint === 'locations/addressbatch') return this.batchAnswer(ctx);
    if (call.endpoint === 'benchmarks') return jsonAnswer({ benchmarks: BENCHMARKS });
    if (call.endpoint === 'vintages') {
      const benchmark = findBenchmark(params.benchmark ?? '4');
      if (!benchmark) return errors(['Invalid Benchmark']);
      return jsonAnswer({ vintages: VINTAGES[benchmark.id] ?? [], selectedBenchmark: benchmark.id, benchmarks: BENCHMARKS });
    }
    if ((params.format ?? '').toLowerCase() !== 'json') return htmlAnswer(formPage(call.endpoint, params));

    const geographies = call.endpoint !== 'locations/onelineaddress';
    const selected = selectBenchmark(params, geographies);
    if ('status' in selected) return selected;
    const { benchmark, vintage } = selected;
    const layers = geographies ? parseLayers(params.layers) : [];
    const failing = ctx.fault?.kind === 'layer-error' ? ctx.fault : undefined;
    const geographiesAt = (lon: number, lat: number, block?: CensusArea): Geographies => {
      const g = this.geographiesAt(lon, lat, layers, block);
      if (failing) {
        for (const name of Object.keys(g)) {
          if (!failing.layers || failing.layers.some((s) => name.toLowerCase().includes(s.toLowerCase()))) {
            g[name] = [{ status: failing.message ? `Layer query encountered an error: ${failing.message}` : LAYER_ERROR_STATUS }];
          }
        }
      }
      return g;
    };

    if (call.endpoint === 'coordinates') {
      const x = Number(params.x);
      const y = Number(params.y);
      if (params.x === undefined || params.x.trim() === '' || !Number.isFinite(x)) return errors(['X coordinate must be a number']);
      if (params.y === undefined || params.y.trim() === '' || !Number.isFinite(y)) return errors(['Y coordinate must be a number']);
      return jsonAnswer({
        result: {
          input: { location: { x, y }, vintage, benchmark },
          geographies: geographiesAt(x, y),
        },
      });
    }

    const address = params.address;
    if (address === undefined || address.trim() === '') return errors(['Address cannot be empty']);
    const entry = this.lookupAddress(address);
    const matches = (entry?.matches ?? []).map((m: CensusAddressMatch) =>
      geographies
        ? {
            tigerLine: m.tigerLine,
            geographies: geographiesAt(m.lon, m.lat, this.blockOfAddress(m)),
            coordinates: { x: m.lon, y: m.lat },
            addressComponents: m.addressComponents,
            matchedAddress: m.matchedAddress,
          }
        : { tigerLine: m.tigerLine, coordinates: { x: m.lon, y: m.lat }, addressComponents: m.addressComponents, matchedAddress: m.matchedAddress },
    );
    return jsonAnswer({
      result: {
        input: geographies ? { address: { address }, vintage, benchmark } : { address: { address }, benchmark },
        addressMatches: matches,
      },
    });
  }

  /** A batch call: the uploaded file's rows answered in the real CSV format (see the header comment). */
  private batchAnswer({ call, body, contentType }: RequestContext): Answer {
    const form = readMultipart(body, contentType);
    // The form's fields are the call's parameters: logged like a GET's query.
    Object.assign(call.query, form.fields);
    if (form.addressFile === undefined) return errors(['Address file must be provided']);
    const selected = selectBenchmark(form.fields, call.endpoint === 'addressbatch');
    if ('status' in selected) return selected;
    let rows: string[][];
    try {
      rows = parse(form.addressFile.toString('latin1'), { relax_column_count: true, skip_empty_lines: true });
    } catch (error) {
      return errors([`Address file is not valid CSV: ${(error as Error).message}`]);
    }
    if (rows.length > CENSUS_BATCH_MAX_ROWS) {
      return htmlAnswer(
        `<!DOCTYPE html><html><head><title>Error</title></head><body><h1>Census Geocoder</h1><p>The address file has ${rows.length} records; the limit is ${CENSUS_BATCH_MAX_ROWS}.</p></body></html>`,
        400,
      );
    }
    this.batchRowsPerCall.push(rows.length);
    const out = rows.map(([id = '', street = '', city = '', state = '', zip = '']) => {
      const input = [street, city, state, zip].join(', ');
      const matches = this.lookupAddress(input)?.matches ?? [];
      if (matches.length === 0) return [id, input, 'No_Match'];
      if (matches.length > 1) return [id, input, 'Tie'];
      const m = matches[0];
      const exactness = normaliseAddress(input) === normaliseAddress(m.matchedAddress) ? 'Exact' : 'Non_Exact';
      const located = [id, input, 'Match', exactness, m.matchedAddress, `${m.lon},${m.lat}`, m.tigerLine.tigerLineId, m.tigerLine.side];
      if (call.endpoint !== 'addressbatch') return located;
      const county = featuresAt(this.map.census.counties, m.lon, m.lat)[0]?.attributes;
      // The address's block, as the one-line answer names it.
      const block = county && this.blockOfAddress(m)?.attributes;
      return block ? [...located, String(block.STATE), String(block.COUNTY), String(block.TRACT), String(block.BLOCK)] : [...located, '', '', '', ''];
    });
    out.reverse();
    return {
      status: 200,
      contentType: 'text/plain',
      headers: { 'Content-Disposition': 'attachment; filename=GeocodeResults.csv' },
      // ISO-8859-1 bytes, as the real service writes.
      body: Buffer.from(stringify(out, { quoted: true, quoted_empty: true }), 'latin1'),
    };
  }

  /** The block the geocoder puts an address in: the one on its side of the street where the demo says so, else the one at its point. */
  blockOfAddress(match: CensusAddressMatch): CensusArea | undefined {
    if (match.block === undefined) return this.blockAt(match.lon, match.lat);
    return this.blocks.find((block) => block.attributes.GEOID === match.block);
  }

  /**
   * The block at a point: a demo block, else, in a county, one stand-in block (1000) of the point's demo tract drawn
   * around the point, so that the batch's FIPS columns and the one-line answer's block and tract always agree.
   */
  private blockAt(lon: number, lat: number): CensusArea | undefined {
    const found = featuresAt(this.blocks, lon, lat)[0];
    if (found) return found;
    const county = featuresAt(this.map.census.counties, lon, lat)[0]?.attributes;
    return county && blockRecords([{ geoid: `${String(tractRecordAt(county, lon, lat).GEOID)}1000`, box: [lon, lat, lon, lat] }])[0];
  }

  /** Geographies at a point for the requested layers (keyed by layer name, in request order); `block` replaces the point's own. */
  geographiesAt(lon: number, lat: number, layers: LayerName[] = DEFAULT_LAYERS, block?: CensusArea): Geographies {
    const out: Geographies = {};
    const county = featuresAt(this.map.census.counties, lon, lat)[0];
    for (const layer of layers) {
      if (layer === CENSUS_LAYERS.blocks.name) {
        const found = block ?? this.blockAt(lon, lat);
        out[layer] = found ? [{ ...found.attributes }] : [];
      }
      if (layer === CENSUS_LAYERS.counties.name) out[layer] = county ? [{ ...county.attributes }] : [];
      else if (layer === CENSUS_LAYERS.states.name) {
        const state = county ? this.map.census.states[String(county.attributes.STATE)] : undefined;
        out[layer] = state ? [{ ...state }] : [];
      } else if (layer === CENSUS_LAYERS.tracts.name) {
        out[layer] = county ? [tractOfBlock(tractRecordAt(county.attributes, lon, lat), block ?? this.blockAt(lon, lat))] : [];
      } else if (layer === CENSUS_LAYERS.zcta.name) {
        out[layer] = featuresAt(this.map.census.zctas, lon, lat)
          .slice(0, 1)
          .map((z) => ({ ...z.attributes }));
      }
    }
    return out;
  }
}

/** The tract record named after the block's own tract (its GEOID's first 11 digits), as a block lies within its tract. */
function tractOfBlock(tract: Record<string, unknown>, block: CensusArea | undefined): Record<string, unknown> {
  const geoid = block === undefined ? '' : String(block.attributes.GEOID);
  if (!/^\d{15}$/.test(geoid) || geoid.slice(0, 11) === tract.GEOID) return tract;
  const code = geoid.slice(5, 11);
  const basename = String(Number(code) / 100);
  return { ...tract, GEOID: geoid.slice(0, 11), TRACT: code, BASENAME: basename, NAME: `Census Tract ${basename}` };
}

/** Census's way of writing an internal point's coordinate: signed, zero-padded, seven decimals ("+38.8864783", "-077.1988848"). */
function censusCoordinate(value: number, degreesDigits: number): string {
  const [whole, fraction] = Math.abs(value).toFixed(7).split('.');
  return `${value < 0 ? '-' : '+'}${whole.padStart(degreesDigits, '0')}.${fraction}`;
}

/**
 * The blocks as the geocoder's `Census Blocks` layer answers them, with the fields and spellings of a recorded answer
 * (fixtures/census/pablotron-geographies-oneline-census2020.json: numbers as text or empty where the vintage has none).
 */
function blockRecords(blocks: readonly DemoBlock[]): CensusArea[] {
  // A block named by several buildings is drawn as one box around them all (overlapping rings would make holes).
  const byGeoid = new Map<string, DemoBlock['box']>();
  for (const { geoid, box } of blocks) {
    const known = byGeoid.get(geoid) ?? box;
    byGeoid.set(geoid, [Math.min(known[0], box[0]), Math.min(known[1], box[1]), Math.max(known[2], box[2]), Math.max(known[3], box[3])]);
  }
  return [...byGeoid.entries()].map(([geoid, [west, south, east, north]], index) => {
    const rings = [rectRing(west, south, east, north)];
    const bbox = bboxOfRings(rings);
    const [lat, lon] = [censusCoordinate((bbox.ymin + bbox.ymax) / 2, 2), censusCoordinate((bbox.xmin + bbox.xmax) / 2, 3)];
    const block = geoid.slice(11);
    return {
      rings,
      bbox,
      attributes: {
        SUFFIX: '',
        POP100: '',
        GEOID: geoid,
        CENTLAT: lat,
        BLOCK: block,
        AREAWATER: 0,
        STATE: geoid.slice(0, 2),
        BASENAME: block,
        OID: 210701008500000 + index,
        LSADC: 'BK',
        INTPTLAT: lat,
        FUNCSTAT: 'S',
        NAME: `Block ${block}`,
        OBJECTID: 3076000 + index,
        TRACT: geoid.slice(5, 11),
        CENTLON: lon,
        BLKGRP: block.slice(0, 1),
        AREALAND: 134472,
        HU100: '',
        INTPTLON: lon,
        MTFCC: 'G5040',
        LWBLKTYP: 'L',
        UR: '',
        COUNTY: geoid.slice(2, 5),
      },
    };
  });
}

function findBenchmark(v: string): Benchmark | undefined {
  return BENCHMARKS.find((b) => b.benchmarkName === v || b.id === v);
}

/** The benchmark and (for geographies) vintage named by the parameters, or the real service's error answer. */
function selectBenchmark(params: Record<string, string>, geographies: boolean): { benchmark: Benchmark; vintage?: Vintage } | Answer {
  const benchmarkParam = params.benchmark?.trim();
  if (!benchmarkParam) return errors(['Benchmark must be provided']);
  const benchmark = findBenchmark(benchmarkParam);
  if (!benchmark) return errors([`Invalid benchmark: ${benchmarkParam}`]);
  if (!geographies) return { benchmark };
  const vintageParam = params.vintage?.trim();
  if (!vintageParam) return errors(['Vintage must be provided']);
  const vintage = (VINTAGES[benchmark.id] ?? []).find((v) => v.vintageName === vintageParam || v.id === vintageParam);
  if (!vintage) return errors([`Invalid vintage: ${vintageParam} is not valid for benchmark ${benchmark.benchmarkName}`]);
  return { benchmark, vintage };
}

/**
 * The fields and the `addressFile` part of a multipart body. Busboy parses a body handed over whole
 * synchronously, so with a file high-water mark above the body's size every part is buffered by the time
 * `end()` returns (the emulator's answers are synchronous).
 */
function readMultipart(body: Buffer | undefined, contentType: string | undefined): { fields: Record<string, string>; addressFile?: Buffer } {
  const fields: Record<string, string> = {};
  if (body === undefined || contentType === undefined || !/^multipart\/form-data\b/i.test(contentType)) return { fields };
  const files = new Map<string, NodeJS.ReadableStream>();
  const parser = busboy({ headers: { 'content-type': contentType }, fileHwm: body.length + 1 });
  parser.on('field', (name: string, value: string) => (fields[name] = value));
  parser.on('file', (name: string, stream: NodeJS.ReadableStream) => files.set(name, stream));
  // A malformed body is read as far as it goes (a missing file is then the caller's 400).
  parser.on('error', () => undefined);
  parser.end(body);
  const file = files.get('addressFile')?.read();
  return { fields, addressFile: file === null || file === undefined ? undefined : Buffer.from(file) };
}

function errors(list: string[], status = 400): Answer {
  return jsonAnswer({ errors: list, status: String(status) }, status);
}

/** `layers` by name or id, comma-separated; "all" = every known layer; absent = States and Counties. Unknown ones are skipped. */
function parseLayers(raw: string | undefined): LayerName[] {
  if (raw === undefined || raw.trim() === '') return DEFAULT_LAYERS;
  const out: LayerName[] = [];
  for (const token of raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    if (token === 'all') {
      for (const l of ALL_LAYERS) if (!out.includes(l)) out.push(l);
      continue;
    }
    const layer = Object.values(CENSUS_LAYERS).find((l) => l.id === token || l.name.toLowerCase() === token);
    if (layer && !out.includes(layer.name)) out.push(layer.name);
  }
  return out;
}

function formPage(endpoint: string, params: Record<string, string>): string {
  const echo = Object.entries(params)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}"/>`)
    .join('');
  return `<!DOCTYPE html><html><head><title>Census Geocoder</title></head><body><h1>Census Geocoder</h1><h2>${escapeHtml(endpoint)}</h2><form method="get">${echo}<input type="submit" value="Find"/></form><div id="pl_gov_census_geo_geocoder_domain_AddressResult"></div></body></html>`;
}

function notFoundPage(p: string): string {
  return `<!DOCTYPE html><html><head><title>Error 404--Not Found</title></head><body><h2>Error 404--Not Found</h2><p>${escapeHtml(p)}</p></body></html>`;
}
