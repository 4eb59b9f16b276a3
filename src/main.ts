import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { InvalidConfigurationError, loadAppConfig } from './config/app-config';
import { DrainState } from './common/drain-state';
import { UpstreamReachability } from './health/upstream-reachability';

/**
 * Between major collections V8 lets the old generation grow to about 4x its live size when the heap limit is
 * large (any big machine). Every upstream call leaves short-lived garbage that survives into the old
 * generation, so a long batch would grow RSS to 4x what it really keeps; 1.5x holds a 10,000-row batch within
 * 100 MB for a few more incremental major collections. Set at start-up, before anything is served.
 */
setFlagsFromString('--heap-growing-percent=50');

/** Room left, within SHUTDOWN_GRACE_MS, to close connections and exit after the drain. */
const CLOSE_MARGIN_MS = 500;

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadAppConfig(process.env);
  } catch (error) {
    if (error instanceof InvalidConfigurationError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { bufferLogs: true, bodyParser: false });
  configureApp(app, config);
  try {
    await app.listen(config.PORT, config.HOST);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES' && code !== 'EADDRNOTAVAIL') throw error;
    const why = code === 'EADDRINUSE' ? 'is already in use' : code === 'EACCES' ? 'needs privileges this process lacks' : 'is not an address of this machine';
    process.stderr.write(`Cannot listen on ${config.HOST}:${config.PORT}: the address ${why}; stop the other process or set PORT/HOST.\n`);
    process.exit(1);
  }
  // In the background: never delays start-up or readiness, only says early which upstream cannot be reached.
  void app.get(UpstreamReachability).checkAll();

  const grace = config.SHUTDOWN_GRACE_MS;
  const shutdown = async (signal: NodeJS.Signals) => {
    // Whatever happens below, the process is gone within the configured window.
    setTimeout(() => process.exit(1), grace).unref();
    await app.get(DrainState).drain(Math.max(0, grace - CLOSE_MARGIN_MS));
    app.getHttpServer().closeIdleConnections?.();
    await app.close();
    process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), msg: `stopped after ${signal}` })}\n`);
    process.exit(0);
  };
  process.once('SIGTERM', (signal) => void shutdown(signal));
  process.once('SIGINT', (signal) => void shutdown(signal));
}

void bootstrap();
