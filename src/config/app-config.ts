import { applyDecorators } from '@nestjs/common';
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, MaxLength, Min, MinLength, validateSync } from 'class-validator';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Only the literal words are accepted: `Boolean("false")` is true, which would silently trust every proxy. */
const toBoolean = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  if (word === 'true' || word === '1') return true;
  if (word === 'false' || word === '0') return false;
  return value;
};

const HTTP_URL = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };
const URL_MESSAGE = { message: 'must be an http:// or https:// URL' };

/** One message for the whole range check, so an operator reads what is wanted, not three constraints. */
function IntegerIn(min: number, max: number): PropertyDecorator {
  const message = `must be an integer from ${min} to ${max}`;
  return applyDecorators(IsInt({ message }), Min(min, { message }), Max(max, { message }));
}

function IntegerFrom(min: number): PropertyDecorator {
  const message = `must be an integer of at least ${min}`;
  return applyDecorators(IsInt({ message }), Min(min, { message }));
}

/**
 * The service's configuration (docs/api.md lists every variable). Property names are the environment variable
 * names, so a validation message names the variable an operator has to fix.
 */
export class AppConfig {
  @IntegerIn(0, 65535)
  PORT = 3000;

  @IsString()
  @MinLength(1, { message: 'must not be empty' })
  HOST = '0.0.0.0';

  @IsOptional()
  @IsUrl(HTTP_URL, URL_MESSAGE)
  PUBLIC_BASE_URL?: string;

  @IsUrl(HTTP_URL, URL_MESSAGE)
  NFHL_BASE_URL = 'https://hazards.fema.gov/arcgis/rest/services/public/NFHL/MapServer';

  @IsUrl(HTTP_URL, URL_MESSAGE)
  GEOCODER_BASE_URL = 'https://geocoding.geo.census.gov/geocoder';

  @IsString()
  @MinLength(1)
  @MaxLength(100, { message: 'must be at most 100 characters' })
  GEOCODER_BENCHMARK = 'Public_AR_Current';

  @IsString()
  @MinLength(1)
  @MaxLength(100, { message: 'must be at most 100 characters' })
  GEOCODER_VINTAGE = 'Current_Current';

  @IsUrl(HTTP_URL, URL_MESSAGE)
  PRELIMINARY_NFHL_BASE_URL = 'https://hazards.fema.gov/arcgis/rest/services/PrelimPending/Prelim_NFHL/MapServer';

  @IsUrl(HTTP_URL, URL_MESSAGE)
  PENDING_NFHL_BASE_URL = 'https://hazards.fema.gov/arcgis/rest/services/PrelimPending/Pending_NFHL/MapServer';

  @IsUrl(HTTP_URL, URL_MESSAGE)
  CBRS_BASE_URL = 'https://cbrsgis.wim.usgs.gov/arcgis/rest/services/CoastalBarrierResourcesSystem/MapServer';

  @IsUrl(HTTP_URL, URL_MESSAGE)
  OPENFEMA_BASE_URL = 'https://www.fema.gov/api/open';

  /** How often the NFIP Community Status Book is downloaded again (a failed download keeps the table held). */
  @IntegerIn(1, 8760)
  COMMUNITY_STATUS_REFRESH_HOURS = 24;

  @IsUrl(HTTP_URL, URL_MESSAGE)
  ELEVATION_BASE_URL = 'https://epqs.nationalmap.gov';

  /** The USGS National Map basemap drawn under the flood zones of GET /flood-zone/map. */
  @IsUrl(HTTP_URL, URL_MESSAGE)
  BASEMAP_BASE_URL = 'https://basemap.nationalmap.gov/arcgis/rest/services/USGSTopo/MapServer';

