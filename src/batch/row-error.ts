import type { ArgumentsHost } from '@nestjs/common';
import type { ErrorEnvelope } from '../common/error-envelope';
import { ApiExceptionFilter } from '../common/filters/api-exception.filter';

const filter = new ApiExceptionFilter();

/**
 * The status and error envelope GET /flood-zone answers for this failure, from the very filter that
 * answers GET (so a row's 404, 422 or 502 body is GET's), captured instead of sent. `requestId` is the
 * batch request's id.
 */
export function errorAnswer(error: unknown, requestId: string): { status: number; body: ErrorEnvelope } {
  const captured = { status: 500, body: undefined as unknown as ErrorEnvelope };
  const res = {
    headersSent: false,
    status: (status: number) => ((captured.status = status), res),
    setHeader: () => res,
    json: (body: ErrorEnvelope) => ((captured.body = body), res),
  };
  const req = { id: requestId };
  filter.catch(error, { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ArgumentsHost);
  return captured;
}
