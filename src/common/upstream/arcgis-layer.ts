import type { HttpService } from '@nestjs/axios';
import { UpstreamUnavailableError } from '../api-error';
import { ResilientUpstream, UpstreamFailure } from './resilient-upstream';
import { getUpstreamJson, isRecord } from './upstream-json';
import type { UpstreamName } from './upstream-registry';

/** A feature with its geometry (outSR 4326): `rings`, `paths`, or a point's `x`/`y`, in lon,lat order. */
export interface ArcGisFeature<T> {
  attributes: T;
  geometry: Record<string, unknown>;
}

/** A field's type as an ArcGIS layer declares it (`esriFieldTypeString`, `…Double`, `…Integer`, `…Date`). */
export type ArcGisFieldType = 'string' | 'double' | 'integer' | 'date';

/** What is wrong with a feature's attributes, or null: a layer's check (see ArcGisLayer). */
export type AttributesCheck = (attributes: Record<string, unknown>) => string | null;

const FIELD_TYPE_WORDS: Record<ArcGisFieldType, string> = {
  string: 'text',
  double: 'a number',
  integer: 'a whole number',
  date: 'a date (epoch milliseconds)',
};

/** Whether a value is of the field type (null, a field's "no value", is of every type). */
function isOfType(value: unknown, type: ArcGisFieldType): boolean {
  if (value === null) return true;
  if (type === 'string') return typeof value === 'string';
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  return type === 'double' || Number.isInteger(value);
}

/** A value in words, for a failure's reason. */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'boolean') return 'true/false';
  if (typeof value !== 'number') return 'an object';
  if (!Number.isFinite(value)) return 'a number that is not finite';
  return Number.isInteger(value) ? 'a number' : 'a number with a fraction';
}

/**
 * What is wrong with a feature's attributes against the types their layer declares (`fields`), or null: text where
 * text is declared, a finite number where a number, a whole one where an integer or a date. A value of another type
 * (FLD_ZONE as an array or a number) is no value the layer can hold: read as "none", it would turn into an answer.
 */
export function attributeTypeProblem(attributes: Record<string, unknown>, fields: Readonly<Record<string, ArcGisFieldType>>): string | null {
  for (const [field, type] of Object.entries(fields)) {
    const value = attributes[field];
    if (value === undefined || isOfType(value, type)) continue;
    return `${field} is ${kindOf(value)} where the layer declares ${FIELD_TYPE_WORDS[type]}`;
  }
  return null;
}

/**
 * ArcGIS answers at most maxRecordCount features per call; a longer answer is read page by page, up to
 * this many features (50 of FEMA's 2,000-feature pages), whatever the server's page size.
 */
const MAX_FEATURES = 100_000;

/**
 * One layer of a keyless ArcGIS service at its URL: a MapServer's (`…/MapServer/28`, FEMA's NFHL, the USFWS CBRS
 * service) or a FeatureServer's (`…/FeatureServer/0`, USA Structures), whose `query` is the same protocol. Its
 * answers are read page after page and ArcGIS errors inside HTTP 200 are turned into upstream failures; every
 * request goes through the service's own resilience policies.
 */
export class ArcGisLayer {
  /** The layer's URL, without trailing slashes. */
  readonly url: string;

  constructor(
    private readonly http: HttpService,
    readonly upstream: ResilientUpstream,
    url: string,
    /** How failures name the layer, e.g. "layer zones". */
    private readonly name: string,
    /** What is wrong with a feature's attributes (their declared types, the values they can hold): such a feature fails its query. */
    private readonly check?: AttributesCheck,
  ) {
    this.url = url.replace(/\/+$/, '');
  }

