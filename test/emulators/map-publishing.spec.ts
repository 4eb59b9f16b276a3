/**
 * The emulators publish map changes over their control endpoint (POST /_emulator/publish), and then answer the
 * changed data wherever the real services show it, over real HTTP.
 */
import { demoPlace, utcDate } from './demo-map';
import type { UpstreamEmulator } from './emulator-core';
import { metersToDegrees } from './geometry';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EMULATOR_PORTS, RunningEmulators, startEmulators } from './offline';

type Json = Record<string, any>;

async function publish(emulator: UpstreamEmulator, change: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${emulator.controlUrl}/publish`, { method: 'POST', body: JSON.stringify(change), headers: { 'Content-Type': 'application/json' } });
  return { status: res.status, body: (await res.json()) as Json };
}

/** The square of `halfM` metres either side of a point, as [west, south, east, north]. */
function around(p: { lat: number; lon: number }, halfM: number): number[] {
  const { dLon, dLat } = metersToDegrees(p.lat, halfM);
  return [p.lon - dLon, p.lat - dLat, p.lon + dLon, p.lat + dLat];
}

/** A point `meters` east of `p`. */
const east = (p: { lat: number; lon: number }, meters: number) => ({ lat: p.lat, lon: p.lon + metersToDegrees(p.lat, meters).dLon });

async function attributesAt(baseUrl: string, layerId: number, p: { lat: number; lon: number }, fields: string): Promise<Json[]> {
  const query = `geometry=${p.lon},${p.lat}&geometryType=esriGeometryPoint&inSR=4326&spatialRel=esriSpatialRelIntersects&outFields=${fields}&returnGeometry=false&f=json`;
  const answer = (await (await fetch(`${baseUrl}/${layerId}/query?${query}`)).json()) as Json;
  return (answer.features as Json[]).map((f) => f.attributes as Json);
}

async function attributesWhere(baseUrl: string, layerId: number, where: string, fields: string): Promise<Json[]> {
  const answer = (await (
    await fetch(`${baseUrl}/${layerId}/query?where=${encodeURIComponent(where)}&outFields=${fields}&returnGeometry=false&f=json`)
  ).json()) as Json;
  return (answer.features as Json[]).map((f) => f.attributes as Json);
}

describe('emulators publishing map changes (POST /_emulator/publish)', () => {
  let emulators: RunningEmulators;
  const dc = demoPlace('dc-white-house-ae');
  const charleston = demoPlace('charleston-preliminary-into-sfha');
  const fernandina = demoPlace('fernandina-cbrs-system-unit');

  beforeAll(async () => {
    emulators = await startEmulators();
  });
  afterAll(async () => {
    await emulators.close();
  });

  it('a LOMR made effective: a LOMR polygon dated by FEMA, and the zones under it changed, the zones around it not', async () => {
    const { nfhl } = emulators;
    const [before] = await attributesAt(nfhl.baseUrl, 28, dc, 'FLD_ZONE');
    expect(before.FLD_ZONE).toBe('AE');
    const outside = east(dc, 60);
    const [outsideBefore] = await attributesAt(nfhl.baseUrl, 28, outside, 'FLD_ZONE,STATIC_BFE');
    const published = await publish(nfhl, {
      change: 'lomr',
      caseNo: '26-03-0412P',
      effective: '2026-11-20',
      area: around(dc, 20),
      zone: { FLD_ZONE: 'X', ZONE_SUBTY: 'AREA OF MINIMAL FLOOD HAZARD', SFHA_TF: 'F' },
    });
    expect(published.status).toBe(201);
    expect(published.body.published).toMatchObject({ change: 'lomr', caseNo: '26-03-0412P', effectiveDate: '2026-11-20' });

    expect(await attributesAt(nfhl.baseUrl, 28, dc, 'FLD_ZONE,ZONE_SUBTY,SFHA_TF,STATIC_BFE')).toEqual([
      { FLD_ZONE: 'X', ZONE_SUBTY: 'AREA OF MINIMAL FLOOD HAZARD', SFHA_TF: 'F', STATIC_BFE: -9999 },
    ]);
    expect(await attributesAt(nfhl.baseUrl, 28, outside, 'FLD_ZONE,STATIC_BFE')).toEqual([outsideBefore]);
    // Beside the LOMRs the place already had.
    expect(await attributesAt(nfhl.baseUrl, 1, dc, 'CASE_NO,EFF_DATE,STATUS')).toContainEqual({
      CASE_NO: '26-03-0412P',
      EFF_DATE: utcDate('2026-11-20'),
      STATUS: 'Effective',
    });
    const dated = await attributesWhere(nfhl.baseUrl, 1, "EFF_DATE >= timestamp '2026-11-20 00:00:00'", 'CASE_NO');
    expect(dated).toEqual([{ CASE_NO: '26-03-0412P' }]);
  });

  it('a panel revised: its suffix advances, its EFF_DATE moves, and the zones in the area given change', async () => {
    const { nfhl } = emulators;
    const houston = demoPlace('houston-a');
    const [panel] = await attributesAt(nfhl.baseUrl, 3, houston, 'FIRM_PAN,SUFFIX,EFF_DATE');
    const revisedPan = `${(panel.FIRM_PAN as string).slice(0, -1)}${String.fromCharCode((panel.SUFFIX as string).charCodeAt(0) + 1)}`;
    const published = await publish(nfhl, {
      change: 'panel_revised',
      panel: panel.FIRM_PAN,
      effective: '2026-12-04',
      area: around(houston, 15),
      zone: { FLD_ZONE: 'AE', SFHA_TF: 'T', STATIC_BFE: 44, V_DATUM: 'NAVD88', LEN_UNIT: 'Feet' },
    });
    expect(published.status).toBe(201);
    expect(published.body.published).toEqual({ change: 'panel_revised', panel: revisedPan, was: panel.FIRM_PAN, effectiveDate: '2026-12-04' });
    expect(await attributesAt(nfhl.baseUrl, 3, houston, 'FIRM_PAN,EFF_DATE')).toEqual([{ FIRM_PAN: revisedPan, EFF_DATE: utcDate('2026-12-04') }]);
    expect(await attributesAt(nfhl.baseUrl, 28, houston, 'FLD_ZONE,STATIC_BFE')).toEqual([{ FLD_ZONE: 'AE', STATIC_BFE: 44 }]);
  });

  it('a community suspended and reinstated: its Status Book row as OpenFEMA publishes it', async () => {
    const { openfema } = emulators;
    const row = async () => {
      const answer = (await (await fetch(`${openfema.baseUrl}/v1/NfipCommunityStatusBook?%24filter=communityIdNumber%20eq%20%27480296%27`)).json()) as Json;
      return answer.NfipCommunityStatusBook[0] as Json;
    };
    expect((await row()).participatingInNFIP).toBe(true);
    expect((await publish(openfema, { change: 'community_suspended', communityId: '480296', effective: '2026-12-10' })).body.published).toEqual({
      change: 'community_suspended',
      communityId: '480296',
      effectiveDate: '2026-12-10',
    });
    expect(await row()).toMatchObject({ participatingInNFIP: false, lastRefresh: '2026-12-10T00:00:00.000Z' });
    expect((await publish(openfema, { change: 'community_reinstated', communityId: '480296', effective: '2027-01-15' })).status).toBe(201);
    expect(await row()).toMatchObject({ participatingInNFIP: true, lastRefresh: '2027-01-15T00:00:00.000Z' });
  });

  it('preliminary data issued and withdrawn: availability with its issue date, and the zone under it, then neither', async () => {
    const { preliminary } = emulators;
    const availability = preliminary.layerId('Preliminary Data Availability');
    const zones = preliminary.layerId('Preliminary Flood Hazard Zones');
    const spot = east(charleston, 20_000);
    expect(await attributesAt(preliminary.baseUrl, availability, spot, 'DFIRM_ID')).toEqual([]);
    const issued = await publish(preliminary, {
      change: 'coming_map_issued',
      dfirmId: '45019C',
      issued: '2026-11-30',
      area: around(spot, 100),
      zone: { FLD_ZONE: 'VE', SFHA_TF: 'T', STATIC_BFE: 15, V_DATUM: 'NAVD88', LEN_UNIT: 'Feet' },
    });
    expect(issued.status).toBe(201);
    expect(await attributesAt(preliminary.baseUrl, availability, spot, 'DFIRM_ID,PRELM_ISSUE_DATE')).toEqual([
      { DFIRM_ID: '45019C', PRELM_ISSUE_DATE: utcDate('2026-11-30') },
    ]);
    expect(await attributesAt(preliminary.baseUrl, zones, spot, 'FLD_ZONE,STATIC_BFE,DFIRM_ID')).toEqual([
      { FLD_ZONE: 'VE', STATIC_BFE: 15, DFIRM_ID: '45019C' },
    ]);

    expect((await publish(preliminary, { change: 'coming_map_withdrawn', dfirmId: '45019C' })).body.published).toEqual({
      change: 'coming_map_withdrawn',
      dfirmId: '45019C',
      effectiveDate: null,
    });
    expect(await attributesAt(preliminary.baseUrl, availability, spot, 'DFIRM_ID')).toEqual([]);
    expect(await attributesAt(preliminary.baseUrl, zones, spot, 'FLD_ZONE')).toEqual([]);
    // The study's earlier preliminary data went with it.
    expect(await attributesAt(preliminary.baseUrl, availability, charleston, 'DFIRM_ID')).toEqual([]);
    expect((await publish(emulators.pending, { change: 'coming_map_withdrawn', dfirmId: '45019C' })).status).toBe(201);
  });

  it('a CBRS unit redrawn: its unit and prohibition polygons over the new area, FI_Date the date of the new map', async () => {
    const { cbrs } = emulators;
    const prohibitions = cbrs.layerId('CBRS Prohibitions');
    const moved = east(fernandina, 3000);
    expect(await attributesAt(cbrs.baseUrl, prohibitions, fernandina, 'Unit')).toEqual([{ Unit: 'FL-05' }]);
    expect((await publish(cbrs, { change: 'cbrs_unit_redrawn', unit: 'FL-05', effective: '2026-10-01', area: around(moved, 200) })).status).toBe(201);
    expect(await attributesAt(cbrs.baseUrl, prohibitions, fernandina, 'Unit')).toEqual([]);
    expect(await attributesAt(cbrs.baseUrl, prohibitions, moved, 'Unit,CBRS_Type,FI_Date')).toEqual([
      { Unit: 'FL-05', CBRS_Type: 'System Unit', FI_Date: utcDate('2026-10-01') },
    ]);
    expect(await attributesAt(cbrs.baseUrl, cbrs.layerId('CBRS Units'), moved, 'Unit,Name')).toEqual([{ Unit: 'FL-05', Name: 'Amelia Island' }]);
  });

  it.each<[string, keyof RunningEmulators, unknown, number, RegExp]>([
    ['an unknown panel', 'nfhl', { change: 'panel_revised', panel: '99999C9999Z', effective: '2026-11-20' }, 400, /no FIRM panel 99999C9999Z/],
    [
      'an area that is not west, south, east, north',
      'nfhl',
      { change: 'lomr', caseNo: 'X', effective: '2026-11-20', area: [1, 1, 0, 0], zone: { FLD_ZONE: 'X' } },
      400,
      /"area"/,
    ],
    [
      'a day the calendar lacks',
      'nfhl',
      { change: 'lomr', caseNo: 'X', effective: '2026-02-30', area: [0, 0, 1, 1], zone: { FLD_ZONE: 'X' } },
      400,
      /"effective"/,
    ],
    [
      'a LOMR on the CBRS map',
      'cbrs',
      { change: 'lomr', caseNo: 'X', effective: '2026-11-20', area: [0, 0, 1, 1], zone: { FLD_ZONE: 'X' } },
      400,
      /no layer LOMRs/,
    ],
    ['an unknown change', 'nfhl', { change: 'earthquake' }, 400, /"change" must be/],
    ['a community the book lacks', 'openfema', { change: 'community_suspended', communityId: '999999', effective: '2026-11-20' }, 400, /no community 999999/],
    ['a study the map lacks', 'pending', { change: 'coming_map_withdrawn', dfirmId: '00000C' }, 400, /no study 00000C/],
    ['an emulator whose data FEMA does not publish', 'census', { change: 'lomr' }, 404, /publishes no map changes/],
  ])('refuses %s, saying why', async (_, name, change, status, reason) => {
    const emulator = emulators[name] as UpstreamEmulator;
    const answer = await publish(emulator, change);
    expect(answer.status).toBe(status);
    expect(answer.body.error).toMatch(reason);
  });

  it('publishes every change docs/offline.md shows, on the emulator of the port it names, as its comments say', async () => {
    const text = fs.readFileSync(path.join(__dirname, '../../docs/offline.md'), 'utf8');
    const shown = [...text.matchAll(/curl -s -X POST localhost:(\d+)\/_emulator\/publish -H "\$J" -d '([^']+)'/g)];
    expect(shown.map(([, port]) => port)).toEqual(['4010', '4010', '4030', '4030', '4011', '4011', '4013']);
    const fresh = await startEmulators();
    try {
      for (const [, port, body] of shown) {
        const key = EMULATOR_PORTS.find((e) => e.port === Number(port))!.key;
        const answer = await publish(fresh[key], JSON.parse(body));
        expect([key, answer.status]).toEqual([key, 201]);
        if (answer.body.published.change === 'lomr') {
          expect(await attributesAt(fresh.nfhl.baseUrl, 28, { lat: 38.8988, lon: -77.0354 }, 'FLD_ZONE')).toEqual([{ FLD_ZONE: 'X' }]);
        }
      }
      expect(await attributesAt(fresh.nfhl.baseUrl, 3, demoPlace('houston-a'), 'FIRM_PAN,EFF_DATE')).toEqual([
        { FIRM_PAN: '48201C0690M', EFF_DATE: utcDate('2026-12-04') },
      ]);
      expect(await attributesAt(fresh.nfhl.baseUrl, 28, demoPlace('houston-a'), 'FLD_ZONE,STATIC_BFE')).toEqual([{ FLD_ZONE: 'AE', STATIC_BFE: 44 }]);
      const moved = { lat: 30.6697, lon: -81.4313 };
      expect(await attributesAt(fresh.cbrs.baseUrl, fresh.cbrs.layerId('CBRS Prohibitions'), moved, 'Unit')).toEqual([{ Unit: 'FL-05' }]);
    } finally {
      await fresh.close();
    }
  });

  it('takes POST only', async () => {
    const res = await fetch(`${emulators.nfhl.controlUrl}/publish`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});
