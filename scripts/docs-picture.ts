/**
 * `npm run docs:picture`: makes README's map picture again, docs/images/map-<place>.png, the way offline mode
 * makes it: the upstream emulators and the service (the same modules and HTTP setup as dist/main.js) in this
 * process, on loopback, then GET /flood-zone/map of the demo place offline mode shows (PICTURE_DEMO_PLACE) at the
 * default size. The picture depends on nothing but the code and the demo map, so it is the same on every machine;
 * test/e2e/map/flood-zone-map.e2e-spec.ts checks that the committed one is still what the service draws.
 *
 * Run with ts-node: `node -r ts-node/register/transpile-only scripts/docs-picture.ts`.
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { demoPlace } from '../test/emulators/demo-map';
import { PICTURE_DEMO_PLACE, picturePathOf, startEmulators } from '../test/emulators/offline';
import { startApp } from '../test/support/app-harness';

const REPO_ROOT = path.resolve(__dirname, '..');

/** Where README's picture is kept, relative to the repository root. */
export const README_PICTURE_FILE = `docs/images/map-${PICTURE_DEMO_PLACE}.png`;

async function main(): Promise<void> {
  const place = demoPlace(PICTURE_DEMO_PLACE);
  const emulators = await startEmulators();
  try {
    const service = await startApp(emulators.env);
    try {
      const response = await fetch(`${service.url}${picturePathOf(place)}`);
      const png = Buffer.from(await response.arrayBuffer());
      const type = response.headers.get('content-type');
      if (response.status !== 200 || type !== 'image/png' || response.headers.has('x-map-unavailable')) {
        throw new Error(`GET ${picturePathOf(place)} answered ${response.status} ${type}, X-Map-Unavailable ${response.headers.get('x-map-unavailable')}`);
      }
      const file = path.join(REPO_ROOT, README_PICTURE_FILE);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, png);
      console.log(`${README_PICTURE_FILE}: ${png.length} bytes, GET ${picturePathOf(place)} (legend: ${response.headers.get('x-map-legend')})`);
    } finally {
      await service.close();
    }
  } finally {
    await emulators.close();
  }
}

if (require.main === module) {
  main().then(
    // the NFIP table download every app starts in the background is abandoned
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
