import { readFile } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { ApiError } from '../common/api-error';
import { readLookupLocation } from '../lookup/dto/lookup-parameters';
import { checkFootprint } from '../parts/structure/footprint-check';
import { badArguments, serviceFailed } from './command-failure';
import type { FloodZoneApi } from './flood-zone-api';

/** A coordinate as a location argument: a plain decimal number (the rules of lat and lon decide the rest). */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/**
 * `flood-zone lookup "ADDRESS"` or `flood-zone lookup LAT LON`: one `GET /flood-zone` (with `footprintFile`, a
 * GeoJSON file of the building's outline, one `POST /flood-zone` instead), its body (the answer or the error
 * envelope) printed as JSON on stdout, and an error's code and message on stderr. Exit status 0 for a 200; 2 when
 * the location or the footprint breaks the parameter rules (checked here with the service's own rules, and a
 * 400/422 from the service); 1 for every other answer (404 address not found or ambiguous, 429, 502-504) and when
 * the service cannot be reached.
 */
export async function lookUpFloodZone(location: string[], api: FloodZoneApi, stdout: Writable, stderr: Writable, footprintFile?: string): Promise<0 | 1 | 2> {
  const query = locationQuery(location);
  const accept = 'application/json';
  const response =
    footprintFile === undefined
      ? await api.request(api.urlOf('/flood-zone', query), { headers: { accept } })
      : await api.request(`${api.baseUrl}/flood-zone`, {
          method: 'POST',
          headers: { accept, 'content-type': 'application/json' },
          body: JSON.stringify({ ...query, ...api.partsAsFields(), footprint: await footprintIn(footprintFile) }),
        });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw serviceFailed(`the service answered ${response.status} with a body that is not JSON.`);
  }
  stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  if (response.status === 200) return 0;
  const { code, error } = body as { code?: unknown; error?: unknown };
  stderr.write(`flood-zone: ${response.status} ${typeof code === 'string' ? code : 'error'}: ${typeof error === 'string' ? error : 'see the body above'}\n`);
  return response.status === 400 || response.status === 422 ? 2 : 1;
}

function locationQuery(location: string[]): Record<string, string> {
  if (location.length === 1 && NUMBER.test(location[0].trim())) {
    throw badArguments(`"${location[0]}" is a lone number, not an address: give LAT LON (two numbers), or an address in quotes.`);
  }
  const query: Record<string, string> | undefined =
    location.length === 1 ? { address: location[0] } : location.length === 2 ? { lat: location[0], lon: location[1] } : undefined;
  if (!query) throw badArguments('give one address (in quotes) or LAT LON.');
  try {
    readLookupLocation(query);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const hint = location.length === 2 ? ' (an address goes in quotes, as one argument)' : '';
    throw badArguments(`${error.message}${hint}`);
  }
  return query;
}

/** The footprint in a GeoJSON file, checked with the service's own rules (where it lies is the service's to say). */
async function footprintIn(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw badArguments(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let footprint: unknown;
  try {
    footprint = JSON.parse(text);
  } catch {
    throw badArguments(`${path} is not GeoJSON: it does not parse as JSON.`);
  }
  const checked = checkFootprint(footprint);
  if ('problem' in checked) throw badArguments(`${path}: ${checked.problem}.`);
  return footprint;
}
