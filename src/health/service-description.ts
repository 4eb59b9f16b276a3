import { readFileSync } from 'node:fs';
import { join } from 'node:path';

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

/** The methods a catalogued path answers: a GET endpoint also answers HEAD; every path answers preflights. */
export function methodsAnswered(method: string): string[] {
  return method === 'GET' ? ['GET', 'HEAD', 'OPTIONS'] : [method, 'OPTIONS'];
}

export const ENDPOINT_CATALOGUE = {
  '/flood-zone': {
    method: 'GET',
    note: 'FEMA flood zone, SFHA status, FIRM panel and plain-language meaning for a US address or a lat/lon, live from the NFHL. Informational only.',
    params: {
      address: 'US street address, geocoded with the keyless U.S. Census geocoder (at most 200 characters). Not together with lat/lon.',
      lat: 'Latitude in decimal degrees, -90 to 90. Requires lon.',
      lon: 'Longitude in decimal degrees, -180 to 180. Requires lat.',
      include:
        'Optional parts, comma-separated: nearby (nearest SFHA, floodway and moderate-risk zone within radius), ' +
        "preliminary (FEMA's pending or preliminary map at the point), cbrs (Coastal Barrier Resources System).",
      radius: 'Search radius in metres for include=nearby, a whole number from 10 to 2000 (default 500). Only with include=nearby.',
    },
    examples: LOOKUP_EXAMPLES,
  },
  '/flood-zone/batch': {
    method: 'POST',
    note:
      'Many lookups in one request: JSON {"locations": [...]} or CSV (id, address, lat, lon) in; NDJSON (default), CSV or JSON out by Accept. ' +
      'Each row is answered as GET /flood-zone answers it, in input order, streamed as rows finish. include and radius apply to every row.',
  },
  '/health': {
    method: 'GET',
    note: "This status document, the endpoint catalogue and each upstream's state (information only); the liveness probe. Never calls FEMA or Census.",
  },
  '/health/ready': { method: 'GET', note: 'Readiness probe: 200 {"status":"ok"} when serving, 503 {"status":"shutting_down"} while draining.' },
  '/metrics': { method: 'GET', note: 'Prometheus metrics.' },
  '/openapi.json': { method: 'GET', note: 'OpenAPI 3.1 description of this interface.' },
  [DOCS_PATH]: { method: 'GET', note: 'Human-readable documentation (Swagger UI).' },
};

export const COVERAGE_HONESTY =
  'Points outside FEMA\'s digital flood map return coverage "unmapped" with inSpecialFloodHazardArea null: an explicit unknown, ' +
  'never "not in a flood zone", with guidance on where to check (a paper FIRM panel is named when one exists). Points inside the map ' +
  'but not in any zone polygon return "mapped_no_zone" with advice to move the point slightly. Upstream failures are errors (502), never guesses.';
