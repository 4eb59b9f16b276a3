/**
 * POST /mcp end to end: the SDK's own client over Streamable HTTP against the real app and the upstream emulators.
 * Each tool's answer is compared with what the REST endpoint answers for the same question.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { LAT_MAX_DEGREES, LON_MAX_DEGREES, RADIUS_MAX_M, RADIUS_MIN_M } from '../../../src/lookup/dto/flood-zone-query.dto';
import { PICTURE_LIMITS } from '../../../src/map-picture/dto/map-picture-query.dto';
import { PICTURES_PER_REQUEST, TOOL_CALLS_PER_REQUEST } from '../../../src/mcp/tool-call-limits';
import { TOOL_BATCH_MAX_LOCATIONS } from '../../../src/mcp/tool-schemas';
import { DEMO_BUILDING_ADDRESSES, demoPlace, haversineMeters, type RunningEmulators } from '../../emulators';
import { rectangleFootprint } from '../../emulators/structure-footprints';
import { NO_CACHE, Stack, pointQuery, startStack } from '../../support/stack';

const dc = demoPlace('dc-white-house-ae');
/** The house in Menominee whose footprint straddles the AE edge: its determination is for the building. */
const MENOMINEE_HOUSE = { lat: 45.1, lon: -87.587296 };

/** The demo house whose footprint lies wholly in X while its address's street point lies in AE, 36 m away. */
const HOUSTON_X_HOUSE = DEMO_BUILDING_ADDRESSES.houstonXHouse.address;
/** The point at the Menominee house, west of the AE edge: in the shaded X. */
const MENOMINEE_POINT = 'flood zone X 0.2 PCT ANNUAL CHANCE FLOOD HAZARD, in the Special Flood Hazard Area: no';

const withoutRetrievedAt = ({ retrievedAt: _retrievedAt, ...body }: Record<string, unknown>) => body;
const textOf = (result: CallToolResult) =>
  result.content
    .filter((item) => item.type === 'text')
    .map((item) => item.text)
    .join('\n');

/** Each tool's outputSchema, as tools/list declares it, compiled by a JSON Schema validator of its own (not the SDK's zod). */
async function outputValidatorsOf(client: Client): Promise<{ tools: Tool[]; validators: Map<string, ValidateFunction>; ajv: Ajv }> {
  const { tools } = await client.listTools();
  const ajv = new Ajv({ allErrors: true });
  addFormats(ajv);
  const validators = new Map(tools.filter((tool) => tool.outputSchema).map((tool) => [tool.name, ajv.compile(tool.outputSchema!)]));
  return { tools, validators, ajv };
}

/**
 * A tool's structured answer, checked as the protocol asks: a summary, then the structured content serialised as JSON
 * text (parsing to exactly the same JSON), and the structured content valid against the tool's declared outputSchema.
 */
function structuredOf(checks: { validators: Map<string, ValidateFunction>; ajv: Ajv }, name: string, result: CallToolResult): Record<string, unknown> {
  expect(result.isError).toBeUndefined();
  expect(result.content.map((item) => item.type)).toEqual(['text', 'text']);
  const [, json] = result.content as Array<{ type: 'text'; text: string }>;
  expect(JSON.parse(json.text)).toStrictEqual(result.structuredContent);
  const validate = checks.validators.get(name)!;
  expect(validate(result.structuredContent) ? 'valid' : checks.ajv.errorsText(validate.errors)).toBe('valid');
  return result.structuredContent!;
}

const summaryOf = (result: CallToolResult) => (result.content[0] as { type: 'text'; text: string }).text;

