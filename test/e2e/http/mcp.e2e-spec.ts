/**
 * POST /mcp end to end: the SDK's own client over Streamable HTTP against the real app and the upstream emulators.
 * Each tool's answer is compared with what the REST endpoint answers for the same question.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { demoPlace } from '../../emulators';
import { rectangleFootprint } from '../../emulators/structure-footprints';
import { Stack, pointQuery, startStack } from '../../support/stack';

const dc = demoPlace('dc-white-house-ae');
/** The house in Menominee whose footprint straddles the AE edge: its determination is for the building. */
const MENOMINEE_HOUSE = { lat: 45.1, lon: -87.587296 };

const withoutRetrievedAt = ({ retrievedAt: _retrievedAt, ...body }: Record<string, unknown>) => body;
const textOf = (result: CallToolResult) =>
  result.content
    .filter((item) => item.type === 'text')
    .map((item) => item.text)
    .join('\n');

describe('POST /mcp: the tools for AI agents', () => {
  let stack: Stack;
  let client: Client;

  beforeAll(async () => {
    stack = await startStack();
    client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`)));
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
    expect(Object.keys(floodZone.inputSchema.properties ?? {}).sort()).toEqual(['address', 'include', 'lat', 'lon', 'radius']);
  });

  it('flood_zone answers what GET /flood-zone answers, with a summary', async () => {
    const result = await call('flood_zone', { lat: dc.lat, lon: dc.lon });
    const rest = await stack.get(pointQuery(dc));
    expect(rest.status).toBe(200);
    expect(result.isError).toBeUndefined();
    expect(withoutRetrievedAt(result.structuredContent!)).toEqual(withoutRetrievedAt(rest.body));
    expect(textOf(result)).toBe('Coverage: mapped. Flood zone: AE. In the Special Flood Hazard Area: yes. Unavailable: nothing.');
  });

  it('flood_determination answers for the building that straddles the AE edge', async () => {
    const result = await call('flood_determination', MENOMINEE_HOUSE);
    const rest = await stack.get(`${pointQuery(MENOMINEE_HOUSE)}&include=determination`);
    const determination = (rest.body as { result: { determination: Record<string, unknown> } }).result.determination;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(determination);
    expect(result.structuredContent!.basis).toBe('building');
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
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(answer.determination);
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
    expect(result.isError).toBeUndefined();
    const { rows } = result.structuredContent as { rows: Array<{ index: number; id: string; status: number; body: Record<string, unknown> }> };
    const rest = await stack.get(pointQuery(dc));
    expect(rows.map(({ index, id, status }) => [index, id, status])).toEqual([
      [0, 'dc', 200],
      [1, 'far', 422],
    ]);
    expect(withoutRetrievedAt(rows[0].body)).toEqual(withoutRetrievedAt(rest.body));
    expect(rows[1].body).toMatchObject({ code: 'COORDINATES_OUT_OF_RANGE', statusCode: 422 });
    expect(textOf(result)).toBe('2 locations answered, 1 failed.');
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

  const post = (body: string) =>
    fetch(`${stack.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });

  it("a message that is not JSON gets JSON-RPC's parse error (-32700, HTTP 400), never a 500", async () => {
    const res = await post('{"jsonrpc": "2.0", "method": ');
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(answer.error.message.startsWith('Parse error: ')).toBe(true);
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
