import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  DEMO_ADDRESSES,
  DEMO_CBRS,
  DEMO_ELEVATIONS,
  DEMO_MAP,
  DEMO_PENDING,
  DEMO_PLACES,
  DEMO_PRELIMINARY,
  DemoPlace,
  FAULT_DEMO_PLACES,
  FAULT_DEMO_TWIN_OF,
  MapFeature,
  NFHL_ATTRIBUTE_FIELDS,
  NFHL_NO_DATE,
  NfhlLayerKey,
  demoPlace,
  featuresAt,
} from './demo-map';
import { Position, Ring, haversineMeters, pointInRingsEvenOdd, shapeDistanceMeters } from './geometry';
import { DEMO_STRUCTURES } from './structure-footprints';
import type { ArcGisServiceData } from './map-data';
import { normaliseAddress } from './census-emulator';
import { exampleUrls } from './offline';
import { EPQS_DEFAULT_WITHIN_M, EPQS_NO_DATA_VALUE } from './epqs-emulator';

const METADATA: Record<NfhlLayerKey, string> = {
  availability: 'nfhl-layer-0-nfhl-availability.metadata.json',
  lomrs: 'nfhl-layer-1-lomrs.metadata.excerpt.json',
  firmPanels: 'nfhl-layer-3-firm-panels.metadata.json',
  politicalJurisdictions: 'nfhl-layer-22-political-jurisdictions.metadata.excerpt.json',
  floodHazardZones: 'nfhl-layer-28-flood-hazard-zones.metadata.excerpt.json',
  bfeLines: 'nfhl-layer-16-base-flood-elevations.metadata.json',
  lomas: 'nfhl-layer-34-lomas.metadata.excerpt.json',
};

describe('demo map', () => {
  it('has unique place ids and one area per place', () => {
    const ids = DEMO_PLACES.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 0; i < DEMO_PLACES.length; i++) {
      for (let j = i + 1; j < DEMO_PLACES.length; j++) {
        const a = DEMO_PLACES[i];
        const b = DEMO_PLACES[j];
        expect(haversineMeters(a.lat, a.lon, b.lat, b.lon)).toBeGreaterThan(250);
      }
    }
  });

  it('uses coordinates with at most 6 decimals, so a client rounding to 6 decimals hits the same polygons', () => {
    for (const p of DEMO_PLACES) {
      expect(Math.round(p.lat * 1e6) / 1e6).toBe(p.lat);
      expect(Math.round(p.lon * 1e6) / 1e6).toBe(p.lon);
    }
  });

  it('gives every feature exactly the real layer attribute names, in order', () => {
    for (const key of Object.keys(METADATA) as NfhlLayerKey[]) {
      const meta = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', METADATA[key]), 'utf8')) as {
        fields: Array<{ name: string; type: string }>;
      };
      const names = meta.fields.filter((f) => f.type !== 'esriFieldTypeGeometry').map((f) => f.name);
      expect(NFHL_ATTRIBUTE_FIELDS[key]).toEqual(names);
      for (const f of DEMO_MAP.nfhl[key]) expect(Object.keys(f.attributes)).toEqual(names);
    }
  });

  it('covers every mapped place with availability, a panel and a jurisdiction, and a county and ZCTA', () => {
    for (const p of DEMO_PLACES) {
      const zones = featuresAt(DEMO_MAP.nfhl.floodHazardZones, p.lon, p.lat);
      const avail = featuresAt(DEMO_MAP.nfhl.availability, p.lon, p.lat);
      if (p.expect.coverage === 'mapped') expect(zones.length).toBeGreaterThan(0);
      if (p.expect.coverage !== 'unmapped') {
        expect(avail).toHaveLength(1);
        expect(featuresAt(DEMO_MAP.nfhl.firmPanels, p.lon, p.lat)).toHaveLength(1);
        // One place has two communities overlapping in FEMA's map: its point's community cannot be told.
        expect(featuresAt(DEMO_MAP.nfhl.politicalJurisdictions, p.lon, p.lat)).toHaveLength(p.id === 'two-communities-overlap' ? 2 : 1);
      } else {
        expect(zones).toHaveLength(0);
        expect(avail).toHaveLength(0);
      }
      if (p.id !== 'outside-us-atlantic') {
        expect(p.expect.countyFips).toMatch(/^\d{5}$/);
        expect(p.expect.zcta).toMatch(/^\d{5}$/);
      }
    }
  });

  it('holds the example of docs/api.md at the White House', () => {
    const dc = demoPlace('dc-white-house-ae');
    expect(dc).toMatchObject({ lat: 38.898754, lon: -77.03535 });
    expect(dc.expect).toMatchObject({
      floodZone: 'AE',
      staticBaseFloodElevationFt: 583,
      verticalDatum: 'NAVD88',
      firmPanel: { panel: '11001C0019C', panelNumber: '0019', suffix: 'C', effectiveDate: '2010-09-27', panelType: 'Countywide, Panel Printed' },
      community: { name: 'District of Columbia', communityId: '110001' },
      county: 'District of Columbia',
      countyFips: '11001',
    });
    expect(dc.expect.lomrs[0]).toEqual({ caseNumber: '19-03-0123P', effectiveDate: '2020-02-14' });
    const lomrs = featuresAt(DEMO_MAP.nfhl.lomrs, dc.lon, dc.lat).map((f) => f.attributes.STATUS);
    expect(lomrs).toEqual(expect.arrayContaining(['Effective', 'Effective', 'Superseded']));
  });

  it('has the seam, duplicate, overlap and special cases', () => {
    const seam = demoPlace('houston-seam');
    expect(featuresAt(DEMO_MAP.nfhl.floodHazardZones, seam.lon, seam.lat).map((f) => f.attributes.ZONE_SUBTY)).toEqual(['FLOODWAY', null]);
    const dup = demoPlace('houston-duplicate-ae');
    expect(featuresAt(DEMO_MAP.nfhl.floodHazardZones, dup.lon, dup.lat)).toHaveLength(2);
    const overlap = demoPlace('menominee-overlap');
    expect(
      featuresAt(DEMO_MAP.nfhl.floodHazardZones, overlap.lon, overlap.lat)
        .map((f) => f.attributes.FLD_ZONE)
        .sort(),
    ).toEqual(['AE', 'VE', 'X']);
    const placeholder = demoPlace('menominee-placeholder-panel-date');
    expect(featuresAt(DEMO_MAP.nfhl.firmPanels, placeholder.lon, placeholder.lat)[0].attributes.EFF_DATE).toBe(NFHL_NO_DATE);
    expect(placeholder.expect.firmPanel?.effectiveDate).toBeNull();
    expect(demoPlace('toa-baja-ae').expect.firmPanel).toMatchObject({ panel: '72000C0330J', effectiveDate: '2009-11-18' });
    expect(demoPlace('renton-ae-floodway').expect.firmPanel).toMatchObject({ panel: '53033C0977G', effectiveDate: '2020-08-19' });
    expect(demoPlace('lampasas-paper-only').expect).toMatchObject({ coverage: 'unmapped', firmPanel: { panel: '4804260005B' } });
    const mv = demoPlace('mount-vernon-unmapped');
    expect(mv).toMatchObject({ lat: 48.42, lon: -122.33 });
    for (const layer of Object.values(DEMO_MAP.nfhl)) expect(featuresAt(layer, mv.lon, mv.lat)).toHaveLength(0);
  });

  it('resolves every place address to that place, and the special addresses as documented', () => {
    const find = (a: string) => DEMO_MAP.census.addresses.find((e) => e.spellings.some((s) => normaliseAddress(s) === normaliseAddress(a)));
    for (const p of DEMO_PLACES.filter((x) => x.address)) {
      const entry = find(p.address as string);
      expect(entry).toBeDefined();
      expect(entry?.matches[0]).toMatchObject({ lat: p.lat, lon: p.lon });
      expect(entry?.matches[0].matchedAddress).toMatch(/^[0-9A-Z ]+, [A-Z ]+, [A-Z]{2}, \d{5}$/);
    }
    expect(find(DEMO_ADDRESSES.noMatch)).toBeUndefined();
    const amb = find(DEMO_ADDRESSES.ambiguous)?.matches ?? [];
    expect(amb).toHaveLength(2);
    expect(haversineMeters(amb[0].lat, amb[0].lon, amb[1].lat, amb[1].lon)).toBeGreaterThan(100);
    const near = find(DEMO_ADDRESSES.nearDuplicate)?.matches ?? [];
    expect(near).toHaveLength(2);
    expect(haversineMeters(near[0].lat, near[0].lon, near[1].lat, near[1].lon)).toBeLessThan(100);
    expect(find(DEMO_ADDRESSES.whiteHouseLoose)?.matches[0].matchedAddress).toBe('1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500');
  });
});

