/**
 * Emulators of ArcGIS Server MapServers, on loopback. `ArcGisMapServerEmulator` speaks what
 * every MapServer shares:
 *
 *   GET {base}?f=json|pjson                  service root: the layer list
 *   GET {base}/{id}?f=json|pjson             layer metadata
 *   GET|POST {base}/{id}/query?...           the query operation (arcgis-query.ts: point, envelope, distance
 *                                            buffer, geometry in outSR, paging, where, outFields, f=json|pjson|geojson)
 *   GET|POST {base}/export?bbox=...&size=... a PNG picture of the layers that have a `drawingInfo` (map-export.ts;
 *                                            f=image the PNG, f=json|pjson where it is and what it covers)
 *
 * Behaviour copied from the real server: errors are HTTP 200 with {"error":{code,message,details}}; an unknown
 * outFields name fails the whole query ("Failed to execute query.", code 400); no match is `features: []`;
 * a missing or unknown `f` answers an HTML page; axis order is lon,lat (a swapped point matches nothing).
 *
 * `NfhlMapServerEmulator` serves FEMA's NFHL (base /arcgis/rest/services/public/NFHL/MapServer) from the real
 * root document and layer metadata (fixtures/) and the demo map's features; arcgis-service-emulator.ts serves
 * any other MapServer from an `ArcGisServiceData`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { QueryableLayer, QuerySettings, invalidParams, queryFocus, queryLayer } from './arcgis-query';
import { DrawingInfo, ExportLimits, ExportRequest, Picture, drawLayer, exportDescription, exportFocus, layerDrawn, parseExportRequest } from './map-export';
import { DEMO_MAP, DemoMap, NFHL_DEFAULT_LAYER_IDS, NFHL_LAYER_NAMES, NfhlLayerKey } from './demo-map';
import {
  Answer,
  CallRecord,
  EmulatorOptions,
  PublishRefused,
  Published,
  RequestContext,
  UpstreamEmulator,
  escapeHtml,
  htmlAnswer,
  jsonAnswer,
} from './emulator-core';
import { PublishableLayer, publishOnMap } from './map-publishing';
import type { Position } from './geometry';
import type { ArcGisField, ArcGisGeometryType } from './map-data';

/** The real services answer at most this many features per query. */
export const DEFAULT_MAX_RECORD_COUNT = 2000;
/** The largest picture side of an export when the root document names none (maxImageWidth / maxImageHeight). */
const MAX_IMAGE_SIDE = 4096;

export interface ArcGisEmulatorOptions extends EmulatorOptions {
  /** Most features one query answer holds (default 2000, as the real services); lower it to exercise paging. */
  maxRecordCount?: number;
  /** Pretend the upstream ignores `where`, so every feature in the geometry comes back. */
  ignoreWhere?: boolean;
}

/** One layer or table as a MapServer serves it. */
export interface ServedLayer {
  id: number;
  name: string;
  /** Its entry in the root document's `layers` or `tables`. */
  rootEntry: Record<string, unknown>;
  /** Its `{id}?f=json` document. */
  metadata: Record<string, unknown>;
  data: QueryableLayer;
}

export interface MapServiceDefinition {
  /** Title of the HTML directory page, e.g. "NFHL (MapServer)". */
  title: string;
  /** The `{base}?f=json` document (its `layers` / `tables` list the served layers). */
  root: Record<string, unknown>;
  layers: ServedLayer[];
}

/** A MapServer on loopback serving fixed layers. */
export class ArcGisMapServerEmulator extends UpstreamEmulator {
  /** Most features per query answer; may be changed between requests. */
  maxRecordCount: number;
  /** When true, `where` is ignored (as by an upstream that does not filter); may be changed between requests. */
  ignoreWhere: boolean;
  private readonly title: string;
  private readonly rootDoc: Record<string, unknown>;
  private readonly layersById: Map<number, ServedLayer>;
  /** What the root document says about pictures (`export`). */
  private readonly exportLimits: ExportLimits;