/** A POST of raw JSON-RPC text to /mcp, as a client that does not use the SDK sends it (the SDK's client never sends a batch). */
const postMcp = (url: string, body: string) =>
  fetch(`${url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });

/** One JSON-RPC answer of a batch: a tool's result, or the protocol's error. */
type JsonRpcAnswer = { jsonrpc: '2.0'; id: number; result?: CallToolResult; error?: { code: number; message: string } };

const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** A JSON-RPC batch of `messages` in one POST: its status, headers and answers (in the batch's order). */
async function postBatch(url: string, messages: unknown[]): Promise<{ status: number; headers: Headers; answers: JsonRpcAnswer[] }> {
  const res = await postMcp(url, JSON.stringify(messages));
  return { status: res.status, headers: res.headers, answers: (await res.json()) as JsonRpcAnswer[] };
}

/** `count` points 1 km or more apart (so that no two share a lookup), from `first` north-eastwards. */
const pointsFrom = (first: { lat: number; lon: number }, count: number) =>
  Array.from({ length: count }, (_, i) => ({ lat: Number((first.lat + i * 0.01).toFixed(5)), lon: Number((first.lon + i * 0.01).toFixed(5)) }));

/** The NFHL point queries made for `point` (within a metre of it). */
const nfhlQueriesAt = (emulators: RunningEmulators, point: { lat: number; lon: number }) =>
  emulators.nfhl.callCount((call) => call.point !== undefined && haversineMeters(call.point[1], call.point[0], point.lat, point.lon) < 1);

/** What a JSON-RPC answer says, in short: the protocol's error, a tool error's first line, or that the tool answered. */
const outcomeOf = (answer: JsonRpcAnswer) => answer.error ?? (answer.result!.isError ? textOf(answer.result!).split('\n')[0] : 'answered');

/** JSON-RPC's invalid request (-32600), as the SDK answers a batch of more than 100 messages. */
const INVALID_REQUEST = -32600;

describe('POST /mcp: the tools for AI agents', () => {
  let stack: Stack;
  let client: Client;
  let checks: Awaited<ReturnType<typeof outputValidatorsOf>>;

  beforeAll(async () => {
    stack = await startStack();
    client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`)));
    checks = await outputValidatorsOf(client);
  });
  afterAll(async () => {
    await client?.close();
    await stack?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

  it('initializes as this service', () => {
    expect(client.getServerVersion()?.name).toBe('flood-zone-lookup');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('lists the four tools, each read-only and idempotent', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['flood_determination', 'flood_map', 'flood_zone', 'flood_zone_batch']);
    for (const tool of tools) {
      expect(tool.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: true });
    }
    const floodZone = tools.find((tool) => tool.name === 'flood_zone')!;
    expect(Object.keys(floodZone.inputSchema.properties ?? {}).sort()).toEqual(['address', 'buildId', 'include', 'lat', 'lon', 'radius']);
    // every tool that answers with structuredContent declares its shape; the picture answers with an image
    expect(
      tools
        .filter((tool) => tool.outputSchema)
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(['flood_determination', 'flood_zone', 'flood_zone_batch']);
    for (const tool of tools.filter((one) => one.outputSchema)) expect(tool.outputSchema!.type).toBe('object');
  });

  it('input schemas carry the bounds the REST API checks, and take no argument they do not name', async () => {
    const { tools } = await client.listTools();
    const schemaOf = (name: string) =>
      tools.find((tool) => tool.name === name)!.inputSchema as { properties: Record<string, any>; additionalProperties?: unknown };
    const LAT = { minimum: -LAT_MAX_DEGREES, maximum: LAT_MAX_DEGREES };
    const LON = { minimum: -LON_MAX_DEGREES, maximum: LON_MAX_DEGREES };
    expect([LAT, LON]).toEqual([
      { minimum: -90, maximum: 90 },
      { minimum: -180, maximum: 180 },
    ]);
    for (const name of ['flood_zone', 'flood_determination', 'flood_map']) {
      expect(schemaOf(name).properties.lat).toMatchObject({ type: 'number', ...LAT });
      expect(schemaOf(name).properties.lon).toMatchObject({ type: 'number', ...LON });
    }
    const location = schemaOf('flood_zone_batch').properties.locations;
    expect(location).toMatchObject({ minItems: 1, maxItems: TOOL_BATCH_MAX_LOCATIONS });
    expect(location.items.properties.lat).toMatchObject({ type: 'number', ...LAT });
    expect(location.items.properties.lon).toMatchObject({ type: 'number', ...LON });
    for (const name of ['flood_zone', 'flood_zone_batch']) {
      expect(schemaOf(name).properties.radius).toMatchObject({ type: 'integer', minimum: RADIUS_MIN_M, maximum: RADIUS_MAX_M });
    }
    for (const size of ['width', 'height', 'span'] as const) {
      expect(schemaOf('flood_map').properties[size]).toMatchObject({ type: 'integer', minimum: PICTURE_LIMITS[size].min, maximum: PICTURE_LIMITS[size].max });
    }
    for (const tool of tools) expect([tool.name, tool.inputSchema.additionalProperties]).toEqual([tool.name, false]);
    // no bound is the JavaScript safe-integer range standing in for "any whole number"
    expect(JSON.stringify(tools)).not.toContain('9007199254740991');
  });

  it('flood_zone answers what GET /flood-zone answers, with a summary and the same answer as JSON text', async () => {
    const result = await call('flood_zone', { lat: dc.lat, lon: dc.lon });
    const rest = await stack.get(pointQuery(dc));
    expect(rest.status).toBe(200);
    const answer = structuredOf(checks, 'flood_zone', result);
    expect(withoutRetrievedAt(answer)).toEqual(withoutRetrievedAt(rest.body));
    expect(summaryOf(result)).toBe('Coverage: mapped. Flood zone: AE. In the Special Flood Hazard Area: yes. Unavailable: nothing.');
  });

  it("flood_zone takes history in include: the area's record, as GET /flood-zone gives it", async () => {
    const houston = demoPlace('houston-ae-floodway');
    const result = await call('flood_zone', { lat: houston.lat, lon: houston.lon, include: ['history'] });
    const rest = await stack.get(`${pointQuery(houston)}&include=history`);
    const answer = structuredOf(checks, 'flood_zone', result) as { result: { history: { claims: { count: number } } } };
    expect(answer.result.history.claims.count).toBe(214);
    expect(answer.result.history).toEqual((rest.body as { result: { history: unknown } }).result.history);
  });

  it("flood_zone leads with the building where one is found, then names the point's answer as the point's", async () => {
    const result = await call('flood_zone', { ...MENOMINEE_HOUSE, include: ['structure'] });
    const answer = structuredOf(checks, 'flood_zone', result) as { result: { inSpecialFloodHazardArea: boolean; structure: { buildingInSfha: boolean } } };
    expect([answer.result.structure.buildingInSfha, answer.result.inSpecialFloodHazardArea]).toEqual([true, false]);
    expect(summaryOf(result)).toBe(
      `Building: in the SFHA, AE over 40.1% of its footprint. At the address point: coverage mapped, ${MENOMINEE_POINT}. Unavailable: nothing.`,
    );
  });

  it('flood_zone names the address point as such: a house wholly in X whose street point lies in AE', async () => {
    const result = await call('flood_zone', { address: HOUSTON_X_HOUSE, include: ['structure'] });
    structuredOf(checks, 'flood_zone', result);
    expect(summaryOf(result)).toBe(
      'Building: outside the SFHA, X unshaded over 100% of its footprint. At the address point: coverage mapped, flood zone AE, in the Special Flood Hazard Area: yes. Unavailable: nothing.',
    );
  });

  it('flood_determination answers for the building that straddles the AE edge, its summary led by the building', async () => {
    const result = await call('flood_determination', MENOMINEE_HOUSE);
    const rest = await stack.get(`${pointQuery(MENOMINEE_HOUSE)}&include=determination`);
    const determination = (rest.body as { result: { determination: Record<string, unknown> } }).result.determination;
    const answer = structuredOf(checks, 'flood_determination', result);
    expect(answer).toEqual(determination);
    expect([answer.basis, answer.buildingInSfha]).toEqual(['building', true]);
    expect(summaryOf(result)).toBe(
      `Building: in the SFHA, AE over 40.1% of its footprint. At the address point: coverage mapped, ${MENOMINEE_POINT}. Unavailable: nothing.`,
    );
  });

  it.each<[string, Record<string, unknown>]>([
    [
      'every part asked for, at the house across the AE edge',
      { ...MENOMINEE_HOUSE, include: ['nearby', 'preliminary', 'cbrs', 'elevation', 'structure', 'history', 'determination'] },
    ],
    ['an unmapped point (nulls where there is no data)', { lat: 38.9, lon: -77 }],
    ['a building partly off the map', { lat: 38.899, lon: -77.029579, include: ['structure'] }],
  ])("flood_zone's structured content fits its outputSchema: %s", async (_case, args) => {
    const result = await call('flood_zone', args);
    expect(result.isError).toBeUndefined();
    structuredOf(checks, 'flood_zone', result);
  });

  it("flood_determination with the caller's footprint answers as POST /flood-zone does", async () => {
    // A 52 m by 22 m footprint around the point.
    const footprint = { type: 'Polygon', coordinates: [rectangleFootprint([dc.lon, dc.lat], 52, 22)] };
    const result = await call('flood_determination', { lat: dc.lat, lon: dc.lon, footprint });
    const rest = await fetch(`${stack.url}/flood-zone`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lat: dc.lat, lon: dc.lon, include: ['determination'], footprint }),
    });
    expect(rest.status).toBe(200);
    const { result: answer } = (await rest.json()) as { result: { determination: Record<string, unknown> } };
    expect(structuredOf(checks, 'flood_determination', result)).toEqual(answer.determination);
    expect(result.structuredContent!.basis).toBe('building');
  });

  it('flood_determination refuses a footprint that is no polygon, as POST /flood-zone does', async () => {
    const footprint = { type: 'Point', coordinates: [dc.lon, dc.lat] };
    const result = await call('flood_determination', { lat: dc.lat, lon: dc.lon, footprint });
    const rest = await fetch(`${stack.url}/flood-zone`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lat: dc.lat, lon: dc.lon, footprint }),
    });
    const envelope = (await rest.json()) as { code: string; error: string };
    expect(envelope.code).toBe('INVALID_FOOTPRINT');
    expect(result.isError).toBe(true);
    expect(textOf(result).split('\n')[0]).toBe(`INVALID_FOOTPRINT: ${envelope.error}`);
  });

  it('flood_map gives the PNG of GET /flood-zone/map and its legend', async () => {
    const result = await call('flood_map', { lat: dc.lat, lon: dc.lon, width: 400, height: 300 });
    const rest = await fetch(`${stack.url}/flood-zone/map?lat=${dc.lat}&lon=${dc.lon}&width=400&height=300`);
    const png = Buffer.from(await rest.arrayBuffer());
    expect(result.isError).toBeUndefined();
    const [image, legend] = result.content;
    expect(image).toEqual({ type: 'image', mimeType: 'image/png', data: png.toString('base64') });
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(legend).toEqual({ type: 'text', text: `Legend: ${rest.headers.get('x-map-legend')}.` });
  });

  it('flood_zone_batch answers each row as GET /flood-zone does, a bad row with its envelope', async () => {
    const result = await call('flood_zone_batch', {
      locations: [
        { id: 'dc', lat: dc.lat, lon: dc.lon },
        { id: 'far', lat: 91, lon: 0 },
      ],
    });
    const { rows } = structuredOf(checks, 'flood_zone_batch', result) as {
      rows: Array<{ index: number; id: string; status: number; body: Record<string, unknown> }>;
    };
    const rest = await stack.get(pointQuery(dc));
    expect(rows.map(({ index, id, status }) => [index, id, status])).toEqual([
      [0, 'dc', 200],
      [1, 'far', 422],
    ]);
    expect(withoutRetrievedAt(rows[0].body)).toEqual(withoutRetrievedAt(rest.body));
    expect(rows[1].body).toMatchObject({ code: 'COORDINATES_OUT_OF_RANGE', statusCode: 422 });
    expect(summaryOf(result)).toBe('2 locations answered, 1 failed.');
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'flood_zone',
      { lat: dc.lat, lon: dc.lon, latitude: 1 },
      'Unknown argument "latitude": this tool reads only address, lat, lon, include, radius and buildId.',
    ],
    [
      'flood_determination',
      { lat: dc.lat, lon: dc.lon, include: ['cbrs'] },
      'Unknown argument "include": this tool reads only address, lat, lon, buildId and footprint.',
    ],
    ['flood_map', { lat: dc.lat, lon: dc.lon, format: 'jpeg' }, 'Unknown argument "format": this tool reads only address, lat, lon, width, height and span.'],
    [
      'flood_zone_batch',
      { locations: [{ lat: dc.lat, lon: dc.lon }], columns: ['zone'] },
      'Unknown argument "columns": this tool reads only locations, include and radius.',
    ],
    // an unknown argument is refused first, as REST refuses an unknown parameter before reading the others
    ['flood_zone', { lat: 91, lon: dc.lon, span: 300 }, 'Unknown argument "span": this tool reads only address, lat, lon, include, radius and buildId.'],
  ])('%s refuses an argument it does not read, by name, as REST refuses one', async (name, args, message) => {
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result).split('\n')[0]).toBe(`INVALID_PARAMETERS: ${message}`);
  });

  it('flood_zone and flood_determination take buildId: the building chosen, a 422 tool error for one not within reach, as REST', async () => {
    const renton = { address: '200 Mill Ave S, Renton, WA 98057' };
    const listed = await call('flood_zone', { ...renton, include: ['structure'] });
    expect((listed.structuredContent as any).result.structure.match).toBe('ambiguous');
    const chosen = await call('flood_zone', { ...renton, buildId: '53030002' });
    expect((chosen.structuredContent as any).result.structure).toMatchObject({ match: 'chosen', buildId: '53030002', buildingInSfha: false });
    const form = await call('flood_determination', { ...renton, buildId: '53030001' });
    expect(form.structuredContent).toMatchObject({ basis: 'building', buildingInSfha: false });
    const missing = await call('flood_determination', { ...renton, buildId: '99999999' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing).split('\n')[0]).toBe(
      'BUILDING_NOT_FOUND: No building 99999999 of USA Structures lies within 40 m of the location; an answer without buildId lists the buildings near an address.',
    );
  });

  it.each([
    ['both kinds of location', { address: '1600 Pennsylvania Ave NW, Washington, DC 20500', lat: 38.9, lon: -77 }, 400, 'INVALID_PARAMETERS'],
    ['a latitude beyond 90', { lat: 90.5, lon: -77 }, 422, 'COORDINATES_OUT_OF_RANGE'],
  ])('a bad input (%s) is a tool error with the code and message GET /flood-zone gives', async (_case, args, status, code) => {
    const result = await call('flood_zone', args);
    const rest = await stack.get(`/flood-zone?${new URLSearchParams(Object.entries(args).map(([name, value]) => [name, String(value)])).toString()}`);
    expect(rest.status).toBe(status);
    const envelope = rest.body as { code: string; error: string };
    expect(envelope.code).toBe(code);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result).split('\n')[0]).toBe(`${code}: ${envelope.error}`);
  });

  it('an upstream failure is a tool error naming the upstream, never a guess', async () => {
    stack.emulators.nfhl.injectFault({ kind: 'http-status', status: 503 });
    try {
      const result = await call('flood_zone', { lat: 29.95, lon: -90.07 });
      expect(result.isError).toBe(true);
      expect(textOf(result).startsWith('UPSTREAM_UNAVAILABLE (upstream: flood_data): ')).toBe(true);
    } finally {
      stack.emulators.nfhl.clearFaults();
    }
  });

  const post = (body: string) => postMcp(stack.url, body);

  it("a message that is not JSON gets JSON-RPC's parse error (-32700, HTTP 400), never a 500", async () => {
    const res = await post('{"jsonrpc": "2.0", "method": ');
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(answer.error.message.startsWith('Parse error: ')).toBe(true);
  });

  it.each([
    ['without params', { jsonrpc: '2.0', id: 7, method: 'tools/call' }, 'Invalid input: expected object, received undefined at params'],
    [
      'with arguments that are no object',
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'flood_zone', arguments: null } },
      'Invalid input: expected record, received null at params.arguments',
    ],
  ])("tools/call %s gets JSON-RPC's invalid params (-32602), not an internal error", async (_case, message, problem) => {
    const res = await post(JSON.stringify(message));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: `Invalid tools/call request: ${problem}` } });
  });

  it("JSON that is no JSON-RPC message gets the protocol's own error, never a 500", async () => {
    const res = await post('{"hello": "world"}');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
  });

  it('GET /mcp is a 405 in the error envelope', async () => {
    const res = await fetch(`${stack.url}/mcp`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    expect(await res.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED', statusCode: 405 });
  });
});

