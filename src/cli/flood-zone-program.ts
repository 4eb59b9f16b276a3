import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { INCLUDE_ITEMS } from '../parts/answer-parts';
import { CommandFailure, ROWS_FAILED_STATUS } from './command-failure';
import { DEFAULT_SERVICE_URL, FloodZoneApi, ServiceOptions } from './flood-zone-api';
import { lookUpFloodZone } from './flood-zone-lookup-command';
import { cancelJob, jobProgressBar, showJobStatus, submitJob, waitForJob } from './portfolio-job-commands';
import { createWatch, showWatchStatus, stopWatch, watchEvents } from './watch-commands';
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

const withServiceUrl = (command: Command, env: NodeJS.ProcessEnv): Command =>
  command.option('--url <base-url>', 'the flood-zone service (env FLOOD_ZONE_URL)', env.FLOOD_ZONE_URL || DEFAULT_SERVICE_URL);

function withServiceOptions(command: Command, env: NodeJS.ProcessEnv): Command {
  return withServiceUrl(command, env)
    .option('--include <list>', `opt-in parts, comma-separated: ${INCLUDE_ITEMS.join(', ')}`)
    .option('--radius <m>', 'metres around the point for nearby (10-2000, default 500)');
}

/** The package's version, from its package.json (two levels up from src/cli and from dist/cli alike). */
const VERSION = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

const BATCH_HELP = `
Output columns: the batch endpoint's CSV answer columns (index, id, status, error_code, query_address, query_lat,
query_lon, matched_address, ... retrieved_at), then error_message (the error envelope's message) and candidates
(an ambiguous address's candidates as a JSON array of {matchedAddress, lat, lon}), then the input's other columns
as given (a name already taken gets the prefix input_). Header names are read in any case; latitude reads as lat,
longitude, lng and long as lon. A row whose cell count differs from the header row's is that row's 400. Cells that
a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return; not a negative number) are
written with a leading ' so they read as text. A summary (rows by status) ends the run on stderr.

--resume continues from the last complete row of OUTPUT, after checking that OUTPUT's rows echo this input's rows
(id, address, lat, lon and the other cells); an OUTPUT written for another input is refused (exit status 2).

Exit status:
  0  every row is in the output, none with a 5xx status
  1  the service could not be reached, a chunk failed as a whole, or an answer was cut off (run again with --resume)
  2  bad arguments, or an input or OUTPUT that cannot be used
  ${ROWS_FAILED_STATUS}  every row is in the output, but some got a 5xx status (the service or a data source failed for them)`;

/**
 * The `flood-zone` command line. Returns the exit status: 0 done, 1 the service could not be reached or failed a
 * request as a whole, 2 bad arguments (commander's own usage errors included), 3 rows in the output got a 5xx.
 */
