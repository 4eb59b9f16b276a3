import type { Cache } from 'cache-manager';

/** A cache tier in memory that keeps what it is given (the piece cache's own rules decide what is fresh). */
export function memoryTier(): Cache {
  const pieces = new Map<string, unknown>();
  return {
    get: (key: string) => Promise.resolve(pieces.get(key)),
    set: (key: string, value: unknown) => Promise.resolve(pieces.set(key, value)),
    del: (key: string) => Promise.resolve(pieces.delete(key)),
  } as unknown as Cache;
}
