/**
 * The polygon work that may be long (checking and clipping polygons of many vertices), as tasks a worker thread can
 * run: each named, its input and answer plain data (what crosses between threads is copied, classes are not). Pure
 * functions: no I/O.
 */
import { type FootprintCheck, GIVEN_FOOTPRINT_LIMITS, checkFootprint } from './footprint-check';
import { polygonsOfFootprint } from './footprint-geometry';
import { BrokenPolygonError, footprintAreasCovered, footprintFloodZones, footprintOfRings } from './footprint-zones';
import { polygonProblem } from './polygon-rules';
import type { Footprint, FootprintFloodZones, FootprintLayers } from './structure.types';

/** A measure refused because a polygon it was given breaks the polygon rules: why. */
export interface BrokenPolygon {
  broken: string;
}

/** What a measure of upstream polygons answers: its value, or the rule a polygon broke (never measured). */
export type Measured<T> = { value: T } | BrokenPolygon;

/** Each task: what it is given, and what it answers. */
export interface PolygonTasks {
  /** A caller's footprint as sent (parsed JSON), checked rule by rule. */
  givenFootprint: { input: unknown; output: FootprintCheck };
  /** An upstream's footprint from its ArcGIS rings, against the rules a caller's meets. */
  upstreamFootprint: { input: number[][][]; output: Measured<Footprint> };
  /** The flood zones and panels over a footprint. */
  floodZones: { input: { footprint: Footprint; layers: FootprintLayers }; output: Measured<FootprintFloodZones> };
  /** Square metres of the footprint each polygon covers. */
  areasCovered: { input: { footprint: Footprint; polygons: Array<{ rings: number[][][] }> }; output: Measured<number[]> };
}

export type PolygonTaskKind = keyof PolygonTasks;

/** One task as it is handed to a worker. */
export interface PolygonTask<K extends PolygonTaskKind = PolygonTaskKind> {
  kind: K;
  input: PolygonTasks[K]['input'];
}

/** A measure whose upstream polygons may break the rules, the break as data rather than a thrown class. */
function measured<T>(measure: () => T): Measured<T> {
  try {
    return { value: measure() };
  } catch (error) {
    if (error instanceof BrokenPolygonError) return { broken: error.message };
    throw error;
  }
}

const TASKS: { [K in PolygonTaskKind]: (input: PolygonTasks[K]['input']) => PolygonTasks[K]['output'] } = {
  givenFootprint: (value) => checkFootprint(value),
  upstreamFootprint: (rings) => {
    const footprint = footprintOfRings(rings);
    const broken = polygonProblem(polygonsOfFootprint(footprint), GIVEN_FOOTPRINT_LIMITS);
    return broken ? { broken: broken.rule } : { value: footprint };
  },
  floodZones: ({ footprint, layers }) => measured(() => footprintFloodZones(footprint, layers)),
  areasCovered: ({ footprint, polygons }) => measured(() => footprintAreasCovered(footprint, polygons)),
};

/** Runs one task, in whichever thread it was handed to. */
export function runPolygonTask<K extends PolygonTaskKind>(task: PolygonTask<K>): PolygonTasks[K]['output'] {
  return (TASKS[task.kind] as (input: PolygonTasks[K]['input']) => PolygonTasks[K]['output'])(task.input);
}
