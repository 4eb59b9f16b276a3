/**
 * Child process of the benchmark: runs the upstream emulators (NFHL, FEMA preliminary and pending, USFWS CBRS
 * MapServers, Census geocoder, USGS elevation, OpenFEMA, USGS basemap, USA Structures) on loopback, so that their work does not share an event loop with the load
 * generator. Driven over the IPC channel: every message `{ id, cmd, args }` gets `{ id, ok, result | error }` back.
 */
import { DEMO_MAP, DemoMap, NFHL_LAYER_NAMES, NfhlLayerKey, featuresAt } from '../test/emulators/demo-map';
import type { UpstreamEmulator } from '../test/emulators/emulator-core';
import type { EpqsPoint } from '../test/emulators/epqs-emulator';
import { PublishRefused } from '../test/emulators/emulator-core';
import { publishOnMap, type PublishableMap } from '../test/emulators/map-publishing';
import { startEmulators, RunningEmulators } from '../test/emulators/offline';
import { DEMO_STRUCTURES } from '../test/emulators/structure-footprints';
import { type Ring, buildingsServing, zoneServing } from '../test/support/hostile-geometry-fuzz';
import { syntheticCommunityStatusBook } from './community-status-table';
import { LOAN_BOOK_COUNTIES, WATCHED_NATION, loanBook, loanBookMap } from './loan-book';
import type { Point } from './points';
import { portfolioAddressBook } from './portfolio';

interface Request {
  id: number;
  cmd: string;
  args?: Record<string, unknown>;
}

let emulators: RunningEmulators | undefined;
/**
 * What the NFHL and Census emulators serve, read on every query: the demo map's layers, or the loan book's while
 * its scenario runs (its Harris County would overlap the demo's Houston places).
 */
let served: DemoMap | undefined;
/** Takes away the hostile zone polygon NFHL serves besides its own, while one is served. */
let unserveZone: (() => void) | undefined;

function need(): RunningEmulators {
  if (!emulators) throw new Error('emulators not started');
  return emulators;
}

function counts() {
  const { nfhl, census } = need();
  return {
    floodHazardZones: nfhl.queryCount('floodHazardZones'),
    firmPanels: nfhl.queryCount('firmPanels'),
    lomrs: nfhl.queryCount('lomrs'),
    politicalJurisdictions: nfhl.queryCount('politicalJurisdictions'),
    lomas: nfhl.queryCount('lomas'),
    bfeLines: nfhl.queryCount('bfeLines'),
    availability: nfhl.queryCount('availability'),
    nfhlRoot: nfhl.callCount({ endpoint: 'root' }),
    nfhlTotal: nfhl.totalCalls,
    nfhlFaulted: nfhl.callCount((c) => c.fault !== undefined && c.fault !== 'delay'),
    censusCoordinates: census.callCount({ endpoint: 'coordinates' }),
    censusOnelineaddress: census.callCount({ endpoint: 'onelineaddress' }),
    censusAddressbatch: census.callCount({ endpoint: 'addressbatch' }),
    censusTotal: census.totalCalls,
  };
}

/** Calls per emulator and endpoint, queries per layer: `nfhl query Flood Hazard Zones`, `census coordinates`, ... */
function breakdown(): Record<string, number> {
  const { nfhl, preliminary, pending, cbrs, census, elevation, openfema, basemap, structures } = need();
  const all: Record<string, UpstreamEmulator> = { nfhl, preliminary, pending, cbrs, census, elevation, openfema, basemap, structures };
  const out: Record<string, number> = {};
  for (const [name, emulator] of Object.entries(all)) {
    for (const call of emulator.calls) {
      const key = call.endpoint === 'query' ? `${name} query ${call.layerName ?? call.layerId}` : `${name} ${call.endpoint}`;
      out[key] = (out[key] ?? 0) + 1;
    }
  }
  return out;
}

