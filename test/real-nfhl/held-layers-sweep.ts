/**
 * The sweep behind held-layers.real.spec.ts, run as a process of its own (node -r ts-node/register/transpile-only
 * test/real-nfhl/held-layers-sweep.ts, a JSON report on stdout): inside Jest's sandbox every Math call of these
 * vertex loops goes through the sandbox's global object and the sweep takes ten times as long.
 *
 * At every point of a grid over Hudson County (100 m for FIRM panels and communities; 200 m for flood zones, whose
 * 127,547 vertices make the emulator's point query about a millisecond), and beside the layers' boundaries (their
 * vertices rounded to 6 decimals, centimetres from the edges, where the grid's points seldom fall), each layer is
 * asked twice: by the NFHL emulator's point query, and by `polygonsAt` over the grid square holding the point, held
 * from the emulator's envelope query of `tileAt`'s square as the service holds it.
 */
import { isDeepStrictEqual } from 'node:util';
import { type GeoPoint, roundPoint } from '../../src/common/geo-point';
import { type HeldPolygons, polygonsAt, tileAt } from '../../src/flood-hazard/held-layer';
import { HELD_GRID } from '../../src/flood-hazard/nfhl.client';
import { buildNfhlService } from '../emulators/arcgis-emulator';
import type { QueryableLayer } from '../emulators/arcgis-query';
import {
  EMULATOR_LAYER,
  type HeldGrid,
  type ReusableLayer,
  SERVICE_GRID,
  countyExtent,
  emulatorAnswer,
  gridOver,
  heldSquare,
  pointQueryParams,
} from './held-squares';
import { hudsonCounty, nfhlMapOf } from './real-nfhl-layers';

export const STEP_M: Readonly<Record<ReusableLayer, number>> = { zones: 200, panels: 100, jurisdictions: 100 };

export interface Check {
  name: string;
  layer: ReusableLayer;
  grid: HeldGrid;
}

export const CHECKS: readonly Check[] = [
  { name: 'Flood Hazard Zones, 0.05° squares', layer: 'zones', grid: { sizeDeg: 0.05, marginDeg: SERVICE_GRID.marginDeg } },
  { name: `Flood Hazard Zones, ${HELD_GRID.zones.sizeDeg}° squares (the service's)`, layer: 'zones', grid: HELD_GRID.zones },
  { name: `FIRM Panels, ${SERVICE_GRID.sizeDeg}° squares`, layer: 'panels', grid: SERVICE_GRID },
  { name: `Political Jurisdictions, ${SERVICE_GRID.sizeDeg}° squares`, layer: 'jurisdictions', grid: SERVICE_GRID },
];

/** The median and the largest of some figures. */
export interface Spread {
  median: number;
  max: number;
}

/** Points answered both ways. */
export interface Comparison {
  points: number;
  /** Points the held square told. */
  decided: number;
  /** Points it could not tell (the service asks FEMA at them), and the first hundred of them. */
  undecided: number;
  undecidedPoints: GeoPoint[];
  /** Points it told otherwise than the point query, and the first hundred of them with both answers. */
  differing: number;
  differences: Array<{ point: GeoPoint; pointQuery: unknown[]; held: unknown[] }>;
}

export interface CheckOutcome extends Check {
  /** The points of the layer's grid. */
  onGrid: Comparison;
  /** Points beside the layer's boundaries: its vertices (every VERTEX_STRIDE-th), rounded as the service rounds. */
  besideBoundaries: Comparison;
  /** Every distinct answer told at a point of the grid, as JSON. */
  answers: string[];
  /** The squares the grid's points fell in, and what each weighs as held. */
  squares: { count: number; features: Spread; vertices: Spread; kib: Spread };
}

export interface SweepReport {
  /** The county's extent (its communities' bounds): west, south, east, north. */
  county: [number, number, number, number];
  /** How many points of each layer's grid are distinct. */
  distinctPoints: Record<ReusableLayer, number>;
  checks: CheckOutcome[];
}

/** Every vertex of the panels and communities is probed; every 25th of the zones' 127,547. */
export const VERTEX_STRIDE: Readonly<Record<ReusableLayer, number>> = { zones: 25, panels: 1, jurisdictions: 1 };
const REPORTED = 100;

