import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INCLUDED_PARTS } from '../parts/answer-parts';

/** package.json sits two levels above both src/health and dist/health. */
const packageJson = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  description: string;
};

export const SERVICE_NAME = packageJson.name;
export const SERVICE_VERSION = packageJson.version;
export const SERVICE_DESCRIPTION = packageJson.description;

/** The interface's own version (OpenAPI `info.version`), distinct from the package version. */
export const API_VERSION = '1.0.0';

export const DOCS_PATH = '/api-docs.html';

/** Examples in the status document; all are real places FEMA maps (Toa Baja, Puerto Rico, and the White House). */
const LOOKUP_EXAMPLES = [
  '/flood-zone?lat=18.3985&lon=-66.1',
  '/flood-zone?address=1600%20Pennsylvania%20Ave%20NW%2C%20Washington%2C%20DC%2020500',
  '/flood-zone?lat=18.3985&lon=-66.1&include=nearby,preliminary,cbrs&radius=300',
];

/** A method a catalogued path serves with an operation of its own. */
export type ServedMethod = 'GET' | 'POST' | 'DELETE';

/** One path of the catalogue: the methods it serves, first the one it is mainly for. A `{name}` segment is any one segment. */
interface CatalogueEntry {
  methods: [ServedMethod, ...ServedMethod[]];
  note: string;
  params?: Record<string, string>;
  examples?: string[];
}

/** Allow's order: as RFC 9110 lists the methods. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The methods a catalogued path answers, in Allow's order: its own, HEAD beside GET, and the preflight every path answers. */
export function methodsAnswered(methods: readonly ServedMethod[]): string[] {
  const answered = new Set<string>([...methods, 'OPTIONS', ...(methods.includes('GET') ? ['HEAD'] : [])]);
  return METHOD_ORDER.filter((method) => answered.has(method));
}

