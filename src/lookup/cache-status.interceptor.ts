import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import type { Observable } from 'rxjs';

/**
 * Every lookup response carries X-Cache (CONTRACT section 6). Interceptors run before pipes, so even a
 * rejected query or a failed lookup (no cached answer served) says MISS; a served answer overrides it.
 */
@Injectable()
export class CacheStatusInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    context.switchToHttp().getResponse<Response>().setHeader('X-Cache', 'MISS');
    return next.handle();
  }
}
