import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON body, or undefined for a body that is not JSON. */
  body: any;
  text: string;
}

interface Contract {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  validate(schemaRef: string, body: unknown): string | null;
}

const contracts = new Map<string, Promise<Contract>>();

/** The service's own /openapi.json, compiled once per running service with a real JSON Schema 2020-12 validator. */
function contractOf(baseUrl: string): Promise<Contract> {
  let contract = contracts.get(baseUrl);
  if (!contract) {
    contract = (async () => {
      const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as Record<string, any>;
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      const id = 'https://flood-zone.test/openapi.json';
      ajv.addSchema({ ...document, $id: id });
      return {
        paths: document.paths,
        validate(schemaRef, body) {
          const check = ajv.getSchema(`${id}${schemaRef}`);
          if (!check) return `no schema at ${schemaRef}`;
          return check(body) ? null : ajv.errorsText(check.errors, { separator: '\n' });
        },
      };
    })();
    contracts.set(baseUrl, contract);
  }
  return contract;
}

const pointer = (...parts: string[]) => `#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/**
 * Sends a request to the running service and checks the JSON answer against the schema that the
 * service's /openapi.json documents for that path, method and status (errors against the error
 * envelope). A response the document does not describe fails the test.
 */
export async function apiRequest(baseUrl: string, pathAndQuery: string, init: RequestInit = {}): Promise<ApiResponse> {
  const response = await fetch(`${baseUrl}${pathAndQuery}`, init);
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
  const body = isJson && text.length > 0 ? JSON.parse(text) : undefined;
  const method = (init.method ?? 'GET').toLowerCase();
  if (method === 'get' && isJson) {
    const contract = await contractOf(baseUrl);
    const path = new URL(pathAndQuery, baseUrl).pathname;
    const documented = contract.paths[path]?.[method]?.responses?.[String(response.status)];
    const schemaRef = documented?.content?.['application/json']
      ? pointer('paths', path, method, 'responses', String(response.status), 'content', 'application/json', 'schema')
      : response.status >= 400
        ? '#/components/schemas/ErrorEnvelopeDto'
        : undefined;
    if (!schemaRef) throw new Error(`GET ${path} answered ${response.status}, which /openapi.json does not document`);
    const problem = contract.validate(schemaRef, body);
    if (problem) throw new Error(`GET ${pathAndQuery} ${response.status} does not match /openapi.json:\n${problem}\n${text}`);
  }
  return { status: response.status, headers: response.headers, body, text };
}

export const apiGet = (baseUrl: string, pathAndQuery: string, headers: Record<string, string> = {}) => apiRequest(baseUrl, pathAndQuery, { headers });
