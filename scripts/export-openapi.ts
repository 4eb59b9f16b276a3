/**
 * `npm run openapi:export [-- <file>]`: writes the service's OpenAPI 3.1.0 document (exactly what
 * GET /openapi.json serves) to `openapi.json` at the repository root, or to the path given.
 *
 * Builds the real application (AppModule + configureApp, as src/main.ts does) from the process
 * environment, serves it on an ephemeral loopback port only long enough to read /openapi.json, then
 * closes it. No upstream answer is awaited and no Redis is used: the document is static (the NFIP Community
 * Status Book download every app starts in the background is abandoned when it closes).
 * PUBLIC_BASE_URL, when set, goes into `servers` as it does for the running service. The output is
 * generated, so /openapi.json is git-ignored.
 *
 * Run with ts-node: `node -r ts-node/register/transpile-only scripts/export-openapi.ts [file]`.
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from '../src/app.module';
import { configureApp } from '../src/app.setup';
import { InvalidConfigurationError, loadAppConfig } from '../src/config/app-config';

const REPO_ROOT = path.resolve(__dirname, '..');

export async function fetchOpenApiDocument(env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env): Promise<unknown> {
  // REDIS_URL is dropped: the document does not depend on it, and the export must not need a Redis.
  const config = loadAppConfig({ ...env, REDIS_URL: undefined, LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1' });
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { logger: false });
  try {
    configureApp(app, config);
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/openapi.json`);
    if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
    return await response.json();
  } finally {
    app.getHttpServer().closeAllConnections?.();
    await app.close();
  }
}

async function main(): Promise<void> {
  const target = path.resolve(process.cwd(), process.argv[2] ?? path.join(REPO_ROOT, 'openapi.json'));
  const document = (await fetchOpenApiDocument()) as { openapi?: string; paths?: Record<string, unknown> };
  if (typeof document.openapi !== 'string' || !document.paths) throw new Error('/openapi.json is not an OpenAPI document');
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
  process.stdout.write(
    `OpenAPI ${document.openapi} document (${Object.keys(document.paths).length} paths) written to ${path.relative(process.cwd(), target) || target}\n`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof InvalidConfigurationError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