const spreadOf = (values: number[]): Spread => ({ median: [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)], max: Math.max(...values) });
const newComparison = (): Comparison => ({ points: 0, decided: 0, undecided: 0, undecidedPoints: [], differing: 0, differences: [] });

export function sweepHudson(): SweepReport {
  const hudson = hudsonCounty();
  const nfhl = buildNfhlService({ map: nfhlMapOf(hudson) });
  const servedLayer = (layer: ReusableLayer): QueryableLayer => {
    const served = nfhl.service.layers.find(({ id }) => id === nfhl.layerIds[EMULATOR_LAYER[layer]]);
    if (!served) throw new Error(`the NFHL emulator serves no ${layer}`);
    return served.data;
  };
  const county = countyExtent(hudson);
  const grids = { zones: gridOver(county, STEP_M.zones), panels: gridOver(county, STEP_M.panels), jurisdictions: gridOver(county, STEP_M.jurisdictions) };
  const vertices = (layer: ReusableLayer) =>
    hudson[layer].flatMap(({ rings }) => rings.flat().filter((_, i) => i % VERTEX_STRIDE[layer] === 0)).map(([lon, lat]) => roundPoint({ lat, lon }));

  const tallies = CHECKS.map((check) => ({
    check,
    onGrid: newComparison(),
    besideBoundaries: newComparison(),
    answers: new Set<string>(),
    squares: new Map<string, ReturnType<typeof heldSquare>>(),
    gridSquares: new Set<string>(),
  }));
  for (const layer of Object.keys(grids) as ReusableLayer[]) {
    const served = servedLayer(layer);
    const ofLayer = tallies.filter(({ check }) => check.layer === layer);
    for (const [kind, points] of [
      ['onGrid', grids[layer]],
      ['besideBoundaries', vertices(layer)],
    ] as const) {
      for (const point of points) {
        const pointQuery = emulatorAnswer(served, pointQueryParams(layer, point)).features.map(({ attributes }) => attributes);
        for (const tally of ofLayer) {
          const tile = tileAt(point.lon, point.lat, tally.check.grid.sizeDeg, tally.check.grid.marginDeg);
          let square = tally.squares.get(tile.key);
          if (!square) tally.squares.set(tile.key, (square = heldSquare(layer, served, tile.envelope)));
          if (kind === 'onGrid') tally.gridSquares.add(tile.key);
          const comparison = tally[kind];
          comparison.points++;
          const held = polygonsAt(square.held, point.lon, point.lat);
          if (held === undefined) {
            if (comparison.undecided++ < REPORTED) comparison.undecidedPoints.push(point);
            continue;
          }
          comparison.decided++;
          if (kind === 'onGrid') tally.answers.add(JSON.stringify(held));
          if (isDeepStrictEqual(held, pointQuery)) continue;
          if (comparison.differing++ < REPORTED) comparison.differences.push({ point, pointQuery, held });
        }
      }
    }
  }

  return {
    county,
    distinctPoints: {
      zones: new Set(grids.zones.map(({ lat, lon }) => `${lat},${lon}`)).size,
      panels: new Set(grids.panels.map(({ lat, lon }) => `${lat},${lon}`)).size,
      jurisdictions: new Set(grids.jurisdictions.map(({ lat, lon }) => `${lat},${lon}`)).size,
    },
    checks: tallies.map(({ check, onGrid, besideBoundaries, answers, squares, gridSquares }) => {
      const held = [...gridSquares].map((key) => squares.get(key)!);
      const verticesOf = (square: HeldPolygons<unknown>) =>
        square.features.reduce((sum, { rings }) => sum + rings.reduce((count, ring) => count + ring.length / 2, 0), 0);
      return {
        ...check,
        onGrid,
        besideBoundaries,
        answers: [...answers],
        squares: {
          count: held.length,
          features: spreadOf(held.map((square) => square.held.features.length)),
          vertices: spreadOf(held.map((square) => verticesOf(square.held))),
          kib: spreadOf(held.map((square) => Math.round(square.bytes / 1024))),
        },
      };
    }),
  };
}

if (require.main === module) process.stdout.write(JSON.stringify(sweepHudson()));