  protected constructor(basePath: string, options: ArcGisEmulatorOptions, service: MapServiceDefinition) {
    super(basePath, options);
    this.maxRecordCount = options.maxRecordCount ?? DEFAULT_MAX_RECORD_COUNT;
    this.ignoreWhere = options.ignoreWhere ?? false;
    this.title = service.title;
    this.rootDoc = service.root;
    this.layersById = new Map(service.layers.map((l) => [l.id, l]));
    const sr = (service.root.spatialReference ?? {}) as { wkid?: number; latestWkid?: number };
    this.exportLimits = {
      wkid: sr.latestWkid ?? sr.wkid ?? 4269,
      maxImageWidth: (service.root.maxImageWidth as number | undefined) ?? MAX_IMAGE_SIDE,
      maxImageHeight: (service.root.maxImageHeight as number | undefined) ?? MAX_IMAGE_SIDE,
    };
  }

  /** URL of a layer's query endpoint. */
  queryUrl(layerId: number): string {
    return `${this.baseUrl}/${layerId}/query`;
  }

  /** URL of the export operation. */
  get exportUrl(): string {
    return `${this.baseUrl}/export`;
  }

  protected acceptsPostForm(): boolean {
    return true;
  }

  protected queryPoint(params: Record<string, string>): Position | undefined {
    return queryFocus(params) ?? exportFocus(params, this.exportLimits.wkid);
  }

  protected describe(subPath: string): Pick<CallRecord, 'endpoint' | 'layerId' | 'layerName'> {
    if (subPath === '') return { endpoint: 'root' };
    if (subPath === 'export') return { endpoint: 'export' };
    const m = /^(\d+)(?:\/(query))?$/.exec(subPath);
    if (!m) return { endpoint: 'unknown' };
    const layerId = Number(m[1]);
    const layerName = this.layersById.get(layerId)?.name;
    return { endpoint: m[2] ? 'query' : 'layer', layerId, ...(layerName ? { layerName } : {}) };
  }

  protected htmlErrorPage(status: number): string {
    return `<html lang="en"><head><title>ArcGIS Web Adaptor</title></head><body><h2>Error: ${status}</h2><p>Could not access any server machines. Please contact your system administrator.</p></body></html>`;
  }

  protected answer(ctx: RequestContext, subPath: string | null): Answer {
    if (subPath === null || ctx.call.endpoint === 'unknown') return htmlAnswer(notFoundPage(), 404);
    const f = (ctx.params.f ?? '').toLowerCase();
    const pretty = f === 'pjson';
    const { call } = ctx;
    if (call.endpoint === 'root') {
      if (f !== 'json' && f !== 'pjson') return htmlAnswer(directoryPage(this.title, this.rootDoc));
      return jsonAnswer({ ...this.rootDoc, maxRecordCount: this.maxRecordCount }, 200, undefined, pretty);
    }
    if (call.endpoint === 'export') return this.exportAnswer(ctx.params);
    const layer = this.layersById.get(call.layerId as number);
    const missing = () => jsonAnswer(invalidParams([`The requested layer (layerId: ${call.layerId}) was not found.`]));
    if (call.endpoint === 'layer') {
      if (f !== 'json' && f !== 'pjson') {
        return layer ? htmlAnswer(directoryPage(`Layer: ${layer.name} (ID: ${layer.id})`, layer.rootEntry)) : htmlAnswer(notFoundPage(), 404);
      }
      if (!layer) return missing();
      return jsonAnswer({ ...layer.metadata, id: layer.id, maxRecordCount: this.maxRecordCount }, 200, undefined, pretty);
    }
    if (f !== 'json' && f !== 'pjson' && f !== 'geojson') {
      return layer ? htmlAnswer(queryFormPage(layer)) : htmlAnswer(notFoundPage(), 404);
    }
    if (!layer) return missing();
    const body = this.queryBody(layer, ctx.params, f);
    return jsonAnswer(body, 200, f === 'geojson' ? 'application/geo+json;charset=UTF-8' : undefined, pretty);
  }

  /** Publishes a map change in this MapServer's layers (map-publishing.ts); from then on it serves its own copy of each layer changed. */
  protected publishChange(input: unknown): Published {
    return publishOnMap({ layer: (matches, label) => this.publishableLayer(matches, label) }, input);
  }