  /**
   * The features of a query, page after page (`resultOffset`) while the server says it stopped at its transfer
   * limit: an answer cut there is never read as the whole answer (a truncated empty one would say "nothing
   * here"). A page that says so yet holds nothing, or an endless answer, is a failure of the upstream (not an
   * outage): the part is unavailable rather than wrong. The upstream's byte cap holds for all the pages together,
   * so pages each under it cannot add up to more memory than one answer may take.
   */
  async queryAllPages(params: Record<string, string>, deadline: AbortSignal): Promise<Array<ArcGisFeature<unknown>>> {
    const features: Array<ArcGisFeature<unknown>> = [];
    let bytesRead = 0;
    for (;;) {
      const received = await this.queryPage(features.length === 0 ? params : { ...params, resultOffset: String(features.length) }, bytesRead, deadline);
      bytesRead += received.bytes;
      features.push(...received.features);
      if (!received.exceededTransferLimit) return features;
      if (received.features.length === 0) throw this.malformed('exceededTransferLimit on an empty page');
      if (features.length >= MAX_FEATURES) throw this.malformed(`more than ${MAX_FEATURES} features`);
    }
  }

  /** One page, read within what the pages before it (`bytesBefore`) left of the byte cap. */
  private queryPage(params: Record<string, string>, bytesBefore: number, deadline: AbortSignal): Promise<QueryPage & { bytes: number }> {
    return this.upstream.request(async (signal) => {
      const answer = await getUpstreamJson(this.http, `${this.url}/query`, params, signal, { maxBodyBytes: this.upstream.maxBodyBytes, bytesBefore });
      return { ...queryPage(arcgisBody(answer.body), this.name, params.returnGeometry === 'true', this.check), bytes: answer.bytes };
    }, deadline);
  }

  private malformed(reason: string): UpstreamUnavailableError {
    return new UpstreamUnavailableError(this.upstream.name, `${this.name}: ${reason}`);
  }
}

interface QueryPage {
  features: Array<ArcGisFeature<unknown>>;
  exceededTransferLimit: boolean;
}

/** The features of one query answer, each checked to carry attributes (and geometry when it was asked for), and by the layer's check. */
function queryPage(body: Record<string, unknown>, layer: string, withGeometry: boolean, check?: AttributesCheck): QueryPage {
  if (!Array.isArray(body.features)) throw new UpstreamFailure(`${layer}: answer without features`, false);
  const features = body.features.map((feature) => {
    if (!isRecord(feature) || !isRecord(feature.attributes)) throw new UpstreamFailure(`${layer}: feature without attributes`, false);
    if (withGeometry && !isRecord(feature.geometry)) throw new UpstreamFailure(`${layer}: feature without geometry`, false);
    const problem = check?.(feature.attributes);
    if (problem) throw new UpstreamFailure(`${layer}: ${problem}`, false);
    return { attributes: feature.attributes, geometry: isRecord(feature.geometry) ? feature.geometry : {} };
  });
  return { features, exceededTransferLimit: body.exceededTransferLimit === true };
}

/** ArcGIS reports errors inside HTTP 200 as `{"error": {code, message}}`; 5xx codes there are outages. */
export function arcgisBody(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw new UpstreamFailure('answer is not a JSON object', false);
  if (isRecord(body.error)) {
    const code = Number(body.error.code);
    throw new UpstreamFailure(`ArcGIS error ${body.error.code}: ${String(body.error.message ?? '')}`, code >= 500);
  }
  return body;
}

/** A list of lines or rings as ArcGIS sends them: arrays of [lon, lat] positions. */
export function isPositionLists(value: unknown): value is number[][][] {
  return (
    Array.isArray(value) &&
    value.every((part) => Array.isArray(part) && part.every((p) => Array.isArray(p) && p.length >= 2 && p.every((n) => typeof n === 'number')))
  );
}

/** A feature's `rings` or `paths`; a feature without them is an answer of `upstream` that cannot be used. */
export function positionListsOf(feature: ArcGisFeature<unknown>, member: 'rings' | 'paths', upstream: UpstreamName): number[][][] {
  const lists = feature.geometry[member];
  if (!isPositionLists(lists)) throw new UpstreamUnavailableError(upstream, `${member}: a feature without ${member}`);
  return lists;
}