export async function runFloodZoneCli(argv: string[], io: CommandIo): Promise<number> {
  let status = 0;
  const program = new Command('flood-zone')
    .description('FEMA flood zones for addresses and points, from a flood-zone lookup service.')
    .version(VERSION, '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .addHelpText(
      'after',
      `\nExit status: 0 done; 1 the service could not be reached or failed a request; 2 bad arguments; ${ROWS_FAILED_STATUS} (batch) every row ` +
        'written but some got a 5xx status. See flood-zone batch --help and flood-zone lookup --help.',
    );

  withServiceOptions(program.command('batch'), io.env)
    .description(
      "Screen a CSV of locations (columns id, address, lat, lon, and footprint: a building's GeoJSON outline) through POST /flood-zone/batch; writes one CSV row per input row, in input order.",
    )
    .argument('<input>', 'the CSV file of locations')
    .option('-o, --output <file>', 'write the output CSV here (default: stdout)')
    .option('--resume', 'continue an interrupted run from the rows already in OUTPUT (refused if OUTPUT belongs to another input)')
    .option('--chunk-size <rows>', "rows per request (at most the service's BATCH_MAX_LOCATIONS)", wholeNumberFrom(1, 1_000_000), DEFAULT_CHUNK_ROWS)
    .option('--parallel <chunks>', 'requests at once', wholeNumberFrom(1, 64), DEFAULT_PARALLEL_CHUNKS)
    .action(async (input: string, options: ServiceOptions & { output?: string; resume?: boolean; chunkSize: number; parallel: number }) => {
      status = await screenPortfolio({
        input,
        output: options.output,
        stdout: io.stdout,
        stderr: io.stderr,
        api: FloodZoneApi.fromOptions(options),
        chunkSize: options.chunkSize,
        parallel: options.parallel,
        resume: options.resume === true,
        progress: io.stderr.isTTY ? progressBar(io.stderr) : undefined,
      });
    })
    .addHelpText('after', BATCH_HELP);

  withServiceOptions(program.command('lookup'), io.env)
    .description(
      'One lookup: "ADDRESS" (quoted) or LAT LON; prints the answer (or the error envelope) as JSON on stdout. A lone number is neither. ' +
        'Exit 0 for a 200, 2 for a 400/422 or bad arguments, 1 otherwise.',
    )
    .argument('<location...>', '"ADDRESS", or LAT LON')
    .option(
      '--footprint <file>',
      "a GeoJSON file of the building's (or parcel's) outline: a Polygon, MultiPolygon or a Feature of one, in lon/lat; sent with POST /flood-zone",
    )
    .action(async (location: string[], options: ServiceOptions & { footprint?: string }) => {
      status = await lookUpFloodZone(location, FloodZoneApi.fromOptions(options), io.stdout, io.stderr, options.footprint);
    });

  const job = program
    .command('job')
    .description('Portfolio jobs (POST /flood-zone/jobs): up to a million rows answered in the background by every replica of the service.');
  withServiceOptions(job.command('submit'), io.env)
    .description(
      'Submit a CSV of locations (columns id, address, lat or latitude, lon or longitude, lng, long, footprint; any others kept for its results) as a job; ' +
        "prints its id, and on stderr the service's warnings (columns it does not read as a location).",
    )
    .argument('<input>', 'the CSV file of locations')
    .action(async (input: string, options: ServiceOptions) => {
      status = await submitJob(input, FloodZoneApi.fromOptions(options), io.stdout, io.stderr);
    });
  withServiceUrl(job.command('status'), io.env)
    .description("Print a job's status (status, total, done, errors, degradedRows, times, etaSeconds, upstreamCallsPerRow) as JSON.")
    .argument('<id>', "the job's id")
    .action(async (id: string, options: ServiceOptions) => {
      status = await showJobStatus(id, FloodZoneApi.fromOptions(options), io.stdout);
    });
  withServiceUrl(job.command('wait'), io.env)
    .description(
      'Wait for a job to complete (a progress bar on a terminal), then write its results as CSV, with the columns batch writes (the answer, ' +
        "error_message, candidates, then the input's other columns). Killed, run it again: it goes on waiting or downloads again (OUTPUT appears " +
        'only once whole). Exit 1 when the job failed or was cancelled.',
    )
    .argument('<id>', "the job's id")
    .option('-o, --output <file>', 'write the results CSV here (default: stdout)')
    .action(async (id: string, options: ServiceOptions & { output?: string }) => {
      status = await waitForJob(id, FloodZoneApi.fromOptions(options), {
        output: options.output,
        stdout: io.stdout,
        progress: io.stderr.isTTY ? jobProgressBar(io.stderr) : undefined,
      });
    });
  withServiceUrl(job.command('cancel'), io.env)
    .description('Cancel a job: it takes no more work and its data is deleted.')
    .argument('<id>', "the job's id")
    .action(async (id: string, options: ServiceOptions) => {
      status = await cancelJob(id, FloodZoneApi.fromOptions(options), io.stdout);
    });

  const watch = program
    .command('watch')
    .description('Life-of-loan watches (POST /flood-zone/watches): locations swept for changes of FEMA’s answer, with an event feed and a signed webhook.');
  withServiceUrl(watch.command('create'), io.env)
    .description(
      "Create a watch of a completed job's rows (--from-job) or of a CSV of locations (--input; columns as for a job, each row with an id); prints the watch " +
        "as JSON, with the webhook's signing secret, shown this once.",
    )
    .option('--from-job <id>', 'a completed portfolio job')
    .option('--input <file>', 'a CSV file of locations')
    .option('--webhook <url>', 'the https URL that receives each event, signed')
    .option('--name <name>', "the watch's name")
    .action(async (options: ServiceOptions & { fromJob?: string; input?: string; webhook?: string; name?: string }) => {
      status = await createWatch(options, FloodZoneApi.fromOptions(options), io.stdout);
    });
  withServiceUrl(watch.command('status'), io.env)
    .description("Print a watch's status (locations, sweeps, events, deliveries, webhook) as JSON.")
    .argument('<id>', "the watch's id")
    .action(async (id: string, options: ServiceOptions) => {
      status = await showWatchStatus(id, FloodZoneApi.fromOptions(options), io.stdout);
    });
  withServiceUrl(watch.command('events'), io.env)
    .description("Print a watch's events in order, one JSON line each; --follow keeps printing new ones as sweeps find them (stop it with Ctrl-C).")
    .argument('<id>', "the watch's id")
    .option('--after <event>', 'start after this event id')
    .option('--follow', 'keep waiting for new events')
    .action(async (id: string, options: ServiceOptions & { after?: string; follow?: boolean }) => {
      status = await watchEvents(id, FloodZoneApi.fromOptions(options), io.stdout, { after: options.after, follow: options.follow });
    });
  withServiceUrl(watch.command('stop'), io.env)
    .description('Stop a watch: no more sweeps or deliveries, and its data is deleted.')
    .argument('<id>', "the watch's id")
    .action(async (id: string, options: ServiceOptions) => {
      status = await stopWatch(id, FloodZoneApi.fromOptions(options), io.stdout);
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
