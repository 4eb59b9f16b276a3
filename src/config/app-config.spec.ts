import { InvalidConfigurationError, loadAppConfig } from './app-config';

describe('loadAppConfig', () => {
  it('gives the CONTRACT section 8 defaults when nothing is set', () => {
    const config = loadAppConfig({});
    expect({ ...config }).toEqual({
      PORT: 3000,
      HOST: '0.0.0.0',
      NFHL_BASE_URL: 'https://hazards.fema.gov/arcgis/rest/services/public/NFHL/MapServer',
      GEOCODER_BASE_URL: 'https://geocoding.geo.census.gov/geocoder',
      GEOCODER_BENCHMARK: 'Public_AR_Current',
      GEOCODER_VINTAGE: 'Current_Current',
      UPSTREAM_TIMEOUT_MS: 10000,
      UPSTREAM_RETRIES: 1,
      LOOKUP_DEADLINE_MS: 25000,
      CACHE_TTL_SECONDS: 86400,
      GEOCODE_CACHE_TTL_SECONDS: 604800,
      CACHE_MAX_ENTRIES: 10000,
      STALE_IF_ERROR_SECONDS: 0,
      UPSTREAM_MAX_CONCURRENCY: 16,
      SHUTDOWN_GRACE_MS: 10000,
      CIRCUIT_BREAKER_THRESHOLD: 5,
      CIRCUIT_BREAKER_HALF_OPEN_MS: 5000,
      RATE_LIMIT_PER_MINUTE: 0,
      TRUST_PROXY: false,
      LOG_LEVEL: 'info',
    });
    expect(config.PUBLIC_BASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
  });

  it('reads numbers, booleans and URLs from the environment', () => {
    const config = loadAppConfig({
      PORT: '8080',
      TRUST_PROXY: 'true',
      CACHE_TTL_SECONDS: '0',
      REDIS_URL: 'redis://127.0.0.1:6379',
      NFHL_BASE_URL: 'http://127.0.0.1:4010/arcgis/rest/services/public/NFHL/MapServer',
      LOG_LEVEL: 'debug',
    });
    expect(config.PORT).toBe(8080);
    expect(config.TRUST_PROXY).toBe(true);
    expect(config.CACHE_TTL_SECONDS).toBe(0);
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.LOG_LEVEL).toBe('debug');
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
});
