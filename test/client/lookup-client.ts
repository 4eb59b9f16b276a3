/**
 * A typed client of GET /flood-zone, written only against the service's own /openapi.json: `paths` and
 * `components` come from ./generated/flood-zone-api.d.ts, which test/e2e/contract/typed-client.system-spec.ts generates
 * with openapi-typescript from the running app (git-ignored; running that suite regenerates it). The suite
 * type-checks this file with strict compiler options, then performs a real lookup with it.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/flood-zone-api';

export type FloodZoneLookup = components['schemas']['FloodZoneLookupDto'];
export type FloodDetermination = FloodZoneLookup['result'];
export type BatchAnswer = components['schemas']['BatchAnswerDto'];
export type ErrorEnvelope = components['schemas']['ErrorEnvelopeDto'];

/** `true` only when A and B are the same type: `any` or `unknown` from a loose schema does not pass. */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;

/**
 * What the API promises a typed client (docs/api.md): every field present, null where it does not apply,
 * so reading the answer needs no guards beyond nulls. A document that loosened any of these fails to compile.
 */
export type ContractChecks = [
  Assert<Equals<FloodDetermination['floodZone'], string | null>>,
  Assert<Equals<FloodDetermination['inSpecialFloodHazardArea'], boolean | null>>,
  Assert<Equals<FloodDetermination['coverage'], 'mapped' | 'mapped_no_zone' | 'unmapped'>>,
  Assert<Equals<FloodDetermination['riskLevel'], 'very_high' | 'high' | 'moderate' | 'minimal' | 'undetermined' | 'unknown'>>,
  Assert<Equals<NonNullable<FloodDetermination['firmPanel']>['panel'], string>>,
  Assert<Equals<FloodZoneLookup['query']['lat'], number | null>>,
  Assert<Equals<FloodZoneLookup['retrievedAt'], string>>,
  // A number, or text the service reads by its plain-decimal rule (declared so that a validating gateway forwards it).
  Assert<Equals<NonNullable<paths['/flood-zone']['get']['parameters']['query']>['lat'], number | string | undefined>>,
];

export interface PointLookup {
  status: number;
  floodZone: string | null;
  inSpecialFloodHazardArea: boolean | null;
  /** The full FIRM panel id, or null when no panel contains the point. */
  firmPanel: string | null;
  body: FloodZoneLookup;
}

/** The `include` items the document lists. */
export type OptionalPart = NonNullable<NonNullable<paths['/flood-zone']['get']['parameters']['query']>['include']>[number];

/**
 * openapi-fetch types the parameters but does not read their style from the document: arrays go out as the
 * document declares `include` (form, not exploded: include=nearby,cbrs), since a repeated include is a 400.
 */
export function floodZoneClient(baseUrl: string) {
  return createClient<paths>({ baseUrl, querySerializer: { array: { style: 'form', explode: false } } });
}

/** GET /flood-zone?lat&lon[&include]; anything but a 200 answer is thrown with the service's error envelope. */
export async function lookupPoint(baseUrl: string, lat: number, lon: number, include: OptionalPart[] = []): Promise<PointLookup> {
  const { data, error, response } = await floodZoneClient(baseUrl).GET('/flood-zone', {
    params: { query: { lat, lon, ...(include.length ? { include } : {}) } },
  });
  if (data === undefined) {
    throw new Error(`GET /flood-zone answered ${response.status}: ${error === undefined ? '(no body)' : `${error.code}: ${error.error}`}`);
  }
  const floodZone: string | null = data.result.floodZone;
  return {
    status: response.status,
    floodZone,
    inSpecialFloodHazardArea: data.result.inSpecialFloodHazardArea,
    firmPanel: data.result.firmPanel?.panel ?? null,
    body: data,
  };
}

/**
 * openapi-fetch takes the media type of the answers from the client's second type parameter: a client of
 * `application/json` reads a job's results (also NDJSON or CSV, by Accept) as the typed object.
 */
export function jsonClient(baseUrl: string) {
  return createClient<paths, 'application/json'>({ baseUrl });
}

/** GET /flood-zone/jobs/{id}/results with the Accept given: the typed answer, or the error envelope. */
export async function jobResults(
  baseUrl: string,
  id: string,
  accept: string,
): Promise<{ status: number; body: BatchAnswer | undefined; error: ErrorEnvelope | undefined }> {
  const { data, error, response } = await jsonClient(baseUrl).GET('/flood-zone/jobs/{id}/results', {
    params: { path: { id } },
    headers: { Accept: accept },
  });
  return { status: response.status, body: data, error };
}
