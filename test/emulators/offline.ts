/**
 * Offline mode: `npm run start:offline` (= `npm run build && node -r ts-node/register/transpile-only test/emulators/offline.ts`).
 *
 * Starts the upstream emulators on fixed ports (NFHL 4010, FEMA preliminary 4011, FEMA pending 4012,
 * USFWS CBRS 4013, Census 4020, OpenFEMA 4030, USGS elevation 4040, USGS basemap 4050, USA Structures 4060; override with
 * NFHL_EMULATOR_PORT, PRELIMINARY_EMULATOR_PORT, PENDING_EMULATOR_PORT, CBRS_EMULATOR_PORT, CENSUS_EMULATOR_PORT,
 * OPENFEMA_EMULATOR_PORT, ELEVATION_EMULATOR_PORT, BASEMAP_EMULATOR_PORT, STRUCTURES_EMULATOR_PORT; a port already in use is one line naming it,
 * its emulator and its variable, and exit 1; the service's own PORT is checked first, the same way), then runs the built service (`node dist/main.js`, on PORT, default
 * 3000) with every upstream's base-URL variable (UPSTREAM_REGISTRY: NFHL_BASE_URL, GEOCODER_BASE_URL, ...) pointed at
 * them (every other variable passed through). Once the service answers /health it
 * prints "listening on http://HOST:PORT" and example URLs for every demo place (the fault walkthroughs' places,
 * FAULT_DEMO_PLACES, are left out so that nothing printed here caches them) and every demo building, a map picture and a
 * report page; it forwards SIGINT/SIGTERM to the
 * service and exits with it. Latency and faults can be set before the service starts (EMULATOR_LATENCY_MS,
 * EMULATOR_FAULTS, --latency-ms, --fault: offline-controls.ts).
 *
 * `startEmulators()` is exported for tests and benchmarks.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { type UpstreamBaseUrlVariable, type UpstreamName, upstreamBaseUrls } from '../../src/common/upstream/upstream-registry';
import { ArcGisEmulatorOptions, NfhlEmulatorOptions, NfhlMapServerEmulator } from './arcgis-emulator';
import { ArcGisServiceEmulator } from './arcgis-service-emulator';
import { BasemapEmulator, BasemapEmulatorOptions } from './basemap-emulator';
import { CensusEmulatorOptions, CensusGeocoderEmulator } from './census-emulator';
import { EpqsEmulator, EpqsEmulatorOptions } from './epqs-emulator';
import { DEMO_COMMUNITY_STATUSES } from './community-status-book';
import { OpenFemaEmulator, OpenFemaEmulatorOptions } from './openfema-emulator';
import { DEMO_STRUCTURES, type DemoStructure } from './structure-footprints';
import { StructuresEmulatorOptions, StructuresFeatureServerEmulator } from './structures-emulator';
import { DEMO_ADDRESSES, DEMO_CBRS, DEMO_ELEVATIONS, DEMO_MAP, DEMO_PENDING, DEMO_PLACES, DEMO_PRELIMINARY, DemoPlace, demoPlace } from './demo-map';
import { normaliseAddress } from './census-emulator';
import type { UpstreamEmulator } from './emulator-core';
import { shapeDistanceMeters } from './geometry';
import type { ArcGisServiceData } from './map-data';
import { applyOfflineControls } from './offline-controls';

/** Options of a MapServer emulator serving an `ArcGisServiceData` (default: the demo service). */
export interface ServiceEmulatorOptions extends ArcGisEmulatorOptions {
  data?: ArcGisServiceData;
}

