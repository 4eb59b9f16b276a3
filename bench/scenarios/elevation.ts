/**
 * Scenario 9: a cold lookup with include=elevation vs the plain lookup, every upstream (the USGS elevation
 * service, EPQS, too) answering in 50 ms. The ground joins the lookup's one parallel round, so it may add at
 * most one EPQS round trip, and one EPQS call per lookup.
 */
import { DemoPlace, demoPlace } from '../../test/emulators/demo-map';
import { CFG } from '../config';
import { Rounds, interleave, spreadLabel, spreadText } from '../interleaved';
import { Emulators, Service, Tally, TimedBlock, callsOf, expectOk, httpGet, keepAlive, msOf, p50Gap, round, timedBlock } from '../lib';
import { PlaceJitter, pointPath } from '../points';
import { coldFigures, log, results, row } from '../report';

/** Places with a NAVD88 BFE (static, estimated from the nearest line, interpolated) and the ground the emulator gives each. */
const GROUND: Array<{ place: DemoPlace; groundFt: number; bfe: 'static' | 'estimated' }> = [
  { place: demoPlace('dc-white-house-ae'), groundFt: 579.5, bfe: 'static' },
  { place: demoPlace('houston-ah-one-bfe-line'), groundFt: 50.2, bfe: 'estimated' },
  { place: demoPlace('franklin-bfe-bracketed'), groundFt: 612.9, bfe: 'estimated' },
];
const POINTS = new PlaceJitter(GROUND.map(({ place }) => place));
/** The most the goal allows the elevation to add to the p50, beyond one EPQS round trip. */
const SLACK_MS = 5;

/** The zone, a complete answer, and the ground (compared with the place's BFE) exactly when asked for. */
function checkGround(place: DemoPlace, result: Record<string, any>, withElevation: boolean, what: string): void {
  const ground = GROUND.find((g) => g.place === place)!;
  const got = {
    floodZone: result.floodZone,
    unavailable: result.unavailable,
    elevationFt: result.groundElevation?.elevationFt ?? null,
    comparedWith: result.groundElevation?.comparedWith?.bfe ?? null,
  };
  const want = {
    floodZone: place.expect.floodZone,
    unavailable: [],
    elevationFt: withElevation ? ground.groundFt : null,
    comparedWith: withElevation ? ground.bfe : null,
  };
  if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${what} at ${place.id}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
}

export async function elevationVsPlain(emulators: Emulators): Promise<void> {
  const S = '9 include=elevation, 50 ms upstream';
  const latency = CFG.upstreamLatencyMs;
  const { rounds, block } = CFG.elevation;
  const n = rounds * block;
  log(`${S}: ${n} plain and ${n} include=elevation cold lookups, sequential, in ${rounds} A-B-B-A rounds of ${block} each`);
  await emulators.setLatency(latency);
  await emulators.setElevationPoints(GROUND.map(({ place, groundFt }) => ({ at: [place.lon, place.lat], valueFt: groundFt, resolution: 1 })));
  const service = await Service.start(emulators.env);
  const agent = keepAlive(1);
  const queries = { plain: '', elevation: '&include=elevation' };
  const lookup = async (kind: keyof typeof queries, what: string): Promise<number> => {
    const { place, point } = POINTS.next();
    const r = await httpGet(`${service.base}${pointPath(point)}${queries[kind]}`, agent);
    const body = expectOk(r, `${what} at ${place.id}`);
    if (r.headers['x-cache'] !== 'MISS') throw new Error(`${what} answered X-Cache ${String(r.headers['x-cache'])}`);
    checkGround(place, body.result, kind === 'elevation', what);
    return r.ms;
  };
  let measured: Rounds<keyof typeof queries, TimedBlock>;
  try {
    // the first lookups also read each MapServer's layer list (once per process) and wait for the Community Status Book
    await lookup('plain', 'warm-up');
    await lookup('elevation', 'warm-up');
    measured = await interleave(['plain', 'elevation'] as const, rounds, (kind, r) =>
      timedBlock(emulators, block, (i) => lookup(kind, `${kind} lookup ${r * block + i}`)),
    );
  } finally {
    await service.stop();
    await emulators.setElevationPoints([]);
  }
  const plain = coldFigures(msOf(measured.of('plain')), latency);
  const elevation = coldFigures(msOf(measured.of('elevation')), latency);
  const extraP50 = measured.compare('elevation', 'plain', p50Gap, 1);
  const calls = { plain: callsOf(measured.of('plain')), elevation: callsOf(measured.of('elevation')) };
  const epqsPerLookup = (t: Tally) => round((t['elevation json'] ?? 0) / n, 2);
  const total = (t: Tally) => round(Object.values(t).reduce((a, b) => a + b, 0) / n, 2);
  results.elevation = {
    upstreamLatencyMs: latency,
    places: GROUND.map(({ place }) => place.id),
    plain,
    elevation,
    extraP50Ms: extraP50,
    epqsCallsPerLookup: { plain: epqsPerLookup(calls.plain), elevation: epqsPerLookup(calls.elevation) },
    upstreamCallsPerLookup: { plain: total(calls.plain), elevation: total(calls.elevation) },
  };
  row(S, `plain: ${n} distinct points at ${GROUND.length} places, p50 / p90 ms`, `${plain.p50Ms} / ${plain.p90Ms}`);
  row(S, `include=elevation: ${n} distinct points, p50 / p90 ms`, `${elevation.p50Ms} / ${elevation.p90Ms}`);
  row(
    S,
    `p50(elevation) - p50(plain) ms, ${spreadLabel(rounds)}`,
    spreadText(extraP50),
    `<= ${latency + SLACK_MS} (one EPQS round trip + ${SLACK_MS})`,
    extraP50.median <= latency + SLACK_MS,
  );
  const epqs = epqsPerLookup(calls.elevation);
  row(S, 'EPQS calls per lookup, plain -> include=elevation', `${epqsPerLookup(calls.plain)} -> ${epqs}`, '1 per lookup', epqs === 1);
  row(S, 'upstream calls per lookup, plain -> include=elevation', `${total(calls.plain)} -> ${total(calls.elevation)}`);
}
