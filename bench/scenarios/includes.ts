/** Scenario 6: a cold lookup with every include vs the plain lookup, 50 ms upstream latency. */
import { DemoPlace, demoPlace } from '../../test/emulators/demo-map';
import { CFG } from '../config';
import { Rounds, interleave, spreadLabel, spreadText } from '../interleaved';
import { Emulators, Service, Tally, TimedBlock, callsOf, expectOk, httpGet, keepAlive, msOf, p50Gap, round, timedBlock } from '../lib';
import { PlaceJitter, pointPath } from '../points';
import { coldFigures, log, results, row } from '../report';

/** Places where each opt-in part has something to find: nearby hazards, a pending and a preliminary map, a CBRS unit. */
const INCLUDE_PLACES = ['houston-nearby-hazards', 'charleston-pending-out-of-sfha', 'charleston-preliminary-into-sfha', 'fernandina-cbrs-system-unit'].map(
  demoPlace,
);
const ALL_INCLUDES = 'nearby,preliminary,cbrs';
const INCLUDE_POINTS = new PlaceJitter(INCLUDE_PLACES);

/** The zone, complete parts, and each opt-in part present exactly when asked for, as the demo place expects. */
function checkParts(place: DemoPlace, result: Record<string, any>, withIncludes: boolean, what: string): void {
  const e = place.expect;
  const got = {
    floodZone: result.floodZone,
    unavailable: result.unavailable,
    nearby: result.nearby !== null,
    mapChange: result.mapChange?.status ?? null,
    coastalBarrier: result.coastalBarrier?.status ?? null,
  };
  const want = {
    floodZone: e.floodZone,
    unavailable: [],
    nearby: withIncludes,
    mapChange: withIncludes ? e.mapChange.status : null,
    coastalBarrier: withIncludes ? e.coastalBarrier.status : null,
  };
  if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${what} at ${place.id}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
}

export async function includesVsPlain(emulators: Emulators): Promise<void> {
  const S = '6 all includes, 50 ms upstream';
  const latency = CFG.upstreamLatencyMs;
  const { rounds, block } = CFG.includes;
  const n = rounds * block;
  log(`${S}: ${n} plain and ${n} include=${ALL_INCLUDES} cold lookups, sequential, in ${rounds} A-B-B-A rounds of ${block} each`);
  await emulators.setLatency(latency);
  const service = await Service.start(emulators.env);
  const agent = keepAlive(1);
  const queries = { plain: '', includes: `&include=${ALL_INCLUDES}` };
  const lookup = async (kind: keyof typeof queries, what: string): Promise<number> => {
    const { place, point } = INCLUDE_POINTS.next();
    const r = await httpGet(`${service.base}${pointPath(point)}${queries[kind]}`, agent);
    const body = expectOk(r, `${what} at ${place.id}`);
    if (r.headers['x-cache'] !== 'MISS') throw new Error(`${what} answered X-Cache ${String(r.headers['x-cache'])}`);
    checkParts(place, body.result, kind === 'includes', what);
    return r.ms;
  };
  let measured: Rounds<keyof typeof queries, TimedBlock>;
  try {
    // the first lookups also read each MapServer's layer list (once per process)
    await lookup('plain', 'layer-list warm-up');
    await lookup('includes', 'layer-list warm-up');
    measured = await interleave(['plain', 'includes'] as const, rounds, (kind, r) =>
      timedBlock(emulators, block, (i) => lookup(kind, `${kind} lookup ${r * block + i}`)),
    );
  } finally {
    await service.stop();
  }
  const plain = coldFigures(msOf(measured.of('plain')), latency);
  const all = coldFigures(msOf(measured.of('includes')), latency);
  const extraP50 = measured.compare('includes', 'plain', p50Gap, 1);
  const calls = { plain: callsOf(measured.of('plain')), includes: callsOf(measured.of('includes')) };
  const perLookup = (t: Tally, key: string) => round((t[key] ?? 0) / n, 2);
  const keys = [...new Set([...Object.keys(calls.plain), ...Object.keys(calls.includes)])].sort();
  const callsPerLookup = Object.fromEntries(keys.map((k) => [k, { plain: perLookup(calls.plain, k), includes: perLookup(calls.includes, k) }]));
  const total = (t: Tally) => round(Object.values(t).reduce((a, b) => a + b, 0) / n, 2);
  results.includes = {
    upstreamLatencyMs: latency,
    places: INCLUDE_PLACES.map((p) => p.id),
    include: ALL_INCLUDES,
    plain,
    allIncludes: all,
    extraP50Ms: extraP50,
    callsPerLookup,
  };
  row(S, `plain: ${n} distinct points at ${INCLUDE_PLACES.length} places, p50 / p90 ms`, `${plain.p50Ms} / ${plain.p90Ms}`);
  row(S, `include=${ALL_INCLUDES}: ${n} distinct points, p50 / p90 ms`, `${all.p50Ms} / ${all.p90Ms}`);
  row(S, `p50(all includes) - p50(plain) ms, ${spreadLabel(rounds)}`, spreadText(extraP50), `<= ${latency} (one NFHL round trip)`, extraP50.median <= latency);
  for (const [k, c] of Object.entries(callsPerLookup)) {
    row(S, `calls per lookup, plain -> includes: ${k}`, `${c.plain} -> ${c.includes} (+${round(c.includes - c.plain, 2)})`);
  }
  const plainTotal = total(calls.plain);
  const allTotal = total(calls.includes);
  row(S, 'upstream calls per lookup, plain -> includes (extra)', `${plainTotal} -> ${allTotal} (+${round(allTotal - plainTotal, 2)})`);
}
