/**
 * The `query` operation of an ArcGIS MapServer layer, shared by every MapServer emulator (NFHL, FEMA
 * preliminary / pending, USFWS CBRS): GET|POST {base}/{id}/query with
 *
 *   geometry + geometryType     esriGeometryPoint ("x,y" or {"x","y"}) or esriGeometryEnvelope
 *                               ("xmin,ymin,xmax,ymax" or {"xmin",...}); inferred from the text when absent
 *   inSR / outSR                4326, 4269 (lon/lat) or 3857 / 102100 (Web Mercator); default 4269
 *   spatialRel                  every intersects-like relation is evaluated as esriSpatialRelIntersects
 *   distance + units            point buffer: features within that geodesic distance (esriSRUnit_Meter, _Foot,
 *                               _Kilometer, ...); without units a geographic inSR buffers by planar degrees
 *   where, objectIds, outFields as the real server (an unknown outFields name fails the whole query)
 *   returnGeometry              f=json `rings` / `paths` / `x,y` in outSR, whole (never clipped to the
 *                               envelope), thinned by maxAllowableOffset, rounded to geometryPrecision
 *   returnCountOnly, returnIdsOnly, resultOffset, resultRecordCount
 *   f                           json | pjson | geojson (GeoJSON is always lon/lat)
 *
 * An answer holds at most maxRecordCount features; a truncated one carries `exceededTransferLimit: true`.
 */
import {
  BBox,
  EDGE_TOLERANCE,
  Position,
  Shape,
  lonLatToWebMercator,
  metersToDegrees,
  pathsToGeoJson,
  ringsToGeoJson,
  shapeDistanceDegrees,
  shapeDistanceMeters,
  shapeIntersectsEnvelope,
  shapeIntersectsPoint,
  thinVertices,
  webMercatorToLonLat,
} from './geometry';
import type { ArcGisFeature, ArcGisField, ArcGisGeometryType, ArcGisLayerData } from './map-data';

/** What a query reads from a layer (a table has no geometry type). */
export type QueryableLayer = Pick<ArcGisLayerData, 'fields' | 'displayField' | 'features'> & {
  geometryType?: ArcGisGeometryType;
};

export interface QuerySettings {
  /** Most features one answer holds. */
  maxRecordCount: number;
  /** Pretend the upstream ignores `where`: every feature passes it. */
  ignoreWhere: boolean;
}

interface ArcGisError {
  error: { code: number; message: string; details: string[] };
}

export const FAILED_QUERY: ArcGisError = { error: { code: 400, message: 'Failed to execute query.', details: [] } };

export function invalidParams(details: string[] = []): ArcGisError {
  return { error: { code: 400, message: 'Invalid or missing input parameters.', details } };
}

function isError(v: unknown): v is ArcGisError {
  return typeof v === 'object' && v !== null && 'error' in v;
}

const GEOGRAPHIC_WKIDS = new Set([4326, 4269, 4152, 6318]);
const MERCATOR_WKIDS = new Set([3857, 102100, 102113, 900913]);
/** The layers' own spatial reference (NFHL is NAD83, lon/lat). */
const NATIVE_WKID = 4269;

const METERS_PER_UNIT: Readonly<Record<string, number>> = {
  esriSRUnit_Meter: 1,
  esriSRUnit_Kilometer: 1000,
  esriSRUnit_Foot: 0.3048,
  esriSRUnit_SurveyFoot: 1200 / 3937,
  esriSRUnit_StatuteMile: 1609.344,
  esriSRUnit_NauticalMile: 1852,
};

const INTERSECTS_LIKE = new Set([
  'esriSpatialRelIntersects',
  'esriSpatialRelWithin',
  'esriSpatialRelContains',
  'esriSpatialRelEnvelopeIntersects',
  'esriSpatialRelIndexIntersects',
]);

type FeatureTest = (f: ArcGisFeature) => boolean;