  /** FEMA/ORNL USA Structures: the layer's URL (a FeatureServer's layer 0), queried at `{STRUCTURES_BASE_URL}/query`. */
  @IsUrl(HTTP_URL, URL_MESSAGE)
  STRUCTURES_BASE_URL = 'https://services2.arcgis.com/FiaPA4ga0iQKduv3/arcgis/rest/services/USA_Structures_View/FeatureServer/0';

  /**
   * The memory (MiB) each process gives the NFHL features it holds for whole areas where a portfolio's rows are dense
   * (one envelope query answering many rows); 0: every row's layers are asked point by point.
   */
  @IntegerIn(0, 4096)
  HELD_POLYGONS_MAX_MB = 64;

  /** How far from an address's point a building is looked for, in metres. */
  @IntegerIn(10, 100)
  STRUCTURE_SEARCH_M = 40;

  /** Worker threads for polygon work of more than 250 vertices (checks and clipping), started only when such a polygon comes. */
  @IntegerIn(1, 64)
  POLYGON_WORKERS = 1;

  /** Time a polygon task handed to a worker thread may take (waiting included); past it its thread is stopped and replaced. */
  @IntegerIn(100, 600000)
  POLYGON_DEADLINE_MS = 5000;

  /** Rows accepted in one POST /flood-zone/batch request. */
  @IntegerIn(1, 100000)
  BATCH_MAX_LOCATIONS = 10000;

  /** Batches running at once in this process; one more is a 429 BATCH_BUSY. */
  @IntegerIn(1, 64)
  BATCH_MAX_CONCURRENT = 2;

  /** How long any request body (a batch's, a job's…) may take to get going: after this it must average 1 KiB/s over every 10 s, or it is a 408 (a batch holds no slot meanwhile). */
  @IntegerIn(100, 600000)
  BATCH_UPLOAD_GRACE_MS = 10000;

  /** How long a batch waits for its client to read any of its answer before abandoning it and freeing its slot. */
  @IntegerIn(100, 600000)
  BATCH_ANSWER_STALL_MS = 30000;

  @IntegerIn(1, 300000)
  UPSTREAM_TIMEOUT_MS = 10000;

  @IntegerIn(0, 10)
  UPSTREAM_RETRIES = 1;

  @IntegerIn(1, 600000)
  LOOKUP_DEADLINE_MS = 25000;

  @IntegerFrom(0)
  CACHE_TTL_SECONDS = 86400;

  @IntegerFrom(0)
  GEOCODE_CACHE_TTL_SECONDS = 604800;

  /** How long an area's flood record (a tract's claims and policies, a county's declarations) is kept: OpenFEMA refreshes them monthly. */
  @IntegerFrom(0)
  HISTORY_TTL_SECONDS = 604800;

  @IntegerFrom(1)
  CACHE_MAX_ENTRIES = 10000;

  @IntegerFrom(0)
  STALE_IF_ERROR_SECONDS = 0;

  @IntegerIn(1, 1024)
  UPSTREAM_MAX_CONCURRENCY = 16;

  /** Longer than LOOKUP_DEADLINE_MS, so a lookup in flight at SIGTERM is always answered before exit. */
  @IntegerIn(0, 600000)
  SHUTDOWN_GRACE_MS = 30000;

  /** A circuit opens when at least this percentage of an operation's calls failed as an outage (timeout, reset, 5xx, HTML page) within the window... */
  @IntegerIn(1, 100)
  CIRCUIT_BREAKER_FAILURE_RATE = 50;

  /** ...of this many milliseconds... */
  @IntegerIn(1000, 600000)
  CIRCUIT_BREAKER_WINDOW_MS = 30000;

  /** ...and that window saw at least this many calls (a few failures under low traffic never open it). */
  @IntegerIn(1, 100000)
  CIRCUIT_BREAKER_MIN_CALLS = 20;

