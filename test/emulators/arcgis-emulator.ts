/**
 * Emulator of FEMA's NFHL ArcGIS Server MapServer (UPSTREAMS.md), on loopback:
 *
 *   GET {base}?f=json|pjson                  service root: the real layer list (fixtures/nfhl/nfhl-mapserver-root.metadata.json)
 *   GET {base}/{id}?f=json|pjson             layer metadata (real fields from the layer fixtures)
 *   GET|POST {base}/{id}/query?...           point query: geometry, geometryType, inSR, spatialRel, outFields,
 *                                            returnGeometry, where, returnCountOnly, returnIdsOnly, outSR, f=json|pjson|geojson
 *
 * Behaviour copied from the real server: errors are HTTP 200 with {"error":{code,message,details}}; an unknown
 * outFields name fails the whole query ("Failed to execute query.", code 400); no match is `features: []`;
 * a missing or unknown `f` answers an HTML page; axis order is lon,lat (a swapped point matches nothing).
 * Base path: /arcgis/rest/services/public/NFHL/MapServer.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  Answer,
  CallRecord,
  EmulatorOptions,
  RequestContext,
  UpstreamEmulator,
  escapeHtml,
  htmlAnswer,
  jsonAnswer,
} from './emulator-core';
import {
  DEMO_MAP,
  DemoMap,
  MapFeature,
  NFHL_DEFAULT_LAYER_IDS,
  NFHL_LAYER_NAMES,
  NfhlLayerKey,
  featuresAt,
} from './demo-map';
import { ringsToGeoJson, webMercatorToLonLat } from './geometry';

export const NFHL_BASE_PATH = '/arcgis/rest/services/public/NFHL/MapServer';

export interface NfhlEmulatorOptions extends EmulatorOptions {
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

interface FieldMeta {
  name: string;
  type: string;
  alias: string;
  length?: number;
  domain?: unknown;
}

interface LayerEntry {
  id: number;
  name: string;
  type: string;
  geometryType?: string;
  key?: NfhlLayerKey;
  rootEntry: Record<string, unknown>;
}

const FIXTURES = path.join(__dirname, 'fixtures');
function readFixture(name: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;
}

const LAYER_METADATA_FILES: Record<NfhlLayerKey, string> = {
  availability: 'nfhl-layer-0-nfhl-availability.metadata.json',
  lomrs: 'nfhl-layer-1-lomrs.metadata.excerpt.json',
  firmPanels: 'nfhl-layer-3-firm-panels.metadata.json',
  politicalJurisdictions: 'nfhl-layer-22-political-jurisdictions.metadata.excerpt.json',
  floodHazardZones: 'nfhl-layer-28-flood-hazard-zones.metadata.excerpt.json',
};

const GEOMETRY_FIELD_TYPES = new Set(['esriFieldTypeGeometry']);

const FAILED_QUERY = { error: { code: 400, message: 'Failed to execute query.', details: [] as string[] } };
const INVALID_PARAMS = (details: string[] = []) => ({
  error: { code: 400, message: 'Invalid or missing input parameters.', details },
});

type WhereTest = (a: Record<string, unknown>) => boolean;

/** The NFHL MapServer emulator. */
export class NfhlMapServerEmulator extends UpstreamEmulator {
  readonly map: DemoMap;
  /** Current layer id of each NFHL layer the service uses (after `layerIds` moves). */
  readonly layerIds: Readonly<Record<NfhlLayerKey, number>>;
  private readonly rootDoc: Record<string, unknown>;
  private readonly layersById = new Map<number, LayerEntry>();
  private readonly metadata: Record<NfhlLayerKey, Record<string, unknown>>;
  private readonly fields: Record<NfhlLayerKey, FieldMeta[]>;

