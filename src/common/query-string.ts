import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from './api-error';

/**
 * Express's query parser for this service: every parameter, however many (the default `qs` parser
 * silently drops those past the 1,000th, so a repeated `lat` could slip through), with a repeated key
 * as an array of its values and no bracket syntax (`lat[]` is just another name).
 */
export function parseQuery(queryString: string): Record<string, string | string[]> {
  const query = new Map<string, string | string[]>();
  for (const [name, value] of new URLSearchParams(queryString)) {
    const earlier = query.get(name);
    if (earlier === undefined) query.set(name, value);
    else if (Array.isArray(earlier)) earlier.push(value);
    else query.set(name, [earlier, value]);
  }
  // fromEntries defines own properties, so a parameter named __proto__ stays a plain parameter.
  return Object.fromEntries(query);
}

/** A parameter's name as a message shows it: JSON text (control characters escaped), at most 64 characters of it. */
const shownName = (name: string) => JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);

/** "a", "a and b", "a, b and c". */
function listed(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * Refuses the first parameter an endpoint does not read (400 INVALID_PARAMETERS naming it): a client that sends
 * `format=jpeg`, or `width[]=300` in the bracket syntax other parsers read, would otherwise get the defaults
 * without a word. `reads` lists every parameter the endpoint reads; `kind` says whether they are query parameters,
 * the fields of a JSON body, or the arguments of an agent's tool (the Model Context Protocol).
 */
export function refuseUnreadParameters(
  query: Readonly<Record<string, unknown>>,
  reads: readonly string[],
  kind: 'parameter' | 'field' | 'argument' = 'parameter',
): void {
  const unread = Object.keys(query).find((name) => !reads.includes(name));
  if (unread === undefined) return;
  const reader = kind === 'argument' ? 'tool' : 'endpoint';
  const readsOnly = reads.length === 0 ? `this ${reader} reads no query parameters.` : `this ${reader} reads only ${listed(reads)}.`;
  const meant = /^([^[\]]+)\[/.exec(unread)?.[1];
  const brackets = meant !== undefined && reads.includes(meant) ? `a name with brackets is not ${meant} (give ${meant} once, without brackets); ` : '';
  throw new ApiError(400, 'INVALID_PARAMETERS', `Unknown ${kind} ${shownName(unread)}: ${brackets}${readsOnly}`);
}

const QUERY_PARAMETERS_READ = 'query-parameters-read';

/** The query parameters a handler reads (on a controller: every handler of it that says nothing else); checked by QueryParametersGuard. */
export const ReadsQueryParameters = (...names: string[]) => SetMetadata(QUERY_PARAMETERS_READ, names);

/** Refuses a parameter the handler does not read, for handlers whose parameters no pipe reads (ReadsQueryParameters says which it reads). */
@Injectable()
export class QueryParametersGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const reads = this.reflector.getAllAndOverride<string[] | undefined>(QUERY_PARAMETERS_READ, [context.getHandler(), context.getClass()]);
    if (reads) refuseUnreadParameters(context.switchToHttp().getRequest<Request>().query, reads);
    return true;
  }
}
