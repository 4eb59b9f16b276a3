import type { Request, Response } from 'express';
import type { ErrorCode } from './api-error';

export interface ErrorEnvelope {
  error: string;
  statusCode: number;
  code: ErrorCode;
  requestId: string;
  [extra: string]: unknown;
}

/** A failure's answer: status, envelope and extra headers, before anything is written. */
export interface ErrorAnswer {
  status: number;
  body: ErrorEnvelope;
  headers: Record<string, string>;
}

/** Writes a prepared error answer; errors are never cached. */
export function sendErrorAnswer(res: Response, { status, body, headers }: ErrorAnswer): void {
  res.status(status);
  res.setHeader('Cache-Control', 'no-store');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.json(body);
}

/** Writes the one error body every failure uses. */
export function sendErrorEnvelope(
  req: Request,
  res: Response,
  status: number,
  code: ErrorCode,
  message: string,
  details: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): void {
  sendErrorAnswer(res, { status, body: { error: message, statusCode: status, code, requestId: String(req.id ?? ''), ...details }, headers });
}