describe('POST /mcp when the building could not be looked up', () => {
  let stack: Stack;
  let client: Client;
  let checks: Awaited<ReturnType<typeof outputValidatorsOf>>;

  beforeAll(async () => {
    stack = await startStack(NO_CACHE);
    client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`)));
    checks = await outputValidatorsOf(client);
  });
  afterAll(async () => {
    await client?.close();
    await stack?.close();
  });
  afterEach(() => stack.emulators.structures.clearFaults());

  const UNKNOWN = `Building: SFHA status unknown, FEMA's building footprints did not answer this time. At the address point: coverage mapped, ${MENOMINEE_POINT}. Unavailable: structure.`;

  it.each<[string, Record<string, unknown>]>([
    ['flood_zone', { ...MENOMINEE_HOUSE, include: ['structure'] }],
    ['flood_determination', MENOMINEE_HOUSE],
  ])('USA Structures answering 503: %s\'s summary says the building is unknown, never the point\'s "no"', async (name, args) => {
    stack.emulators.structures.injectFault({ kind: 'http-status', status: 503 });
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    structuredOf(checks, name, result);
    expect(summaryOf(result)).toBe(UNKNOWN);
  });
});

describe('MCP_ENABLED=false', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ MCP_ENABLED: 'false' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it.each(['GET', 'POST'])('%s /mcp is a 404', async (method) => {
    const res = await fetch(`${stack.url}/mcp`, { method });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('POST /mcp behind the same edge as REST', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ RATE_LIMIT_PER_MINUTE: '2' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const listTools = () =>
    fetch(`${stack.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

  it('each answer carries a request id; past RATE_LIMIT_PER_MINUTE a 429 RATE_LIMITED with Retry-After, as for REST', async () => {
    const answered = [await listTools(), await listTools()];
    for (const res of answered) {
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toMatch(/\S/);
    }
    const limited = await listTools();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ code: 'RATE_LIMITED', statusCode: 429 });
  });
});

describe("POST /mcp: one request's cost is bounded, whatever it carries", () => {
  let stack: Stack;
  let client: Client;
  const LANE = 4;

  beforeAll(async () => {
    // Caching off, so that every lookup shows at the emulators; 8 calls at once per upstream, 4 of them for batches.
    stack = await startStack({ ...NO_CACHE, UPSTREAM_MAX_CONCURRENCY: String(2 * LANE) });
    client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await stack?.close();
  });
  beforeEach(() => stack.emulators.resetCalls());
  afterEach(() => {
    stack.emulators.clearFaults();
    stack.emulators.nfhl.setLatency(0);
  });

  it(`runs at most ${TOOL_CALLS_PER_REQUEST} tool calls of a JSON-RPC batch; each one beyond is JSON-RPC's invalid request, never run`, async () => {
    const points = pointsFrom({ lat: 35.2, lon: -101.8 }, TOOL_CALLS_PER_REQUEST + 2);
    const { status, answers } = await postBatch(
      stack.url,
      points.map((point, id) => toolCall(id, 'flood_zone', point)),
    );
    expect(status).toBe(200);
    const refused = {
      code: INVALID_REQUEST,
      message: `Invalid Request: at most ${TOOL_CALLS_PER_REQUEST} tool calls are run per HTTP request; this one was not: send it again in another request.`,
    };
    expect(answers.map((answer) => [answer.id, outcomeOf(answer)])).toEqual(points.map((_, id) => [id, id < TOOL_CALLS_PER_REQUEST ? 'answered' : refused]));
    expect(points.map((point) => nfhlQueriesAt(stack.emulators, point) > 0)).toEqual(points.map((_, i) => i < TOOL_CALLS_PER_REQUEST));
  });

  it("refuses a JSON-RPC batch of more than 100 messages whole, with JSON-RPC's invalid request (the SDK's own limit), running none", async () => {
    const { status, answers } = await postBatch(
      stack.url,
      Array.from({ length: 101 }, (_, id) => toolCall(id, 'flood_zone', { lat: 36.1, lon: -86.7 })),
    );
    expect(status).toBe(400);
    expect(answers).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: INVALID_REQUEST } });
    expect(stack.emulators.nfhl.callCount()).toBe(0);
  });

  it('docs/api.md states the limits the service keeps', () => {
    const reference = readFileSync('docs/api.md', 'utf8').replace(/\s+/g, ' ');
    expect(reference).toContain(`at most ${TOOL_CALLS_PER_REQUEST} tool calls are run per HTTP request; this one was not`);
    expect(PICTURES_PER_REQUEST).toBe(1);
    expect(reference).toContain('at most one `flood_map` picture is drawn');
    expect(reference).toContain(`\`flood_zone_batch\` (at most ${TOOL_BATCH_MAX_LOCATIONS} locations)`);
  });

  it('runs flood_zone_batch as a batch: in the batch lane (half of each upstream), at most BATCH_MAX_CONCURRENT at once, the others BATCH_BUSY', async () => {
    // Each NFHL answer takes a moment, so that calls made together are held together.
    stack.emulators.nfhl.setLatency(50);
    const calls = Array.from({ length: TOOL_CALLS_PER_REQUEST }, (_, id) => pointsFrom({ lat: 33 + id * 0.2, lon: -97 }, 6));
    const { status, answers } = await postBatch(
      stack.url,
      calls.map((locations, id) => toolCall(id, 'flood_zone_batch', { locations })),
    );
    expect(status).toBe(200);
    // BATCH_MAX_CONCURRENT is 2: the first two calls run, every other one is refused as POST /flood-zone/batch refuses a third batch.
    const busy = 'BATCH_BUSY: 2 batches are already running, the most this service runs at once; retry in a few seconds.';
    expect(answers.map(outcomeOf)).toEqual(calls.map((_, id) => (id < 2 ? 'answered' : busy)));
    const rows = answers.slice(0, 2).map((answer) => (answer.result!.structuredContent as { rows: Array<{ index: number; status: number }> }).rows);
    expect(rows.map((one) => one.map((row) => [row.index, row.status]))).toEqual([0, 1].map(() => [0, 1, 2, 3, 4, 5].map((index) => [index, 200])));
    // 12 lookups ran, yet never more NFHL calls at once than the batch lane holds; the refused calls asked nothing.
    expect(stack.emulators.nfhl.peakConcurrentCalls).toBeGreaterThan(0);
    expect(stack.emulators.nfhl.peakConcurrentCalls).toBeLessThanOrEqual(LANE);
    const asked = calls.map((locations) => locations.map((point) => nfhlQueriesAt(stack.emulators, point) > 0));
    expect(asked).toEqual(calls.map((locations, id) => locations.map(() => id < 2)));
  });

  it("flood_zone_batch takes one of the REST batches' slots: while BATCH_MAX_CONCURRENT batches run, it is a BATCH_BUSY tool error", async () => {
    const place = demoPlace('sacramento-d');
    stack.emulators.nfhl.injectFault({ kind: 'delay', ms: 1500, match: { near: [place.lon, place.lat] } });
    const batch = () =>
      fetch(`${stack.url}/flood-zone/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ locations: [{ lat: place.lat, lon: place.lon }] }),
      });
    // A batch's headers come once it has its slot and runs.
    const running = await Promise.all([batch(), batch()]);
    expect(running.map((res) => res.status)).toEqual([200, 200]);
    const busy = (await client.callTool({ name: 'flood_zone_batch', arguments: { locations: [{ lat: dc.lat, lon: dc.lon }] } })) as CallToolResult;
    expect(busy.isError).toBe(true);
    expect(textOf(busy).split('\n')[0]).toBe('BATCH_BUSY: 2 batches are already running, the most this service runs at once; retry in a few seconds.');
    await Promise.all(running.map((res) => res.text()));
    const answered = (await client.callTool({ name: 'flood_zone_batch', arguments: { locations: [{ lat: dc.lat, lon: dc.lon }] } })) as CallToolResult;
    expect(summaryOf(answered)).toBe('1 location answered, 0 failed.');
  });

  it(`draws at most ${PICTURES_PER_REQUEST} flood_map picture per request; another is JSON-RPC's invalid request, never drawn`, async () => {
    const [first, ...others] = pointsFrom(dc, 3);
    const size = { width: 400, height: 300 };
    const alone = await client.callTool({ name: 'flood_map', arguments: { ...first, ...size } });
    expect((alone as CallToolResult).content[0].type).toBe('image');
    const onePicture = [stack.emulators.nfhl.callCount({ endpoint: 'export' }), stack.emulators.basemap.callCount()];
    expect(onePicture[0]).toBeGreaterThan(0);
    stack.emulators.resetCalls();

    const { answers } = await postBatch(
      stack.url,
      [first, ...others].map((point, id) => toolCall(id, 'flood_map', { ...point, ...size })),
    );
    const refused = {
      code: INVALID_REQUEST,
      message: `Invalid Request: at most ${PICTURES_PER_REQUEST} flood_map picture is drawn per HTTP request; this one was not: send it again in another request.`,
    };
    expect(answers.map((answer) => answer.error ?? answer.result!.content.map((item) => item.type))).toEqual([['image', 'text'], refused, refused]);
    expect([stack.emulators.nfhl.callCount({ endpoint: 'export' }), stack.emulators.basemap.callCount()]).toEqual(onePicture);
  });
});

describe('POST /mcp: each tool call counts against RATE_LIMIT_PER_MINUTE', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ...NO_CACHE, RATE_LIMIT_PER_MINUTE: '6' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('a JSON-RPC batch counts one per tool call; a call over the limit is a RATE_LIMITED tool error, never run', async () => {
    const points = pointsFrom({ lat: 31.5, lon: -92.4 }, 7);
    const first = await postBatch(
      stack.url,
      points.slice(0, 4).map((point, id) => toolCall(id, 'flood_zone', point)),
    );
    expect(first.status).toBe(200);
    expect(first.answers.map(outcomeOf)).toEqual(['answered', 'answered', 'answered', 'answered']);
    expect(first.headers.get('ratelimit-remaining')).toBe('2');

    const second = await postBatch(
      stack.url,
      points.slice(4).map((point, id) => toolCall(id, 'flood_zone', point)),
    );
    expect(second.status).toBe(200);
    expect(second.answers.map((answer) => answer.result?.isError ?? 'answered')).toEqual(['answered', 'answered', true]);
    expect(textOf(second.answers[2].result!).split('\n')[0]).toMatch(
      /^RATE_LIMITED: Too many requests: at most 6 per minute from one client\. Retry after \d+ seconds\.$/,
    );
    expect(second.headers.get('ratelimit-remaining')).toBe('0');
    expect(points.map((point) => nfhlQueriesAt(stack.emulators, point) > 0)).toEqual([true, true, true, true, true, true, false]);

    const refused = await postMcp(stack.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    expect(refused.status).toBe(429);
  });
});
