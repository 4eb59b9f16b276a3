/**
 * Bytes of Redis per watched location: a watch of N locations (default 100,000; `--locations N`) stored as the
 * baseline stores it, in a redis-server of the bench's own, measured with MEMORY USAGE over every key of the watch.
 * The locations are a loan book's: most in three counties, a tail spread over the nation, ids like a servicer's, the
 * place each first answer gave (county and ZIP), the fingerprints of a county's zones, panels and community shared as
 * the store shares them. Goal: at most 400 bytes.
 *
 *   node -r ts-node/register/transpile-only bench/watch-memory.ts [--locations 1000000]
 */
import { parseArgs } from 'node:util';
import Redis from 'ioredis';
import { DisposableRedis } from '../test/support/redis-server';
import { WatchStore } from '../src/watches/watch-store';
import { baselinedLocation, storeBaselinedWatch, SYNTHETIC_ZONES, syntheticPlace, type BaselinedLocation } from './stored-watch';

const { values } = parseArgs({ options: { locations: { type: 'string', default: '100000' } } });
const total = Number(values.locations);

/** Three dense counties and the nation: where a loan book's points are. */
const COUNTIES = [
  { lat: 29.76, lon: -95.37, spread: 0.4, share: 0.35 },
  { lat: 33.45, lon: -112.07, spread: 0.4, share: 0.25 },
  { lat: 40.72, lon: -74.0, spread: 0.2, share: 0.2 },
];

let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

function locationAt(n: number): BaselinedLocation {
  const pick = random();
  let acc = 0;
  const county = COUNTIES.find((c) => (acc += c.share) >= pick);
  const lat = county ? county.lat + (random() - 0.5) * county.spread : 25 + random() * 23;
  const lon = county ? county.lon + (random() - 0.5) * county.spread : -124 + random() * 55;
  const zone = SYNTHETIC_ZONES[Math.floor(random() * SYNTHETIC_ZONES.length)];
  return baselinedLocation(`LN-${String(7_000_000 + n)}`, lat, lon, zone, syntheticPlace(lat, lon));
}

async function main(): Promise<void> {
  const server = await DisposableRedis.start();
  const redis = new Redis(server.url);
  try {
    const store = new WatchStore(redis);
    const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    await storeBaselinedWatch(
      store,
      {
        id,
        name: 'bench',
        include: [],
        webhookUrl: 'https://servicing.example.com/flood-events',
        webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        createdAt: new Date().toISOString(),
      },
      total,
      locationAt,
    );
    const bytes = await store.memoryUsage(id);
    const perLocation = bytes / total;
    console.log(
      `${total} watched locations: ${(bytes / 1024 / 1024).toFixed(1)} MiB in Redis, ${perLocation.toFixed(0)} bytes per location (goal: at most 400)`,
    );
    console.log(`1,000,000 locations would take about ${((perLocation * 1_000_000) / 1024 / 1024).toFixed(0)} MiB`);
  } finally {
    redis.disconnect();
    await server.stop();
  }
}

void main();