export function queryLayer(layer: QueryableLayer, p: Record<string, string>, f: string, settings: QuerySettings): unknown {
  const byLowerName = new Map(layer.fields.map((fd) => [fd.name.toLowerCase(), fd]));
  const out = selectOutFields(layer.fields, byLowerName, p.outFields);
  if (out === null) return FAILED_QUERY;

  const hasWhere = p.where !== undefined && p.where.trim() !== '';
  const whereTest = settings.ignoreWhere ? null : parseWhere(p.where, byLowerName);
  if (whereTest === 'invalid') return FAILED_QUERY;

  let spatialTest: FeatureTest | null = null;
  if (p.geometry !== undefined && p.geometry.trim() !== '') {
    const parsed = parseSpatialFilter(p);
    if (isError(parsed)) return parsed;
    spatialTest = parsed;
  } else if (!hasWhere && !p.objectIds) {
    return invalidParams(["Either 'where' or 'geometry' or 'objectIds' parameter must be specified"]);
  }
  const paging = parsePaging(p, settings.maxRecordCount);
  if (isError(paging)) return paging;
  const output = parseOutput(p);
  if (isError(output)) return output;

  const wanted = p.objectIds ? new Set(p.objectIds.split(',').map((s) => Number(s.trim()))) : null;
  const hits = layer.features.filter(
    (h) => (!spatialTest || spatialTest(h)) && (!whereTest || whereTest(h.attributes)) && (!wanted || wanted.has(Number(h.attributes.OBJECTID))),
  );
  // counts and ids are not limited by maxRecordCount
  if (isTrue(p.returnCountOnly)) return { count: hits.length };
  if (isTrue(p.returnIdsOnly)) return { objectIdFieldName: 'OBJECTID', objectIds: hits.map((h) => h.attributes.OBJECTID) };

  const page = hits.slice(paging.offset, paging.offset + paging.count);
  const exceeded = paging.offset + page.length < hits.length;
  const returnGeometry = p.returnGeometry === undefined || !/^false$/i.test(p.returnGeometry.trim());
  const pick = (h: ArcGisFeature): Record<string, unknown> => Object.fromEntries(out.map((fd) => [fd.name, h.attributes[fd.name] ?? null]));

  if (f === 'geojson') {
    const lonLat: GeometryOutput = { ...output, project: (pos) => pos };
    return {
      type: 'FeatureCollection',
      features: page.map((h) => ({
        type: 'Feature',
        id: h.attributes.OBJECTID,
        geometry: returnGeometry ? geoJsonGeometry(h, lonLat) : null,
        properties: pick(h),
      })),
      ...(exceeded ? { properties: { exceededTransferLimit: true } } : {}),
    };
  }
  return {
    displayFieldName: layer.displayField,
    fieldAliases: Object.fromEntries(out.map((fd) => [fd.name, fd.alias])),
    ...(layer.geometryType ? { geometryType: layer.geometryType, spatialReference: output.spatialReference } : {}),
    fields: out.map(({ domain: _domain, ...rest }) => rest),
    features: page.map((h) => {
      const geometry = returnGeometry ? esriGeometry(h, output) : null;
      return geometry ? { attributes: pick(h), geometry } : { attributes: pick(h) };
    }),
    ...(exceeded ? { exceededTransferLimit: true } : {}),
  };
}

/** null when a name is unknown (the real server then fails the whole query). */
function selectOutFields(fields: ArcGisField[], byLowerName: Map<string, ArcGisField>, raw: string | undefined): ArcGisField[] | null {
  const text = (raw ?? '').trim();
  const isGeometry = (fd: ArcGisField) => fd.type === 'esriFieldTypeGeometry';
  if (text === '') return fields.filter((fd) => fd.type === 'esriFieldTypeOID');
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.includes('*')) return fields.filter((fd) => !isGeometry(fd));
  const out: ArcGisField[] = [];
  for (const name of names) {
    const fd = byLowerName.get(name.toLowerCase());
    if (!fd) return null;
    if (!isGeometry(fd) && !out.includes(fd)) out.push(fd);
  }
  return out;
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

type InputGeometry = { kind: 'point'; at: Position; geographic: boolean } | { kind: 'envelope'; box: BBox };

