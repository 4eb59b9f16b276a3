/**
 * Informational, not part of `npm run bench`: the CPU time of the building's zone rule (footprintFloodZones) over
 * the largest real FEMA polygons, in this process. For each of the three largest zone polygons of Hudson County, NJ
 * and of Cambridge, MA, 20 m by 12 m footprints are centred on vertices spread along its outline (so each lies across
 * its edge), and every zone and FIRM panel polygon intersecting the footprint's envelope is passed, as NFHL's query
 * by envelope returns them. Prints the CPU milliseconds per footprint (p50 / max) for each polygon and in all.
 *
 *   node -r ts-node/register/transpile-only bench/footprint-clipping.ts
 *
 *   REAL_NFHL_DIR=dir              the real NFHL extracts (hudson-nj-34017C/, cambridge-ma-25017C/)
 *   FOOTPRINTS_PER_POLYGON=n       footprints along each polygon's outline (default 100)
 */
import { footprintFloodZones, footprintOfRings } from '../src/parts/structure/footprint-zones';
import type { FootprintLayers, LonLat } from '../src/parts/structure/structure.types';
import { type RealLayers, cambridge, footprintLayersAround, footprintRing, hudsonCounty, rectangleCorners, ringBox } from '../test/real-nfhl/real-nfhl-layers';
import { percentile, round } from './lib';

const PER_POLYGON = Number(process.env.FOOTPRINTS_PER_POLYGON ?? 100);
const LARGEST = 3;
const WARM_UP = 20;

interface Case {
  ring: number[][];
  layers: FootprintLayers;
}

const vertexCount = (rings: number[][][]): number => rings.reduce((sum, ring) => sum + ring.length, 0);

/** Footprints across the outline of each of the largest zone polygons, with the polygons around each. */
function casesAlongLargest(layers: RealLayers): Array<{ polygon: string; vertices: number; cases: Case[] }> {
  return [...layers.zones]
    .sort((a, b) => vertexCount(b.rings) - vertexCount(a.rings))
    .slice(0, LARGEST)
    .map(({ attributes, rings }) => {
      const outline = rings.reduce((longest, ring) => (ring.length > longest.length ? ring : longest));
      const cases = Array.from({ length: PER_POLYGON }, (_, i) => {
        const ring = footprintRing(outline[Math.floor((i * (outline.length - 1)) / PER_POLYGON)] as LonLat, rectangleCorners(20, 12));
        return { ring, layers: footprintLayersAround(layers, ringBox(ring)) };
      });
      return { polygon: `${layers.name} ${attributes.FLD_ZONE ?? ''} ${attributes.FLD_AR_ID ?? ''}`, vertices: vertexCount(rings), cases };
    });
}

/** CPU milliseconds (user + system) footprintFloodZones takes for one case. */
function cpuMs({ ring, layers }: Case): number {
  const footprint = footprintOfRings([ring]);
  const before = process.cpuUsage();
  footprintFloodZones(footprint, layers);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

function main(): void {
  const polygons = [...casesAlongLargest(hudsonCounty()), ...casesAlongLargest(cambridge())];
  for (const { cases } of polygons) cases.slice(0, WARM_UP).forEach(cpuMs);

  const rows: string[][] = [['polygon', 'vertices', 'footprints', 'polygons passed (median)', 'vertices passed (median)', 'CPU ms p50', 'CPU ms max']];
  const all: number[] = [];
  for (const { polygon, vertices, cases } of polygons) {
    const times = cases.map(cpuMs);
    all.push(...times);
    const passed = cases.map(({ layers }) => layers.zones.length + layers.panels.length);
    const passedVertices = cases.map(({ layers }) => [...layers.zones, ...layers.panels].reduce((sum, { rings }) => sum + vertexCount(rings), 0));
    rows.push([
      polygon,
      String(vertices),
      String(cases.length),
      String(percentile(passed, 50)),
      String(percentile(passedVertices, 50)),
      String(round(percentile(times, 50), 2)),
      String(round(Math.max(...times), 2)),
    ]);
  }
  rows.push(['all', '', String(all.length), '', '', String(round(percentile(all, 50), 2)), String(round(Math.max(...all), 2))]);
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column])).join(' | '));
}

main();