// ---------------------------------------------------------------------------------------------
// The construction behind every expected LOMA, BFE estimate, nearby hazard, map change and CBRS answer
// ---------------------------------------------------------------------------------------------

/**
 * Distance over a few hundred metres on the WGS84 ellipsoid, from the local radii of curvature (the scale
 * factors cheap-ruler uses; cheap-ruler itself is an ES module this Jest set-up cannot load). The service
 * may measure on the sphere or on the ellipsoid: every expected whole metre must come out of both.
 */
function wgs84Meters(lat: number, a: Position, b: Position): number {
  const e2 = 0.00669437999014;
  const w2 = 1 / (1 - e2 * Math.sin((lat * Math.PI) / 180) ** 2);
  const w = Math.sqrt(w2);
  const mPerRad = 6378137 * (Math.PI / 180);
  const kx = mPerRad * w * Math.cos((lat * Math.PI) / 180);
  const ky = mPerRad * w * w2 * (1 - e2);
  return Math.hypot((b[0] - a[0]) * kx, (b[1] - a[1]) * ky);
}

/** The nearest point of a shape's vertices/edges to p, in a local metric (good to millimetres at this scale). */
function nearestPoint(lines: Position[][], p: Position, lat: number): Position {
  const kx = Math.cos((lat * Math.PI) / 180);
  let best: Position = lines[0][0];
  let bestD = Infinity;
  for (const line of lines) {
    for (let i = 1; i < line.length; i++) {
      const [a, b] = [line[i - 1], line[i]];
      const dx = (b[0] - a[0]) * kx;
      const dy = b[1] - a[1];
      const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * kx * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)));
      const q: Position = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
      const d = Math.hypot((q[0] - p[0]) * kx, q[1] - p[1]);
      if (d < bestD) [best, bestD] = [q, d];
    }
  }
  return best;
}

/** Distance from the place to a feature: by the emulator (sphere) and on the ellipsoid. */
function distances(place: DemoPlace, f: MapFeature): { sphere: number; ellipsoid: number; nearest: Position } {
  const p: Position = [place.lon, place.lat];
  const sphere = shapeDistanceMeters(f, place.lon, place.lat);
  const nearest = f.point ?? nearestPoint(f.paths ?? f.rings ?? [], p, place.lat);
  return { sphere, ellipsoid: sphere === 0 ? 0 : wgs84Meters(place.lat, p, nearest), nearest };
}

/** The whole metre a feature is at, asserting both measures agree on it with room to spare. */
function wholeMetres(place: DemoPlace, f: MapFeature): number {
  const { sphere, ellipsoid } = distances(place, f);
  const m = Math.round(sphere);
  expect(Math.abs(sphere - m)).toBeLessThan(0.15);
  expect(Math.round(ellipsoid)).toBe(m);
  expect(Math.abs(ellipsoid - m)).toBeLessThan(0.4);
  return m;
}

function bearingDeg(from: Position, to: Position): number {
  const kx = Math.cos((from[1] * Math.PI) / 180);
  return (Math.atan2((to[0] - from[0]) * kx, to[1] - from[1]) * 180) / Math.PI;
}