function numbers(text: string, count: number): number[] | null {
  const parts = text.split(',').map((s) => s.trim());
  if (parts.length !== count || parts.some((s) => s === '' || !Number.isFinite(Number(s)))) return null;
  return parts.map(Number);
}

/** `geometry` (plain or JSON, point or envelope) in lon/lat, whatever the inSR. */
function parseInputGeometry(raw: string, geometryType: string | undefined, inSR: string | undefined): InputGeometry | ArcGisError {
  const text = raw.trim();
  let wkid = parseWkid(inSR);
  let json: Record<string, unknown> | null = null;
  if (text.startsWith('{')) {
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return invalidParams(["'geometry' parameter is invalid"]);
    }
    const sr = json.spatialReference as { wkid?: number; latestWkid?: number } | undefined;
    if (wkid === null && sr) wkid = sr.latestWkid ?? sr.wkid ?? null;
  }
  const type =
    geometryType ?? (json ? ('xmin' in json ? 'esriGeometryEnvelope' : 'esriGeometryPoint') : numbers(text, 4) ? 'esriGeometryEnvelope' : 'esriGeometryPoint');
  const keys = type === 'esriGeometryPoint' ? ['x', 'y'] : type === 'esriGeometryEnvelope' ? ['xmin', 'ymin', 'xmax', 'ymax'] : null;
  if (!keys) return invalidParams(['Only esriGeometryPoint and esriGeometryEnvelope are supported by this emulator']);
  const coords = json ? keys.map((k) => json[k]).filter((n): n is number => typeof n === 'number') : numbers(text, keys.length);
  if (!coords || coords.length !== keys.length) return invalidParams(["'geometry' parameter is invalid"]);

  const geographic = wkid === null || GEOGRAPHIC_WKIDS.has(wkid);
  if (!geographic && !MERCATOR_WKIDS.has(wkid as number)) return invalidParams(["'inSR' parameter is invalid"]);
  const toLonLat = (x: number, y: number): Position => (geographic ? [x, y] : webMercatorToLonLat(x, y));
  if (type === 'esriGeometryPoint') return { kind: 'point', at: toLonLat(coords[0], coords[1]), geographic };
  const [x0, y0] = toLonLat(coords[0], coords[1]);
  const [x1, y1] = toLonLat(coords[2], coords[3]);
  return { kind: 'envelope', box: { xmin: Math.min(x0, x1), ymin: Math.min(y0, y1), xmax: Math.max(x0, x1), ymax: Math.max(y0, y1) } };
}

/** Where a query looks, in lon/lat: its point, or the centre of its envelope (what a `near` fault matches). */
export function queryFocus(p: Record<string, string>): Position | undefined {
  if (p.geometry === undefined || p.geometry.trim() === '') return undefined;
  const geometry = parseInputGeometry(p.geometry, p.geometryType, p.inSR);
  if (isError(geometry)) return undefined;
  if (geometry.kind === 'point') return geometry.at;
  const { xmin, ymin, xmax, ymax } = geometry.box;
  return [(xmin + xmax) / 2, (ymin + ymax) / 2];
}

