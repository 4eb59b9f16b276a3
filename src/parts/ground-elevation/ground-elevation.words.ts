/** The ground elevation in the report's words. Pure: no I/O, no clock, no locale. */
import type { GroundElevationComparison } from './ground-elevation';

/** The ground against the base flood elevation, e.g. "7.3 ft below the static base flood elevation of 38 ft". */
export function groundAgainstBfe(comparison: GroundElevationComparison, uncertaintyFt: number | null): string {
  const bfe = `the ${comparison.bfe} BFE of ${comparison.bfeFt} ft`;
  const difference = Math.abs(comparison.differenceFt);
  const where = difference === 0 ? `at ${bfe}` : `${difference} ft ${comparison.differenceFt > 0 ? 'above' : 'below'} ${bfe}`;
  if (comparison.position !== 'within_uncertainty') return where;
  return uncertaintyFt === null ? `${where}, within the terrain model's uncertainty` : `${where}, within the terrain model's ${uncertaintyFt} ft uncertainty`;
}
