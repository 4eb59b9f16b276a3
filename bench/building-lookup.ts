/**
 * Informational, not part of `npm run bench`: what `include=structure` costs a cold lookup. The built service
 * (bench/.service, built as `npm run bench` builds it) runs with its caches off against the upstream emulators at
 * 50 ms latency; the same distinct points, each inside a demo building (within a metre of its centre), are looked
 * up plain and with include=structure, in A-B-B-A rounds of 20 (interleaved.ts) so that a drift in the machine's
 * load falls on both alike. Prints p50 / p95 of both, the gap of each round's medians (their median and
 * interquartile range), and the upstream calls per lookup of each kind: the building adds one USA Structures
 * call, then the zones and FIRM panels over its footprint (two NFHL queries, asked once it is known).
 *
 *   npx tsc -p tsconfig.build.json --outDir bench/.service/dist
 *   node -r ts-node/register/transpile-only bench/building-lookup.ts
 *
 *   BUILDING_LOOKUPS=n     lookups of each kind (default 200, a multiple of 20)
 */
import { DEMO_STRUCTURES } from '../test/emulators/structure-footprints';
import { CFG } from './config';
import { Rounds, interleave, spreadLabel, spreadText } from './interleaved';
import {
  Emulators,
  Service,
  Tally,
  TimedBlock,
  callsOf,
  expectOk,
  httpGet,
  keepAlive,
  killAllChildren,
  msOf,
  p50Gap,
  percentile,
  prepareServiceBuild,
  round,
  timedBlock,
} from './lib';
import { PlaceJitter, type Point, pointPath } from './points';

const LOOKUPS = Number(process.env.BUILDING_LOOKUPS ?? 200);
const BLOCK = 20;
const CACHES_OFF = { CACHE_TTL_SECONDS: '0', GEOCODE_CACHE_TTL_SECONDS: '0' };

/** The centre of each demo building: a point its footprint contains, so the building is found for coordinates. */
const BUILDINGS = DEMO_STRUCTURES.map(({ id, feature: { bbox } }) => ({ id, lat: (bbox.ymin + bbox.ymax) / 2, lon: (bbox.xmin + bbox.xmax) / 2 }));

type Kind = 'plain' | 'structure';
const QUERY: Record<Kind, string> = { plain: '', structure: '&include=structure' };

async function main(): Promise<void> {
  if (!Number.isInteger(LOOKUPS / BLOCK) || LOOKUPS <= 0) throw new Error(`BUILDING_LOOKUPS must be a positive multiple of ${BLOCK}, got ${LOOKUPS}`);
  prepareServiceBuild();
  const latency = CFG.upstreamLatencyMs;
  const emulators = await Emulators.start(latency);
  const service = await Service.start(emulators.env, CACHES_OFF);
  const agent = keepAlive(1);
  const jitter = new PlaceJitter(BUILDINGS);
  const points: Array<{ id: string; point: Point }> = Array.from({ length: LOOKUPS }, () => {
    const { place, point } = jitter.next();
    return { id: place.id, point };
  });
  let measured: Rounds<Kind, TimedBlock>;

  const lookup = async (kind: Kind, { id, point }: { id: string; point: Point }): Promise<number> => {
    const r = await httpGet(`${service.base}${pointPath(point)}${QUERY[kind]}`, agent);
    const { result } = expectOk(r, `${kind} lookup in ${id}`);
    if (result.unavailable.length > 0) throw new Error(`${kind} lookup in ${id}: ${JSON.stringify(result.unavailable)} unavailable`);
    if (kind === 'structure' && result.structure.match !== 'contains') throw new Error(`${id}: the building was not found (${result.structure.match})`);
    return r.ms;
  };

  try {
    // the first lookups also read each MapServer's layer list (once per process)
    for (const kind of ['plain', 'structure'] as const) await lookup(kind, points[0]);
    // the same points for both kinds: each round's two blocks differ only in include=structure
    measured = await interleave(['plain', 'structure'] as const, LOOKUPS / BLOCK, (kind, r) =>
      timedBlock(emulators, BLOCK, (i) => lookup(kind, points[r * BLOCK + i])),
    );
  } finally {
    await service.stop();
    await emulators.close();
  }

  const figures = (kind: Kind) => {
    const ms = msOf(measured.of(kind));
    return { p50: round(percentile(ms, 50), 1), p95: round(percentile(ms, 95), 1) };
  };
  const plain = figures('plain');
  const structure = figures('structure');
  const calls: Record<Kind, Tally> = { plain: callsOf(measured.of('plain')), structure: callsOf(measured.of('structure')) };
  console.log(`cold lookups at ${LOOKUPS} distinct points in ${BUILDINGS.length} demo buildings, ${latency} ms upstream latency, caches off`);
  console.log(`plain:             p50 / p95 ms  ${plain.p50} / ${plain.p95}`);
  console.log(`include=structure: p50 / p95 ms  ${structure.p50} / ${structure.p95}`);
  console.log(`gap of the p50s, ms, ${spreadLabel(measured.count)}: ${spreadText(measured.compare('structure', 'plain', p50Gap, 1))}`);
  console.log('upstream calls per lookup, plain -> include=structure:');
  const perLookup = (kind: Kind, key: string) => round((calls[kind][key] ?? 0) / LOOKUPS, 2);
  for (const key of [...new Set([...Object.keys(calls.plain), ...Object.keys(calls.structure)])].sort()) {
    const [before, after] = [perLookup('plain', key), perLookup('structure', key)];
    if (before !== after) console.log(`  ${key}: ${before} -> ${after} (+${round(after - before, 2)})`);
  }
  const total = (kind: Kind) => round(Object.values(calls[kind]).reduce((a, b) => a + b, 0) / LOOKUPS, 2);
  console.log(`  every upstream: ${total('plain')} -> ${total('structure')} (+${round(total('structure') - total('plain'), 2)})`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    killAllChildren();
    process.exit(1);
  },
);
