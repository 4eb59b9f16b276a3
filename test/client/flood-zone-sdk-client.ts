/**
 * A client of every operation, written only against the SDK that @hey-api/openapi-ts generates from the service's
 * own /openapi.json (./generated/hey-api, git-ignored; test/e2e/contract/generated-clients.system-spec.ts generates it from the
 * running app, type-checks this file with tsc, then runs it). The SDK sends `include` as the document declares it
 * (form style, not exploded: `include=nearby,cbrs`), and its types come from the document alone.
 */
import { createClient, createConfig, type Client } from './generated/hey-api/client';
import * as sdk from './generated/hey-api/sdk.gen';
import type {
  BatchAnswerDto,
  ErrorEnvelopeDto,
  FloodZoneLookupDto,
  JobAcceptedDto,
  JobCancelledDto,
  JobStatusDto,
  LookupFloodZoneData,
} from './generated/hey-api/types.gen';

/** The `include` items, as the document's enum gives them to the SDK. */
export type OptionalPart = NonNullable<NonNullable<LookupFloodZoneData['query']>['include']>[number];

export function floodZoneSdk(baseUrl: string): Client {
  return createClient(createConfig({ baseUrl }));
}

export interface Answer<T> {
  status: number;
  body: T | undefined;
  error: ErrorEnvelopeDto | undefined;
}

/** GET /flood-zone by point, with opt-in parts. */
export async function lookupPoint(
  client: Client,
  lat: number,
  lon: number,
  include: OptionalPart[] = [],
  radius?: number,
): Promise<Answer<FloodZoneLookupDto>> {
  const { data, error, response } = await sdk.lookupFloodZone({
    client,
    query: { lat, lon, ...(include.length ? { include } : {}), ...(radius ? { radius } : {}) },
  });
  return { status: response.status, body: data, error: error as ErrorEnvelopeDto | undefined };
}

/** GET /flood-zone by address. */
export async function lookupAddress(client: Client, address: string): Promise<Answer<FloodZoneLookupDto>> {
  const { data, error, response } = await sdk.lookupFloodZone({ client, query: { address } });
  return { status: response.status, body: data, error: error as ErrorEnvelopeDto | undefined };
}

/** POST /flood-zone/batch with a JSON body, answered as JSON: the typed way to screen many places. */
export async function screenAsJson(
  client: Client,
  locations: Array<{ id: string; lat: number; lon: number }>,
  include: OptionalPart[] = [],
): Promise<Answer<BatchAnswerDto>> {
  const { data, error, response } = await sdk.screenBatch({
    client,
    body: { locations },
    headers: { Accept: 'application/json' },
    ...(include.length ? { query: { include } } : {}),
  });
  return { status: response.status, body: data, error: error as ErrorEnvelopeDto | undefined };
}

/** The same batch answered as NDJSON or CSV: text, one row per line. */
export async function screenAsText(
  client: Client,
  locations: Array<{ id: string; lat: number; lon: number }>,
  accept: 'application/x-ndjson' | 'text/csv',
): Promise<{ status: number; type: string | null; text: string }> {
  const { data, response } = await sdk.screenBatch({ client, body: { locations }, headers: { Accept: accept }, parseAs: 'text' });
  return { status: response.status, type: response.headers.get('content-type'), text: String(data) };
}

/** GET /flood-zone/map by point: the picture's bytes (typed by the document as binary) and type, or the error envelope. */
export async function mapPicture(
  client: Client,
  lat: number,
  lon: number,
  size: { width?: number; height?: number; span?: number } = {},
): Promise<{ status: number; type: string | null; bytes: Uint8Array | undefined; error: ErrorEnvelopeDto | undefined }> {
  const { data, error, response } = await sdk.getFloodZoneMap({ client, query: { lat, lon, ...size }, parseAs: 'blob' });
  const bytes = data === undefined ? undefined : new Uint8Array(await data.arrayBuffer());
  return { status: response.status, type: response.headers.get('content-type'), bytes, error: error as ErrorEnvelopeDto | undefined };
}

/** GET /flood-zone/report by point: the page as text, or the HTML page of its error (the report answers errors as pages). */
export async function floodZoneReport(
  client: Client,
  lat: number,
  lon: number,
  span?: number,
): Promise<{ status: number; type: string | null; page: string | undefined; errorPage: string | undefined }> {
  const { data, error, response } = await sdk.getFloodZoneReport({ client, query: { lat, lon, ...(span ? { span } : {}) }, parseAs: 'text' });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    page: data === undefined ? undefined : String(data),
    errorPage: error === undefined ? undefined : String(error),
  };
}

/** POST /flood-zone/jobs with a JSON body: the accepted job and its Location. */
export async function submitJob(
  client: Client,
  locations: Array<{ id: string; lat: number; lon: number }>,
  include: OptionalPart[] = [],
): Promise<Answer<JobAcceptedDto> & { location: string | null }> {
  const { data, error, response } = await sdk.submitJob({ client, body: { locations }, ...(include.length ? { query: { include } } : {}) });
  return { status: response.status, body: data, error: error as ErrorEnvelopeDto | undefined, location: response.headers.get('location') };
}

/** GET /flood-zone/jobs/{id}: where the job stands. */
export async function jobStatus(client: Client, id: string): Promise<Answer<JobStatusDto>> {
  const { data, error, response } = await sdk.getJob({ client, path: { id } });
  return { status: response.status, body: data, error: error as ErrorEnvelopeDto | undefined };
}

/** GET /flood-zone/jobs/{id}/results answered as JSON (the typed way to read a finished job), or as the Accept given. */
export async function jobResults(client: Client, id: string, accept = 'application/json'): Promise<Answer<BatchAnswerDto>> {
  const { data, error, response } = await sdk.getJobResults({ client, path: { id }, headers: { Accept: accept } });
  return { status: response.status, body: data, error: error as ErrorEnvelopeDto | undefined };
}

/** DELETE /flood-zone/jobs/{id}: cancels the job and deletes its data. */
export async function cancelJob(client: Client, id: string): Promise<Answer<JobCancelledDto>> {
  const { data, error, response } = await sdk.cancelJob({ client, path: { id } });
  return { status: response.status, body: data, error: error as ErrorEnvelopeDto | undefined };
}

/** The probes and documents, each with its status and content type. */
export async function operations(client: Client): Promise<Record<string, { status: number; type: string | null }>> {
  const answers = {
    getServiceStatus: await sdk.getServiceStatus({ client }),
    checkReadiness: await sdk.checkReadiness({ client }),
    scrapeMetrics: await sdk.scrapeMetrics({ client, parseAs: 'text' }),
    getOpenApiDocument: await sdk.getOpenApiDocument({ client }),
    showApiDocs: await sdk.showApiDocs({ client, parseAs: 'text' }),
  };
  return Object.fromEntries(
    Object.entries(answers).map(([name, { response }]) => [name, { status: response.status, type: response.headers.get('content-type') }]),
  );
}
