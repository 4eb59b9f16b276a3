/** The built `flood-zone` command (`node dist/cli/main.js`, the package's bin; build first: `npm run build`) as a child process. */
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

export const CLI = join(__dirname, '..', '..', 'dist', 'cli', 'main.js');

export interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Starts the command with only PATH in its environment (no setting leaks in from the test run). */
export function startCli(args: string[]): { child: ChildProcess; finished: Promise<Finished> } {
  const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (part: Buffer) => (stdout += part.toString()));
  child.stderr!.on('data', (part: Buffer) => (stderr += part.toString()));
  const finished = once(child, 'exit').then(([status]) => ({ status: status as number | null, stdout, stderr }));
  return { child, finished };
}

export const runCli = (args: string[]) => startCli(args).finished;
