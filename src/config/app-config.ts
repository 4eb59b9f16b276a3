import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  MaxLength,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';

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

/**
 * The service's configuration (CONTRACT section 8). Property names are the environment variable
 * names, so a validation message names the variable an operator has to fix.
 */
export class AppConfig {
  @IsInt() @Min(0) @Max(65535)
  PORT = 3000;

  @IsString() @MinLength(1)
  HOST = '0.0.0.0';

  @IsOptional() @IsUrl(HTTP_URL)
  PUBLIC_BASE_URL?: string;

  @IsUrl(HTTP_URL)
  NFHL_BASE_URL = 'https://hazards.fema.gov/arcgis/rest/services/public/NFHL/MapServer';

  @IsUrl(HTTP_URL)
  GEOCODER_BASE_URL = 'https://geocoding.geo.census.gov/geocoder';

  @IsString() @MinLength(1) @MaxLength(100)
  GEOCODER_BENCHMARK = 'Public_AR_Current';

  @IsString() @MinLength(1) @MaxLength(100)
  GEOCODER_VINTAGE = 'Current_Current';

  @IsInt() @Min(1) @Max(300000)
  UPSTREAM_TIMEOUT_MS = 10000;

  @IsInt() @Min(0) @Max(10)
  UPSTREAM_RETRIES = 1;

  @IsInt() @Min(1) @Max(600000)
  LOOKUP_DEADLINE_MS = 25000;

  @IsInt() @Min(0)
  CACHE_TTL_SECONDS = 86400;

  @IsInt() @Min(0)
  GEOCODE_CACHE_TTL_SECONDS = 604800;

  @IsInt() @Min(1)
  CACHE_MAX_ENTRIES = 10000;

  @IsInt() @Min(0)
  STALE_IF_ERROR_SECONDS = 0;

  @IsInt() @Min(1) @Max(1024)
  UPSTREAM_MAX_CONCURRENCY = 16;

  @IsInt() @Min(0) @Max(600000)
  SHUTDOWN_GRACE_MS = 10000;

  /** Beyond CONTRACT section 8: consecutive failed lookups against one upstream that open its circuit. */
  @IsInt() @Min(1) @Max(1000)
  CIRCUIT_BREAKER_THRESHOLD = 5;

  /** Beyond CONTRACT section 8: how long an open circuit fails fast before one probe call (matches Retry-After: 5). */
  @IsInt() @Min(100) @Max(600000)
  CIRCUIT_BREAKER_HALF_OPEN_MS = 5000;

  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true, protocols: ['redis', 'rediss'] })
  REDIS_URL?: string;

  @IsInt() @Min(0)
  RATE_LIMIT_PER_MINUTE = 0;

  @Transform(toBoolean) @IsBoolean()
  TRUST_PROXY = false;

  @IsIn(LOG_LEVELS)
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
  for (const key of Object.keys(defaults).concat('PUBLIC_BASE_URL', 'REDIS_URL')) {
    const raw = env[key];
    if (raw === undefined || raw.trim() === '') continue;
    const value = raw.trim();
    given[key] = typeof (defaults as unknown as Record<string, unknown>)[key] === 'number' ? wholeNumber(value) : value;
  }
  const config = plainToInstance(AppConfig, given);
  const errors = validateSync(config, { forbidUnknownValues: true });
  if (errors.length > 0) {
    const problems = errors.map((e) => `${e.property}=${JSON.stringify(env[e.property])}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new InvalidConfigurationError(`Invalid configuration: ${problems.join(' | ')}`);
  }
  return config;
}

function wholeNumber(value: string): number {
  return /^[+-]?\d+$/.test(value) ? Number(value) : Number.NaN;
}
