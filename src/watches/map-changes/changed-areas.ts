/**
 * The areas FEMA changed, as a sweep reads them from the map services' answers: their extents, their effective
 * dates, and for the coming maps (which FEMA withdraws without a trace) what differs from the last sweep's copy.
 * Pure: answers in, changes out.
 */
import { formatNfhlDate } from '../../flood-hazard/nfhl-values';
import type { ChangedArea, ChangedAreaKind, Envelope, StatusBookCopy } from './map-change-scout.port';

/** The coming maps, whose availability a sweep compares with its last copy. */
export type ComingMapKind = Extract<ChangedAreaKind, 'preliminary' | 'pending'>;

/** One feature of an answer: its id, its rings or paths (lon, lat), its date (epoch ms, as ArcGIS sends dates). */
export interface DatedFeature {
  id: string;
  positions: readonly (readonly (readonly number[])[])[];
  date: unknown;
}

/**
 * The clause of the features whose `field` falls on or after the UTC day of `since`, in the standardized SQL
 * FEMA's ArcGIS services accept (`timestamp 'yyyy-mm-dd hh:mm:ss'`; a database's own date syntax is refused). NFHL
 * writes 9999-09-09 for "no date", which is after every day: such features are left out, or every sweep would
 * find them again.
 */
export function effectiveSince(field: string, since: Date): string {
  return `${field} >= timestamp '${utcDay(since)} 00:00:00' AND ${field} < timestamp '9999-01-01 00:00:00'`;
}

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The extent of the positions, widened by `margin` degrees on every side: an answer generalised by ArcGIS
 * (`maxAllowableOffset`) and rounded (`geometryPrecision`) may lie that far inside the real outline. Null without
 * any position.
 */
export function envelopeOf(positions: DatedFeature['positions'], margin: number): Envelope | null {
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const line of positions) {
    for (const [lon, lat] of line) {
      west = Math.min(west, lon);
      east = Math.max(east, lon);
      south = Math.min(south, lat);
      north = Math.max(north, lat);
    }
  }
  if (west > east) return null;
  return [Math.max(-180, west - margin), Math.max(-90, south - margin), Math.min(180, east + margin), Math.min(90, north + margin)];
}

/** The changed areas of a dated query's answer (each feature's extent, its date as its effective date); a feature without a position is none. */
export function datedAreas(kind: ChangedAreaKind, features: readonly DatedFeature[], margin: number): ChangedArea[] {
  return features.flatMap((feature) => {
    const envelope = envelopeOf(feature.positions, margin);
    return envelope === null ? [] : [{ kind, id: feature.id, envelope, effectiveDate: formatNfhlDate(dateMs(feature.date)) }];
  });
}

/** A date field's value as ArcGIS sends it (epoch ms); any other value (text, null) is no date. */
function dateMs(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}

/** The key of a coming map's study in a sweep's copy. */
export function comingMapKey(kind: ComingMapKind, studyId: string): string {
  return `${kind}:${studyId}`;
}

interface Study {
  envelope: Envelope;
  issued: string | null;
}

/**
 * What changed in a coming map's availability: a study issued on or after `since`'s day, one the last copy lacked
 * or had with another issue date (its issue date as the effective date), and one the last copy had that is gone,
 * withdrawn (its last extent, no date: FEMA publishes none for a withdrawal). The first time (no copy) only the
 * dates tell. Also the copy of the studies now, for the next sweep. A study of several polygons is their extent,
 * issued at the latest of their dates.
 */
export function comingMapChanges(
  kind: ComingMapKind,
  features: readonly DatedFeature[],
  previous: StatusBookCopy | null,
  since: Date,
  margin: number,
): { areas: ChangedArea[]; copy: StatusBookCopy } {
  const studies = new Map<string, Study>();
  for (const area of datedAreas(kind, features, margin)) {
    const known = studies.get(area.id);
    studies.set(
      area.id,
      known === undefined
        ? { envelope: area.envelope, issued: area.effectiveDate }
        : { envelope: union(known.envelope, area.envelope), issued: later(known.issued, area.effectiveDate) },
    );
  }
  const sinceDay = utcDay(since);
  const areas: ChangedArea[] = [];
  const copy: StatusBookCopy = {};
  for (const [id, study] of studies) {
    const key = comingMapKey(kind, id);
    copy[key] = { issued: study.issued, west: study.envelope[0], south: study.envelope[1], east: study.envelope[2], north: study.envelope[3] };
    const before = previous?.[key];
    const news = previous !== null && (before === undefined || before.issued !== study.issued);
    if (news || (study.issued !== null && study.issued >= sinceDay)) areas.push({ kind, id, envelope: study.envelope, effectiveDate: study.issued });
  }
  for (const [key, before] of Object.entries(previous ?? {})) {
    const id = key.slice(`${kind}:`.length);
    if (!key.startsWith(`${kind}:`) || studies.has(id)) continue;
    const envelope = copiedEnvelope(before);
    if (envelope !== null) areas.push({ kind, id, envelope, effectiveDate: null });
  }
  return { areas, copy };
}

function union(a: Envelope, b: Envelope): Envelope {
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

function later(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  return b === null || a >= b ? a : b;
}

/** A study's extent as a copy keeps it; null when the copy does not hold one (it was not written by this rule). */
function copiedEnvelope(fields: Record<string, string | number | null>): Envelope | null {
  const { west, south, east, north } = fields;
  const sides = [west, south, east, north];
  return sides.every((side): side is number => typeof side === 'number') ? [sides[0], sides[1], sides[2], sides[3]] : null;
}
