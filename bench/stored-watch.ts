/**
 * A watch stored straight into the jobs Redis as its baselines store it (WatchStore: chunks of 1,000 locations, the
 * fingerprints shared by key, the grid-cell and community indexes), without answering each location first: a
 * million lookups would take hours. Each location's fingerprint is made up from its point and a zone, as a county's
 * locations share zones, panels and a community. What bench/watch-memory.ts measures and the watch-sweep scenario
 * sweeps.
 */
import { fingerprintOf, type WatchFingerprint } from '../src/watches/watch-fingerprint';
import { gridCellOf } from '../src/watches/watch-grid';
import { newWatchRecord, type NewWatchRecord } from '../src/watches/watch-record';
import { ChunkWrite, fingerprintKey, WatchedLocation, WatchStore } from '../src/watches/watch-store';
import { WATCH_CHUNK_LOCATIONS } from '../src/watches/watches';

/** Zones to draw from: mostly X, as a loan book's are. */
export const SYNTHETIC_ZONES = ['X', 'X', 'X', 'AE', 'X', 'AE', 'A', 'VE', 'X', 'AO'];

export interface BaselinedLocation {
  location: WatchedLocation;
  print: WatchFingerprint;
}

/** A place as a baseline keeps it ("countyFips|zip|county"), made up from the point: a county a degree wide, a ZIP a tenth of one. */
export function syntheticPlace(lat: number, lon: number): string {
  const fips = String(10_000 + ((Math.floor(lat) * 360 + Math.floor(lon) + 65_536) % 80_000)).padStart(5, '0');
  const zip = String((Math.floor(lat * 10) * 3600 + Math.floor(lon * 10) + 10_000_000) % 100_000).padStart(5, '0');
  return `${fips}|${zip}|County ${fips}`;
}

/**
 * A location as its baseline would have stored it, in `zone`: its panel and community those of its 0.1° of latitude
 * and longitude; `place` the county and ZIP its answer gave ("countyFips|zip|county"), which spares its re-checks the
 * geocoder.
 */
export function baselinedLocation(id: string, lat: number, lon: number, zone: string, place?: string): BaselinedLocation {
  const panel = `${Math.floor(lat * 10)}C${String(Math.floor(Math.abs(lon) * 10) % 10000).padStart(4, '0')}K`;
  const cid = `48${String(Math.floor(lat * 10) % 10000).padStart(4, '0')}`;
  const print = fingerprintOf({
    result: {
      floodZone: zone,
      inSpecialFloodHazardArea: zone !== 'X',
      firmPanel: { panel, effectiveDate: '2019-08-16' },
      community: { communityId: cid, nfip: { participating: true, program: 'regular', crsClass: 7 } },
      lomrs: [],
      coastalBarrier: { status: 'outside', unit: null },
      mapChange: { status: 'none', floodZone: null },
      structure: { zones: [{ floodZone: zone }], buildingInSfha: zone !== 'X' },
      determination: { map: { letterOfMapChange: null }, floodInsuranceRequired: zone !== 'X' },
      unavailable: [],
    },
  });
  const location: WatchedLocation = {
    id,
    lat: Number(lat.toFixed(6)),
    lon: Number(lon.toFixed(6)),
    communities: cid,
    fingerprint: fingerprintKey(print),
    place,
    footprint: undefined,
    problem: 0,
  };
  return { location, print };
}

/** Stores a watch of `total` locations, the `n`th being `locationAt(n)`, baselined and watching. */
export async function storeBaselinedWatch(
  store: WatchStore,
  watch: Omit<NewWatchRecord, 'total' | 'chunks'>,
  total: number,
  locationAt: (n: number) => BaselinedLocation,
): Promise<void> {
  const chunks = Math.ceil(total / WATCH_CHUNK_LOCATIONS);
  await store.open(newWatchRecord({ ...watch, total, chunks }));
  for (let chunk = 0; chunk < chunks; chunk++) {
    const ids: string[] = [];
    const locations: WatchedLocation[] = [];
    const write: ChunkWrite = { fingerprints: {}, cells: [], communities: [], events: [], counts: {}, baseline: true };
    for (let n = chunk * WATCH_CHUNK_LOCATIONS; n < Math.min(total, (chunk + 1) * WATCH_CHUNK_LOCATIONS); n++) {
      const { location, print } = locationAt(n);
      ids.push(location.id);
      locations.push(location);
      write.fingerprints[location.fingerprint!] = JSON.stringify(print);
      write.cells.push(gridCellOf(location.lat!, location.lon!));
      write.communities.push(location.communities!);
    }
    write.counts.answered = locations.length;
    await store.addIds(watch.id, chunk, ids);
    await store.writeChunk(watch.id, chunk, '', locations, write, new Date());
  }
}
