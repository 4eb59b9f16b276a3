import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  DEMO_ADDRESSES,
  DEMO_MAP,
  DEMO_PLACES,
  NFHL_ATTRIBUTE_FIELDS,
  NFHL_NO_DATE,
  NfhlLayerKey,
  demoPlace,
  featuresAt,
} from './demo-map';
import { haversineMeters } from './geometry';
import { normaliseAddress } from './census-emulator';

const METADATA: Record<NfhlLayerKey, string> = {
  availability: 'nfhl-layer-0-nfhl-availability.metadata.json',
  lomrs: 'nfhl-layer-1-lomrs.metadata.excerpt.json',
  firmPanels: 'nfhl-layer-3-firm-panels.metadata.json',
  politicalJurisdictions: 'nfhl-layer-22-political-jurisdictions.metadata.excerpt.json',
  floodHazardZones: 'nfhl-layer-28-flood-hazard-zones.metadata.excerpt.json',
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
        expect(featuresAt(DEMO_MAP.nfhl.politicalJurisdictions, p.lon, p.lat)).toHaveLength(1);
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

  it('holds the contract example at the White House', () => {
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
    expect(featuresAt(DEMO_MAP.nfhl.floodHazardZones, overlap.lon, overlap.lat).map((f) => f.attributes.FLD_ZONE).sort()).toEqual(['AE', 'VE', 'X']);
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
