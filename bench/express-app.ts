/**
 * Child process of the benchmark: the baseline, a minimal plain Express app that answers GET /flood-zone with
 * a fixed JSON body (the one captured from the service). The parent sends `{ body }` over IPC and gets
 * `{ port }` back once it listens on 127.0.0.1.
 */
import express from 'express';

process.once('message', (msg: { body: string }) => {
  const app = express();
  app.get('/flood-zone', (_req, res) => {
    res.type('application/json').send(msg.body);
  });
  const server = app.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  });
  server.keepAliveTimeout = 30_000;
});

process.on('disconnect', () => process.exit(0));
