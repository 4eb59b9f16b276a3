/**
 * Points the benchmark asks about, in integer micro-degrees so that every point is exact at 6 decimals (the
 * service's cache key): distinct points never share a cache entry. No side effects: the emulator host uses it too.
 */
export interface Point {
  lat: string;
  lon: string;
}

/** A micro-degree count as decimal degrees with exactly 6 decimals. */
export function microDegrees(v: number): string {
  const sign = v < 0 ? '-' : '';
  const a = Math.abs(v);
  return `${sign}${Math.floor(a / 1e6)}.${String(a % 1e6).padStart(6, '0')}`;
}

/**
 * Distinct points on a 1e-6 degree grid around a centre: 1,000 latitudes (±500 µ° ≈ ±56 m) x 300 longitudes
 * (±150 µ°, ≈ ±13 m at 39° N), all well inside a ~300 m demo zone square centred on the same place. Never repeats.
 */
export class PointGrid {
  static readonly CAPACITY = 300_000;
  private readonly lat0: number;
  private readonly lon0: number;
  private i = 0;

  constructor(centre: { lat: number; lon: number }) {
    this.lat0 = Math.round(centre.lat * 1e6);
    this.lon0 = Math.round(centre.lon * 1e6);
  }

  get used(): number {
    return this.i;
  }

  at(i: number): Point {
    const latMicro = this.lat0 + (i % 1000) - 500;
    const lonMicro = this.lon0 + Math.floor(i / 1000) - 150;
    return { lat: microDegrees(latMicro), lon: microDegrees(lonMicro) };
  }

  next(): Point {
    if (this.i >= PointGrid.CAPACITY) throw new Error('PointGrid exhausted');
    return this.at(this.i++);
  }
}

/**
 * Distinct points within about a metre of each of a few places, taken in turn: cold lookups that stay in the
 * place's polygons (and at its distances to nearby hazards, to the metre), 441 per place.
 */
export class PlaceJitter<P extends { lat: number; lon: number }> {
  private n = 0;

  constructor(private readonly places: readonly P[]) {}

  next(): { place: P; point: Point } {
    const place = this.places[this.n % this.places.length];
    const k = Math.floor(this.n / this.places.length);
    if (k >= 441) throw new Error('PlaceJitter exhausted');
    this.n++;
    const latMicro = Math.round(place.lat * 1e6) + (k % 21) - 10;
    const lonMicro = Math.round(place.lon * 1e6) + Math.floor(k / 21) - 10;
    return { place, point: { lat: microDegrees(latMicro), lon: microDegrees(lonMicro) } };
  }
}

export function pointPath(p: Point): string {
  return `/flood-zone?lat=${p.lat}&lon=${p.lon}`;
}