  private constructor(options: NfhlEmulatorOptions) {
    super(options.basePath ?? NFHL_BASE_PATH, options);
    this.map = options.map ?? DEMO_MAP;
    const root = readFixture('nfhl-mapserver-root.metadata.json');
    const layers = (root.layers as Array<Record<string, unknown>>).map((l) => ({ ...l }));
    const ids: Record<NfhlLayerKey, number> = { ...NFHL_DEFAULT_LAYER_IDS };
    for (const [key, newId] of Object.entries(options.layerIds ?? {}) as Array<[NfhlLayerKey, number]>) {
      const moved = layers.find((l) => l.name === NFHL_LAYER_NAMES[key]);
      if (!moved || moved.id === newId) continue;
      const occupant = layers.find((l) => l.id === newId);
      if (occupant) {
        occupant.id = moved.id;
        const occKey = (Object.keys(NFHL_LAYER_NAMES) as NfhlLayerKey[]).find((k) => NFHL_LAYER_NAMES[k] === occupant.name);
        if (occKey) ids[occKey] = moved.id as number;
      }
      moved.id = newId;
      ids[key] = newId;
    }
    this.layerIds = ids;
    this.rootDoc = { ...root, layers };
    const keyByName = new Map((Object.keys(NFHL_LAYER_NAMES) as NfhlLayerKey[]).map((k) => [NFHL_LAYER_NAMES[k], k]));
    for (const l of layers) {
      const entry: LayerEntry = {
        id: l.id as number,
        name: l.name as string,
        type: l.type as string,
        geometryType: l.geometryType as string,
        key: keyByName.get(l.name as string),
        rootEntry: l,
      };
      this.layersById.set(entry.id, entry);
    }
    for (const t of (root.tables as Array<Record<string, unknown>>) ?? []) {
      this.layersById.set(t.id as number, { id: t.id as number, name: t.name as string, type: t.type as string, rootEntry: t });
    }
    const metadata = {} as Record<NfhlLayerKey, Record<string, unknown>>;
    const fields = {} as Record<NfhlLayerKey, FieldMeta[]>;
    for (const key of Object.keys(LAYER_METADATA_FILES) as NfhlLayerKey[]) {
      metadata[key] = readFixture(LAYER_METADATA_FILES[key]);
      fields[key] = metadata[key].fields as FieldMeta[];
    }
    this.metadata = metadata;
    this.fields = fields;
  }

  static async start(options: NfhlEmulatorOptions = {}): Promise<NfhlMapServerEmulator> {
    const emulator = new NfhlMapServerEmulator(options);
    await emulator.listen(options);
    return emulator;
  }

  /** URL of a layer's query endpoint. */
  queryUrl(layer: NfhlLayerKey | number): string {
    const id = typeof layer === 'number' ? layer : this.layerIds[layer];
    return `${this.baseUrl}/${id}/query`;
  }

  /** Count of queries to an NFHL layer, by key ("floodHazardZones") wherever it has been moved. */
  queryCount(layer: NfhlLayerKey): number {
    return this.callCount({ endpoint: 'query', layerId: this.layerIds[layer] });
  }

  protected acceptsPostForm(): boolean {
    return true;
  }

  protected matchesName(name: string, call: CallRecord): boolean {
    // a layer key ("floodHazardZones") matches that layer wherever it has been moved
    const id = (this.layerIds as Record<string, number>)[name];
    return id !== undefined && call.layerId === id;
  }

  protected describe(subPath: string): Pick<CallRecord, 'endpoint' | 'layerId' | 'layerName'> {
    if (subPath === '') return { endpoint: 'root' };
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
    const { call } = ctx;
    if (call.endpoint === 'root') {
      if (f !== 'json' && f !== 'pjson') return htmlAnswer(directoryPage('NFHL (MapServer)', this.rootDoc));
      return jsonAnswer(this.rootDoc, 200, undefined, f === 'pjson');
    }
    const layer = this.layersById.get(call.layerId as number);
    if (call.endpoint === 'layer') {
      if (f !== 'json' && f !== 'pjson') {
        return layer ? htmlAnswer(directoryPage(`Layer: ${layer.name} (ID: ${layer.id})`, layer.rootEntry)) : htmlAnswer(notFoundPage(), 404);
      }
      if (!layer) return jsonAnswer(INVALID_PARAMS([`The requested layer (layerId: ${call.layerId}) was not found.`]));
      return jsonAnswer(this.layerMetadata(layer), 200, undefined, f === 'pjson');
    }
    // query
    if (f !== 'json' && f !== 'pjson' && f !== 'geojson') {
      return layer ? htmlAnswer(queryFormPage(layer)) : htmlAnswer(notFoundPage(), 404);
    }
    if (!layer) return jsonAnswer(INVALID_PARAMS([`The requested layer (layerId: ${call.layerId}) was not found.`]));
    return jsonAnswer(this.query(layer, ctx.params, f), 200, f === 'geojson' ? 'application/geo+json;charset=UTF-8' : undefined, f === 'pjson');
  }

  private layerMetadata(layer: LayerEntry): Record<string, unknown> {
    if (layer.key) return { ...this.metadata[layer.key], id: layer.id };
    return {
      currentVersion: 11.1,
      id: layer.id,
      name: layer.name,
      type: layer.type,
      ...(layer.geometryType ? { geometryType: layer.geometryType } : {}),
      fields: [{ name: 'OBJECTID', type: 'esriFieldTypeOID', alias: 'OBJECTID', domain: null }],
      capabilities: 'Map,Query,Data',
      maxRecordCount: 2000,
      supportedQueryFormats: 'JSON, geoJSON, PBF',
    };
  }

