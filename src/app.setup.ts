import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from './config/app-config';
import { ApiExceptionFilter } from './common/filters/api-exception.filter';
import { methodNotAllowed } from './common/middleware/method-not-allowed.middleware';
import { requestId } from './common/middleware/request-id.middleware';
import { collectRequestFacts } from './common/request-context';
import { buildOpenApiDocument } from './docs/openapi-document';
import { DrainState } from './health/drain-state';
import { DOCS_PATH, ENDPOINT_CATALOGUE } from './health/service-description';
import { ServiceMetrics } from './metrics/service-metrics';

/**
 * Everything the HTTP surface needs beyond the modules (CONTRACT section 1): request ids, metrics,
 * drain tracking, security headers, open CORS, 405 on known paths, the error envelope, the documents.
 */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.TRUST_PROXY);
  app.disable('x-powered-by');

  const metrics = app.get(ServiceMetrics);
  app.use(requestId);
  app.use(collectRequestFacts);
  app.use(app.get(DrainState).track);
  app.use((req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.once('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      metrics.requestFinished(route, req.method, res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  });
  app.use(
    helmet({
      // Swagger UI loads its own scripts and styles from this origin and uses inline styles.
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          // Plain-HTTP hosting (cluster-internal names) must still load the page's own assets.
          upgradeInsecureRequests: null,
        },
      },
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.enableCors({ origin: '*', methods: ['GET', 'HEAD', 'OPTIONS'], credentials: false, optionsSuccessStatus: 204, maxAge: 86400 });
  app.use(methodNotAllowed(Object.keys(ENDPOINT_CATALOGUE), [`${DOCS_PATH}/`]));
  app.useGlobalFilters(new ApiExceptionFilter());

  const document = buildOpenApiDocument(app, config.PUBLIC_BASE_URL);
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: 'openapi.json',
    raw: ['json'],
    customSiteTitle: 'Flood Zone Lookup API',
    swaggerOptions: { tryItOutEnabled: false, displayRequestDuration: true },
  });
}