/** The most calls each emulator received within one second (by arrival) since the last reset. */
function busiestSecond(): Record<string, number> {
  const { nfhl, preliminary, pending, cbrs, census, elevation, openfema, basemap, structures } = need();
  const all: Record<string, UpstreamEmulator> = { nfhl, preliminary, pending, cbrs, census, elevation, openfema, basemap, structures };
  const out: Record<string, number> = {};
  for (const [name, emulator] of Object.entries(all)) {
    const perSecond = new Map<number, number>();
    for (const call of emulator.calls) {
      const second = Math.floor(call.at / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    out[name] = Math.max(0, ...perSecond.values());
  }
  return out;
}

/** The NFHL layers and the Census areas of `map` served from now on (the address book stays). */
function serve(map: DemoMap): void {
  if (!served) throw new Error('emulators not started');
  Object.assign(served.nfhl, map.nfhl);
  Object.assign(served.census, { counties: map.census.counties, zctas: map.census.zctas });
}

/**
 * The NFHL layers served, as the emulators' publishing rules change them (map-publishing.ts): a change is made in the
 * map served, which loadDemoMap replaces whole afterwards (the NFHL emulator's own publishing would keep a copy of
 * each layer it changed).
 */
function servedNfhl(): PublishableMap {
  return {
    layer(matches, label) {
      const key = (Object.keys(NFHL_LAYER_NAMES) as NfhlLayerKey[]).find((k) => matches(NFHL_LAYER_NAMES[k]));
      if (!served || !key) throw new PublishRefused(`the served map has no layer ${label}`);
      const map = served;
      return {
        features: map.nfhl[key],
        fieldNames: Object.keys(map.nfhl[key][0]?.attributes ?? {}),
        replace: (features) => (map.nfhl[key] = features),
      };
    },
  };
}

/** The counties a loan book crowds in, by the name the scenarios give its nation. */
const NATIONS = { loanBook: LOAN_BOOK_COUNTIES, watched: WATCHED_NATION };

/** The demo map with the batch portfolios' addresses added to the Census address book. */
function censusMap(portfolios: { sets: number; size: number } | undefined): DemoMap {
  if (!portfolios) return DEMO_MAP;
  const extra = Array.from({ length: portfolios.sets }, (_x, set) => portfolioAddressBook(set, portfolios.size)).flat();
  return { ...DEMO_MAP, census: { ...DEMO_MAP.census, addresses: [...DEMO_MAP.census.addresses, ...extra] } };
}

async function handle(req: Request): Promise<unknown> {
  const args = req.args ?? {};
  switch (req.cmd) {
    case 'start': {
      const latencyMs = Number(args.latencyMs ?? 0);
      const portfolios = args.portfolios as { sets: number; size: number } | undefined;
      // Copies of the records, so that loading another map leaves DEMO_MAP as it is.
      const demo = censusMap(portfolios);
      served = { nfhl: { ...demo.nfhl }, census: { ...demo.census } };
      // The memory scenario makes ~500,000 NFHL calls; keep the call log modest (counts are per phase).
      emulators = await startEmulators({
        latencyMs,
        nfhl: { callLogLimit: 600_000, map: served },
        census: { callLogLimit: 200_000, map: served },
      });
      return emulators.env;
    }
    case 'setLatency': {
      const { nfhl, preliminary, pending, cbrs, census, elevation, openfema, basemap, structures } = need();
      for (const e of [nfhl, preliminary, pending, cbrs, census, elevation, openfema, basemap, structures]) e.setLatency(Number(args.ms));
      return null;
    }
    case 'setElevationPoints':
      need().elevation.setPoints(args.points as EpqsPoint[]);
      return null;
    case 'setCommunityStatusRows': {
      // Built here, not sent over IPC: the table is megabytes of JSON.
      const rows = syntheticCommunityStatusBook(Number(args.count));
      need().openfema.setRows(rows);
      return { rows: rows.length };
    }
    case 'loadLoanBookMap': {
      // Built here from the rows' generator, not sent over IPC: tens of thousands of features.
      const map = loanBookMap(loanBook(Number(args.rows), NATIONS[(args.nation as keyof typeof NATIONS | undefined) ?? 'loanBook']));
      serve(map);
      return Object.fromEntries(Object.entries(map.nfhl).map(([layer, features]) => [layer, features.length]));
    }
    case 'reviseCountyMap': {
      // Every FIRM panel of the county's map revised, as FEMA publishes a countywide revision.
      const dfirm = String(args.dfirmId);
      const panels = need()
        .nfhl.map.nfhl.firmPanels.filter((panel) => panel.attributes.DFIRM_ID === dfirm)
        .map((panel) => String(panel.attributes.FIRM_PAN));
      for (const panel of panels) publishOnMap(servedNfhl(), { change: 'panel_revised', panel, effective: args.effective });
      return { panels: panels.length };
    }
    case 'loadDemoMap':
      serve(DEMO_MAP);
      return null;
    case 'floodZonesAt':
      // The zone the map has at each point: what its lookup should answer.
      return (args.points as Point[]).map(({ lat, lon }) => {
        const zone = featuresAt(need().nfhl.map.nfhl.floodHazardZones, Number(lon), Number(lat))[0]?.attributes;
        return zone ? { floodZone: zone.FLD_ZONE, zoneSubtype: zone.ZONE_SUBTY } : null;
      });
    case 'injectRandomNfhlQueryFault': {
      // The emulator's fault API has no probability option: a predicate that strikes ~p of the layer queries.
      const p = Number(args.probability);
      const fault = need().nfhl.injectFault({
        kind: (args.kind as 'http-status') ?? 'http-status',
        status: args.status === undefined ? undefined : Number(args.status),
        match: (call) => call.endpoint === 'query' && Math.random() < p,
      });
      return { id: fault.id };
    }
    case 'serveFootprint':
      // The fuzz's house with these rings as its footprint (test/support/hostile-geometry-fuzz.ts); null, the demo buildings again.
      need().structures.structures = args.rings ? buildingsServing(args.rings as Ring[]) : DEMO_STRUCTURES;
      return null;
    case 'serveZone':
      // A VE zone polygon of these rings over the fuzz's footprint, besides the map's own; null, the map's alone again.
      unserveZone?.();
      unserveZone = args.rings ? need().nfhl.serveAlso('Flood Hazard Zones', [zoneServing(args.rings as Ring[])]) : undefined;
      return null;
    case 'clearFaults':
      need().clearFaults();
      return null;
    case 'resetCalls':
      need().resetCalls();
      return null;
    case 'counts':
      return counts();
    case 'breakdown':
      return breakdown();
    case 'busiestSecond':
      return busiestSecond();
    case 'close':
      if (emulators) await emulators.close();
      emulators = undefined;
      return null;
    default:
      throw new Error(`unknown command ${req.cmd}`);
  }
}

process.on('message', (msg: Request) => {
  handle(msg).then(
    (result) => process.send?.({ id: msg.id, ok: true, result }),
    (error: unknown) => process.send?.({ id: msg.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
});

// The parent going away (even by SIGKILL) closes the IPC channel: leave with it.
process.on('disconnect', () => {
  void (emulators?.close() ?? Promise.resolve()).finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
});
