/**
 * Bytes of Redis per watched location: a watch of N locations (default 100,000; `--locations N`) stored as the
 * baseline stores it, in a redis-server of the bench's own, measured with MEMORY USAGE over every key of the watch.
 * The locations are a loan book's: most in three counties, a tail spread over the nation, ids like a servicer's, the
 * fingerprints of a county's zones, panels and community shared as the store shares them. Goal: at most 400 bytes.
 *
 *   node -r ts-node/register/transpile-only bench/watch-memory.ts [--locations 1000000]
 */
import { parseArgs } from 'node:util';
import Redis from 'ioredis';
import { DisposableRedis } from '../test/support/redis-server';
import { fingerprintOf } from '../src/watches/watch-fingerprint';
import { gridCellOf } from '../src/watches/watch-grid';
import { ChunkWrite, fingerprintKey, WatchedLocation, WatchStore } from '../src/watches/watch-store';
import { newWatchRecord } from '../src/watches/watch-record';
import { WATCH_CHUNK_LOCATIONS } from '../src/watches/watches';

const { values } = parseArgs({ options: { locations: { type: 'string', default: '100000' } } });
const total = Number(values.locations);

/** Three dense counties and the nation: where a loan book's points are. */
const COUNTIES = [
  { lat: 29.76, lon: -95.37, spread: 0.4, share: 0.35 },
  { lat: 33.45, lon: -112.07, spread: 0.4, share: 0.25 },
  { lat: 40.72, lon: -74.0, spread: 0.2, share: 0.2 },
];
const ZONES = ['X', 'X', 'X', 'AE', 'X', 'AE', 'A', 'VE', 'X', 'AO'];

let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

function locationAt(n: number): { location: WatchedLocation; print: ReturnType<typeof fingerprintOf> } {
  const pick = random();
  let acc = 0;
  const county = COUNTIES.find((c) => (acc += c.share) >= pick);
  const lat = county ? county.lat + (random() - 0.5) * county.spread : 25 + random() * 23;
  const lon = county ? county.lon + (random() - 0.5) * county.spread : -124 + random() * 55;
  const zone = ZONES[Math.floor(random() * ZONES.length)];
  const panel = `${Math.floor(lat * 10)}C${String(Math.floor(Math.abs(lon) * 10) % 10000).padStart(4, '0')}K`;
  const print = fingerprintOf({
    result: {
      floodZone: zone,
      inSpecialFloodHazardArea: zone !== 'X',
      firmPanel: { panel, effectiveDate: '2019-08-16' },
      community: { communityId: `48${String(Math.floor(lat * 10) % 10000).padStart(4, '0')}`, nfip: { participating: true, program: 'regular', crsClass: 7 } },
      lomrs: [],
      coastalBarrier: { status: 'outside', unit: null },
      mapChange: { status: 'none', floodZone: null },
      structure: { zones: [{ floodZone: zone }], buildingInSfha: zone !== 'X' },
      determination: { map: { letterOfMapChange: null }, floodInsuranceRequired: zone !== 'X' },
      unavailable: [],
    },
  });
  const cid = `48${String(Math.floor(lat * 10) % 10000).padStart(4, '0')}`;
  const location: WatchedLocation = {
    id: `LN-${String(7_000_000 + n)}`,
    lat: Number(lat.toFixed(6)),
    lon: Number(lon.toFixed(6)),
    communities: cid,
    fingerprint: fingerprintKey(print),
    footprint: undefined,
    problem: 0,
  };
  return { location, print };
}

async function main(): Promise<void> {
  const server = await DisposableRedis.start();
  const redis = new Redis(server.url);
  try {
    const store = new WatchStore(redis);
    const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    const chunks = Math.ceil(total / WATCH_CHUNK_LOCATIONS);
    await store.open(
      newWatchRecord({
        id,
        name: 'bench',
        include: [],
        webhookUrl: 'https://servicing.example.com/flood-events',
        webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        createdAt: new Date().toISOString(),
        total,
        chunks,
      }),
    );
    for (let chunk = 0; chunk < chunks; chunk++) {
      const ids: string[] = [];
      const locations: WatchedLocation[] = [];
      const write: ChunkWrite = { fingerprints: {}, cells: [], communities: [], events: [], counts: {}, baseline: true };
      for (let n = chunk * WATCH_CHUNK_LOCATIONS; n < Math.min(total, (chunk + 1) * WATCH_CHUNK_LOCATIONS); n++) {
        const { location, print } = locationAt(n);
        ids.push(location.id);
        locations.push(location);
        write.fingerprints[location.fingerprint!] = JSON.stringify(print);
        write.cells.push(gridCellOf(location.lat!, location.lon!));
        write.communities.push(location.communities!);
      }
      await store.addIds(id, chunk, ids);
      await store.writeChunk(id, chunk, '', locations, write, new Date());
    }
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