  private publishableLayer(matches: (name: string) => boolean, label: string): PublishableLayer {
    const served = [...this.layersById.values()].find((layer) => matches(layer.name));
    if (!served) throw new PublishRefused(`this map has no layer ${label}`);
    return {
      features: served.data.features,
      fieldNames: served.data.fields.filter((field) => field.type !== 'esriFieldTypeGeometry').map((field) => field.name),
      replace: (features) => {
        const { geometryType, fields, displayField } = served.data;
        served.data = { geometryType, fields, displayField, features };
      },
    };
  }

  /** The answer of a layer's query operation (`f` is json, pjson or geojson); a FeatureServer shapes it its own way. */
  protected queryBody(layer: ServedLayer, params: Record<string, string>, f: string): unknown {
    return queryLayer(layer.data, params, f, this.settings());
  }

  private settings(): QuerySettings {
    return { maxRecordCount: this.maxRecordCount, ignoreWhere: this.ignoreWhere };
  }

  private exportAnswer(params: Record<string, string>): Answer {
    const f = (params.f ?? '').toLowerCase();
    if (f !== 'image' && f !== 'json' && f !== 'pjson') return htmlAnswer(exportFormPage(this.title));
    const req = parseExportRequest(params, this.exportLimits);
    if ('error' in req) return jsonAnswer(req);
    if (f === 'image') return { status: 200, contentType: 'image/png', body: this.drawExport(req).png() };
    // the real href names a file in the server's output directory; here it is the same picture as f=image
    const href = `${this.exportUrl}?${new URLSearchParams({ ...params, f: 'image' }).toString()}`;
    return jsonAnswer(exportDescription(req, href), 200, undefined, f === 'pjson');
  }

  /** The picture of an export: every layer asked for that has a renderer, the bottom of the layer list first. */
  protected drawExport(req: ExportRequest): Picture {
    const picture = new Picture(req.width, req.height);
    if (!req.transparent) picture.fill([255, 255, 255, 255]);
    for (const layer of [...this.layersById.values()].reverse()) {
      const drawingInfo = layer.metadata.drawingInfo as DrawingInfo | undefined;
      if (!drawingInfo?.renderer || !layerDrawn(req, { ...layer.rootEntry, id: layer.id })) continue;
      drawLayer(picture, layer.data.features, drawingInfo, req);
    }
    return picture;
  }
}

/** Layer metadata for a layer without a recorded document: the common members and its fields. */
export function layerMetadata(layer: {
  id: number;
  name: string;
  type?: string;
  geometryType?: ArcGisGeometryType;
  displayField: string;
  fields: ArcGisField[];
}): Record<string, unknown> {
  return {
    currentVersion: 11.1,
    id: layer.id,
    name: layer.name,
    type: layer.type ?? 'Feature Layer',
    ...(layer.geometryType ? { geometryType: layer.geometryType, sourceSpatialReference: { wkid: 4269, latestWkid: 4269 } } : {}),
    displayField: layer.displayField,
    fields: layer.fields,
    capabilities: 'Map,Query,Data',
    maxRecordCount: DEFAULT_MAX_RECORD_COUNT,
    supportedQueryFormats: 'JSON, geoJSON, PBF',
    advancedQueryCapabilities: { supportsPagination: true, supportsOrderBy: true, supportsQueryWithDistance: true },
  };
}

// ----- NFHL -----

export const NFHL_BASE_PATH = '/arcgis/rest/services/public/NFHL/MapServer';

export interface NfhlEmulatorOptions extends ArcGisEmulatorOptions {
  /** The data served; default the demo map. */
  map?: DemoMap;
  /**
   * Move layers to other ids (e.g. `{ floodHazardZones: 30 }`) to prove the client resolves ids by name.
   * A layer already at the target id swaps ids with the moved one.
   */
  layerIds?: Partial<Record<NfhlLayerKey, number>>;
  /** Default /arcgis/rest/services/public/NFHL/MapServer. */
  basePath?: string;
}