function parseSpatialFilter(p: Record<string, string>): FeatureTest | ArcGisError {
  if (!INTERSECTS_LIKE.has(p.spatialRel ?? 'esriSpatialRelIntersects')) return invalidParams(["'spatialRel' parameter is invalid"]);
  const geometry = parseInputGeometry(p.geometry, p.geometryType, p.inSR);
  if (isError(geometry)) return geometry;
  const rawDistance = (p.distance ?? '').trim();
  const distance = rawDistance === '' ? 0 : Number(rawDistance);
  if (!Number.isFinite(distance) || distance < 0) return invalidParams(["'distance' parameter is invalid"]);

  if (geometry.kind === 'envelope') {
    if (distance > 0) return invalidParams(['This emulator buffers point geometry only']);
    return (f) => shapeIntersectsEnvelope(f, geometry.box, f.bbox);
  }
  const [x, y] = geometry.at;
  if (distance === 0) return (f) => shapeIntersectsPoint(f, x, y, f.bbox);
  const units = (p.units ?? '').trim();
  if (units === '' && geometry.geographic) {
    // ArcGIS buffers in the input spatial reference's own unit: degrees
    return (f) => shapeDistanceDegrees(f, x, y) <= distance;
  }
  const perUnit = units === '' ? 1 : METERS_PER_UNIT[units];
  if (perUnit === undefined) return invalidParams(["'units' parameter is invalid"]);
  const meters = distance * perUnit;
  // a generous box first, so only nearby features are measured
  const { dLon, dLat } = metersToDegrees(y, meters * 1.5 + 1);
  const around: BBox = { xmin: x - dLon, ymin: y - dLat, xmax: x + dLon, ymax: y + dLat };
  return (f) => overlaps(f.bbox, around) && shapeDistanceMeters(f, x, y) <= meters;
}

function overlaps(a: BBox, b: BBox): boolean {
  return a.xmin <= b.xmax + EDGE_TOLERANCE && a.xmax >= b.xmin - EDGE_TOLERANCE && a.ymin <= b.ymax + EDGE_TOLERANCE && a.ymax >= b.ymin - EDGE_TOLERANCE;
}

function parsePaging(p: Record<string, string>, maxRecordCount: number): { offset: number; count: number } | ArcGisError {
  const offsetText = (p.resultOffset ?? '').trim();
  const countText = (p.resultRecordCount ?? '').trim();
  if (offsetText !== '' && !/^\d+$/.test(offsetText)) return invalidParams(["'resultOffset' parameter is invalid"]);
  if (countText !== '' && !/^\d+$/.test(countText)) return invalidParams(["'resultRecordCount' parameter is invalid"]);
  const asked = countText === '' ? 0 : Number(countText);
  return { offset: offsetText === '' ? 0 : Number(offsetText), count: asked > 0 ? Math.min(asked, maxRecordCount) : maxRecordCount };
}

interface GeometryOutput {
  spatialReference: { wkid: number; latestWkid: number };
  project: (pos: Position) => Position;
  maxAllowableOffset: number;
  precision: number | null;
}

function parseOutput(p: Record<string, string>): GeometryOutput | ArcGisError {
  const wkid = parseWkid(p.outSR) ?? NATIVE_WKID;
  const offsetText = (p.maxAllowableOffset ?? '').trim();
  const precisionText = (p.geometryPrecision ?? '').trim();
  const maxAllowableOffset = offsetText === '' ? 0 : Number(offsetText);
  if (!Number.isFinite(maxAllowableOffset) || maxAllowableOffset < 0) return invalidParams(["'maxAllowableOffset' parameter is invalid"]);
  if (precisionText !== '' && !/^\d+$/.test(precisionText)) return invalidParams(["'geometryPrecision' parameter is invalid"]);
  const precision = precisionText === '' ? null : Number(precisionText);
  if (GEOGRAPHIC_WKIDS.has(wkid)) return { spatialReference: { wkid, latestWkid: wkid }, project: (pos) => pos, maxAllowableOffset, precision };
  if (MERCATOR_WKIDS.has(wkid)) {
    return { spatialReference: { wkid: 102100, latestWkid: 3857 }, project: ([x, y]) => lonLatToWebMercator(x, y), maxAllowableOffset, precision };
  }
  return invalidParams(["'outSR' parameter is invalid"]);
}

function lineOut(line: Position[], out: GeometryOutput, minVertices: number): Position[] {
  const thinned = thinVertices(line.map(out.project), out.maxAllowableOffset, minVertices);
  return out.precision === null ? thinned : thinned.map(([x, y]) => [round(x, out.precision as number), round(y, out.precision as number)]);
}

function round(v: number, decimals: number): number {
  return Number(v.toFixed(decimals));
}

