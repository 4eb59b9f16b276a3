/**
 * An independent geodesic reference for the end-to-end checks: Vincenty's formulae on the WGS84 ellipsoid
 * (direct and inverse), and the distance from a point to polylines and polygons measured with them. The
 * service measures with cheap-ruler; these functions share nothing with it, so an answer that agrees with
 * them to the metre agrees with the geodesic truth, not merely with another approximation.
 */

/** [lon, lat] degrees, as ArcGIS and GeoJSON order them. */
export type LonLat = [number, number];

const A = 6_378_137;
const F = 1 / 298.257223563;
const B = A * (1 - F);
const RAD = Math.PI / 180;

/** Geodesic distance in metres between two points (Vincenty inverse; converges for every non-antipodal pair). */
export function geodesicMetres([lon1, lat1]: LonLat, [lon2, lat2]: LonLat): number {
  if (lon1 === lon2 && lat1 === lat2) return 0;
  const L = wrapDegrees(lon2 - lon1) * RAD;
  const U1 = Math.atan((1 - F) * Math.tan(lat1 * RAD));
  const U2 = Math.atan((1 - F) * Math.tan(lat2 * RAD));
  const [sinU1, cosU1, sinU2, cosU2] = [Math.sin(U1), Math.cos(U1), Math.sin(U2), Math.cos(U2)];
  let lambda = L;
  for (let i = 0; i < 200; i++) {
    const sinLambda = Math.sin(lambda);
    const cosLambda = Math.cos(lambda);
    const sinSigma = Math.hypot(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda);
    if (sinSigma === 0) return 0;
    const cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda;
    const sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinLambda) / sinSigma;
    const cos2Alpha = 1 - sinAlpha * sinAlpha;
    const cos2SigmaM = cos2Alpha === 0 ? 0 : cosSigma - (2 * sinU1 * sinU2) / cos2Alpha;
    const C = (F / 16) * cos2Alpha * (4 + F * (4 - 3 * cos2Alpha));
    const previous = lambda;
    lambda = L + (1 - C) * F * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM ** 2)));
    if (Math.abs(lambda - previous) < 1e-12) {
      const u2 = (cos2Alpha * (A * A - B * B)) / (B * B);
      const bigA = 1 + (u2 / 16384) * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
      const bigB = (u2 / 1024) * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
      const deltaSigma =
        bigB *
        sinSigma *
        (cos2SigmaM + (bigB / 4) * (cosSigma * (-1 + 2 * cos2SigmaM ** 2) - (bigB / 6) * cos2SigmaM * (-3 + 4 * sinSigma ** 2) * (-3 + 4 * cos2SigmaM ** 2)));
      return B * bigA * (sigma - deltaSigma);
    }
  }
  throw new Error('Vincenty inverse did not converge');
}

/** The point `metres` from `from` along the geodesic leaving it on `bearingDeg` (Vincenty direct). */
export function geodesicDestination([lon1, lat1]: LonLat, bearingDeg: number, metres: number): LonLat {
  const alpha1 = bearingDeg * RAD;
  const tanU1 = (1 - F) * Math.tan(lat1 * RAD);
  const cosU1 = 1 / Math.sqrt(1 + tanU1 * tanU1);
  const sinU1 = tanU1 * cosU1;
  const sigma1 = Math.atan2(tanU1, Math.cos(alpha1));
  const sinAlpha = cosU1 * Math.sin(alpha1);
  const cos2Alpha = 1 - sinAlpha * sinAlpha;
  const u2 = (cos2Alpha * (A * A - B * B)) / (B * B);
  const bigA = 1 + (u2 / 16384) * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
  const bigB = (u2 / 1024) * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
  let sigma = metres / (B * bigA);
  let cos2SigmaM = 0;
  for (let i = 0; i < 200; i++) {
    cos2SigmaM = Math.cos(2 * sigma1 + sigma);
    const sinSigma = Math.sin(sigma);
    const deltaSigma =
      bigB *
      sinSigma *
      (cos2SigmaM +
        (bigB / 4) * (Math.cos(sigma) * (-1 + 2 * cos2SigmaM ** 2) - (bigB / 6) * cos2SigmaM * (-3 + 4 * sinSigma ** 2) * (-3 + 4 * cos2SigmaM ** 2)));
    const next = metres / (B * bigA) + deltaSigma;
    if (Math.abs(next - sigma) < 1e-14) {
      sigma = next;
      break;
    }
    sigma = next;
  }
  const sinSigma = Math.sin(sigma);
  const cosSigma = Math.cos(sigma);
  const x = sinU1 * sinSigma - cosU1 * cosSigma * Math.cos(alpha1);
  const lat2 = Math.atan2(sinU1 * cosSigma + cosU1 * sinSigma * Math.cos(alpha1), (1 - F) * Math.hypot(sinAlpha, x));
  const lambda = Math.atan2(sinSigma * Math.sin(alpha1), cosU1 * cosSigma - sinU1 * sinSigma * Math.cos(alpha1));
  const C = (F / 16) * cos2Alpha * (4 + F * (4 - 3 * cos2Alpha));
  const L = lambda - (1 - C) * F * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM ** 2)));
  return [wrapDegrees(lon1 + L / RAD), lat2 / RAD];
}

/** Longitude difference folded into [-180, 180). */
function wrapDegrees(degrees: number): number {
  return ((((degrees + 180) % 360) + 360) % 360) - 180;
}

/**
 * Metres from `p` to the segment a-b, the segment drawn straight in lon/lat (as ArcGIS stores edges in a
 * geographic reference): the geodesic distance minimised along it by golden-section search.
 */
export function metresToSegment(p: LonLat, a: LonLat, b: LonLat): number {
  const at = (t: number): number => geodesicMetres(p, [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]);
  const ratio = (Math.sqrt(5) - 1) / 2;
  let lo = 0;
  let hi = 1;
  let x1 = hi - ratio * (hi - lo);
  let x2 = lo + ratio * (hi - lo);
  let f1 = at(x1);
  let f2 = at(x2);
  for (let i = 0; i < 60; i++) {
    if (f1 < f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - ratio * (hi - lo);
      f1 = at(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + ratio * (hi - lo);
      f2 = at(x2);
    }
  }
  return Math.min(f1, f2, at(0), at(1));
}

/** Metres from `p` to the nearest point of any path. */
export function metresToPaths(p: LonLat, paths: LonLat[][]): number {
  let best = Infinity;
  for (const path of paths) {
    for (let i = 1; i < path.length; i++) best = Math.min(best, metresToSegment(p, path[i - 1], path[i]));
  }
  return best;
}

/** Even-odd containment over every ring (outer rings and holes alike, as ArcGIS lists them). */
function insideRings([x, y]: LonLat, rings: LonLat[][]): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** Geodesic metres from `p` to the polygon (as include=nearby measures them), 0 inside, otherwise to its nearest edge (outer or hole). */
export function metresToPolygon(p: LonLat, rings: LonLat[][]): number {
  return insideRings(p, rings) ? 0 : metresToPaths(p, rings);
}
