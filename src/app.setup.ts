import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from './config/app-config';
import { ApiExceptionFilter } from './common/filters/api-exception.filter';
import { serveCachedAnswers } from './common/cache-hit-path';
import { HttpEdge, pathMethods } from './common/http-edge';
import { uploadPaceAfter } from './common/upload-pace';
import { parseQuery } from './common/query-string';
import { ServiceLog } from './common/request-log';
import { buildOpenApiDocument } from './docs/openapi-document';
import { DrainState } from './common/drain-state';
import { DOCS_PATH, ENDPOINT_CATALOGUE, methodsAnswered } from './health/service-description';
import { AnswerCache, cachedLookups } from './lookup/answer-cache';
import { cachedPictures } from './map-picture/map-picture.controller';
import { MapPictureService } from './map-picture/map-picture.service';
import { MCP_PATH } from './mcp/mcp-path';
import { ServiceMetrics } from './metrics/service-metrics';
import { ClientRateLimit } from './rate-limit/client-rate-limit.guard';

/**
 * Everything the HTTP surface needs beyond the modules (docs/api.md): the edge (request ids,
 * security headers, open CORS, 405 on known paths, logs and metrics of every request, cached
 * answers before the router), the exact query parser, the error envelope, the documents.
 */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  const log = app.get(ServiceLog);
  app.useLogger(log);
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('query parser', parseQuery);
  app.disable('x-powered-by');

  const admit = app.get(ClientRateLimit).admission;
  // Without MCP, /mcp is no path at all (404), not a 405 for its other methods.
  const served = Object.entries(ENDPOINT_CATALOGUE).filter(([path]) => config.MCP_ENABLED || path !== MCP_PATH);
  const paths = new Map(served.map(([path, { methods }]) => [path, pathMethods(...methodsAnswered(methods))]));
  const edge = new HttpEdge({
    log,
    metrics: app.get(ServiceMetrics),
    drain: app.get(DrainState),
    paths,
    prefixes: [`${DOCS_PATH}/`],
    pagesPath: DOCS_PATH,
    uploadPace: uploadPaceAfter(config.BATCH_UPLOAD_GRACE_MS),
    // A JSON answer is never a page: nothing may load, frame or run it (OWASP's policy for REST APIs).
    // CSP frame-ancestors says who may frame an answer; a second, older header (X-Frame-Options) could only disagree with it.
    apiSecurityHeaders: {
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      xFrameOptions: false,
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      crossOriginEmbedderPolicy: false,
    },
    pageSecurityHeaders: {
      // Swagger UI loads its own scripts and styles from this origin and uses inline styles.
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          // "Try it out" shows a picture answer (GET /flood-zone/map) as a blob: URL of the bytes it fetched.
          imgSrc: ["'self'", 'data:', 'blob:'],
          connectSrc: ["'self'"],
          // Plain-HTTP hosting (cluster-internal names) must still load the page's own assets.
          upgradeInsecureRequests: null,
        },
      },
      // helmet's CSP defaults say frame-ancestors 'self'.
      xFrameOptions: false,
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      crossOriginEmbedderPolicy: false,
    },
    earlyAnswer: serveCachedAnswers([cachedLookups(app.get(AnswerCache)), cachedPictures(app.get(MapPictureService))], admit),
  });
  edge.install(app.getHttpServer());
  app.use(edge.handle);
  app.useGlobalFilters(new ApiExceptionFilter());

  const document = buildOpenApiDocument(app, config.PUBLIC_BASE_URL);
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: 'openapi.json',
    raw: ['json'],
    customSiteTitle: 'Flood Zone Lookup API',
    swaggerOptions: { tryItOutEnabled: false, displayRequestDuration: true },
  });
}