  /** How long an open circuit fails fast before one probe call (matches Retry-After: 5). */
  @IntegerIn(100, 600000)
  CIRCUIT_BREAKER_HALF_OPEN_MS = 5000;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['redis', 'rediss'] }, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  /** The Redis holding the portfolio job queue and job data (unset: REDIS_URL; neither: the job endpoints answer 503). */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['redis', 'rediss'] }, { message: 'must be a redis:// or rediss:// URL' })
  JOBS_REDIS_URL?: string;

  /** Rows accepted in one portfolio job. */
  @IntegerIn(1, 1000000)
  JOB_MAX_LOCATIONS = 1000000;

  /** Chunk workers in this process. */
  @IntegerIn(1, 64)
  JOB_WORKERS = 2;

  /** Job calls per upstream service per second, all replicas together. */
  @IntegerIn(1, 100000)
  JOB_UPSTREAM_RATE_PER_SECOND = 20;

  /** How long a finished job's results are kept. */
  @IntegerIn(1, 8760)
  JOB_TTL_HOURS = 48;

  /** How often the watches ask FEMA what changed (a sweep), in seconds. */
  @IntegerIn(60, 604800)
  WATCH_SWEEP_INTERVAL_SECONDS = 86400;

  /** How far before the last sweep a change's effective date is looked for (FEMA publishes changes late). */
  @IntegerIn(0, 3650)
  WATCH_LOOKBACK_DAYS = 120;

  /** How often every location of a watch is answered again, whatever FEMA said changed. */
  @IntegerIn(1, 365)
  WATCH_FULL_RECHECK_DAYS = 30;

  /** Locations in one watch. */
  @IntegerIn(1, 1000000)
  WATCH_MAX_LOCATIONS = 1000000;

  /** Webhooks may reach loopback, private and link-local addresses (tests and private networks only). */
  @Transform(toBoolean)
  @IsBoolean({ message: 'must be true or false' })
  WATCH_WEBHOOK_ALLOW_PRIVATE = false;

  /** Webhooks may be plain http:// (tests and private networks only). */
  @Transform(toBoolean)
  @IsBoolean({ message: 'must be true or false' })
  WATCH_WEBHOOK_ALLOW_HTTP = false;

  @IntegerFrom(0)
  RATE_LIMIT_PER_MINUTE = 0;

  @Transform(toBoolean)
  @IsBoolean({ message: 'must be true or false' })
  TRUST_PROXY = false;

  /** Serve the Model Context Protocol for AI agents at POST /mcp; false leaves /mcp unknown (404). */
  @Transform(toBoolean)
  @IsBoolean({ message: 'must be true or false' })
  MCP_ENABLED = true;

  @IsIn(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';
}

export class InvalidConfigurationError extends Error {}

/**
 * Builds the configuration from environment variables, or throws naming every variable that is
 * wrong. Empty values count as unset; numbers must be whole numbers written as such ("10abc" fails).
 */
export function loadAppConfig(env: NodeJS.ProcessEnv | Record<string, string | undefined>): AppConfig {
  const defaults = new AppConfig();
  const given: Record<string, unknown> = {};
  for (const key of Object.keys(defaults).concat('PUBLIC_BASE_URL', 'REDIS_URL', 'JOBS_REDIS_URL')) {
    const raw = env[key];
    if (raw === undefined || raw.trim() === '') continue;
    const value = raw.trim();
    given[key] = typeof (defaults as unknown as Record<string, unknown>)[key] === 'number' ? wholeNumber(value) : value;
  }
  const config = plainToInstance(AppConfig, given);
  const errors = validateSync(config, { forbidUnknownValues: true });
  if (errors.length > 0) {
    const problems = errors.map((e) => `${e.property}=${JSON.stringify(env[e.property])}: ${[...new Set(Object.values(e.constraints ?? {}))].join('; ')}`);
    throw new InvalidConfigurationError(`Invalid configuration: ${problems.join(' | ')}`);
  }
  return config;
}

function wholeNumber(value: string): number {
  return /^[+-]?\d+$/.test(value) ? Number(value) : Number.NaN;
}
