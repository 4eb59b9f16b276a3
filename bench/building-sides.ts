/**
 * Informational, not part of `npm run bench`: how often an address point on the street chooses the building across
 * it, on real USA Structures footprints, by the nearest rule alone and by the rule of the address's census block
 * (src/parts/structure/building-choice.ts). Real blocks need the Census geocoder, which this script does not call:
 * the side of a street is told here by the buildings' tracts (CENSUSCODE, as recorded), tract lines running along
 * streets. For every pair of main buildings in different tracts whose footprints lie 10 to 60 m apart, an address
 * point is put on the line between them where it is twice as near the footprint of the other tract as its own, as the
 * geocoder puts a point on the street's centre line nearer the house across it; the address's block is a block of
 * its own building's tract, and each building of that tract is taken to stand in it. Prints, for each rule, how many
 * address points chose their own building, the one across the street, another or none.
 *
 *   node -r ts-node/register/transpile-only bench/building-sides.ts [recorded USA Structures answer, f=json]
 *
 * By default the 12 buildings kept in test/emulators/fixtures/structures/; the whole recorded answer (1,258 buildings
 * of east Midtown Atlanta, public repository VIP-SMUR/Sp24-CollectingData, FEMA/Data/FEMA_east_midtown_buildings_REST.json)
 * can be given instead.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import CheapRuler from 'cheap-ruler';
import { metresToRings } from '../src/common/arcgis-rings';
import { type BuildingSearchPoint, buildingsToPlace, chooseBuilding, interiorPoint, isOutbuilding } from '../src/parts/structure/building-choice';
import type { StructureAttributes, StructureFeature } from '../src/parts/structure/structure.types';

const SEARCH_M = 40;
const EARTH_RADIUS_M = 6378137;
const DEGREES = 180 / Math.PI;

const file = process.argv[2] ?? path.join(__dirname, '../test/emulators/fixtures/structures/usa-structures-query-atlanta-2024.json');
const recorded = JSON.parse(fs.readFileSync(file, 'utf8')) as { features: Array<{ attributes: Record<string, unknown>; geometry: { rings: number[][][] } }> };

/** Web Mercator (the layer's own reference, asked without outSR) to lon/lat. */
const lonLat = ([x, y]: number[]): number[] => [(x / EARTH_RADIUS_M) * DEGREES, (2 * Math.atan(Math.exp(y / EARTH_RADIUS_M)) - Math.PI / 2) * DEGREES];
const buildings: StructureFeature[] = recorded.features.map(({ attributes, geometry }) => ({
  attributes: attributes as unknown as StructureAttributes,
  rings: geometry.rings.map((ring) => ring.map(lonLat)),
}));
const mains = buildings.filter((building) => !isOutbuilding(building.attributes.OUTBLDG) && typeof building.attributes.CENSUSCODE === 'string');

type Outcome = 'own' | 'across' | 'other' | 'none';
const tally = (): Record<Outcome, number> => ({ own: 0, across: 0, other: 0, none: 0 });
const nearestRule = tally();
const blockRule = tally();

/** Buildings are told apart by BUILD_ID: the blind rule reads copies. */
function outcomeOf(choice: ReturnType<typeof chooseBuilding>, own: StructureFeature, across: StructureFeature): Outcome {
  if (!('building' in choice)) return 'none';
  const chosen = choice.building.attributes.BUILD_ID;
  if (chosen === own.attributes.BUILD_ID) return 'own';
  return chosen === across.attributes.BUILD_ID ? 'across' : 'other';
}

/** Every building without its tract: the sides cannot be told, and all stand in the address's block (the nearest rule alone). */
const blind = buildings.map((building) => ({ ...building, attributes: { ...building.attributes, CENSUSCODE: null } }));

/** The first point from `from` to `to`, by hundredths, lying twice as near `across` as `own`; null when none does. */
function pointNearer(ruler: CheapRuler, from: { lat: number; lon: number }, to: { lat: number; lon: number }, own: StructureFeature, across: StructureFeature) {
  for (let step = 1; step < 100; step++) {
    const point = { lat: from.lat + ((to.lat - from.lat) * step) / 100, lon: from.lon + ((to.lon - from.lon) * step) / 100 };
    const [toOwn, toAcross] = [metresToRings(ruler, point, own.rings), metresToRings(ruler, point, across.rings)];
    if (toOwn > 0 && toAcross > 0 && toAcross * 2 <= toOwn) return point;
  }
  return null;
}

let points = 0;
for (const own of mains) {
  const inside = interiorPoint(own.rings);
  const ruler = new CheapRuler(inside.lat, 'meters');
  for (const across of mains) {
    if (across.attributes.CENSUSCODE === own.attributes.CENSUSCODE) continue;
    const gap = metresToRings(ruler, inside, across.rings);
    if (gap < 10 || gap > 60) continue;
    // Walk from this building toward the other: the first point twice as near the other's footprint as its own (never
    // inside either) is on the street, nearer the house across it.
    const target = interiorPoint(across.rings);
    const point = pointNearer(ruler, inside, target, own, across);
    if (point === null) continue;
    if (metresToRings(ruler, point, own.rings) > SEARCH_M) continue;
    points += 1;
    const block = `${String(own.attributes.CENSUSCODE)}1000`;
    const at: BuildingSearchPoint = { point, locationSource: 'census_geocoder', matchedAddress: null, addressBlock: block };
    nearestRule[
      outcomeOf(
        chooseBuilding(blind, at, SEARCH_M, () => block),
        own,
        across,
      )
    ] += 1;
    const placed = new Set(buildingsToPlace(buildings, at, SEARCH_M));
    blockRule[
      outcomeOf(
        chooseBuilding(buildings, at, SEARCH_M, (building) => (placed.has(building) ? block : undefined)),
        own,
        across,
      )
    ] += 1;
  }
}

console.log(
  `${buildings.length} buildings (${mains.length} main ones with a tract) from ${path.basename(file)}; ${points} address points on a street between two tracts`,
);
console.log('rule                      own building   across the street   another   none or ambiguous');
for (const [name, counts] of [
  ['nearest (no sides)', nearestRule],
  ["address's block (tract)", blockRule],
] as const) {
  console.log(
    `${name.padEnd(26)}${String(counts.own).padStart(13)}${String(counts.across).padStart(20)}${String(counts.other).padStart(10)}${String(counts.none).padStart(20)}`,
  );
}