/** Every path the service serves, keyed by path (as OpenAPI writes a path parameter). */
const ENDPOINTS: Record<string, CatalogueEntry> = {
  '/flood-zone': {
    methods: ['GET', 'POST'],
    note:
      'FEMA flood zone, SFHA status, FIRM panel and plain-language meaning for a US address or a lat/lon, live from the NFHL. Informational only. ' +
      "POST: the same parameters as a JSON body, plus footprint (a GeoJSON Polygon, MultiPolygon or Feature of one): the building's own outline.",
    params: {
      address: 'US street address, geocoded with the keyless U.S. Census geocoder (at most 200 characters). Not together with lat/lon.',
      lat: 'Latitude in decimal degrees, -90 to 90. Requires lon.',
      lon: 'Longitude in decimal degrees, -180 to 180. Requires lat.',
      include: `Optional parts, comma-separated: ${INCLUDED_PARTS.map((part) => `${part.include} (${part.summary})`).join(', ')}.`,
      radius: 'Search radius in metres for include=nearby, a whole number from 10 to 2000 (default 500). Only with include=nearby.',
    },
    examples: LOOKUP_EXAMPLES,
  },
  '/flood-zone/batch': {
    methods: ['POST'],
    note:
      'Many lookups in one request: JSON {"locations": [...]} or CSV (id, address, lat, lon) in; NDJSON (default), CSV or JSON out by Accept. ' +
      'Each row is answered as GET /flood-zone answers it, in input order, streamed as rows finish. include and radius apply to every row.',
  },
  '/flood-zone/map': {
    methods: ['GET'],
    note:
      "A PNG map of the flood zones around a US address or lat/lon, in FEMA's NFHL colours over the USGS National Map, with the point ringed at " +
      'its centre, a scale bar, a legend of the zones the /flood-zone answer names, and the zone, FIRM panel and date in words. Same location ' +
      'parameters as /flood-zone, plus width and height (pixels, 200 to 1600, default 800x600) and span (metres across, 100 to 5000, default 600).',
    examples: ['/flood-zone/map?lat=18.3985&lon=-66.1'],
  },
  '/flood-zone/report': {
    methods: ['GET'],
    note:
      'The answer of /flood-zone as one printable HTML page (one A4 or Letter page), headed by its date and id, with the map picture inside it, every part in plain words, the sources and ' +
      'the disclaimer. Same parameters as /flood-zone (every include part when include is not given) plus span, metres across the picture. Errors are HTML pages.',
    examples: ['/flood-zone/report?lat=18.3985&lon=-66.1'],
  },
  '/flood-zone/jobs': {
    methods: ['POST'],
    note:
      'Starts a portfolio job of up to a million rows (the batch body), answered in the background by every replica within one upstream budget: ' +
      '202 with the job and its Location. Needs a Redis (JOBS_REDIS_URL or REDIS_URL); without one, 503 JOBS_UNAVAILABLE.',
  },
  '/flood-zone/jobs/{id}': {
    methods: ['GET', 'DELETE'],
    note:
      'GET: where the job stands (status, rows done, rows failed upstream, its times, seconds left); DELETE: cancels it and deletes its data (202). ' +
      'An unknown job is a 404 JOB_NOT_FOUND.',
  },
  '/flood-zone/jobs/{id}/results': {
    methods: ['GET'],
    note: "A completed job's answers, every row in input order as the batch answers them (NDJSON, JSON or CSV by Accept); 409 JOB_NOT_FINISHED before then.",
  },
  '/flood-zone/watches': {
    methods: ['POST'],
    note:
      'Life-of-loan watches: locations (JSON or CSV as the batch reads them, each with an id) or a completed job, answered once, then swept every ' +
      'WATCH_SWEEP_INTERVAL_SECONDS for what FEMA changed; each change is an event in the feed and, with a webhook, POSTed signed (Standard Webhooks). ' +
      '201 with the watch, its Location and the webhook secret (shown once). Needs the jobs Redis; without one, 503 JOBS_UNAVAILABLE.',
  },
  '/flood-zone/watches/{id}': {
    methods: ['GET', 'DELETE'],
    note: 'GET: where the watch stands (status, locations, sweeps, events, deliveries, webhook); DELETE: stops it and deletes its data. Unknown: 404 WATCH_NOT_FOUND.',
  },
  '/flood-zone/watches/{id}/locations': { methods: ['POST'], note: 'Adds locations to the watch (as at creation); 202.' },
  '/flood-zone/watches/{id}/locations/{locationId}': { methods: ['DELETE'], note: 'Stops watching one location; 204.' },
  '/flood-zone/watches/{id}/events': {
    methods: ['GET'],
    note: "The watch's events in order, paged by cursor (after=<event id>, limit up to 1000); they never expire while the watch exists.",
  },
  '/mcp': {
    methods: ['POST'],
    note:
      'The Model Context Protocol for AI agents (Streamable HTTP, no session): the tools flood_zone, flood_determination, flood_map and flood_zone_batch, ' +
      'answering as /flood-zone, its determination, /flood-zone/map and /flood-zone/batch do; a failure is a tool error carrying the error code. Off with MCP_ENABLED=false.',
  },
  '/health': {
    methods: ['GET'],
    note: "This status document, the endpoint catalogue and each upstream's state (information only); the liveness probe. Never calls FEMA or Census.",
  },
  '/health/ready': { methods: ['GET'], note: 'Readiness probe: 200 {"status":"ok"} when serving, 503 {"status":"shutting_down"} while draining.' },
  '/metrics': { methods: ['GET'], note: 'Prometheus metrics.' },
  '/openapi.json': { methods: ['GET'], note: 'OpenAPI 3.1 description of this interface.' },
  [DOCS_PATH]: { methods: ['GET'], note: 'Human-readable documentation (Swagger UI).' },
};

/**
 * The catalogue as /health lists it: each path with `method`, the one it is mainly for (the field every client of the
 * status document reads), and `methods`, all it serves.
 */
export const ENDPOINT_CATALOGUE = Object.fromEntries(
  Object.entries(ENDPOINTS).map(([path, { methods, ...entry }]) => [path, { method: methods[0], methods, ...entry }]),
);

export const COVERAGE_HONESTY =
  'Points outside FEMA\'s digital flood map return coverage "unmapped" with inSpecialFloodHazardArea null: an explicit unknown, ' +
  'never "not in a flood zone", with guidance on where to check (a paper FIRM panel is named when one exists). Points inside the map ' +
  'but not in any zone polygon return "mapped_no_zone" with advice to move the point slightly. Upstream failures are errors (502), never guesses.';