function angleBetween(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

const within = (place: DemoPlace, features: readonly MapFeature[], meters: number) =>
  features.filter((f) => shapeDistanceMeters(f, place.lon, place.lat) <= meters);

const layerOf = (service: ArcGisServiceData, suffix: string) => {
  const layer = service.layers.find((l) => l.name.endsWith(suffix));
  if (!layer) throw new Error(`no layer ending in ${suffix}`);
  return layer.features;
};

describe('demo map: LOMAs, estimated BFE, nearby, map changes, CBRS', () => {
  it('has a place for every new case', () => {
    const withPart = (test: (p: DemoPlace) => boolean) => DEMO_PLACES.filter(test).map((p) => p.id);
    expect(withPart((p) => p.expect.lomas.length > 0)).toEqual(['houston-lomas']);
    expect(withPart((p) => p.expect.estimatedBaseFloodElevation?.method === 'interpolated')).toEqual(['franklin-bfe-bracketed', 'ponce-bfe-meters']);
    expect(withPart((p) => p.expect.estimatedBaseFloodElevation?.method === 'nearest_line')).toEqual([
      'houston-ah-one-bfe-line',
      'norfolk-ground-above-estimated-bfe',
    ]);
    expect(withPart((p) => p.expect.nearby !== undefined)).toEqual(['houston-nearby-hazards', 'houston-nearby-inside-ae']);
    expect(new Set(DEMO_PLACES.map((p) => `${p.expect.mapChange.status}/${p.expect.mapChange.sfhaChange}`))).toEqual(
      new Set(['none/unchanged', 'none/unknown', 'preliminary/into_sfha', 'pending/out_of_sfha', 'preliminary/unknown', 'preliminary/unchanged']),
    );
    expect(new Set(DEMO_PLACES.map((p) => p.expect.coastalBarrier.status))).toEqual(new Set(['inside', 'buffer', 'outside']));
  });

  it('puts every LOMA point at its expected whole-metre distance, with LAT/LON equal to its geometry', () => {
    for (const f of DEMO_MAP.nfhl.lomas) {
      expect(f.point).toEqual([f.attributes.LON, f.attributes.LAT]);
      expect(f.rings).toBeUndefined();
    }
    for (const place of DEMO_PLACES) {
      const near = within(place, DEMO_MAP.nfhl.lomas, 100).map((f) => ({ caseNumber: f.attributes.CASENUMBER, distanceM: wholeMetres(place, f) }));
      near.sort((a, b) => a.distanceM - b.distanceM);
      expect(near).toEqual(place.expect.lomas.map(({ caseNumber, distanceM }) => ({ caseNumber, distanceM })));
    }
    const lomas = demoPlace('houston-lomas');
    expect(lomas.expect.lomas[0]).toMatchObject({ distanceM: 23, status: 'valid' });
    // the one at 130 m is inside the 100 m envelope's corner, so only the service's own distance filter drops it
    const far = DEMO_MAP.nfhl.lomas.find((f) => f.attributes.CASENUMBER === '21-06-0555A') as MapFeature;
    expect(wholeMetres(lomas, far)).toBe(130);
    const { dLat, dLon } = { dLat: 100 / 111_320, dLon: 100 / (111_320 * Math.cos((lomas.lat * Math.PI) / 180)) };
    expect(Math.abs((far.point as Position)[0] - lomas.lon)).toBeLessThan(dLon);
    expect(Math.abs((far.point as Position)[1] - lomas.lat)).toBeLessThan(dLat);
  });

  it('gives each expected LOMA the published attributes its status and texts come from', () => {
    const byCase = new Map(DEMO_MAP.nfhl.lomas.map((f) => [f.attributes.CASENUMBER, f.attributes]));
    const raw = demoPlace('houston-lomas').expect.lomas.map((l) => {
      const a = byCase.get(l.caseNumber) as Record<string, unknown>;
      return [l.status, a.OUTCOME, a.REVAL_STAT, a.PROJECTCATEGORY, a.DATEENDED];
    });
    expect(raw).toEqual([
      ['valid', 'Structure removed-Property partially inundated', null, 'LOMA', Date.UTC(2015, 5, 2)],
      ['incorporated', 'Portion of property removed', 'Incorporated', 'LOMA', Date.UTC(2009, 2, 17)],
      ['denied', 'Structure denied', 'Superseded', 'LOMA', Date.UTC(2018, 10, 5)],
      ['reevaluation_needed', 'Multiple', 'Reevaluation Needed', 'LOMA', Date.UTC(2012, 3, 24)],
      ['superseded', 'Property out as shown', 'Superseded', 'LOMR-F', Date.UTC(2005, 7, 1)],
      ['contact_community', ' ', 'Contact Community', 'LOMA', NFHL_NO_DATE],
    ]);
  });

  it('places the BFE lines of the estimate cases at their expected distances and sides', () => {
    const lineAt = (place: DemoPlace, elev: number, extra: Record<string, unknown> = {}) => {
      const found = within(place, DEMO_MAP.nfhl.bfeLines, 300).filter(
        (f) => f.attributes.ELEV === elev && Object.entries(extra).every(([k, v]) => f.attributes[k] === v),
      );
      expect(found).toHaveLength(1);
      return found[0];
    };
    const side = (place: DemoPlace, f: MapFeature) => bearingDeg([place.lon, place.lat], distances(place, f).nearest);

    const tn = demoPlace('franklin-bfe-bracketed');
    const [l1, l2] = [lineAt(tn, 612), lineAt(tn, 613)];
    expect([wholeMetres(tn, l1), wholeMetres(tn, l2)]).toEqual([41, 62]);
    expect(angleBetween(side(tn, l1), side(tn, l2))).toBeGreaterThan(170);
    const zone = featuresAt(DEMO_MAP.nfhl.floodHazardZones, tn.lon, tn.lat)[0].attributes;
    expect(zone).toMatchObject({ FLD_ZONE: 'AE', STATIC_BFE: -9999, DFIRM_ID: '47187C' });
    // distractors: nearer but another DFIRM; ELEV 0 and -1; another datum on L2's side; a different ELEV on L1's side
    const otherDfirm = lineAt(tn, 611, { DFIRM_ID: '47119C' });
    expect(wholeMetres(tn, otherDfirm)).toBeLessThan(41);
    expect(wholeMetres(tn, lineAt(tn, 0))).toBeLessThan(41);
    expect(wholeMetres(tn, lineAt(tn, -1))).toBeLessThan(41);
    const ngvd = lineAt(tn, 614, { V_DATUM: 'NGVD29' });
    expect(wholeMetres(tn, ngvd)).toBeLessThan(62);
    expect(angleBetween(side(tn, l1), side(tn, ngvd))).toBeGreaterThan(90);
    const sameSide = lineAt(tn, 611, { DFIRM_ID: '47187C' });
    expect(wholeMetres(tn, sameSide)).toBeLessThan(62);
    expect(angleBetween(side(tn, l1), side(tn, sameSide))).toBeLessThan(90);
    // the interpolation from the unrounded distances lands on the expected tenth on the sphere and the ellipsoid
    for (const measure of ['sphere', 'ellipsoid'] as const) {
      const [d1, d2] = [distances(tn, l1)[measure], distances(tn, l2)[measure]];
      expect(Math.round((612 + d1 / (d1 + d2)) * 10) / 10).toBe(tn.expect.estimatedBaseFloodElevation?.elevationFt);
    }

    const pr = demoPlace('ponce-bfe-meters');
    const [m1, m2, feet] = [lineAt(pr, 10), lineAt(pr, 11), lineAt(pr, 35)];
    expect([m1.attributes.LEN_UNIT, m2.attributes.LEN_UNIT, feet.attributes.LEN_UNIT]).toEqual(['Meters', 'Meters', 'Feet']);
    expect([wholeMetres(pr, m1), wholeMetres(pr, m2), wholeMetres(pr, feet)]).toEqual([30, 70, 45]);
    expect(angleBetween(side(pr, m1), side(pr, m2))).toBeGreaterThan(170);
    expect(angleBetween(side(pr, m1), side(pr, feet))).toBeGreaterThan(170);
    for (const measure of ['sphere', 'ellipsoid'] as const) {
      const [d1, d2] = [distances(pr, m1)[measure], distances(pr, m2)[measure]];
      expect(Math.round(((10 + d1 / (d1 + d2)) / 0.3048) * 10) / 10).toBe(33.8);
    }

    const ah = demoPlace('houston-ah-one-bfe-line');
    const usable = within(ah, DEMO_MAP.nfhl.bfeLines, 300);
    expect(usable.map((f) => [f.attributes.ELEV, wholeMetres(ah, f)])).toEqual([
      [47, 120],
      [47, 150],
    ]);
    const beyond = DEMO_MAP.nfhl.bfeLines.filter((f) => f.attributes.ELEV === 48 && f.attributes.DFIRM_ID === '48201C');
    expect(beyond.map((f) => wholeMetres(ah, f))).toEqual([320]);

    const norfolk = demoPlace('norfolk-ground-above-estimated-bfe');
    expect(within(norfolk, DEMO_MAP.nfhl.bfeLines, 300).map((f) => [f.attributes.ELEV, f.attributes.V_DATUM, wholeMetres(norfolk, f)])).toEqual([
      [8, 'NAVD88', 100],
    ]);
  });

  it('has no usable BFE line within 300 m of any other AE or AH place without a static BFE', () => {
    for (const place of DEMO_PLACES) {
      const e = place.expect;
      const calls = (e.floodZone === 'AE' || e.floodZone === 'AH') && e.staticBaseFloodElevationFt === null;
      if (!calls) {
        expect(e.estimatedBaseFloodElevation).toBeNull();
        continue;
      }
      const dfirm = featuresAt(DEMO_MAP.nfhl.floodHazardZones, place.lon, place.lat)[0].attributes.DFIRM_ID;
      const usable = within(place, DEMO_MAP.nfhl.bfeLines, 300).filter((f) => Number(f.attributes.ELEV) > 0 && f.attributes.DFIRM_ID === dfirm);
      expect(usable.length > 0).toBe(e.estimatedBaseFloodElevation !== null);
    }
  });

  it('places the nearby hazards at their expected distances, with nothing else within 500 m', () => {
    for (const id of ['houston-nearby-hazards', 'houston-nearby-inside-ae']) {
      const place = demoPlace(id);
      const around = within(place, DEMO_MAP.nfhl.floodHazardZones, 500)
        .map((f) => ({ zone: f.attributes.FLD_ZONE, subtype: f.attributes.ZONE_SUBTY, bfe: f.attributes.STATIC_BFE, distanceM: wholeMetres(place, f) }))
        .sort((a, b) => a.distanceM - b.distanceM);
      const n = place.expect.nearby;
      const listed = [n?.sfha, n?.floodway, n?.moderate].filter((h) => h !== null && h !== undefined);
      for (const h of listed) {
        expect(around).toContainEqual({ zone: h.floodZone, subtype: h.zoneSubtype, bfe: h.staticBaseFloodElevationFt ?? -9999, distanceM: h.distanceM });
      }
      // besides the listed hazards, only the polygon the place itself is in (when that is no hazard)
      expect(around.length).toBe(
        new Set(listed.map((h) => h.distanceM)).size + (place.expect.floodZone === 'X' && place.expect.riskLevel === 'minimal' ? 1 : 0),
      );
    }
    expect(demoPlace('houston-nearby-hazards').expect.nearbyAtOtherRadii?.map((n) => n.radiusM)).toEqual([100, 200]);
  });

  it('puts the coming-map places inside the right availability polygons', () => {
    const prelim = layerOf(DEMO_PRELIMINARY, 'Availability');
    const pending = layerOf(DEMO_PENDING, 'Availability');
    expect(new Date(prelim[0].attributes.PRELM_ISSUE_DATE as number).toISOString()).toBe('2025-05-15T11:00:00.000Z');
    for (const place of DEMO_PLACES) {
      const mc = place.expect.mapChange;
      const inPending = featuresAt(pending, place.lon, place.lat);
      const inPrelim = featuresAt(prelim, place.lon, place.lat);
      const governing = mc.status === 'pending' ? inPending : mc.status === 'preliminary' ? inPrelim : [];
      if (mc.status === 'none') expect([inPending.length, inPrelim.length]).toEqual([0, 0]);
      if (mc.status === 'preliminary') expect(inPending).toHaveLength(0);
      if (mc.status !== 'none') {
        expect(governing).toHaveLength(1);
        expect(new Date(governing[0].attributes.PRELM_ISSUE_DATE as number).toISOString().slice(0, 10)).toBe(mc.issuedDate);
        const zones = featuresAt(layerOf(mc.status === 'pending' ? DEMO_PENDING : DEMO_PRELIMINARY, 'Flood Hazard Zones'), place.lon, place.lat);
        expect(zones.map((z) => z.attributes.FLD_ZONE)).toEqual(mc.floodZone === null ? [] : [mc.floodZone]);
      }
    }
    // pending wins where both maps are
    const both = demoPlace('charleston-pending-out-of-sfha');
    expect(featuresAt(layerOf(DEMO_PRELIMINARY, 'Flood Hazard Zones'), both.lon, both.lat)).toHaveLength(1);
  });

  it('puts the CBRS places inside the right polygons', () => {
    const prohibitions = layerOf(DEMO_CBRS, 'Prohibitions');
    const buffer = layerOf(DEMO_CBRS, 'Buffer Zone');
    for (const place of DEMO_PLACES) {
      const cb = place.expect.coastalBarrier;
      const inside = featuresAt(prohibitions, place.lon, place.lat).map((f) => [f.attributes.Unit, f.attributes.CBRS_Type]);
      expect(inside).toEqual(cb.status === 'inside' ? [[cb.unit, cb.type]] : []);
      expect(featuresAt(buffer, place.lon, place.lat).length > 0).toBe(cb.status === 'buffer');
    }
    const dates = prohibitions.map((f) => [f.attributes.Unit, f.attributes.FI_Date, f.attributes.SU_Date]);
    expect(dates).toEqual([
      ['FL-05', Date.UTC(1983, 9, 1), '10/18/1982'],
      ['FL-64P', '11/16/1990', 'Null'],
    ]);
  });

  it('describes the other MapServers with layer names, ids and features holding exactly their fields', () => {
    const shape = (s: ArcGisServiceData) => s.layers.map((l) => [l.id, l.name, l.geometryType]);
    expect(shape(DEMO_PRELIMINARY)).toEqual([
      [0, 'Preliminary Data Availability', 'esriGeometryPolygon'],
      [28, 'Preliminary Flood Hazard Zones', 'esriGeometryPolygon'],
    ]);
    expect(shape(DEMO_PENDING)).toEqual([
      [0, 'Pending Data Availability', 'esriGeometryPolygon'],
      [28, 'Pending Flood Hazard Zones', 'esriGeometryPolygon'],
    ]);
    expect(shape(DEMO_CBRS).map((l) => l[1])).toEqual(['CBRS Units', 'CBRS Prohibitions', 'CBRS Buffer Zone']);
    for (const service of [DEMO_PRELIMINARY, DEMO_PENDING, DEMO_CBRS]) {
      for (const layer of service.layers) {
        const names = layer.fields.filter((f) => f.type !== 'esriFieldTypeGeometry').map((f) => f.name);
        expect(names).toContain(layer.displayField);
        for (const f of layer.features) expect(Object.keys(f.attributes)).toEqual(names);
      }
    }
    expect(layerOf(DEMO_PRELIMINARY, 'Flood Hazard Zones')[0].attributes).toMatchObject({ FLD_ZONE: 'AE', STATIC_BFE: 9, DFIRM_ID: '45019C' });
  });
});

// ---------------------------------------------------------------------------------------------
// The ground at every place (include=elevation)
// ---------------------------------------------------------------------------------------------

describe('demo map: the ground at every place', () => {
  const all = [...DEMO_PLACES, ...FAULT_DEMO_PLACES];
  const groundAt = (p: DemoPlace) => DEMO_ELEVATIONS.filter((e) => e.at[0] === p.lon && e.at[1] === p.lat);
  /** The 48 states and DC by state FIPS. */
  const CONTERMINOUS = new Set(
    '01 04 05 06 08 09 10 11 12 13 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 44 45 46 47 48 49 50 51 53 54 55 56'.split(
      ' ',
    ),
  );

  it('gives the elevation emulator one point per place, the only one within its reach', () => {
    expect(DEMO_ELEVATIONS).toHaveLength(all.length);
    for (const place of all) {
      expect({ id: place.id, points: groundAt(place).length }).toEqual({ id: place.id, points: 1 });
      const reached = DEMO_ELEVATIONS.filter((e) => haversineMeters(place.lat, place.lon, e.at[1], e.at[0]) <= EPQS_DEFAULT_WITHIN_M);
      expect({ id: place.id, reached: reached.length }).toEqual({ id: place.id, reached: 1 });
    }
  });

  it("sets each place's expected ground from what the emulator answers there", () => {
    for (const place of all) {
      const [point] = groundAt(place);
      const g = place.expect.groundElevation;
      const noData = point.callFailed === true || point.valueFt === null || point.valueFt <= -1000;
      expect({ id: place.id, noData }).toEqual({ id: place.id, noData: g.elevationFt === null });
      if (noData || point.valueFt === null) {
        expect(g).toEqual({ elevationFt: null, verticalDatum: null, resolutionM: null, acquisitionDate: null, uncertaintyFt: null, comparedWith: null });
        continue;
      }
      expect({ id: place.id, elevationFt: Math.round(point.valueFt * 10) / 10 }).toEqual({ id: place.id, elevationFt: g.elevationFt });
      expect(g.resolutionM).toBe(point.resolution);
      expect(g.uncertaintyFt).toBe((point.resolution ?? 1) <= 3 ? 1.7 : 5.1);
      const [month, day, year] = (point.acquisitionDate ?? '').split('/');
      expect(g.acquisitionDate).toBe(point.acquisitionDate ? `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}` : null);
      expect({ id: place.id, datum: g.verticalDatum }).toEqual({
        id: place.id,
        datum: CONTERMINOUS.has(place.expect.countyFips?.slice(0, 2) ?? '') ? 'NAVD88' : null,
      });
      const c = g.comparedWith;
      if (c === null) continue;
      const bfe = c.bfe === 'static' ? place.expect.staticBaseFloodElevationFt : place.expect.estimatedBaseFloodElevation?.elevationFt;
      expect({ id: place.id, bfeFt: c.bfeFt }).toEqual({ id: place.id, bfeFt: bfe });
      expect(c.differenceFt).toBeCloseTo((g.elevationFt as number) - c.bfeFt, 9);
      const position = Math.abs(c.differenceFt) <= (g.uncertaintyFt as number) ? 'within_uncertainty' : c.differenceFt > 0 ? 'above' : 'below';
      expect({ id: place.id, position: c.position }).toEqual({ id: place.id, position });
    }
  });

  it('compares the ground only with a NAVD88 BFE, inside the conterminous US', () => {
    for (const place of DEMO_PLACES) {
      const e = place.expect;
      const bfe = e.staticBaseFloodElevationFt !== null ? e.verticalDatum : (e.estimatedBaseFloodElevation?.verticalDatum ?? null);
      const comparable = e.groundElevation.verticalDatum === 'NAVD88' && bfe === 'NAVD88';
      expect({ id: place.id, compared: e.groundElevation.comparedWith !== null }).toEqual({ id: place.id, compared: comparable });
    }
  });

  it('has the Norfolk places: static BFE 9 ft NAVD88, an estimate from one line, an NGVD29 BFE, and both no-data answers', () => {
    const norfolk = (id: string) => demoPlace(`norfolk-${id}`);
    for (const id of ['ground-above-bfe', 'ground-below-bfe', 'ground-within-bfe-uncertainty']) {
      expect(norfolk(id).expect).toMatchObject({ floodZone: 'AE', staticBaseFloodElevationFt: 9, verticalDatum: 'NAVD88', countyFips: '51710' });
    }
    expect(['ground-above-bfe', 'ground-below-bfe', 'ground-within-bfe-uncertainty'].map((id) => norfolk(id).expect.groundElevation.comparedWith)).toEqual([
      { bfe: 'static', bfeFt: 9, differenceFt: 4.6, position: 'above' },
      { bfe: 'static', bfeFt: 9, differenceFt: -4.7, position: 'below' },
      { bfe: 'static', bfeFt: 9, differenceFt: 1, position: 'within_uncertainty' },
    ]);
    expect(norfolk('ground-above-estimated-bfe').expect).toMatchObject({
      staticBaseFloodElevationFt: null,
      estimatedBaseFloodElevation: { elevationFt: 8, verticalDatum: 'NAVD88', method: 'nearest_line' },
      groundElevation: { elevationFt: 11.4, comparedWith: { bfe: 'estimated', bfeFt: 8, differenceFt: 3.4, position: 'above' } },
    });
    const ngvd = norfolk('bfe-ngvd29');
    expect(ngvd.expect).toMatchObject({
      staticBaseFloodElevationFt: 8,
      verticalDatum: 'NGVD29',
      groundElevation: { elevationFt: 6.5, verticalDatum: 'NAVD88', comparedWith: null },
    });
    expect(featuresAt(DEMO_MAP.nfhl.floodHazardZones, ngvd.lon, ngvd.lat)[0].attributes).toMatchObject({ STATIC_BFE: 8, V_DATUM: 'NGVD29' });
    expect(groundAt(norfolk('elevation-call-failed'))[0]).toMatchObject({ callFailed: true });
    expect(groundAt(norfolk('elevation-null'))[0]).toMatchObject({ valueFt: null });
    expect(groundAt(demoPlace('outside-us-atlantic'))[0]).toMatchObject({ valueFt: EPQS_NO_DATA_VALUE });
  });

  it('offline mode lists every place, with include=elevation wherever the ground is compared, not compared beside a BFE, or has no data', () => {
    const lines = exampleUrls('http://localhost:3000');
    const withElevation = (p: DemoPlace) => lines.some((l) => l.includes(`lat=${p.lat}&lon=${p.lon}&include=`) && /include=[a-z,]*elevation/.test(l));
    for (const place of DEMO_PLACES) {
      const e = place.expect;
      expect(lines).toContain(`curl 'http://localhost:3000/flood-zone?lat=${place.lat}&lon=${place.lon}'`);
      const shows = e.groundElevation.comparedWith !== null || e.groundElevation.elevationFt === null || e.staticBaseFloodElevationFt !== null;
      if (shows) expect({ id: place.id, listed: withElevation(place) }).toEqual({ id: place.id, listed: true });
    }
    expect(lines.filter((l) => l.startsWith('# norfolk-'))).toEqual([
      '# norfolk-ground-above-bfe: mapped AE; NFIP: participating, CRS class 7 (15% off in the SFHA); ground 13.6 ft, 4.6 ft above the static BFE',
      '# norfolk-ground-below-bfe: mapped AE; NFIP: participating, CRS class 7 (15% off in the SFHA); ground 4.3 ft, 4.7 ft below the static BFE',
      '# norfolk-ground-within-bfe-uncertainty: mapped AE; NFIP: participating, CRS class 7 (15% off in the SFHA); ground 10 ft, 1 ft above the static BFE, within 1.7 ft uncertainty',
      '# norfolk-ground-above-estimated-bfe: mapped AE; NFIP: participating, CRS class 7 (15% off in the SFHA); estimated BFE 8 ft (nearest_line); ground 11.4 ft, 3.4 ft above the estimated BFE',
      '# norfolk-bfe-ngvd29: mapped AE; NFIP: participating, CRS class 7 (15% off in the SFHA); ground 6.5 ft, not compared (BFE in NGVD29)',
      '# norfolk-elevation-call-failed: mapped X (0.2 PCT ANNUAL CHANCE FLOOD HAZARD); NFIP: participating, CRS class 7 (15% off in the SFHA); ground: no data',
      '# norfolk-elevation-null: mapped X (AREA OF MINIMAL FLOOD HAZARD); NFIP: participating, CRS class 7 (15% off in the SFHA); ground: no data',
    ]);
  });

  it('offline mode ends with a map picture and a report page of a place with several zones in sight', () => {
    const lines = exampleUrls('http://localhost:3000');
    expect(lines.slice(-3)).toEqual([
      '# houston-nearby-hazards as a map picture (PNG), then as a report page to open in a browser',
      "curl -o houston-nearby-hazards.png 'http://localhost:3000/flood-zone/map?lat=29.83&lon=-95.45'",
      'http://localhost:3000/flood-zone/report?lat=29.83&lon=-95.45',
    ]);
    const pictured = demoPlace('houston-nearby-hazards').expect;
    expect([pictured.floodZone, pictured.nearby?.sfha?.floodZone, pictured.nearby?.floodway?.zoneSubtype, pictured.nearby?.moderate?.floodZone]).toEqual([
      'X',
      'AE',
      'FLOODWAY',
      'X',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// The fault walkthroughs' places, and the places the docs' examples look up
// ---------------------------------------------------------------------------------------------

const ROOT = path.join(__dirname, '..', '..');
const WALKTHROUGH_FILES = ['docs/offline.md', 'test/emulators/README.md'];

/** A point as the service's cache keys it (6 decimals). */
const pointKey = (lat: number, lon: number) => `${lat.toFixed(6)},${lon.toFixed(6)}`;

/** The point an address resolves to through the Census emulator (its first match), if it resolves. */
const addressPoints = new Map(
  DEMO_MAP.census.addresses.flatMap((entry) => entry.spellings.map((spelling) => [normaliseAddress(spelling), entry.matches[0]] as const)),
);
function addressKey(address: string): string | undefined {
  const match = addressPoints.get(normaliseAddress(address));
  return match && pointKey(match.lat, match.lon);
}

/** The points a line of docs looks up: /flood-zone URLs (a lookup, a map picture, a report), batch JSON rows and `flood-zone lookup` commands. */
function lookedUp(line: string): string[] {
  const keys: Array<string | undefined> = [];
  for (const [, query] of line.matchAll(/flood-zone(?:\/map|\/report)?\?([^'"\s`)]+)/g)) {
    const params = new URLSearchParams(query);
    const address = params.get('address');
    if (address !== null) keys.push(addressKey(address));
    else keys.push(pointKey(Number(params.get('lat')), Number(params.get('lon'))));
  }
  for (const [, lat, lon] of line.matchAll(/"lat":\s*(-?[\d.]+),\s*"lon":\s*(-?[\d.]+)/g)) keys.push(pointKey(Number(lat), Number(lon)));
  for (const [, address] of line.matchAll(/"address":\s*"([^"]+)"/g)) keys.push(addressKey(address));
  for (const [, lat, lon] of line.matchAll(/flood-zone lookup (-?[\d.]+) (-?[\d.]+)/g)) keys.push(pointKey(Number(lat), Number(lon)));
  for (const [, address] of line.matchAll(/flood-zone lookup "([^"]+)"/g)) keys.push(addressKey(address));
  return keys.filter((k): k is string => k !== undefined);
}

interface FaultStep {
  file: string;
  /** Points looked up once a fault or latency was set in this shell block. */
  faulted: string[];
  /** Points looked up in this block before that. */
  before: string[];
  /** `near` points of the faults set. */
  near: string[];
}

/**
 * The lookups of the walkthrough files: a shell block that sets a fault or a latency is a step (what it looks
 * up before and after that); every other lookup, anywhere in the files, is `elsewhere`.
 */
function walkthroughs(): { steps: FaultStep[]; elsewhere: string[] } {
  const steps: FaultStep[] = [];
  const elsewhere: string[] = [];
  for (const file of WALKTHROUGH_FILES) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    // odd pieces are the insides of code blocks
    text.split(/^```.*$/m).forEach((piece, i) => {
      const lines = piece.split('\n');
      const firstFault = i % 2 === 1 ? lines.findIndex((l) => /-X (POST|PUT) \S*_emulator\/(faults|latency)/.test(l)) : -1;
      if (firstFault < 0) {
        elsewhere.push(...lines.flatMap(lookedUp));
        return;
      }
      const after = lines.slice(firstFault);
      const near = after.flatMap((l) => [...l.matchAll(/"near":\s*\[(-?[\d.]+),\s*(-?[\d.]+)\]/g)].map(([, lon, lat]) => pointKey(Number(lat), Number(lon))));
      steps.push({ file, before: lines.slice(0, firstFault).flatMap(lookedUp), faulted: after.flatMap(lookedUp), near });
    });
  }
  return { steps, elsewhere: [...elsewhere, ...steps.flatMap((s) => s.before)] };
}

/** The points examples/portfolio.csv looks up (rows with lat and lon, or an address that resolves). */
function portfolioPoints(): { points: string[]; rows: Array<Record<string, string>> } {
  const [header, ...lines] = fs
    .readFileSync(path.join(ROOT, 'examples', 'portfolio.csv'), 'utf8')
    .trim()
    .split('\n');
  const names = header.split(',');
  const rows = lines.map((line) => {
    const cells = [...line.matchAll(/("([^"]*)"|[^,]*)(,|$)/g)].map((m) => m[2] ?? m[1]).slice(0, names.length);
    return Object.fromEntries(names.map((name, i) => [name, cells[i] ?? '']));
  });
  const points = rows.flatMap((row) => {
    const key = row.address ? addressKey(row.address) : pointKey(Number(row.lat), Number(row.lon));
    return key === undefined ? [] : [key];
  });
  return { points, rows };
}

describe('fault walkthrough places', () => {
  const ofPlace = (p: DemoPlace) => pointKey(p.lat, p.lon);
  const faultKeys = new Map(FAULT_DEMO_PLACES.map((p) => [ofPlace(p), p.id]));

  it('answer exactly as their twins: inside the same polygons of every layer of every MapServer and Census area', () => {
    const polygons = (p: DemoPlace) => ({
      nfhl: Object.fromEntries(
        Object.entries(DEMO_MAP.nfhl).map(([layer, features]) => [layer, featuresAt(features, p.lon, p.lat).map((f) => f.attributes.OBJECTID)]),
      ),
      others: [DEMO_PRELIMINARY, DEMO_PENDING, DEMO_CBRS].map((s) =>
        s.layers.map((l) => featuresAt(l.features, p.lon, p.lat).map((f) => f.attributes.OBJECTID)),
      ),
      census: [DEMO_MAP.census.counties, DEMO_MAP.census.zctas].map((areas) =>
        featuresAt(areas, p.lon, p.lat).map((a) => a.attributes.GEOID ?? a.attributes.ZCTA5),
      ),
      lomasWithin100m: within(p, DEMO_MAP.nfhl.lomas, 100).length,
      bfeLinesWithin300m: within(p, DEMO_MAP.nfhl.bfeLines, 300).length,
    });
    expect(FAULT_DEMO_PLACES.map((p) => p.id)).toEqual(Object.keys(FAULT_DEMO_TWIN_OF));
    for (const place of FAULT_DEMO_PLACES) {
      const twin = demoPlace(FAULT_DEMO_TWIN_OF[place.id]);
      expect({ id: place.id, ...polygons(place) }).toEqual({ id: place.id, ...polygons(twin) });
      expect(polygons(place).nfhl.floodHazardZones).toHaveLength(1);
      expect(place.expect).toEqual(twin.expect);
      expect(Math.round(haversineMeters(place.lat, place.lon, twin.lat, twin.lon))).toBe(120);
    }
  });

  it("are over 100 m (a place fault's reach) from every demo place and from each other, with their own addresses", () => {
    const all = [...DEMO_PLACES, ...FAULT_DEMO_PLACES];
    for (const place of FAULT_DEMO_PLACES) {
      for (const other of all.filter((p) => p !== place)) {
        expect({ place: place.id, other: other.id, far: haversineMeters(place.lat, place.lon, other.lat, other.lon) > 100 }).toEqual({
          place: place.id,
          other: other.id,
          far: true,
        });
      }
      if (place.address) expect(addressKey(place.address)).toBe(ofPlace(place));
    }
    const addresses = all.flatMap((p) => (p.address ? [normaliseAddress(p.address)] : []));
    expect(new Set(addresses).size).toBe(addresses.length);
  });

  it('every walkthrough step looks up only its own fault places, which nothing else looks up first', () => {
    const { steps, elsewhere } = walkthroughs();
    const printed = exampleUrls('http://localhost:3000').flatMap(lookedUp);
    const everythingElse = new Set([...elsewhere, ...printed, ...portfolioPoints().points]);
    // the steps of docs/offline.md (503 then a CBRS reset, in one block) and of the emulators' README (503, breaker, one place, slow and reset geocoder)
    const idOf = new Map([...DEMO_PLACES, ...FAULT_DEMO_PLACES].map((p) => [ofPlace(p), p.id]));
    expect(steps.map((s) => [s.file, s.faulted.map((k) => idOf.get(k) ?? k)])).toEqual([
      ['docs/offline.md', ['dc-fault-fema-503', 'dc-fault-fema-503', 'fernandina-fault-cbrs-reset']],
      ['test/emulators/README.md', ['dc-fault-fema-recovers', 'dc-fault-fema-recovers']],
      ['test/emulators/README.md', ['dc-fault-breaker', 'dc-fault-breaker']],
      ['test/emulators/README.md', ['toa-baja-fault-one-place', 'toa-baja-ae', 'renton-fault-slow-geocoder', 'renton-fault-geocoder-reset']],
    ]);
    const used = new Map<string, string>();
    for (const step of steps) {
      for (const key of step.faulted.filter((k) => faultKeys.has(k))) {
        const where = `${step.file} step ${steps.indexOf(step)}`;
        expect({ place: faultKeys.get(key), firstUsedIn: used.get(key) ?? where }).toEqual({ place: faultKeys.get(key), firstUsedIn: where });
        used.set(key, where);
        expect({ place: faultKeys.get(key), lookedUpElsewhere: everythingElse.has(key) || step.before.includes(key) }).toEqual({
          place: faultKeys.get(key),
          lookedUpElsewhere: false,
        });
      }
      for (const near of step.near) expect(step.faulted).toContain(near);
    }
    expect([...used.keys()].sort()).toEqual([...faultKeys.keys()].sort());
  });
});

describe('batch examples', () => {
  const placeKeys = new Set(DEMO_PLACES.map((p) => pointKey(p.lat, p.lon)));

  it('examples/portfolio.csv: every address resolves to a demo place (or is the no-match / ambiguous demo), every point is one', () => {
    const { rows } = portfolioPoints();
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      if (row.address) {
        const special = [DEMO_ADDRESSES.noMatch, DEMO_ADDRESSES.ambiguous].includes(row.address as never);
        expect({ id: row.id, inside: special || placeKeys.has(addressKey(row.address) ?? '') }).toEqual({ id: row.id, inside: true });
      } else {
        const outOfRange = Math.abs(Number(row.lat)) > 90;
        expect({ id: row.id, inside: outOfRange || placeKeys.has(pointKey(Number(row.lat), Number(row.lon))) }).toEqual({ id: row.id, inside: true });
      }
    }
  });

  it('docs/batch-and-jobs.md: the batch and command-line examples look up demo places (or points inside demo buildings) only', () => {
    const section = fs.readFileSync(path.join(ROOT, 'docs', 'batch-and-jobs.md'), 'utf8');
    const lines = section.split('\n').filter((l) => /flood-zone\/batch|flood-zone lookup/.test(l) || /"locations"/.test(l));
    // a latitude out of range is the example's 422 row
    const points = lines.flatMap(lookedUp).filter((key) => Math.abs(Number(key.split(',')[0])) <= 90);
    expect(points.length).toBeGreaterThanOrEqual(4);
    const inDemoBuilding = (key: string) => {
      const [lat, lon] = key.split(',').map(Number);
      return DEMO_STRUCTURES.some(({ feature }) => pointInRingsEvenOdd(lon, lat, feature.rings as Ring[]));
    };
    for (const key of points) expect({ key, demoPlace: placeKeys.has(key) || inDemoBuilding(key) }).toEqual({ key, demoPlace: true });
  });
});