export interface StartEmulatorsOptions {
  nfhl?: NfhlEmulatorOptions;
  /** FEMA preliminary maps (PrelimPending/Prelim_NFHL). */
  preliminary?: ServiceEmulatorOptions;
  /** FEMA pending maps (PrelimPending/Pending_NFHL). */
  pending?: ServiceEmulatorOptions;
  /** USFWS Coastal Barrier Resources System. */
  cbrs?: ServiceEmulatorOptions;
  census?: CensusEmulatorOptions;
  /** USGS Elevation Point Query Service. */
  elevation?: EpqsEmulatorOptions;
  /** OpenFEMA (the NFIP Community Status Book). */
  openfema?: OpenFemaEmulatorOptions;
  /** USGS National Map basemap (USGSTopo MapServer). */
  basemap?: BasemapEmulatorOptions;
  /** FEMA/ORNL USA Structures (building footprints, a FeatureServer). */
  structures?: StructuresEmulatorOptions;
  /** Applied to every emulator unless set per emulator. */
  latencyMs?: number;
}

export interface RunningEmulators {
  nfhl: NfhlMapServerEmulator;
  preliminary: ArcGisServiceEmulator;
  pending: ArcGisServiceEmulator;
  cbrs: ArcGisServiceEmulator;
  census: CensusGeocoderEmulator;
  elevation: EpqsEmulator;
  openfema: OpenFemaEmulator;
  basemap: BasemapEmulator;
  structures: StructuresFeatureServerEmulator;
  /** The environment the service needs to use them: every upstream's base-URL variable. */
  env: Record<UpstreamBaseUrlVariable, string>;
  clearFaults(): void;
  resetCalls(): void;
  close(): Promise<void>;
}

export async function startEmulators(options: StartEmulatorsOptions = {}): Promise<RunningEmulators> {
  const { latencyMs } = options;
  const service = (fallback: ArcGisServiceData, { data, ...rest }: ServiceEmulatorOptions = {}) =>
    ArcGisServiceEmulator.start(data ?? fallback, { latencyMs, ...rest });
  const [nfhl, preliminary, pending, cbrs, census, elevation, openfema, basemap, structures] = await Promise.all([
    NfhlMapServerEmulator.start({ latencyMs, ...options.nfhl }),
    service(DEMO_PRELIMINARY, options.preliminary),
    service(DEMO_PENDING, options.pending),
    service(DEMO_CBRS, options.cbrs),
    CensusGeocoderEmulator.start({ latencyMs, ...options.census }),
    EpqsEmulator.start({ latencyMs, points: [...DEMO_ELEVATIONS], ...options.elevation }),
    OpenFemaEmulator.start({ latencyMs, ...options.openfema }),
    BasemapEmulator.start({ latencyMs, ...options.basemap }),
    StructuresFeatureServerEmulator.start({ latencyMs, ...options.structures }),
  ]);
  const all: UpstreamEmulator[] = [nfhl, preliminary, pending, cbrs, census, elevation, openfema, basemap, structures];
  // Every upstream of the registry has its emulator, or this does not compile: the URL the service is given for it.
  const baseUrlOf: Record<UpstreamName, string> = {
    flood_data: nfhl.baseUrl,
    flood_data_preliminary: preliminary.baseUrl,
    flood_data_pending: pending.baseUrl,
    coastal_barrier: cbrs.baseUrl,
    geocoder: census.baseUrl,
    elevation: elevation.baseUrl,
    openfema: openfema.baseUrl,
    basemap: basemap.baseUrl,
    // USA Structures is configured by its layer's URL, not its service's.
    structures: structures.layerUrl,
  };
  return {
    nfhl,
    preliminary,
    pending,
    cbrs,
    census,
    elevation,
    openfema,
    basemap,
    structures,
    env: upstreamBaseUrls(({ name }) => baseUrlOf[name]),
    clearFaults() {
      for (const e of all) e.clearFaults();
    },
    resetCalls() {
      for (const e of all) e.resetCalls();
    },
    async close() {
      await Promise.all(all.map((e) => e.close()));
    },
  };
}

function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    console.error(`[offline] ${name} must be a port number, got "${raw}"`);
    process.exit(1);
  }
  return n;
}

export interface EmulatorPort {
  key: 'nfhl' | 'preliminary' | 'pending' | 'cbrs' | 'census' | 'elevation' | 'openfema' | 'basemap' | 'structures';
  label: string;
  variable: string;
  port: number;
}

