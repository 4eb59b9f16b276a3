import type { NextFunction, Request, Response } from 'express';
import { sendErrorEnvelope } from '../error-envelope';

const ALLOWED_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every known path answers GET, HEAD and OPTIONS only (CONTRACT section 1); another method there is a
 * 405 rather than the 404 a router would give. Unknown paths fall through to the JSON 404.
 */
export function methodNotAllowed(knownPaths: readonly string[], knownPrefixes: readonly string[]) {
  const exact = new Set(knownPaths);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (ALLOWED_METHODS.has(req.method)) return next();
    const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
    if (!exact.has(path) && !knownPrefixes.some((prefix) => path.startsWith(prefix))) return next();
    sendErrorEnvelope(
      req,
      res,
      405,
      'METHOD_NOT_ALLOWED',
      `Method ${req.method} is not allowed on ${path}; use GET.`,
      {},
      { Allow: 'GET, HEAD, OPTIONS' },
    );
  };
}
