import type { Writable } from 'node:stream';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { CommandFailure } from './command-failure';
import { lookUpFloodZone } from './flood-zone-lookup-command';
import { DEFAULT_SERVICE_URL, FloodZoneService, ServiceOptions } from './flood-zone-service';
import { screenPortfolio } from './portfolio-screening';
import { progressBar } from './screening-progress';

/** The service's default BATCH_MAX_LOCATIONS: the largest chunk it accepts unless configured otherwise. */
const DEFAULT_CHUNK_ROWS = 10000;
/** The service's default BATCH_MAX_CONCURRENT: more chunks at once would only wait for a 429's Retry-After. */
const DEFAULT_PARALLEL_CHUNKS = 2;

export interface CommandIo {
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

const wholeNumberFrom = (min: number, max: number) => (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}.`);
  return n;
};

function withServiceOptions(command: Command, env: NodeJS.ProcessEnv): Command {
  return command
    .option('--url <base-url>', 'the flood-zone service (env FLOOD_ZONE_URL)', env.FLOOD_ZONE_URL || DEFAULT_SERVICE_URL)
    .option('--include <list>', 'opt-in parts, comma-separated: nearby, preliminary, cbrs')
    .option('--radius <m>', 'metres around the point for nearby (10-2000, default 500)');
}

/**
 * The `flood-zone` command line (CONTRACT section 13). Returns the exit status: 0 done, 1 the service could
 * not be reached or failed a request as a whole, 2 bad arguments (commander's own usage errors included).
 */
export async function runFloodZoneCli(argv: string[], io: CommandIo): Promise<number> {
  let status = 0;
  const program = new Command('flood-zone')
    .description('FEMA flood zones for addresses and points, from a flood-zone lookup service.')
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });

  withServiceOptions(program.command('batch'), io.env)
    .description('Screen a CSV of locations (columns id, address, lat, lon) through POST /flood-zone/batch; writes the CSV answer in input order.')
    .argument('<input>', 'the CSV file of locations')
    .option('-o, --output <file>', 'write the CSV answer here (default: stdout)')
    .option('--resume', 'continue an interrupted run from the rows already in OUTPUT')
    .option('--chunk-size <rows>', 'rows per request (at most the service\'s BATCH_MAX_LOCATIONS)', wholeNumberFrom(1, 1_000_000), DEFAULT_CHUNK_ROWS)
    .option('--parallel <chunks>', 'requests at once', wholeNumberFrom(1, 64), DEFAULT_PARALLEL_CHUNKS)
    .action(async (input: string, options: ServiceOptions & { output?: string; resume?: boolean; chunkSize: number; parallel: number }) => {
      await screenPortfolio({
        input,
        output: options.output,
        stdout: io.stdout,
        service: FloodZoneService.fromOptions(options),
        chunkSize: options.chunkSize,
        parallel: options.parallel,
        resume: options.resume === true,
        progress: io.stderr.isTTY ? progressBar(io.stderr) : undefined,
      });
    });

  withServiceOptions(program.command('lookup'), io.env)
    .description('One lookup: "ADDRESS" (quoted) or LAT LON; prints the answer (or the error envelope) as JSON. Exit 0 for a 200, 2 for a 400/422, 1 otherwise.')
    .argument('<location...>', '"ADDRESS", or LAT LON')
    .action(async (location: string[], options: ServiceOptions) => {
      status = await lookUpFloodZone(location, FloodZoneService.fromOptions(options), io.stdout);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return status;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    const failure = error instanceof CommandFailure ? error : undefined;
    io.stderr.write(`flood-zone: ${failure ? failure.message : (error as Error).stack}\n`);
    return failure?.exitStatus ?? 1;
  }
}