/** Each emulator's fixed port in offline mode, and the variable that moves it. */
export const EMULATOR_PORTS: readonly EmulatorPort[] = [
  { key: 'nfhl', label: 'NFHL MapServer emulator', variable: 'NFHL_EMULATOR_PORT', port: 4010 },
  { key: 'preliminary', label: 'FEMA preliminary MapServer emulator', variable: 'PRELIMINARY_EMULATOR_PORT', port: 4011 },
  { key: 'pending', label: 'FEMA pending MapServer emulator', variable: 'PENDING_EMULATOR_PORT', port: 4012 },
  { key: 'cbrs', label: 'USFWS CBRS MapServer emulator', variable: 'CBRS_EMULATOR_PORT', port: 4013 },
  { key: 'census', label: 'Census geocoder emulator', variable: 'CENSUS_EMULATOR_PORT', port: 4020 },
  { key: 'elevation', label: 'USGS elevation (EPQS) emulator', variable: 'ELEVATION_EMULATOR_PORT', port: 4040 },
  { key: 'openfema', label: 'OpenFEMA emulator', variable: 'OPENFEMA_EMULATOR_PORT', port: 4030 },
  { key: 'basemap', label: 'USGS basemap (National Map) emulator', variable: 'BASEMAP_EMULATOR_PORT', port: 4050 },
  { key: 'structures', label: 'USA Structures FeatureServer emulator', variable: 'STRUCTURES_EMULATOR_PORT', port: 4060 },
];

/** The emulator ports from the environment; two emulators given one port is one line and exit 1. */
function emulatorPorts(): EmulatorPort[] {
  const ports = EMULATOR_PORTS.map((e) => ({ ...e, port: portFromEnv(e.variable, e.port) }));
  for (const [i, e] of ports.entries()) {
    const other = ports.slice(0, i).find((o) => o.port === e.port && e.port !== 0);
    if (other) {
      console.error(`[offline] ${other.variable} and ${e.variable} are both ${e.port}: give each emulator its own port`);
      process.exit(1);
    }
  }
  return ports;
}

/** One line for an emulator that cannot listen, e.g. the port is taken by an earlier offline mode still running. */
function cannotListen(error: NodeJS.ErrnoException & { port?: number }, ports: EmulatorPort[]): string | undefined {
  const emulator = ports.find((e) => e.port === error.port);
  if (!emulator || (error.code !== 'EADDRINUSE' && error.code !== 'EACCES')) return undefined;
  const why = error.code === 'EADDRINUSE' ? 'is already in use' : 'needs privileges this process lacks';
  return `[offline] port ${emulator.port} ${why}: the ${emulator.label} listens there; stop the other process or set ${emulator.variable} to a free port`;
}

/**
 * Whether the service's port is free, checked before anything starts: another process answering /health there
 * would otherwise pass for the service. Undefined when free, else the one line to print.
 */
async function servicePortTaken(host: string, port: number): Promise<string | undefined> {
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(port, host, resolve);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? 'is already in use' : code === 'EACCES' ? 'needs privileges this process lacks' : `cannot be used (${code})`;
    return `[offline] port ${port} ${why}: the service listens there; stop the other process or set PORT to a free port`;
  }
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return undefined;
}

/** Polls the service's /health until it answers 200 (true), or the service exits or `timeoutMs` passes (false). */
async function serviceAnswers(url: string, running: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (running() && Date.now() < until) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1000) })).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** Within this distance of a preliminary, pending or CBRS feature, a place's examples add that `include`. */
const INCLUDE_NEAR_M = 2000;

function nearAny(p: DemoPlace, services: ArcGisServiceData[]): boolean {
  return services.some((s) => s.layers.some((l) => l.features.some((f) => shapeDistanceMeters(f, p.lon, p.lat) <= INCLUDE_NEAR_M)));
}

/** A place whose ground shows an elevation case: there is a BFE to compare with (or not), or no data at all. */
function showsGround(p: DemoPlace): boolean {
  const e = p.expect;
  return e.groundElevation.elevationFt === null || e.staticBaseFloodElevationFt !== null || e.estimatedBaseFloodElevation !== null;
}

