/**
 * The portfolios of the batch benchmark: deterministic lists of batch rows (half addresses, half lat/lon, a
 * third of the rows repeating an earlier row's point) over distinct points inside the demo map's AE 583 square
 * in Washington, DC (PORTFOLIO_PLACE), and the Census address book entries that make every address resolve to its point.
 * Both the benchmark (rows) and the emulator host (address book) build them from the same arguments.
 *
 * Each portfolio has its own strip of the square, apart from the points PointGrid hands out, so that two
 * portfolios, and the cold GETs run beside them, never share a flood answer.
 */
import { CensusAddressEntry, demoPlace } from '../test/emulators/demo-map';
import { microDegrees } from './points';

/** Every portfolio point lies in this place's zone: its AE square is ~300 m wide (±1,700 µ° of longitude). */
export const PORTFOLIO_PLACE = demoPlace('dc-white-house-ae');
const CENTRE = { latMicro: Math.round(PORTFOLIO_PLACE.lat * 1e6), lonMicro: Math.round(PORTFOLIO_PLACE.lon * 1e6) };
/**
 * A strip is 1,000 latitudes (±56 m) by 300 longitudes (≈26 m); the two strips lie east and west of PointGrid's
 * ±150 µ° around the same centre, within ±750 µ° (≈65 m).
 */
const LATS = 1000;
const LONS = 300;
const STRIP_LON_OFFSETS_MICRO = [450, -750];

export const PORTFOLIO_CAPACITY = LATS * LONS;

export type PortfolioRow = { id: string; address: string; point: number } | { id: string; lat: string; lon: string; point: number };

export interface Portfolio {
  rows: PortfolioRow[];
  /** Distinct points over all rows, and over the lat/lon rows only (what needs a Census coordinates call). */
  distinctPoints: number;
  distinctLatLonPoints: number;
  addresses: number;
}

/** Point `i` of portfolio `set`, in micro-degrees. */
function pointOf(set: number, i: number): { latMicro: number; lonMicro: number } {
  if (set < 0 || set >= STRIP_LON_OFFSETS_MICRO.length) throw new Error(`portfolio ${set}: only ${STRIP_LON_OFFSETS_MICRO.length} strips`);
  if (i >= PORTFOLIO_CAPACITY) throw new Error(`portfolio ${set}: more than ${PORTFOLIO_CAPACITY} points`);
  return {
    latMicro: CENTRE.latMicro + (i % LATS) - LATS / 2,
    lonMicro: CENTRE.lonMicro + STRIP_LON_OFFSETS_MICRO[set] + Math.floor(i / LATS),
  };
}

function addressOf(set: number, k: number): { line: string; number: string; street: string } {
  const number = String(100 + (k % 100) * 2);
  const street = `Floodplain ${String.fromCharCode(65 + set)}${Math.floor(k / 100)}`;
  return { line: `${number} ${street} St, Washington, DC 20001`, number, street };
}

/** A small deterministic generator (mulberry32) of numbers in [0, 1): which earlier row a repeat copies, where a generated point lies. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Portfolio `set` of `size` rows: even rows are addresses, odd rows lat/lon; every third row repeats an earlier row's point. */
export function portfolio(set: number, size: number): Portfolio {
  const random = seeded(1000 + set);
  const rows: PortfolioRow[] = [];
  let points = 0;
  let addresses = 0;
  const latLonPoints = new Set<number>();
  for (let i = 0; i < size; i++) {
    const point = i % 3 === 2 ? rows[Math.floor(random() * i)].point : points++;
    const id = `p${set}-${i}`;
    if (i % 2 === 0) {
      rows.push({ id, address: addressOf(set, addresses++).line, point });
    } else {
      const p = pointOf(set, point);
      rows.push({ id, lat: microDegrees(p.latMicro), lon: microDegrees(p.lonMicro), point });
      latLonPoints.add(point);
    }
  }
  return { rows, distinctPoints: points, distinctLatLonPoints: latLonPoints.size, addresses };
}

/** The Census address book entries of portfolio `set` of `size` rows: each address matches its row's point exactly. */
export function portfolioAddressBook(set: number, size: number): CensusAddressEntry[] {
  const entries: CensusAddressEntry[] = [];
  let k = 0;
  for (const row of portfolio(set, size).rows) {
    if (!('address' in row)) continue;
    const a = addressOf(set, k++);
    const p = pointOf(set, row.point);
    const matchedAddress = `${a.number} ${a.street} ST, WASHINGTON, DC, 20001`.toUpperCase();
    entries.push({
      spellings: [a.line, matchedAddress],
      matches: [
        {
          lat: p.latMicro / 1e6,
          lon: p.lonMicro / 1e6,
          matchedAddress,
          tigerLine: { tigerLineId: String(900_000_000 + set * PORTFOLIO_CAPACITY + row.point), side: 'L' },
          addressComponents: {
            fromAddress: '100',
            toAddress: '298',
            preQualifier: '',
            preDirection: '',
            preType: '',
            streetName: a.street.toUpperCase(),
            suffixType: 'ST',
            suffixDirection: '',
            suffixQualifier: '',
            state: 'DC',
            zip: '20001',
            city: 'WASHINGTON',
          },
        },
      ],
    });
  }
  return entries;
}
