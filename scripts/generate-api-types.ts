/**
 * `npm run openapi:types`: TypeScript types (`paths`, `components`, `operations`) for a typed client of the
 * service, generated with openapi-typescript's programmatic API (`openapiTS(document)` + `astToString`).
 *
 *   node -r ts-node/register/transpile-only scripts/generate-api-types.ts [source] [output]
 *
 * `source` is an OpenAPI document: a file (default `openapi.json`, as `npm run openapi:export` writes it) or
 * an http(s) URL such as http://127.0.0.1:3000/openapi.json. `output` defaults to
 * test/client/generated/flood-zone-api.d.ts (generated, git-ignored), which test/client/lookup-client.ts imports.
 *
 * A separate process on purpose: openapi-typescript loads ESM-only dependencies that Jest's CommonJS
 * runtime cannot require, so test/e2e/contract/typed-client.system-spec.ts runs this script rather than importing it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

const REPO_ROOT = path.resolve(__dirname, '..');
export const DEFAULT_TYPES_OUTPUT = path.join(REPO_ROOT, 'test', 'client', 'generated', 'flood-zone-api.d.ts');

async function readDocument(source: string): Promise<OpenAPI3> {
  if (/^https?:\/\//i.test(source)) {
    const response = await fetch(source);
    if (response.status !== 200) throw new Error(`GET ${source} answered ${response.status}`);
    return (await response.json()) as OpenAPI3;
  }
  return JSON.parse(readFileSync(path.resolve(process.cwd(), source), 'utf8')) as OpenAPI3;
}

export async function generateApiTypes(source: string, output: string = DEFAULT_TYPES_OUTPUT): Promise<string> {
  const document = await readDocument(source);
  const types = astToString(await openapiTS(document));
  const header =
    `/**\n * Generated from the flood-zone service's OpenAPI ${String(document.openapi)} document by ` +
    `scripts/generate-api-types.ts (openapi-typescript).\n * Do not edit: regenerate instead.\n */\n\n`;
  mkdirSync(path.dirname(output), { recursive: true });
  writeFileSync(output, header + types);
  return output;
}

if (require.main === module) {
  const [source = path.join(REPO_ROOT, 'openapi.json'), output = DEFAULT_TYPES_OUTPUT] = process.argv.slice(2);
  generateApiTypes(source, path.resolve(process.cwd(), output)).then(
    (written) => process.stdout.write(`types written to ${path.relative(process.cwd(), written) || written}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
