/**
 * Polygons shaped to cost a polygon check or clip the most, around a centre: what the hostile-geometry suite and the
 * hostile-polygon bench send and serve.
 */
import CheapRuler from 'cheap-ruler';

export type Position = [number, number];

export interface HostileShapes {
  /** A point `eastM` and `northM` metres from the centre. */
  at(eastM: number, northM: number): Position;
  /** A star of `vertices` points (odd) `radiusM` round the centre, each edge crossing most others. */
  star(vertices: number, radiusM: number): Position[];
  /**
   * A meander of `teeth` teeth over a square `sizeM` across the centre: up and down (`across` false) or left and
   * right. Each is a simple ring; one of each together cross teeth² times, and only a sweep of both rings finds it.
   */
  meander(teeth: number, sizeM: number, across: boolean): Position[];
}

export function hostileShapesAround(centre: { lat: number; lon: number }): HostileShapes {
  const ruler = new CheapRuler(centre.lat, 'meters');
  const at = (eastM: number, northM: number) => ruler.offset([centre.lon, centre.lat], eastM, northM) as Position;
  const star = (vertices: number, radiusM: number): Position[] => {
    const step = (vertices - 1) / 2;
    const ring = Array.from<unknown, Position>({ length: vertices }, (_, i) => {
      const angle = (2 * Math.PI * ((i * step) % vertices)) / vertices;
      return at(radiusM * Math.cos(angle), radiusM * Math.sin(angle));
    });
    return [...ring, ring[0]];
  };
  const meander = (teeth: number, sizeM: number, across: boolean): Position[] => {
    const half = sizeM / 2;
    const step = sizeM / teeth;
    const place = (along: number, side: number) => (across ? at(side, along) : at(along, side));
    const ring: Position[] = [];
    for (let i = 0; i < teeth; i++) {
      const [a, b] = [-half + i * step, -half + i * step + step / 2];
      ring.push(place(a, -half), place(a, half), place(b, half), place(b, -half));
    }
    ring.push(place(half, -half - 1), place(-half, -half - 1), ring[0]);
    return ring;
  };
  return { at, star, meander };
}
