/**
 * Validates an OpenAPI document with @apidevtools/swagger-parser (3.1 supported). The parser loads an
 * ES module that Jest's module system cannot require under Node 20, so it runs in a plain Node child
 * process (which can), on a copy of the document written to a temporary file.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');

const SCRIPT = `
const SwaggerParser = require('@apidevtools/swagger-parser');
const doc = JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'));
SwaggerParser.validate(structuredClone(doc)).then(
  () => process.stdout.write('valid'),
  (error) => { process.stdout.write('invalid: ' + error.message); process.exitCode = 1; },
);
`;

/** Resolves with null when valid, or the parser's message when not. */
export function openApiProblems(document: unknown): Promise<string | null> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  return new Promise<string | null>((done, fail) => {
    execFile(process.execPath, ['-e', SCRIPT, file], { cwd: ROOT, timeout: 30_000 }, (error, stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true });
      if (stdout === 'valid') return done(null);
      if (stdout.startsWith('invalid: ')) return done(stdout.slice('invalid: '.length));
      fail(new Error(`swagger-parser did not run: ${error?.message ?? ''} ${stderr}`));
    });
  });
}
