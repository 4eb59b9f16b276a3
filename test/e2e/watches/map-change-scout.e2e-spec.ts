/**
 * FemaMapChangeScout against the upstream emulators over real HTTP: what FEMA published since a date, asked by date
 * and compared with the last copy, for what a sweep costs, and never "nothing changed" when a service fails.
 */
import { HttpService } from '@nestjs/axios';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import axios from 'axios';
import { UpstreamUnavailableError } from '../../../src/common/api-error';
import { type AppConfig, loadAppConfig } from '../../../src/config/app-config';
import { MetricsModule } from '../../../src/metrics/metrics.module';
import { ServiceMetrics } from '../../../src/metrics/service-metrics';
import { FemaMapChangeScout } from '../../../src/watches/map-changes/fema-map-change-scout.client';
import {
  MAP_CHANGE_SCOUT,
  type Envelope,
  type MapChangeReport,
  type MapChangeScout,
  type StatusBookCopy,
} from '../../../src/watches/map-changes/map-change-scout.port';
import { MapChangesModule } from '../../../src/watches/map-changes/map-changes.module';
import { demoPlace, metersToDegrees, RunningEmulators, startEmulators, type Fault, type UpstreamEmulator } from '../../emulators';
import { upstreamUnderTest } from '../../support/upstream-under-test';

/** After every date of the demo map: a sweep since then finds nothing published. */
const LAST_SWEEP = new Date('2026-11-01T00:00:00Z');

/** The square of `halfM` metres either side of a point, as [west, south, east, north]. */
function around(p: { lat: number; lon: number }, halfM: number): Envelope {
  const { dLon, dLat } = metersToDegrees(p.lat, halfM);
  return [p.lon - dLon, p.lat - dLat, p.lon + dLon, p.lat + dLat];
}

const covers = (outer: Envelope, inner: Envelope) => outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];

async function publish(emulator: UpstreamEmulator, change: unknown): Promise<void> {
  const res = await fetch(`${emulator.controlUrl}/publish`, { method: 'POST', body: JSON.stringify(change), headers: { 'Content-Type': 'application/json' } });
  expect(res.status).toBe(201);
}

