import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from '../../src/app.module';
import { configureApp } from '../../src/app.setup';
import { loadAppConfig } from '../../src/config/app-config';

export interface RunningApp {
  app: NestExpressApplication;
  /** e.g. http://127.0.0.1:43123 */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the real application (the same modules and HTTP setup as dist/main.js) on a random loopback
 * port, configured from `env` exactly as the process environment would configure it.
 */
export async function startApp(env: Record<string, string | undefined>): Promise<RunningApp> {
  const config = loadAppConfig({ LOG_LEVEL: 'silent', ...env, PORT: '0', HOST: '127.0.0.1' });
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { logger: false, bodyParser: false });
  configureApp(app, config);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return {
    app,
    url: `http://127.0.0.1:${address.port}`,
    close: async () => {
      app.getHttpServer().closeAllConnections?.();
      await app.close();
    },
  };
}
