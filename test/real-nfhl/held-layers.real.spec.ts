/**
 * Spatial reuse on FEMA's real Hudson County polygons: at every point of a grid over the county (100 m for FIRM panels
 * and communities, 200 m for flood zones), a layer's answer from the grid square holding the point (the NFHL
 * emulator's envelope query of the square, held as the service holds it) is the emulator's point query answer
 * exactly, feature for feature and in the same order, or undefined (the service then asks FEMA at the point), and
 * undefined at a tiny share of the points only. Beside the layers' boundaries (their vertices rounded as the service
 * rounds a point, centimetres from the edges) it is equal or undefined too. Zones are tried on the service's grid for
 * them (0.01°) and on a coarser one (0.05°); what a held square of each layer weighs is printed, to
 * tell whether holding it pays. The sweep runs as a process of its own (held-layers-sweep.ts).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { hudsonCounty } from './real-nfhl-layers';
import { CHECKS, type CheckOutcome, type Comparison, STEP_M, type SweepReport } from './held-layers-sweep';

/** Most points of a layer and grid whose held square may not tell. */
const UNDECIDED_SHARE = 0.001;
/** A hang guard for the sweep (about 40 s of one core), not a speed goal. */
const SWEEP_GUARD_MS = 600_000;

let report: SweepReport;
const outcome = (name: string): CheckOutcome => report.checks.find((check) => check.name === name)!;
const told = (name: string, fields: string[]) =>
  new Set(
    outcome(name).answers.flatMap((answer) =>
      (JSON.parse(answer) as Array<Record<string, unknown>>).map((attributes) => fields.map((field) => attributes[field]).join(' ')),
    ),
  );

beforeAll(async () => {
  const sweep = join(__dirname, 'held-layers-sweep.ts');
  const { stdout } = await promisify(execFile)(process.execPath, ['-r', 'ts-node/register/transpile-only', sweep], { maxBuffer: 256 * 1024 * 1024 });
  report = JSON.parse(stdout) as SweepReport;
  const spread = ({ median, max }: { median: number; max: number }) => `median ${median}, max ${max}`;
  const counts = ({ points, decided, undecided }: Comparison) =>
    `${points} points, ${decided} told by the held square, ${undecided} undecided (${((100 * undecided) / points).toFixed(3)} %)`;
  const lines = report.checks.flatMap(({ name, onGrid, besideBoundaries, squares }) => [
    `${name}: grid ${counts(onGrid)}; beside boundaries ${counts(besideBoundaries)}`,
    `  ${squares.count} squares; per square: features ${spread(squares.features)}, vertices ${spread(squares.vertices)}, held KiB ${spread(squares.kib)}`,
  ]);
  console.log(`Hudson County [${report.county.map((v) => v.toFixed(6)).join(', ')}]\n${lines.join('\n')}`);
}, SWEEP_GUARD_MS);

it(`covers the county's extent with ${STEP_M.panels} m and ${STEP_M.zones} m grids of distinct points, and probes its boundaries`, () => {
  expect(report.checks.map(({ name, onGrid, besideBoundaries }) => [name, onGrid.points, besideBoundaries.points])).toEqual([
    [CHECKS[0].name, 7_752, 5_283],
    [CHECKS[1].name, 7_752, 5_283],
    [CHECKS[2].name, 30_856, 160],
    [CHECKS[3].name, 30_856, 4_431],
  ]);
  expect(report.distinctPoints).toEqual({ zones: 7_752, panels: 30_856, jurisdictions: 30_856 });
});

describe.each(CHECKS.map(({ name }) => name))('%s', (name) => {
  it.each([
    ['on the grid', 'onGrid'],
    ['beside the boundaries', 'besideBoundaries'],
  ] as const)('answers every point %s it can tell exactly as the point query, feature for feature and in order', (_where, kind) => {
    const { points, decided, undecided, differences, differing } = outcome(name)[kind];
    expect(differences).toEqual([]);
    expect(differing).toBe(0);
    expect(decided + undecided).toBe(points);
  });

  it(`leaves under ${UNDECIDED_SHARE * 100} % of the grid's points undecided`, () => {
    const { points, undecided } = outcome(name).onGrid;
    expect(undecided).toBeLessThan(points * UNDECIDED_SHARE);
  });
});

it('tells every community of the county, every FIRM panel over it and over a hundred of its zones', () => {
  const hudson = hudsonCounty();
  const communities = [...new Set(hudson.jurisdictions.map(({ attributes }) => `${attributes.POL_NAME1} ${attributes.CID}`))];
  expect([...told(CHECKS[3].name, ['POL_NAME1', 'CID'])].sort()).toEqual(communities.sort());
  expect([...told(CHECKS[2].name, ['FIRM_PAN'])].sort()).toEqual(hudson.panels.map(({ attributes }) => attributes.FIRM_PAN).sort());
  expect(told(CHECKS[0].name, ['FLD_AR_ID']).size).toBe(112);
  expect(told(CHECKS[1].name, ['FLD_AR_ID'])).toEqual(told(CHECKS[0].name, ['FLD_AR_ID']));
});