/** The ground at a place, for its comment line. */
function groundOf(p: DemoPlace): string {
  const g = p.expect.groundElevation;
  if (g.elevationFt === null) return 'ground: no data';
  const c = g.comparedWith;
  if (c === null)
    return `ground ${g.elevationFt} ft, not compared (${g.verticalDatum === null ? 'outside the conterminous US' : `BFE in ${p.expect.verticalDatum}`})`;
  const where = `${Math.abs(c.differenceFt)} ft ${c.differenceFt > 0 ? 'above' : 'below'} the ${c.bfe} BFE`;
  return `ground ${g.elevationFt} ft, ${where}${c.position === 'within_uncertainty' ? `, within ${g.uncertaintyFt} ft uncertainty` : ''}`;
}

/**
 * The `include` items worth showing at a place (docs/api.md): `nearby` where its expectations pin the
 * nearby hazards down; `preliminary` / `cbrs` near those maps, so "none" and "outside" are shown too;
 * `elevation` where the ground is compared with a BFE, is not although there is one, or has no data.
 */
function includesFor(p: DemoPlace): string[] {
  const e = p.expect;
  return [
    ...(e.nearby || e.nearbyAtOtherRadii?.length ? ['nearby'] : []),
    ...(nearAny(p, [DEMO_PRELIMINARY, DEMO_PENDING]) ? ['preliminary'] : []),
    ...(nearAny(p, [DEMO_CBRS]) ? ['cbrs'] : []),
    ...(showsGround(p) ? ['elevation'] : []),
  ];
}

/** The community's standing in the NFIP, as the demo Community Status Book gives it (every answer shows it). */
function nfipOf(p: DemoPlace): string {
  const id = p.expect.community?.communityId;
  if (!id) return '';
  const status = DEMO_COMMUNITY_STATUSES.find((c) => c.communityId === id)?.expect;
  if (!status) return 'NFIP: community not listed';
  if (!status.participating) return 'NFIP: not participating';
  return status.crsClass === null
    ? 'NFIP: participating, not in the CRS'
    : `NFIP: participating, CRS class ${status.crsClass} (${status.sfhaDiscountPercent}% off in the SFHA)`;
}

