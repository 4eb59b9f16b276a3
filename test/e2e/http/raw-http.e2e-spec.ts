/**
 * The HTTP edge at the socket: what Node's HTTP parser refuses, and requests a client library would not
 * send, still get the JSON error envelope with a request id, open CORS and no-store.
 */
import * as net from 'node:net';
import { NO_CACHE, Stack, startStack } from '../../support/stack';

let stack: Stack;
let port: number;

beforeAll(async () => {
  stack = await startStack({ ...NO_CACHE });
  port = Number(new URL(stack.url).port);
});
afterAll(async () => {
  await stack?.close();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` as is and reads until the server closes the connection or has sent a whole answer. */
function raw(request: string | string[], pauseMs = 0): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const settle = () => {
      const split = received.indexOf('\r\n\r\n');
      if (split < 0) return false;
      const [statusLine, ...lines] = received.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const body = received.slice(split + 4);
      if (headers['content-length'] !== undefined && Buffer.byteLength(body) < Number(headers['content-length'])) return false;
      socket.destroy();
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
      return true;
    };
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      settle();
    });
    socket.on('end', () => settle() || reject(new Error(`no complete answer: ${JSON.stringify(received)}`)));
    socket.on('error', (error) => settle() || reject(error));
    const sendParts = async () => {
      for (const part of typeof request === 'string' ? [request] : request) {
        socket.write(part);
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      }
    };
    socket.on('connect', () => {
      sendParts().catch(reject);
    });
  });
}

function expectRawEnvelope(answer: RawAnswer, status: number, code: string): void {
  expect({ status: answer.status, code: JSON.parse(answer.body).code }).toEqual({ status, code });
  const body = JSON.parse(answer.body);
  expect(body).toEqual({ error: expect.any(String), statusCode: status, code, requestId: expect.any(String) });
  expect(body.error.length).toBeGreaterThan(0);
  expect(answer.headers['x-request-id']).toBe(body.requestId);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers['access-control-allow-origin']).toBe('*');
  expect(answer.headers['access-control-expose-headers']).toMatch(/X-Request-Id/);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
}

describe("what Node's parser refuses", () => {
  it('a URL over the header limit → 431 REQUEST_HEADER_TOO_LARGE', async () => {
    const answer = await raw(`GET /flood-zone?address=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectRawEnvelope(answer, 431, 'REQUEST_HEADER_TOO_LARGE');
  });

  it('a header over the limit → 431 REQUEST_HEADER_TOO_LARGE', async () => {
    const answer = await raw(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    expectRawEnvelope(answer, 431, 'REQUEST_HEADER_TOO_LARGE');
  });

  it('an unknown method → 400 BAD_REQUEST', async () => {
    expectRawEnvelope(await raw('FROB /health HTTP/1.1\r\nHost: x\r\n\r\n'), 400, 'BAD_REQUEST');
  });

  it('a request line that is not HTTP → 400 BAD_REQUEST', async () => {
    expectRawEnvelope(await raw('hello there\r\n\r\n'), 400, 'BAD_REQUEST');
  });

  it('bad chunked encoding → 400 BAD_REQUEST, and only that answer', async () => {
    const lookup = '/flood-zone?lat=38.898754&lon=-77.03535';
    const answer = await raw(`GET ${lookup} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n`);
    expectRawEnvelope(answer, 400, 'BAD_REQUEST');
  });

  it('bad chunking after the answer was sent closes the connection without a second answer', async () => {
    const answer = await raw('POST /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n');
    expect(answer.status).toBe(405);
    expect(JSON.parse(answer.body).code).toBe('METHOD_NOT_ALLOWED');
  });

  it('an HTTP/1.1 request without Host → 400 BAD_REQUEST', async () => {
    const answer = await raw('GET /health HTTP/1.1\r\n\r\n');
    expectRawEnvelope(answer, 400, 'BAD_REQUEST');
    expect(JSON.parse(answer.body).error).toMatch(/Host/);
  });

  it('headers that never finish → 408 REQUEST_TIMEOUT', async () => {
    const server = stack.app.app.getHttpServer();
    const configured = server.headersTimeout;
    expect(configured).toBeLessThanOrEqual(30_000);
    server.headersTimeout = 300;
    try {
      const answer = await raw(['GET /health HTTP/1.1\r\n', 'Host: x\r\n'], 50);
      expectRawEnvelope(answer, 408, 'REQUEST_TIMEOUT');
    } finally {
      server.headersTimeout = configured;
    }
  });
});

describe('what Node would answer bare or not at all', () => {
  it('an Expect other than 100-continue → 417 in the envelope, on a cached lookup path too', async () => {
    const lookup = '/flood-zone?lat=38.898754&lon=-77.03535';
    for (const path of ['/health', lookup, lookup]) {
      const answer = await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nConnection: close\r\n\r\n`);
      expectRawEnvelope(answer, 417, 'EXPECTATION_FAILED');
      expect(JSON.parse(answer.body).error).toBe('Expect: bogus cannot be met; only 100-continue is supported.');
    }
  });

  it('Expect: 100-continue still works', async () => {
    const answer = await raw('GET /health/ready HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n');
    expect(answer.status).toBe(100);
  });

  it('CONNECT to a known path → 405 in the envelope, then the connection closes', async () => {
    const answer = await raw('CONNECT /health HTTP/1.1\r\nHost: x\r\n\r\n');
    expectRawEnvelope(answer, 405, 'METHOD_NOT_ALLOWED');
    expect(answer.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(answer.headers.connection).toBe('close');
  });

  it('CONNECT to a host (a proxy request) → 404 in the envelope', async () => {
    const answer = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expectRawEnvelope(answer, 404, 'NOT_FOUND');
  });
});

describe('server limits', () => {
  it('headers within 20 s, no fixed time for the whole request (bodies keep the upload pace instead), keep-alive longer than a load balancer keeps it', () => {
    const server = stack.app.app.getHttpServer();
    expect(server.headersTimeout).toBe(20_000);
    expect(server.requestTimeout).toBe(0);
    expect(server.keepAliveTimeout).toBeGreaterThan(60_000);
  });
});

describe('paths with invalid percent-encoding', () => {
  it.each(['/flood-zone%ZZ', '/%E0%A4%A', '/health%', '/api-docs.html/%C0'])('GET %s → 404 NOT_FOUND', async (path) => {
    expectRawEnvelope(await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), 404, 'NOT_FOUND');
  });

  it('a valid encoding of a known path is still that path', async () => {
    const answer = await raw('GET /%68ealth HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body).code).toBe('NOT_FOUND');
  });
});
