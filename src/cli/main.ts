#!/usr/bin/env node
/** The `flood-zone` command (the package's bin): `flood-zone batch …` and `flood-zone lookup …`. */
import { runFloodZoneCli } from './flood-zone-program';

void runFloodZoneCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then((status) => {
  process.exitCode = status;
});
