import type { FactoryProvider } from '@nestjs/common';
import type { PartRequest, SharedPiece } from '../parts/answer-part';
import { OPTIONAL_PARTS, RegisteredPart } from '../parts/answer-parts';

/** An opt-in part bound to the port its module provides: what a lookup asks of it. */
export type BoundPart = Pick<
  RegisteredPart,
  'include' | 'field' | 'upstream' | 'cacheKey' | 'read' | 'incomplete' | 'readsArea' | 'answerable' | 'ttlSecondsVariable'
> & {
  load(request: PartRequest, signal: AbortSignal, shared: SharedPiece): Promise<unknown>;
};

/** The opt-in parts, in the registry's order, each bound to its port. */
export const BOUND_PARTS = Symbol('BOUND_PARTS');

/** Injects each part's port (exported by the part's module, which the lookup module imports) and binds the part to it. */
export const boundPartsProvider: FactoryProvider<BoundPart[]> = {
  provide: BOUND_PARTS,
  inject: OPTIONAL_PARTS.map((part) => part.port),
  useFactory: (...ports: unknown[]): BoundPart[] =>
    OPTIONAL_PARTS.map((part: RegisteredPart, index) => ({
      ...part,
      load: (request: PartRequest, signal: AbortSignal, shared: SharedPiece) => part.load(ports[index], request, signal, shared),
    })),
};
