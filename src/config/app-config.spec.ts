import { InvalidConfigurationError, loadAppConfig } from './app-config';

describe('loadAppConfig', () => {
  it('gives the documented defaults when nothing is set', () => {
    const config = loadAppConfig({});
    expect({ ...config }).toEqual({
      PORT: 3000,
      HOST: '0.0.0.0',
      NFHL_BASE_URL: 'https://hazards.fema.gov/arcgis/rest/services/public/NFHL/MapServer',
      GEOCODER_BASE_URL: 'https://geocoding.geo.census.gov/geocoder',
      GEOCODER_BENCHMARK: 'Public_AR_Current',
      GEOCODER_VINTAGE: 'Current_Current',
      PRELIMINARY_NFHL_BASE_URL: 'https://hazards.fema.gov/arcgis/rest/services/PrelimPending/Prelim_NFHL/MapServer',
      PENDING_NFHL_BASE_URL: 'https://hazards.fema.gov/arcgis/rest/services/PrelimPending/Pending_NFHL/MapServer',
      CBRS_BASE_URL: 'https://cbrsgis.wim.usgs.gov/arcgis/rest/services/CoastalBarrierResourcesSystem/MapServer',
      OPENFEMA_BASE_URL: 'https://www.fema.gov/api/open',
      COMMUNITY_STATUS_REFRESH_HOURS: 24,
      ELEVATION_BASE_URL: 'https://epqs.nationalmap.gov',
      BASEMAP_BASE_URL: 'https://basemap.nationalmap.gov/arcgis/rest/services/USGSTopo/MapServer',
      STRUCTURES_BASE_URL: 'https://services2.arcgis.com/FiaPA4ga0iQKduv3/arcgis/rest/services/USA_Structures_View/FeatureServer/0',
      HELD_POLYGONS_MAX_MB: 64,
      STRUCTURE_SEARCH_M: 40,
      POLYGON_WORKERS: 1,
      POLYGON_DEADLINE_MS: 5000,
      BATCH_MAX_LOCATIONS: 10000,
      BATCH_MAX_CONCURRENT: 2,
      BATCH_UPLOAD_GRACE_MS: 10000,
      BATCH_ANSWER_STALL_MS: 30000,
      UPSTREAM_TIMEOUT_MS: 10000,
      UPSTREAM_RETRIES: 1,
      LOOKUP_DEADLINE_MS: 25000,
      CACHE_TTL_SECONDS: 86400,
      GEOCODE_CACHE_TTL_SECONDS: 604800,
      HISTORY_TTL_SECONDS: 604800,
      CACHE_MAX_ENTRIES: 10000,
      STALE_IF_ERROR_SECONDS: 0,
      UPSTREAM_MAX_CONCURRENCY: 16,
      SHUTDOWN_GRACE_MS: 30000,
      CIRCUIT_BREAKER_FAILURE_RATE: 50,
      CIRCUIT_BREAKER_WINDOW_MS: 30000,
      CIRCUIT_BREAKER_MIN_CALLS: 20,
      CIRCUIT_BREAKER_HALF_OPEN_MS: 5000,
      JOB_MAX_LOCATIONS: 1000000,
      JOB_WORKERS: 2,
      JOB_UPSTREAM_RATE_PER_SECOND: 20,
      JOB_TTL_HOURS: 48,
      WATCH_SWEEP_INTERVAL_SECONDS: 86400,
      WATCH_LOOKBACK_DAYS: 120,
      WATCH_FULL_RECHECK_DAYS: 30,
      WATCH_MAX_LOCATIONS: 1000000,
      WATCH_WEBHOOK_ALLOW_PRIVATE: false,
      WATCH_WEBHOOK_ALLOW_HTTP: false,
      RATE_LIMIT_PER_MINUTE: 0,
      TRUST_PROXY: false,
      MCP_ENABLED: true,
      LOG_LEVEL: 'info',
    });
    expect(config.PUBLIC_BASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.JOBS_REDIS_URL).toBeUndefined();
  });

  it('reads numbers, booleans and URLs from the environment', () => {
    const config = loadAppConfig({
      PORT: '8080',
      TRUST_PROXY: 'true',
      MCP_ENABLED: 'false',
      CACHE_TTL_SECONDS: '0',
      REDIS_URL: 'redis://127.0.0.1:6379',
      NFHL_BASE_URL: 'http://127.0.0.1:4010/arcgis/rest/services/public/NFHL/MapServer',
      LOG_LEVEL: 'debug',
    });
    expect(config.PORT).toBe(8080);
    expect(config.TRUST_PROXY).toBe(true);
    expect(config.MCP_ENABLED).toBe(false);
    expect(config.CACHE_TTL_SECONDS).toBe(0);
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.LOG_LEVEL).toBe('debug');
  });

  it('reads how far from an address a building is looked for, from 10 to 100 m', () => {
    expect(loadAppConfig({ STRUCTURE_SEARCH_M: '10' }).STRUCTURE_SEARCH_M).toBe(10);
    expect(loadAppConfig({ STRUCTURE_SEARCH_M: '100' }).STRUCTURE_SEARCH_M).toBe(100);
  });

  it('treats an empty value as unset', () => {
    expect(loadAppConfig({ PORT: '' }).PORT).toBe(3000);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '10abc'],
    ['UPSTREAM_TIMEOUT_MS', '1.5'],
    ['UPSTREAM_TIMEOUT_MS', '0'],
    ['UPSTREAM_RETRIES', '-1'],
    ['CACHE_MAX_ENTRIES', '0'],
    ['TRUST_PROXY', 'yes please'],
    ['LOG_LEVEL', 'loud'],
    ['NFHL_BASE_URL', 'not a url'],
    ['GEOCODER_BASE_URL', 'ftp://example.org'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['PUBLIC_BASE_URL', 'example'],
  ])('rejects %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadAppConfig({ [name]: value })).toThrow(InvalidConfigurationError);
    expect(() => loadAppConfig({ [name]: value })).toThrow(new RegExp(`\\b${name}=`));
  });

  it.each([
    ['PORT', 'abc', 'Invalid configuration: PORT="abc": must be an integer from 0 to 65535'],
    ['PORT', '70000', 'Invalid configuration: PORT="70000": must be an integer from 0 to 65535'],
    ['CACHE_MAX_ENTRIES', '0', 'Invalid configuration: CACHE_MAX_ENTRIES="0": must be an integer of at least 1'],
    ['TRUST_PROXY', 'yes please', 'Invalid configuration: TRUST_PROXY="yes please": must be true or false'],
    ['MCP_ENABLED', 'maybe', 'Invalid configuration: MCP_ENABLED="maybe": must be true or false'],
    ['LOG_LEVEL', 'loud', 'Invalid configuration: LOG_LEVEL="loud": must be one of fatal, error, warn, info, debug, trace, silent'],
    ['NFHL_BASE_URL', 'not a url', 'Invalid configuration: NFHL_BASE_URL="not a url": must be an http:// or https:// URL'],
    ['REDIS_URL', 'http://x', 'Invalid configuration: REDIS_URL="http://x": must be a redis:// or rediss:// URL'],
    ['BATCH_MAX_CONCURRENT', '0', 'Invalid configuration: BATCH_MAX_CONCURRENT="0": must be an integer from 1 to 64'],
    ['BATCH_UPLOAD_GRACE_MS', '50', 'Invalid configuration: BATCH_UPLOAD_GRACE_MS="50": must be an integer from 100 to 600000'],
    ['BATCH_ANSWER_STALL_MS', '5s', 'Invalid configuration: BATCH_ANSWER_STALL_MS="5s": must be an integer from 100 to 600000'],
    ['OPENFEMA_BASE_URL', 'www.fema.gov', 'Invalid configuration: OPENFEMA_BASE_URL="www.fema.gov": must be an http:// or https:// URL'],
    ['COMMUNITY_STATUS_REFRESH_HOURS', '0', 'Invalid configuration: COMMUNITY_STATUS_REFRESH_HOURS="0": must be an integer from 1 to 8760'],
    ['STRUCTURES_BASE_URL', 'services2.arcgis.com', 'Invalid configuration: STRUCTURES_BASE_URL="services2.arcgis.com": must be an http:// or https:// URL'],
    ['STRUCTURE_SEARCH_M', '9', 'Invalid configuration: STRUCTURE_SEARCH_M="9": must be an integer from 10 to 100'],
    ['STRUCTURE_SEARCH_M', '101', 'Invalid configuration: STRUCTURE_SEARCH_M="101": must be an integer from 10 to 100'],
    ['STRUCTURE_SEARCH_M', '40.5', 'Invalid configuration: STRUCTURE_SEARCH_M="40.5": must be an integer from 10 to 100'],
    ['HELD_POLYGONS_MAX_MB', '-1', 'Invalid configuration: HELD_POLYGONS_MAX_MB="-1": must be an integer from 0 to 4096'],
    ['HELD_POLYGONS_MAX_MB', '4097', 'Invalid configuration: HELD_POLYGONS_MAX_MB="4097": must be an integer from 0 to 4096'],
    ['POLYGON_WORKERS', '0', 'Invalid configuration: POLYGON_WORKERS="0": must be an integer from 1 to 64'],
    ['POLYGON_DEADLINE_MS', '99', 'Invalid configuration: POLYGON_DEADLINE_MS="99": must be an integer from 100 to 600000'],
  ])('says in one phrase what %s=%s must be', (name, value, message) => {
    expect(() => loadAppConfig({ [name]: value })).toThrow(message);
  });

  it('lets a lookup in flight finish before shutdown by default (SHUTDOWN_GRACE_MS > LOOKUP_DEADLINE_MS)', () => {
    const config = loadAppConfig({});
    expect(config.SHUTDOWN_GRACE_MS).toBeGreaterThan(config.LOOKUP_DEADLINE_MS);
  });
});
