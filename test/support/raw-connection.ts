import { connect, type Socket } from 'node:net';
import type { ApiResponse } from './api-client';

/** A client on a bare socket: it sends what it likes, reads when it likes, and sees exactly how an answer ends. */
export interface RawConnection {
  socket: Socket;
  /** Everything received so far. */
  received(): Buffer;
  /** Resolves once the connection is closed, by either side. */
  closed: Promise<void>;
}

/** Connects to the service at `baseUrl` and sends `head` (a request line, headers and as much of the body as wanted). */
export async function openRaw(baseUrl: string, head: string): Promise<RawConnection> {
  const socket = connect(Number(new URL(baseUrl).port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  // A reset is one of the ways a cut answer may end; what was received tells the rest.
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(head);
  return { socket, received: () => Buffer.concat(chunks), closed };
}

/** The head of a POST with a body of `contentLength` bytes. */
export const postHead = (path: string, contentType: string, contentLength: number, extraHeaders = '') =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\nContent-Length: ${contentLength}\r\n${extraHeaders}\r\n`;

function splitHead(raw: Buffer): { status: number; headers: Headers; rest: Buffer } {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no whole answer head in ${JSON.stringify(raw.subarray(0, 200).toString())}`);
  const [statusLine, ...lines] = raw.subarray(0, end).toString().split('\r\n');
  const headers = new Headers(lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as [string, string]));
  return { status: Number(statusLine.split(' ')[1]), headers, rest: raw.subarray(end + 4) };
}

/** A whole JSON answer (with Content-Length), as the ApiResponse the envelope checks read. */
export function jsonAnswer(raw: Buffer): ApiResponse {
  const { status, headers, rest } = splitHead(raw);
  const text = rest.toString();
  return { status, headers, text, body: JSON.parse(text) };
}

/**
 * A chunked answer as received: its status and headers, the body its whole chunks carry, and whether it
 * ended as a complete answer does (with the terminating zero-length chunk).
 */
export function chunkedAnswer(raw: Buffer): { status: number; headers: Headers; body: string; complete: boolean } {
  const { status, headers, rest } = splitHead(raw);
  const chunks: Buffer[] = [];
  const answer = (complete: boolean) => ({ status, headers, body: Buffer.concat(chunks).toString(), complete });
  for (let at = 0; ;) {
    const sizeEnd = rest.indexOf('\r\n', at);
    if (sizeEnd < 0) return answer(false);
    const size = parseInt(rest.subarray(at, sizeEnd).toString(), 16);
    const dataStart = sizeEnd + 2;
    if (size === 0) return answer(rest.subarray(dataStart).toString() === '\r\n');
    if (rest.length < dataStart + size + 2) return answer(false);
    chunks.push(rest.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}
