/**
 * Offline mode's failure controls, set before the service starts: a latency and faults for the emulators from
 * the environment and the command line (the same faults can be set and cleared later over HTTP, see
 * `/_emulator` in emulator-core.ts).
 *
 *   EMULATOR_LATENCY_MS=200                      every emulator answers 200 ms late
 *   EMULATOR_FAULTS='[{"kind":"reset"}]'         a fault or a list of faults for every emulator
 *   EMULATOR_FAULTS='{"nfhl":{"kind":"http-status","status":503,"match":"Flood Hazard Zones"}}'
 *                                                faults by emulator name
 *   --latency-ms 200   --fault '<JSON as EMULATOR_FAULTS>' (repeatable)   the same from argv; argv wins for latency
 */
import { parseArgs } from 'node:util';
import { ActiveFault, Fault, parseFaults, UpstreamEmulator } from './emulator-core';

export interface AppliedControls {
  /** The latency set on every emulator, when one was given. */
  latencyMs?: number;
  faults: Array<{ emulator: string; fault: ActiveFault }>;
  /** One line per setting, for the console. */
  summary: string[];
}

/**
 * Reads EMULATOR_LATENCY_MS / EMULATOR_FAULTS and `--latency-ms N` / `--fault JSON` and applies them to the
 * emulators, named by their keys (`{ nfhl, census, ... }`). Throws a message naming the bad setting.
 */
export function applyOfflineControls(
  emulators: Record<string, UpstreamEmulator>,
  env: NodeJS.ProcessEnv = process.env,
  argv: string[] = process.argv.slice(2),
): AppliedControls {
  const { values } = parseArgs({
    args: argv,
    options: { 'latency-ms': { type: 'string' }, fault: { type: 'string', multiple: true } },
  });
  let latencyMs: number | undefined;
  if (values['latency-ms'] !== undefined) latencyMs = parseLatency(values['latency-ms'], '--latency-ms');
  else if (nonEmpty(env.EMULATOR_LATENCY_MS)) latencyMs = parseLatency(env.EMULATOR_LATENCY_MS as string, 'EMULATOR_LATENCY_MS');
  const sources: Array<[string, string]> = (values.fault ?? []).map((text) => ['--fault', text]);
  if (nonEmpty(env.EMULATOR_FAULTS)) sources.unshift(['EMULATOR_FAULTS', env.EMULATOR_FAULTS as string]);
  const planned = sources.flatMap(([source, text]) => faultsByEmulator(source, text, Object.keys(emulators)));

  const applied: AppliedControls = { latencyMs, faults: [], summary: [] };
  if (latencyMs !== undefined) {
    for (const emulator of Object.values(emulators)) emulator.setLatency(latencyMs);
    applied.summary.push(`every emulator answers ${latencyMs} ms late`);
  }
  for (const { emulator, fault } of planned) {
    const active = emulators[emulator].injectFault(fault);
    applied.faults.push({ emulator, fault: active });
    applied.summary.push(`${emulator}: fault #${active.id} ${JSON.stringify(fault)}`);
  }
  return applied;
}

function nonEmpty(text: string | undefined): boolean {
  return text !== undefined && text.trim() !== '';
}

function parseLatency(text: string, source: string): number {
  const ms = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(ms)) throw new Error(`${source} must be a whole number of milliseconds, got "${text}"`);
  return ms;
}

/** A fault, a list of faults (both for every emulator), or an object of them keyed by emulator name. */
function faultsByEmulator(source: string, text: string, names: string[]): Array<{ emulator: string; fault: Fault }> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${source} must be JSON (a fault, a list of faults, or faults by emulator name), got ${text}`);
  }
  const keyedByName = typeof value === 'object' && value !== null && !Array.isArray(value) && !('kind' in value);
  const entries: Array<[string[], unknown]> = keyedByName
    ? Object.entries(value as Record<string, unknown>).map(([name, faults]) => [[name], faults])
    : [[names, value]];
  return entries.flatMap(([targets, faults]) => {
    const unknown = targets.find((name) => !names.includes(name));
    if (unknown !== undefined) throw new Error(`${source} names no emulator "${unknown}": the emulators are ${names.join(', ')}`);
    let parsed: Fault[];
    try {
      parsed = parseFaults(faults);
    } catch (error) {
      throw new Error(`${source}${keyedByName ? ` (${targets[0]})` : ''}: ${(error as Error).message}`, { cause: error });
    }
    return targets.flatMap((emulator) => parsed.map((fault) => ({ emulator, fault })));
  });
}