  private query(layer: LayerEntry, p: Record<string, string>, f: string): unknown {
    const fields: FieldMeta[] = layer.key
      ? this.fields[layer.key]
      : [{ name: 'OBJECTID', type: 'esriFieldTypeOID', alias: 'OBJECTID' }];
    const features: MapFeature[] = layer.key ? this.map.nfhl[layer.key] : [];
    const byLowerName = new Map(fields.map((fd) => [fd.name.toLowerCase(), fd]));

    // outFields
    let out: FieldMeta[];
    const rawOut = (p.outFields ?? '').trim();
    if (rawOut === '') out = fields.filter((fd) => fd.type === 'esriFieldTypeOID');
    else if (rawOut.split(',').some((s) => s.trim() === '*')) out = fields.filter((fd) => !GEOMETRY_FIELD_TYPES.has(fd.type));
    else {
      out = [];
      for (const name of rawOut.split(',').map((s) => s.trim()).filter(Boolean)) {
        const fd = byLowerName.get(name.toLowerCase());
        if (!fd) return FAILED_QUERY;
        if (!GEOMETRY_FIELD_TYPES.has(fd.type) && !out.includes(fd)) out.push(fd);
      }
    }

    // where
    const whereTest = parseWhere(p.where, byLowerName);
    if (whereTest === 'invalid') return FAILED_QUERY;

    // geometry
    let point: [number, number] | null = null;
    if (p.geometry !== undefined && p.geometry.trim() !== '') {
      const geometryType = p.geometryType ?? 'esriGeometryPoint';
      if (geometryType !== 'esriGeometryPoint') return INVALID_PARAMS(['Only esriGeometryPoint is supported by this emulator']);
      const parsed = parsePoint(p.geometry, p.inSR);
      if (parsed === 'invalid') return INVALID_PARAMS(["'geometry' parameter is invalid"]);
      if (parsed === 'bad-sr') return INVALID_PARAMS(["'inSR' parameter is invalid"]);
      point = parsed;
      const rel = p.spatialRel ?? 'esriSpatialRelIntersects';
      if (!['esriSpatialRelIntersects', 'esriSpatialRelWithin', 'esriSpatialRelContains', 'esriSpatialRelEnvelopeIntersects', 'esriSpatialRelIndexIntersects'].includes(rel)) {
        return INVALID_PARAMS(["'spatialRel' parameter is invalid"]);
      }
    } else if (whereTest === null && !p.objectIds) {
      return INVALID_PARAMS(["Either 'where' or 'geometry' or 'objectIds' parameter must be specified"]);
    }

    let hits = point ? featuresAt(features, point[0], point[1]) : features.slice();
    if (whereTest) hits = hits.filter((h) => whereTest(h.attributes));
    if (p.objectIds) {
      const wanted = new Set(p.objectIds.split(',').map((s) => Number(s.trim())));
      hits = hits.filter((h) => wanted.has(Number(h.attributes.OBJECTID)));
    }
    hits = hits.slice(0, 2000);

    if (isTrue(p.returnCountOnly)) return { count: hits.length };
    if (isTrue(p.returnIdsOnly)) return { objectIdFieldName: 'OBJECTID', objectIds: hits.map((h) => h.attributes.OBJECTID) };

    const returnGeometry = p.returnGeometry === undefined || !/^false$/i.test(p.returnGeometry.trim());
    const pick = (h: MapFeature): Record<string, unknown> => {
      const attrs: Record<string, unknown> = {};
      for (const fd of out) attrs[fd.name] = h.attributes[fd.name] ?? null;
      return attrs;
    };

    if (f === 'geojson') {
      return {
        type: 'FeatureCollection',
        features: hits.map((h) => ({
          type: 'Feature',
          id: h.attributes.OBJECTID,
          geometry: returnGeometry ? ringsToGeoJson(h.rings) : null,
          properties: pick(h),
        })),
      };
    }
    const outWkid = parseWkid(p.outSR) ?? 4269;
    const displayField = layer.key ? (this.metadata[layer.key].displayField as string) : 'OBJECTID';
    return {
      displayFieldName: displayField,
      fieldAliases: Object.fromEntries(out.map((fd) => [fd.name, fd.alias])),
      geometryType: layer.geometryType ?? 'esriGeometryPolygon',
      spatialReference: { wkid: outWkid, latestWkid: outWkid },
      fields: out.map((fd) => {
        const { domain: _domain, ...rest } = fd;
        void _domain;
        return rest;
      }),
      features: hits.map((h) => (returnGeometry ? { attributes: pick(h), geometry: { rings: h.rings } } : { attributes: pick(h) })),
    };
  }
}