/** f=json geometry: `{rings}`, `{paths}` or `{x, y}`; null for a feature without geometry (a table row). */
function esriGeometry(shape: Shape, out: GeometryOutput): Record<string, unknown> | null {
  if (shape.rings) return { rings: shape.rings.map((r) => lineOut(r, out, 4)) };
  if (shape.paths) return { paths: shape.paths.map((l) => lineOut(l, out, 2)) };
  if (shape.point) {
    const [[x, y]] = lineOut([shape.point], out, 1);
    return { x, y };
  }
  return null;
}

function geoJsonGeometry(shape: Shape, out: GeometryOutput): unknown {
  if (shape.rings) return ringsToGeoJson(shape.rings.map((r) => lineOut(r, out, 4)));
  if (shape.paths) return pathsToGeoJson(shape.paths.map((l) => lineOut(l, out, 2)));
  if (shape.point) return { type: 'Point', coordinates: lineOut([shape.point], out, 1)[0] };
  return null;
}

type WhereTest = (a: Record<string, unknown>) => boolean;

/**
 * A small SQL subset: `1=1`, `FIELD = 'text'`, `FIELD = 123`, `FIELD <> ...`, `FIELD IS [NOT] NULL`, and a date field
 * compared (`=`, `<>`, `<`, `<=`, `>`, `>=`) with the only date literals standardized queries accept, `date 'yyyy-mm-dd'`
 * and `timestamp 'yyyy-mm-dd hh:mm:ss'` (UTC, as the layers' dates), joined by AND. Returns null for "no filter",
 * 'invalid' for anything else (the real server answers "Failed to execute query.").
 */
function parseWhere(raw: string | undefined, fields: Map<string, ArcGisField>): WhereTest | null | 'invalid' {
  if (raw === undefined || raw.trim() === '') return null;
  const tests: WhereTest[] = [];
  for (const clause of raw.split(/\s+and\s+/i)) {
    const c = clause
      .trim()
      .replace(/^\((.*)\)$/, '$1')
      .trim();
    if (/^1\s*=\s*1$/.test(c)) continue;
    let m = /^([A-Za-z_][\w.()]*)\s+IS\s+(NOT\s+)?NULL$/i.exec(c);
    if (m) {
      const fd = fields.get(m[1].toLowerCase());
      if (!fd) return 'invalid';
      const not = Boolean(m[2]);
      tests.push((a) => (a[fd.name] === null || a[fd.name] === undefined) !== not);
      continue;
    }
    m = /^([A-Za-z_][\w.()]*)\s*(=|<>|<=|>=|<|>)\s*(date|timestamp)\s*'([^']*)'$/i.exec(c);
    if (m) {
      const fd = fields.get(m[1].toLowerCase());
      const at = dateLiteral(m[3], m[4]);
      if (fd?.type !== 'esriFieldTypeDate' || at === null) return 'invalid';
      const compare = DATE_COMPARISONS[m[2]];
      // A row without a date (null, or text where a date belongs) matches no comparison, as SQL's NULL.
      tests.push((a) => typeof a[fd.name] === 'number' && compare(a[fd.name] as number, at));
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

const DATE_COMPARISONS: Readonly<Record<string, (value: number, literal: number) => boolean>> = {
  '=': (v, l) => v === l,
  '<>': (v, l) => v !== l,
  '<': (v, l) => v < l,
  '<=': (v, l) => v <= l,
  '>': (v, l) => v > l,
  '>=': (v, l) => v >= l,
};

/** Epoch ms of `date 'yyyy-mm-dd'` or `timestamp 'yyyy-mm-dd hh:mm:ss'` (UTC); null for any other text or a day the calendar lacks. */
function dateLiteral(keyword: string, text: string): number | null {
  const pattern = keyword.toLowerCase() === 'date' ? /^(\d{4})-(\d{2})-(\d{2})$/ : /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
  const m = pattern.exec(text);
  if (!m) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1).map(Number);
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const back = new Date(ms);
  const exact =
    back.getUTCDate() === day &&
    back.getUTCMonth() === month - 1 &&
    back.getUTCHours() === hour &&
    back.getUTCMinutes() === minute &&
    back.getUTCSeconds() === second;
  return exact ? ms : null;
}