/** What a place shows beyond the zone, for its comment line. */
function extrasOf(p: DemoPlace, include: string[]): string {
  const e = p.expect;
  return [
    nfipOf(p),
    e.lomas.length ? `${e.lomas.length} LOMA(s) (${e.lomas.map((l) => `${l.status} ${l.distanceM} m`).join(', ')})` : '',
    e.estimatedBaseFloodElevation ? `estimated BFE ${e.estimatedBaseFloodElevation.elevationFt} ft (${e.estimatedBaseFloodElevation.method})` : '',
    e.nearby ? 'nearby hazards' : '',
    include.includes('preliminary') ? `map change: ${e.mapChange.status}, ${e.mapChange.sfhaChange}` : '',
    include.includes('cbrs') ? `CBRS ${e.coastalBarrier.status}${e.coastalBarrier.unit ? ` ${e.coastalBarrier.unit}` : ''}` : '',
    include.includes('elevation') ? groundOf(p) : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/** The address of a building as the Census emulator knows it (its first spelling), if it does. */
function geocodedAddressOf(building: DemoStructure): string | undefined {
  const { PROP_ADDR, PROP_CITY, PROP_ST, PROP_ZIP } = building.feature.attributes;
  if (PROP_ADDR === null) return undefined;
  const written = normaliseAddress(`${String(PROP_ADDR)}, ${String(PROP_CITY)}, ${String(PROP_ST)} ${String(PROP_ZIP)}`);
  return DEMO_MAP.census.addresses.find((entry) => entry.spellings.some((spelling) => normaliseAddress(spelling) === written))?.spellings[0];
}

/**
 * Lookups of every demo building with `include=structure`: a point inside it (the footprint containing it is the
 * building), and its address where the Census emulator knows it (the building found near the address's point),
 * each address once.
 */
function buildingExamples(serviceBase: string): string[] {
  const lines: string[] = [];
  const shown = new Set<string>();
  for (const building of DEMO_STRUCTURES) {
    const { xmin, ymin, xmax, ymax } = building.feature.bbox;
    const [lon, lat] = [(xmin + xmax) / 2, (ymin + ymax) / 2].map((v) => Number(v.toFixed(6)));
    lines.push(`# building ${building.id}: ${building.purpose}`);
    lines.push(`curl '${serviceBase}/flood-zone?lat=${lat}&lon=${lon}&include=structure'`);
    const address = geocodedAddressOf(building);
    if (address !== undefined && !shown.has(address)) {
      shown.add(address);
      lines.push(`curl '${serviceBase}/flood-zone?address=${encodeURIComponent(address)}&include=structure'`);
    }
  }
  return lines;
}

/**
 * The demo place offline mode shows as a map picture and as a report page, and README's picture: a point in
 * unshaded X with a high-risk AE zone, a floodway and a shaded X within sight.
 */
export const PICTURE_DEMO_PLACE = 'houston-nearby-hazards';

/** The path of a demo place's map picture, at the default size and span. */
export function picturePathOf(place: DemoPlace): string {
  return `/flood-zone/map?lat=${place.lat}&lon=${place.lon}`;
}

/** Example lookup URLs for the demo places (and the special addresses) and the demo buildings, then a map picture and a report page. */
export function exampleUrls(serviceBase: string): string[] {
  const lines: string[] = [];
  for (const p of DEMO_PLACES) {
    const e = p.expect;
    const what = e.coverage === 'mapped' ? `${e.coverage} ${e.floodZone}${e.zoneSubtype ? ` (${e.zoneSubtype})` : ''}` : e.coverage;
    const include = includesFor(p);
    const extras = extrasOf(p, include);
    lines.push(`# ${p.id}: ${what}${extras ? `; ${extras}` : ''}`);
    const at = `${serviceBase}/flood-zone?lat=${p.lat}&lon=${p.lon}`;
    lines.push(`curl '${at}'`);
    if (include.length) lines.push(`curl '${at}&include=${include.join(',')}'`);
    for (const other of e.nearbyAtOtherRadii ?? []) lines.push(`curl '${at}&include=nearby&radius=${other.radiusM}'`);
    if (p.address) lines.push(`curl '${serviceBase}/flood-zone?address=${encodeURIComponent(p.address)}'`);
  }
  lines.push('# address with no match (404 ADDRESS_NOT_FOUND)');
  lines.push(`curl '${serviceBase}/flood-zone?address=${encodeURIComponent(DEMO_ADDRESSES.noMatch)}'`);
  lines.push('# ambiguous address, matches > 100 m apart (404 AMBIGUOUS_ADDRESS)');
  lines.push(`curl '${serviceBase}/flood-zone?address=${encodeURIComponent(DEMO_ADDRESSES.ambiguous)}'`);
  lines.push(...buildingExamples(serviceBase));
  const pictured = demoPlace(PICTURE_DEMO_PLACE);
  lines.push(`# ${pictured.id} as a map picture (PNG), then as a report page to open in a browser`);
  lines.push(`curl -o ${pictured.id}.png '${serviceBase}${picturePathOf(pictured)}'`);
  lines.push(`${serviceBase}/flood-zone/report?lat=${pictured.lat}&lon=${pictured.lon}`);
  return lines;
}

async function main(): Promise<void> {
  const servicePort = process.env.PORT || '3000';
  const taken = await servicePortTaken(process.env.HOST || '0.0.0.0', Number(servicePort));
  if (taken !== undefined) {
    console.error(taken);
    process.exit(1);
  }
  const ports = emulatorPorts();
  const portOf = (key: EmulatorPort['key']) => ({ port: ports.find((e) => e.key === key)?.port });
  let emulators: RunningEmulators;
  try {
    emulators = await startEmulators({
      nfhl: portOf('nfhl'),
      preliminary: portOf('preliminary'),
      pending: portOf('pending'),
      cbrs: portOf('cbrs'),
      census: portOf('census'),
      elevation: portOf('elevation'),
      openfema: portOf('openfema'),
      basemap: portOf('basemap'),
      structures: portOf('structures'),
    });
  } catch (error) {
    const line = cannotListen(error as NodeJS.ErrnoException, ports);
    if (line === undefined) throw error;
    console.error(line);
    process.exit(1);
  }
  const { nfhl, preliminary, pending, cbrs, census, elevation, openfema, basemap, structures } = emulators;
  try {
    const controls = applyOfflineControls({ nfhl, preliminary, pending, cbrs, census, elevation, openfema, basemap, structures });
    for (const line of controls.summary) console.log(`[offline] ${line}`);
  } catch (error) {
    console.error(`[offline] ${(error as Error).message}`);
    await emulators.close();
    process.exit(1);
  }
  // The service listens on HOST (default 0.0.0.0, every address): localhost reaches it then.
  const serviceHost = !process.env.HOST || process.env.HOST === '0.0.0.0' || process.env.HOST === '::' ? 'localhost' : process.env.HOST;
  const serviceBase = `http://${serviceHost.includes(':') ? `[${serviceHost}]` : serviceHost}:${servicePort}`;
  console.log(`[offline] NFHL MapServer emulator: ${emulators.nfhl.baseUrl}`);
  console.log(`[offline] FEMA preliminary MapServer emulator: ${emulators.preliminary.baseUrl}`);
  console.log(`[offline] FEMA pending MapServer emulator: ${emulators.pending.baseUrl}`);
  console.log(`[offline] USFWS CBRS MapServer emulator: ${emulators.cbrs.baseUrl}`);
  console.log(`[offline] Census geocoder emulator: ${emulators.census.baseUrl}`);
  console.log(`[offline] USGS elevation (EPQS) emulator: ${emulators.elevation.baseUrl}`);
  console.log(`[offline] OpenFEMA emulator: ${emulators.openfema.baseUrl}`);
  console.log(`[offline] USGS basemap (National Map) emulator: ${emulators.basemap.baseUrl}`);
  console.log(`[offline] USA Structures FeatureServer emulator: ${emulators.structures.baseUrl}`);
  console.log(`[offline] starting the service on ${serviceBase} (node dist/main.js)`);

  const root = path.resolve(__dirname, '..', '..');
  const child = spawn(process.execPath, [path.join(root, 'dist', 'main.js')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...emulators.env },
  });
  const forward = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  process.on('SIGINT', () => forward('SIGINT'));
  process.on('SIGTERM', () => forward('SIGTERM'));
  child.on('error', (err) => {
    console.error(`[offline] could not start the service: ${err.message}`);
    void emulators.close().finally(() => process.exit(1));
  });
  child.on('exit', (code, signal) => {
    void emulators.close().finally(() => process.exit(code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : 15) : 0)));
  });

  // The examples only once they work: after the service's own start-up lines, when /health answers.
  const running = () => child.exitCode === null && child.signalCode === null;
  if (await serviceAnswers(`${serviceBase}/health`, running, SERVICE_START_TIMEOUT_MS)) {
    // Let the service write its log line of that /health first, then print the block in one write.
    await new Promise((resolve) => setTimeout(resolve, 200));
    console.log(
      [
        `[offline] listening on ${serviceBase}`,
        ['[offline] try:', ...exampleUrls(serviceBase)].join('\n  '),
        '[offline] fault walkthroughs: docs/offline.md and test/emulators/README.md',
      ].join('\n'),
    );
  } else if (running()) {
    console.error(`[offline] the service did not answer ${serviceBase}/health within ${SERVICE_START_TIMEOUT_MS / 1000} s`);
  }
}

/** Start-up takes a second or two; a service still silent after this is stuck, and offline mode says so. */
const SERVICE_START_TIMEOUT_MS = 30_000;

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error('[offline] failed:', err);
    process.exit(1);
  });
}
