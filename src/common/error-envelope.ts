import type { Request, Response } from 'express';
import type { ErrorCode } from './api-error';

export interface ErrorEnvelope {
  error: string;
  statusCode: number;
  code: ErrorCode;
  requestId: string;
  [extra: string]: unknown;
}

/** Writes the one error body every failure uses; errors are never cached. */
export function sendErrorEnvelope(
  req: Request,
  res: Response,
  status: number,
  code: ErrorCode,
  message: string,
  details: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): void {
  const body: ErrorEnvelope = { error: message, statusCode: status, code, requestId: String(req.id ?? ''), ...details };
  res.status(status);
  res.setHeader('Cache-Control', 'no-store');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.json(body);
}