function isTrue(v: string | undefined): boolean {
  return v !== undefined && /^true$/i.test(v.trim());
}

function parseWkid(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === '') return null;
  const t = raw.trim();
  if (/^\d+$/.test(t)) return Number(t);
  try {
    const j = JSON.parse(t) as { wkid?: number; latestWkid?: number };
    return j.latestWkid ?? j.wkid ?? NaN;
  } catch {
    return NaN;
  }
}

const GEOGRAPHIC_WKIDS = new Set([4326, 4269, 4152, 6318]);
const MERCATOR_WKIDS = new Set([3857, 102100, 102113, 900913]);

/** "x,y" or {"x":..,"y":..,"spatialReference":{"wkid":..}}; returns [lon, lat]. */
function parsePoint(raw: string, inSR: string | undefined): [number, number] | 'invalid' | 'bad-sr' {
  let x: number;
  let y: number;
  let wkid = parseWkid(inSR);
  const t = raw.trim();
  if (t.startsWith('{')) {
    let j: { x?: unknown; y?: unknown; spatialReference?: { wkid?: number; latestWkid?: number } };
    try {
      j = JSON.parse(t);
    } catch {
      return 'invalid';
    }
    if (typeof j.x !== 'number' || typeof j.y !== 'number') return 'invalid';
    x = j.x;
    y = j.y;
    if (wkid === null && j.spatialReference) wkid = j.spatialReference.latestWkid ?? j.spatialReference.wkid ?? null;
  } else {
    const parts = t.split(',').map((s) => s.trim());
    if (parts.length !== 2 || parts.some((s) => s === '' || !Number.isFinite(Number(s)))) return 'invalid';
    [x, y] = parts.map(Number);
  }
  if (wkid === null || GEOGRAPHIC_WKIDS.has(wkid)) return [x, y];
  if (MERCATOR_WKIDS.has(wkid)) return webMercatorToLonLat(x, y);
  return 'bad-sr';
}

/**
 * A small SQL subset: `1=1`, `FIELD = 'text'`, `FIELD = 123`, `FIELD <> ...`, `FIELD IS [NOT] NULL`, joined by AND.
 * Returns null for "no filter", 'invalid' for anything else (the real server answers "Failed to execute query.").
 */
function parseWhere(raw: string | undefined, fields: Map<string, FieldMeta>): WhereTest | null | 'invalid' {
  if (raw === undefined || raw.trim() === '') return null;
  const tests: WhereTest[] = [];
  for (const clause of raw.split(/\s+and\s+/i)) {
    const c = clause.trim().replace(/^\((.*)\)$/, '$1').trim();
    if (/^1\s*=\s*1$/.test(c)) continue;
    let m = /^([A-Za-z_][\w.()]*)\s+IS\s+(NOT\s+)?NULL$/i.exec(c);
    if (m) {
      const fd = fields.get(m[1].toLowerCase());
      if (!fd) return 'invalid';
      const not = Boolean(m[2]);
      tests.push((a) => (a[fd.name] === null || a[fd.name] === undefined) !== not);
      continue;
    }
    m = /^([A-Za-z_][\w.()]*)\s*(=|<>|!=)\s*(?:'((?:[^']|'')*)'|(-?\d+(?:\.\d+)?))$/.exec(c);
    if (m) {
      const fd = fields.get(m[1].toLowerCase());
      if (!fd) return 'invalid';
      const value: string | number = m[3] !== undefined ? m[3].replace(/''/g, "'") : Number(m[4]);
      const eq = m[2] === '=';
      tests.push((a) => (a[fd.name] === value) === eq);
      continue;
    }
    return 'invalid';
  }
  return (a) => tests.every((t) => t(a));
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

function queryFormPage(layer: LayerEntry): string {
  return `<html lang="en"><head><title>Query: ${escapeHtml(layer.name)} (ID: ${layer.id})</title></head><body><table width="100%" class="userTable"><tr><td class="titlecell">ArcGIS REST Services Directory</td></tr></table><h2>Query: ${escapeHtml(layer.name)} (ID: ${layer.id})</h2><form action="query"><table><tr><td>Where:</td><td><input name="where"/></td></tr><tr><td>Input Geometry:</td><td><textarea name="geometry"></textarea></td></tr><tr><td>Format:</td><td><select name="f"><option value="html">HTML</option><option value="pjson">JSON</option><option value="geojson">GeoJSON</option></select></td></tr></table></form></body></html>`;
}