const FIXTURES = path.join(__dirname, 'fixtures');
/** A JSON document of fixtures/ (`name` may hold a sub-folder), as the server would send it. */
export function readFixture(name: string): Record<string, unknown> {
  const doc = JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;
  // the recorded excerpts carry notes about their source: not part of what the server says
  return Object.fromEntries(Object.entries(doc).filter(([k]) => !k.startsWith('_')));
}

/** Recorded (or, for layer 16, rebuilt from real fields) metadata, by the real layer name. */
const NFHL_METADATA_FILES: Readonly<Record<string, string>> = {
  'NFHL Availability': 'nfhl-layer-0-nfhl-availability.metadata.json',
  LOMRs: 'nfhl-layer-1-lomrs.metadata.excerpt.json',
  'FIRM Panels': 'nfhl-layer-3-firm-panels.metadata.json',
  'Base Flood Elevations': 'nfhl-layer-16-base-flood-elevations.metadata.json',
  'Political Jurisdictions': 'nfhl-layer-22-political-jurisdictions.metadata.excerpt.json',
  'Flood Hazard Zones': 'nfhl-layer-28-flood-hazard-zones.metadata.excerpt.json',
  LOMAs: 'nfhl-layer-34-lomas.metadata.excerpt.json',
};
/** The recorded renderer (and transparency) of the layers an export draws, by the real layer name. */
const NFHL_DRAWING_INFO_FILES: Readonly<Record<string, string>> = {
  'Flood Hazard Zones': 'nfhl-layer-28-drawing-info.json',
};

const OBJECTID_ONLY: ArcGisField[] = [{ name: 'OBJECTID', type: 'esriFieldTypeOID', alias: 'OBJECTID', domain: null }];

/** The NFHL MapServer emulator. */
export class NfhlMapServerEmulator extends ArcGisMapServerEmulator {
  readonly map: DemoMap;
  /** Current layer id of each NFHL layer the service uses (after `layerIds` moves). */
  readonly layerIds: Readonly<Record<NfhlLayerKey, number>>;

  private constructor(options: NfhlEmulatorOptions, built = buildNfhlService(options)) {
    super(options.basePath ?? NFHL_BASE_PATH, options, built.service);
    this.map = built.map;
    this.layerIds = built.layerIds;
  }

  static async start(options: NfhlEmulatorOptions = {}): Promise<NfhlMapServerEmulator> {
    const emulator = new NfhlMapServerEmulator(options);
    await emulator.listen(options);
    return emulator;
  }

  /** URL of a layer's query endpoint, by id or by key ("floodHazardZones") wherever it has been moved. */
  queryUrl(layer: NfhlLayerKey | number): string {
    return super.queryUrl(typeof layer === 'number' ? layer : this.layerIds[layer]);
  }

  /** Count of queries to an NFHL layer, by key ("floodHazardZones") wherever it has been moved. */
  queryCount(layer: NfhlLayerKey): number {
    return this.callCount({ endpoint: 'query', layerId: this.layerIds[layer] });
  }

  protected matchesName(name: string, call: CallRecord): boolean {
    // a layer key ("floodHazardZones") matches that layer wherever it has been moved
    const id = (this.layerIds as Record<string, number>)[name];
    return id !== undefined && call.layerId === id;
  }
}