describe('FemaMapChangeScout against the emulators', () => {
  let emulators: RunningEmulators;

  beforeEach(async () => {
    emulators = await startEmulators();
  });
  afterEach(async () => {
    await emulators.close();
  });

  const scout = () =>
    new FemaMapChangeScout(
      new HttpService(axios.create()),
      upstreamUnderTest('flood_data'),
      upstreamUnderTest('flood_data_preliminary'),
      upstreamUnderTest('flood_data_pending'),
      upstreamUnderTest('coastal_barrier'),
      upstreamUnderTest('openfema'),
      new ConfigService<AppConfig, true>(emulators.env),
    );
  const callsReceived = () =>
    [
      emulators.nfhl,
      emulators.preliminary,
      emulators.pending,
      emulators.cbrs,
      emulators.census,
      emulators.elevation,
      emulators.openfema,
      emulators.basemap,
      emulators.structures,
    ].reduce((sum, e) => sum + e.totalCalls, 0);
  /** The copy of the last sweep, as read before any change is published. */
  const lastCopy = async (): Promise<StatusBookCopy> => (await scout().changesSince(LAST_SWEEP, null)).statusBook;

  it('nothing changed: an empty report, the first time and against the last copy, at ≤ 50 upstream calls each, every one counted', async () => {
    const first = await scout().changesSince(LAST_SWEEP, null);
    expect(first.areas).toEqual([]);
    expect(first.communities).toEqual([]);
    expect(Object.keys(first.statusBook).length).toBeGreaterThan(5);
    expect(first.upstreamCalls).toBe(callsReceived());
    expect(first.upstreamCalls).toBeLessThanOrEqual(50);

    emulators.resetCalls();
    const again = await scout().changesSince(LAST_SWEEP, first.statusBook);
    expect(again).toEqual({ areas: [], communities: [], statusBook: first.statusBook, upstreamCalls: callsReceived() });
    expect(again.upstreamCalls).toBeLessThanOrEqual(50);
  });

  it('through MapChangesModule, on the upstreams and configuration of the app: the same report, the calls in the metrics of each service', async () => {
    const config = loadAppConfig(emulators.env);
    const app = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, skipProcessEnv: true, load: [() => ({ ...config })] }),
        MetricsModule,
        MapChangesModule,
      ],
    }).compile();
    try {
      const report = await app.get<MapChangeScout>(MAP_CHANGE_SCOUT).changesSince(LAST_SWEEP, null);
      expect(report).toEqual(await scout().changesSince(LAST_SWEEP, null));
      const metrics = await app.get(ServiceMetrics).registry.getSingleMetricAsString('upstream_request_duration_seconds');
      for (const upstream of ['flood_data', 'flood_data_preliminary', 'flood_data_pending', 'coastal_barrier', 'openfema']) {
        expect(metrics).toMatch(new RegExp(`upstream_request_duration_seconds_count\\{upstream="${upstream}",outcome="success"\\} [1-9]`));
      }
    } finally {
      await app.close();
    }
  });

  it("asks FEMA's dated layers by effective date in the syntax its services accept, and the coming maps and the Status Book whole", async () => {
    await scout().changesSince(LAST_SWEEP, null);
    const where = (emulator: UpstreamEmulator) => emulator.callsMatching({ endpoint: 'query' }).map((call) => [call.layerName, call.query.where]);
    // NFHL's "no date", 9999-09-09, is after every day: left out.
    const since = (field: string) => `${field} >= timestamp '2026-11-01 00:00:00' AND ${field} < timestamp '9999-01-01 00:00:00'`;
    expect(where(emulators.nfhl).sort()).toEqual([
      ['FIRM Panels', since('EFF_DATE')],
      ['LOMRs', since('EFF_DATE')],
    ]);
    expect(where(emulators.cbrs)).toEqual([['CBRS Prohibitions', since('FI_Date')]]);
    expect(where(emulators.preliminary)).toEqual([['Preliminary Data Availability', '1=1']]);
    expect(where(emulators.pending)).toEqual([['Pending Data Availability', '1=1']]);
    expect(emulators.openfema.totalCalls).toBe(1);
  });

  it('a LOMR made effective: its case, its extent, its effective date', async () => {
    const dc = demoPlace('dc-white-house-ae');
    const area = around(dc, 20);
    const previous = await lastCopy();
    await publish(emulators.nfhl, { change: 'lomr', caseNo: '26-03-0412P', effective: '2026-11-20', area, zone: { FLD_ZONE: 'X', SFHA_TF: 'F' } });
    const report = await scout().changesSince(LAST_SWEEP, previous);
    expect(report.areas.map(({ kind, id, effectiveDate }) => ({ kind, id, effectiveDate }))).toEqual([
      { kind: 'lomr', id: '26-03-0412P', effectiveDate: '2026-11-20' },
    ]);
    expect(covers(report.areas[0].envelope, area)).toBe(true);
    expect(covers(around(dc, 200), report.areas[0].envelope)).toBe(true);
    expect(report.communities).toEqual([]);
  });

  it('a panel revised: the revised panel with its new effective date, over the zones that changed', async () => {
    const houston = demoPlace('houston-a');
    const previous = await lastCopy();
    const panel = emulators.nfhl.map.nfhl.firmPanels.find(
      (p) => p.rings && p.bbox.xmin <= houston.lon && p.bbox.xmax >= houston.lon && p.bbox.ymin <= houston.lat && p.bbox.ymax >= houston.lat,
    )!;
    const firmPan = panel.attributes.FIRM_PAN as string;
    const area = around(houston, 15);
    await publish(emulators.nfhl, {
      change: 'panel_revised',
      panel: firmPan,
      effective: '2026-12-04',
      area,
      zone: { FLD_ZONE: 'AE', SFHA_TF: 'T', STATIC_BFE: 44 },
    });
    const report = await scout().changesSince(LAST_SWEEP, previous);
    const revised = `${firmPan.slice(0, -1)}${String.fromCharCode(firmPan.charCodeAt(firmPan.length - 1) + 1)}`;
    expect(report.areas.map(({ kind, id, effectiveDate }) => ({ kind, id, effectiveDate }))).toEqual([
      { kind: 'firm_panel', id: revised, effectiveDate: '2026-12-04' },
    ]);
    expect(covers(report.areas[0].envelope, area)).toBe(true);
  });

  it('a community suspended, then reinstated: the community and what changed in its row, each against the copy before', async () => {
    const before = await lastCopy();
    await publish(emulators.openfema, { change: 'community_suspended', communityId: '480296', effective: '2026-12-10' });
    const suspended = await scout().changesSince(LAST_SWEEP, before);
    expect(suspended.areas).toEqual([]);
    expect(suspended.communities).toEqual([{ communityId: '480296', fields: ['participating', 'program'] }]);
    expect(suspended.statusBook['480296']).toMatchObject({ participating: 'false', program: null });

    await publish(emulators.openfema, { change: 'community_reinstated', communityId: '480296', effective: '2027-01-15' });
    const reinstated = await scout().changesSince(LAST_SWEEP, suspended.statusBook);
    expect(reinstated.communities).toEqual([{ communityId: '480296', fields: ['participating', 'program'] }]);
    expect(reinstated.statusBook['480296']).toEqual(before['480296']);
  });

  it.each(['preliminary', 'pending'] as const)(
    '%s data issued, then withdrawn: the study with its issue date, then the same extent with no date',
    async (kind) => {
      const charleston = demoPlace('charleston-preliminary-into-sfha');
      const spot = { lat: charleston.lat, lon: charleston.lon + metersToDegrees(charleston.lat, 20_000).dLon };
      const area = around(spot, 100);
      const before = await lastCopy();
      await publish(emulators[kind], {
        change: 'coming_map_issued',
        dfirmId: '45019C',
        issued: '2026-11-30',
        area,
        zone: { FLD_ZONE: 'VE', SFHA_TF: 'T', STATIC_BFE: 15 },
      });
      const issued = await scout().changesSince(LAST_SWEEP, before);
      expect(issued.areas.map(({ kind: k, id, effectiveDate }) => ({ kind: k, id, effectiveDate }))).toEqual([
        { kind, id: '45019C', effectiveDate: '2026-11-30' },
      ]);
      // The study is its polygons together: the one issued before and the one issued now.
      expect(covers(issued.areas[0].envelope, area)).toBe(true);

      await publish(emulators[kind], { change: 'coming_map_withdrawn', dfirmId: '45019C' });
      const withdrawn = await scout().changesSince(LAST_SWEEP, issued.statusBook);
      expect(withdrawn.areas).toEqual([{ kind, id: '45019C', envelope: issued.areas[0].envelope, effectiveDate: null }]);
    },
  );

  it('a CBRS unit redrawn: the unit over its new outline, with the date of the new map', async () => {
    const fernandina = demoPlace('fernandina-cbrs-system-unit');
    const moved = { lat: fernandina.lat, lon: fernandina.lon + metersToDegrees(fernandina.lat, 3000).dLon };
    const area = around(moved, 200);
    const previous = await lastCopy();
    await publish(emulators.cbrs, { change: 'cbrs_unit_redrawn', unit: 'FL-05', effective: '2026-11-15', area });
    const report = await scout().changesSince(LAST_SWEEP, previous);
    expect(report.areas.map(({ kind, id, effectiveDate }) => ({ kind, id, effectiveDate }))).toEqual([
      { kind: 'coastal_barrier', id: 'FL-05', effectiveDate: '2026-11-15' },
    ]);
    expect(covers(report.areas[0].envelope, area)).toBe(true);
  });

  it('finds a change published late, dated before the last sweep but within the lookback', async () => {
    const previous = await lastCopy();
    const dc = demoPlace('dc-white-house-ae');
    await publish(emulators.nfhl, {
      change: 'lomr',
      caseNo: '26-03-0099P',
      effective: '2026-10-02',
      area: around(dc, 20),
      zone: { FLD_ZONE: 'X', SFHA_TF: 'F' },
    });
    const lookback = new Date(LAST_SWEEP.getTime() - 120 * 86_400_000);
    expect((await scout().changesSince(LAST_SWEEP, previous)).areas).toEqual([]);
    expect((await scout().changesSince(lookback, previous)).areas.map((a) => a.id)).toContain('26-03-0099P');
  });

  it('reads every page of an answer cut at the transfer limit, each page a counted call', async () => {
    await emulators.close();
    const onePerPage = { maxRecordCount: 1 };
    emulators = await startEmulators({ nfhl: onePerPage, preliminary: onePerPage, pending: onePerPage, cbrs: onePerPage });
    const previous = await lastCopy();
    const dc = demoPlace('dc-white-house-ae');
    for (const [caseNo, metres] of [
      ['26-03-0001P', 0],
      ['26-03-0002P', 300],
      ['26-03-0003P', 600],
    ] as const) {
      const spot = { lat: dc.lat, lon: dc.lon + metersToDegrees(dc.lat, metres).dLon };
      await publish(emulators.nfhl, { change: 'lomr', caseNo, effective: '2026-11-20', area: around(spot, 20), zone: { FLD_ZONE: 'X', SFHA_TF: 'F' } });
    }
    emulators.resetCalls();
    const report = await scout().changesSince(LAST_SWEEP, previous);
    expect(report.areas.map((area) => area.id).sort()).toEqual(['26-03-0001P', '26-03-0002P', '26-03-0003P']);
    // One LOMR a page; the last page says nothing is left.
    expect(emulators.nfhl.queryCount('lomrs')).toBe(3);
    expect(report.upstreamCalls).toBe(callsReceived());
  });

  describe('a failing service is a failure, never "nothing changed"', () => {
    const faults: Array<[string, 'nfhl' | 'preliminary' | 'pending' | 'cbrs' | 'openfema', Fault]> = [
      ['NFHL answers 500', 'nfhl', { kind: 'http-status', status: 500, match: 'query' }],
      ['NFHL answers an HTML page', 'nfhl', { kind: 'html', status: 200, match: 'LOMRs' }],
      [
        'the preliminary map answers an ArcGIS error inside HTTP 200',
        'preliminary',
        { kind: 'arcgis-error', code: 400, message: 'Failed to execute query.', match: 'query' },
      ],
      ['the pending map answers 503', 'pending', { kind: 'http-status', status: 503 }],
      ['CBRS answers an ArcGIS error 500 inside HTTP 200', 'cbrs', { kind: 'arcgis-error', code: 500, match: 'query' }],
      ['OpenFEMA answers 500', 'openfema', { kind: 'http-status', status: 500 }],
      ['OpenFEMA answers malformed JSON', 'openfema', { kind: 'malformed-json' }],
    ];
    it.each(faults)('%s: throws naming the service', async (_, name, fault) => {
      const previous = await lastCopy();
      emulators[name].injectFault(fault);
      const failure = await scout()
        .changesSince(LAST_SWEEP, previous)
        .then(
          (report: MapChangeReport) => report,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(UpstreamUnavailableError);
      const upstream = {
        nfhl: 'flood_data',
        preliminary: 'flood_data_preliminary',
        pending: 'flood_data_pending',
        cbrs: 'coastal_barrier',
        openfema: 'openfema',
      }[name];
      expect((failure as UpstreamUnavailableError).upstream).toBe(upstream);
    });
  });
});