/** The layers the NFHL emulator serves for these options (what a test may query directly with `queryLayer`), and their ids. */
export function buildNfhlService(options: NfhlEmulatorOptions): {
  service: MapServiceDefinition;
  map: DemoMap;
  layerIds: Record<NfhlLayerKey, number>;
} {
  const map = options.map ?? DEMO_MAP;
  const root = readFixture('nfhl-mapserver-root.metadata.json');
  const layers = (root.layers as Array<Record<string, unknown>>).map((l) => ({ ...l }));
  const keys = Object.keys(NFHL_LAYER_NAMES) as NfhlLayerKey[];
  const keyByName = new Map(keys.map((k) => [NFHL_LAYER_NAMES[k], k]));
  const ids: Record<NfhlLayerKey, number> = { ...NFHL_DEFAULT_LAYER_IDS };
  for (const [key, newId] of Object.entries(options.layerIds ?? {}) as Array<[NfhlLayerKey, number]>) {
    const moved = layers.find((l) => l.name === NFHL_LAYER_NAMES[key]);
    if (!moved || moved.id === newId) continue;
    const occupant = layers.find((l) => l.id === newId);
    if (occupant) {
      occupant.id = moved.id;
      const occupantKey = keyByName.get(occupant.name as string);
      if (occupantKey) ids[occupantKey] = moved.id as number;
    }
    moved.id = newId;
    ids[key] = newId;
  }
  const tables = (root.tables as Array<Record<string, unknown>> | undefined) ?? [];
  const served = [...layers, ...tables].map((entry): ServedLayer => {
    const id = entry.id as number;
    const name = entry.name as string;
    const file = NFHL_METADATA_FILES[name];
    const geometryType = entry.geometryType as ArcGisGeometryType | undefined;
    const drawingInfoFile = NFHL_DRAWING_INFO_FILES[name];
    const metadata: Record<string, unknown> = {
      ...(file ? readFixture(file) : layerMetadata({ id, name, type: entry.type as string, geometryType, displayField: 'OBJECTID', fields: OBJECTID_ONLY })),
      ...(drawingInfoFile ? { drawingInfo: readFixture(drawingInfoFile) } : {}),
    };
    const key = keyByName.get(name);
    return {
      id,
      name,
      rootEntry: entry,
      metadata,
      data: {
        geometryType,
        fields: metadata.fields as ArcGisField[],
        displayField: metadata.displayField as string,
        // read on every query, so a test may change the map between requests
        get features() {
          return (key && map.nfhl[key]) || [];
        },
      },
    };
  });
  return { service: { title: 'NFHL (MapServer)', root: { ...root, layers }, layers: served }, map, layerIds: ids };
}

function notFoundPage(): string {
  return '<!DOCTYPE html><html><head><title>404 - File or directory not found.</title></head><body><h2>404 - File or directory not found.</h2><p>The resource you are looking for might have been removed, had its name changed, or is temporarily unavailable.</p></body></html>';
}

function directoryPage(title: string, doc: Record<string, unknown>): string {
  const layers = Array.isArray(doc.layers)
    ? `<b>Layers:</b><ul>${(doc.layers as Array<{ id: number; name: string }>)
        .map((l) => `<li><a href="${l.id}">${escapeHtml(l.name)}</a> (${l.id})</li>`)
        .join('')}</ul>`
    : '';
  return `<html lang="en"><head><title>${escapeHtml(title)}</title></head><body><table width="100%" class="userTable"><tr><td class="titlecell">ArcGIS REST Services Directory</td></tr></table><h2>${escapeHtml(title)}</h2>${layers}<p>Supported Operations: <a href="?f=json">JSON</a></p></body></html>`;
}

function exportFormPage(title: string): string {
  return `<html lang="en"><head><title>Export Map (${escapeHtml(title)})</title></head><body><table width="100%" class="userTable"><tr><td class="titlecell">ArcGIS REST Services Directory</td></tr></table><h2>Export Map: ${escapeHtml(title)}</h2><form action="export"><table><tr><td>Bounding Box:</td><td><input name="bbox"/></td></tr><tr><td>Image Size:</td><td><input name="size" value="400,400"/></td></tr><tr><td>Format:</td><td><select name="f"><option value="html">HTML</option><option value="image">Image</option><option value="pjson">JSON</option></select></td></tr></table></form></body></html>`;
}

function queryFormPage(layer: ServedLayer): string {
  return `<html lang="en"><head><title>Query: ${escapeHtml(layer.name)} (ID: ${layer.id})</title></head><body><table width="100%" class="userTable"><tr><td class="titlecell">ArcGIS REST Services Directory</td></tr></table><h2>Query: ${escapeHtml(layer.name)} (ID: ${layer.id})</h2><form action="query"><table><tr><td>Where:</td><td><input name="where"/></td></tr><tr><td>Input Geometry:</td><td><textarea name="geometry"></textarea></td></tr><tr><td>Format:</td><td><select name="f"><option value="html">HTML</option><option value="pjson">JSON</option><option value="geojson">GeoJSON</option></select></td></tr></table></form></body></html>`;
}
