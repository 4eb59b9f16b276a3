/**
 * The emulators publish map changes as FEMA (and the USFWS) do, each with the date FEMA would give it, so a watch's
 * sweep has something to find: `POST /_emulator/publish` on the emulator that holds the data (emulator-core.ts), or
 * `publishOnMap` / `publishOnStatusBook` in a test. Every change is made where the real services show it:
 *
 *   NFHL        {"change":"lomr", "caseNo", "effective":"YYYY-MM-DD", "area":[w,s,e,n], "zone":{FLD_ZONE,...}}
 *                 a LOMR polygon (layer "LOMRs", EFF_DATE) over the area, and the flood zones under it replaced by
 *                 the zone given (layer "Flood Hazard Zones", which has no date)
 *               {"change":"panel_revised", "panel":"<FIRM_PAN>", "effective", "suffix"?, "area"?, "zone"?}
 *                 the panel's EFF_DATE moves and its suffix letter advances (FIRM_PAN with it); the zones in the
 *                 area, when given, are replaced as a LOMR's are
 *   preliminary {"change":"coming_map_issued", "dfirmId", "issued":"YYYY-MM-DD", "area", "zone"}
 *   or pending    an availability polygon (PRELM_ISSUE_DATE) over the area, with the zone given under it
 *               {"change":"coming_map_withdrawn", "dfirmId"}   the study's availability and zones removed
 *   CBRS        {"change":"cbrs_unit_redrawn", "unit", "effective", "area"}
 *                 the unit's polygons (CBRS Units, CBRS Prohibitions) redrawn as the area, FI_Date the effective date
 *   OpenFEMA    {"change":"community_suspended" | "community_reinstated", "communityId", "effective"}
 *                 the community's Status Book row: participatingInNFIP, and lastRefresh the effective date
 *
 * A change the emulator's data cannot take (an unknown panel, unit, study or community; an area that is not
 * west,south,east,north) is refused with the reason, and nothing is changed.
 */
import { difference } from 'polyclip-ts';
import type { CommunityStatusBookRow } from './community-status-book';
import { ZONE_DEFAULTS } from './demo-map';
import { PublishRefused, type Published } from './emulator-core';
import { Position, Ring, areaAndLength, bboxOfShape, pointInRingsEvenOdd, rectRing } from './geometry';
import type { ArcGisFeature } from './map-data';

/** The layers of a MapServer emulator, read and replaced by name. */
export interface PublishableMap {
  /** The layer whose published name passes `matches`; refused when there is none. */
  layer(matches: (name: string) => boolean, label: string): PublishableLayer;
}

export interface PublishableLayer {
  readonly features: readonly ArcGisFeature[];
  /** Its attribute names (every field but the geometry), in the published order. */
  readonly fieldNames: readonly string[];
  replace(features: ArcGisFeature[]): void;
}

const named = (name: string) => (published: string) => published === name;

/** Publishes a change on a MapServer emulator's layers (NFHL, preliminary, pending, CBRS). */
export function publishOnMap(map: PublishableMap, input: unknown): Published {
  const change = record(input, 'the change');
  switch (change.change) {
    case 'lomr':
      return publishLomr(map, change);
    case 'panel_revised':
      return revisePanel(map, change);
    case 'coming_map_issued':
      return issueComingMap(map, change);
    case 'coming_map_withdrawn':
      return withdrawComingMap(map, change);
    case 'cbrs_unit_redrawn':
      return redrawCbrsUnit(map, change);
    default:
      throw new PublishRefused(
        `"change" must be lomr, panel_revised, coming_map_issued, coming_map_withdrawn or cbrs_unit_redrawn here, got ${JSON.stringify(change.change)}`,
      );
  }
}

/** The Status Book's rows after a community is suspended or reinstated. */
export function publishOnStatusBook(rows: readonly CommunityStatusBookRow[], input: unknown): { rows: CommunityStatusBookRow[]; published: Published } {
  const change = record(input, 'the change');
  if (change.change !== 'community_suspended' && change.change !== 'community_reinstated') {
    throw new PublishRefused(`"change" must be community_suspended or community_reinstated here, got ${JSON.stringify(change.change)}`);
  }
  const communityId = text(change, 'communityId');
  const effective = day(change, 'effective');
  const isIt = (row: CommunityStatusBookRow) =>
    String(row.communityIdNumber ?? '')
      .trim()
      .slice(0, 6) === communityId;
  if (!/^\d{6}$/.test(communityId) || !rows.some(isIt)) throw new PublishRefused(`the Status Book has no community ${communityId}`);
  const participating = change.change === 'community_reinstated';
  const changed = rows.map((row) => (isIt(row) ? { ...row, participatingInNFIP: participating, lastRefresh: `${effective}T00:00:00.000Z` } : row));
  return { rows: changed, published: { change: change.change, communityId, effectiveDate: effective } };
}

function publishLomr(map: PublishableMap, change: Record<string, unknown>): Published {
  const caseNo = text(change, 'caseNo');
  const effective = day(change, 'effective');
  const area = envelope(change.area);
  const zone = zoneOf(change);
  const lomrs = map.layer(named('LOMRs'), 'LOMRs');
  const zones = map.layer(named('Flood Hazard Zones'), 'Flood Hazard Zones');
  const dfirm = replaceZones(zones, area, zone);
  lomrs.replace([
    ...lomrs.features,
    featureOf(lomrs, [rectRing(...area)], {
      DFIRM_ID: dfirm,
      VERSION_ID: '1.1.1.0',
      LOMR_ID: `${dfirm}_${caseNo}`,
      EFF_DATE: utcMs(effective),
      CASE_NO: caseNo,
      SCALE: '6000',
      STATUS: 'Effective',
      SOURCE_CIT: `${dfirm}_LOMR1`,
    }),
  ]);
  return { change: 'lomr', caseNo, effectiveDate: effective, dfirmId: dfirm };
}

function revisePanel(map: PublishableMap, change: Record<string, unknown>): Published {
  const firmPan = text(change, 'panel');
  const effective = day(change, 'effective');
  const panels = map.layer(named('FIRM Panels'), 'FIRM Panels');
  const panel = panels.features.find((feature) => feature.attributes.FIRM_PAN === firmPan);
  if (!panel) throw new PublishRefused(`no FIRM panel ${firmPan}`);
  const suffix = change.suffix === undefined ? nextSuffix(String(panel.attributes.SUFFIX ?? '')) : text(change, 'suffix');
  if (!/^[A-Z]$/.test(suffix)) throw new PublishRefused(`"suffix" must be one capital letter, got ${JSON.stringify(suffix)}`);
  const revisedPan = `${firmPan.slice(0, -1)}${suffix}`;
  if (change.area !== undefined || change.zone !== undefined)
    replaceZones(map.layer(named('Flood Hazard Zones'), 'Flood Hazard Zones'), envelope(change.area), zoneOf(change));
  const revised = { ...panel, attributes: { ...panel.attributes, SUFFIX: suffix, FIRM_PAN: revisedPan, EFF_DATE: utcMs(effective) } };
  panels.replace(panels.features.map((feature) => (feature === panel ? revised : feature)));
  return { change: 'panel_revised', panel: revisedPan, was: firmPan, effectiveDate: effective };
}

const availabilityLayer = (map: PublishableMap) => map.layer((name) => name.toLowerCase().includes('availability'), 'a data availability layer');
const comingZonesLayer = (map: PublishableMap) => map.layer((name) => name.toLowerCase().endsWith('flood hazard zones'), 'a flood hazard zones layer');

function issueComingMap(map: PublishableMap, change: Record<string, unknown>): Published {
  const dfirm = text(change, 'dfirmId');
  const issued = day(change, 'issued');
  const area = envelope(change.area);
  const zone = zoneOf(change);
  const availability = availabilityLayer(map);
  replaceZones(comingZonesLayer(map), area, { DFIRM_ID: dfirm, ...zone });
  const studies = availability.features.filter((feature) => feature.attributes.DFIRM_ID === dfirm).length;
  availability.replace([
    ...availability.features,
    featureOf(availability, [rectRing(...area)], {
      DFIRM_ID: dfirm,
      PRELM_CODE: `${dfirm}_P${studies + 1}`,
      PRELM_ISSUE_DATE: utcMs(issued),
      CREATE_DATE: utcMs(issued),
    }),
  ]);
  return { change: 'coming_map_issued', dfirmId: dfirm, effectiveDate: issued };
}

function withdrawComingMap(map: PublishableMap, change: Record<string, unknown>): Published {
  const dfirm = text(change, 'dfirmId');
  const availability = availabilityLayer(map);
  const zones = comingZonesLayer(map);
  const ofOthers = (feature: ArcGisFeature) => feature.attributes.DFIRM_ID !== dfirm;
  if (availability.features.every(ofOthers)) throw new PublishRefused(`no study ${dfirm} on this map`);
  availability.replace(availability.features.filter(ofOthers));
  zones.replace(zones.features.filter(ofOthers));
  return { change: 'coming_map_withdrawn', dfirmId: dfirm, effectiveDate: null };
}

function redrawCbrsUnit(map: PublishableMap, change: Record<string, unknown>): Published {
  const unit = text(change, 'unit');
  const effective = day(change, 'effective');
  const area = envelope(change.area);
  const layers = [map.layer(named('CBRS Units'), 'CBRS Units'), map.layer(named('CBRS Prohibitions'), 'CBRS Prohibitions')];
  const drawn = layers.map((layer) => layer.features.find((feature) => feature.attributes.Unit === unit));
  if (drawn.some((feature) => feature === undefined)) throw new PublishRefused(`no CBRS unit ${unit}`);
  layers.forEach((layer, i) => {
    const given = i === 1 ? { ...drawn[i]!.attributes, FI_Date: utcMs(effective) } : drawn[i]!.attributes;
    layer.replace([...layer.features.filter((feature) => feature.attributes.Unit !== unit), featureOf(layer, [rectRing(...area)], given)]);
  });
  return { change: 'cbrs_unit_redrawn', unit, effectiveDate: effective };
}

/**
 * The zones of the layer over the area cut away, and the area one zone of the attributes given (over those of the
 * zone that was at its centre: its study, its source); the layer stays a partition. The zone's study (DFIRM_ID).
 */
function replaceZones(layer: PublishableLayer, area: Envelope, zone: Record<string, string | number | null>): string | null {
  const centre: Position = [(area[0] + area[2]) / 2, (area[1] + area[3]) / 2];
  const under = layer.features.find((feature) => feature.rings !== undefined && pointInRingsEvenOdd(centre[0], centre[1], feature.rings));
  const cut = layer.features.flatMap((feature) => {
    const { bbox } = feature;
    if (!feature.rings || bbox.xmax < area[0] || bbox.xmin > area[2] || bbox.ymax < area[1] || bbox.ymin > area[3]) return [feature];
    const rest = difference(polygonsOf(feature.rings), [rectRing(...area)]);
    const rings = rest.flat() as Ring[];
    return rings.length === 0 ? [] : [{ ...feature, rings, bbox: bboxOfShape({ rings }) }];
  });
  const dfirm = zone.DFIRM_ID ?? under?.attributes.DFIRM_ID ?? null;
  const attributes = { ...under?.attributes, ...ZONE_DEFAULTS, DFIRM_ID: dfirm, FLD_AR_ID: `${String(dfirm)}_PUBLISHED`, ...zone };
  layer.replace([...cut, featureOf(layer, [rectRing(...area)], attributes)]);
  return dfirm === null ? null : String(dfirm);
}

/** ArcGIS rings (outer rings and holes in one list) as polygons, each outer ring with the holes inside it (even-odd nesting). */
function polygonsOf(rings: Ring[]): Ring[][] {
  const depth = (ring: Ring) => rings.filter((other) => other !== ring && pointInRingsEvenOdd(ring[0][0], ring[0][1], [other])).length;
  const outers = rings.filter((ring) => depth(ring) % 2 === 0);
  return outers.map((outer) => [
    outer,
    ...rings.filter((ring) => depth(ring) % 2 === 1 && depth(ring) === depth(outer) + 1 && pointInRingsEvenOdd(ring[0][0], ring[0][1], [outer])),
  ]);
}

/** A new feature of the layer: its fields, the given values, a fresh OBJECTID and the shape's own area and length. */
function featureOf(layer: PublishableLayer, rings: Ring[], given: Record<string, string | number | null | undefined>): ArcGisFeature {
  const oid = Math.max(0, ...layer.features.map((feature) => Number(feature.attributes.OBJECTID) || 0)) + 1;
  const { area, length } = areaAndLength(rings);
  const computed: Record<string, string | number> = {
    OBJECTID: oid,
    GlobalID: `{00000000-0000-4000-8000-${oid.toString(16).toUpperCase().padStart(12, '0')}}`,
    'SHAPE.STArea()': area,
    'SHAPE.STLength()': length,
    SHAPE_Area: area,
    SHAPE_Length: length,
  };
  const attributes = Object.fromEntries(layer.fieldNames.map((name) => [name, computed[name] ?? given[name] ?? null]));
  return { attributes, rings, bbox: bboxOfShape({ rings }) };
}

type Envelope = [number, number, number, number];

function envelope(value: unknown): Envelope {
  const ok = Array.isArray(value) && value.length === 4 && value.every((n) => typeof n === 'number' && Number.isFinite(n));
  if (!ok || value[0] >= value[2] || value[1] >= value[3])
    throw new PublishRefused('"area" must be [west, south, east, north] in degrees, west < east and south < north');
  return value as Envelope;
}

function zoneOf(change: Record<string, unknown>): Record<string, string | number | null> {
  const zone = record(change.zone, '"zone"');
  if (typeof zone.FLD_ZONE !== 'string') throw new PublishRefused('"zone" must give FLD_ZONE (and any other layer-28 field)');
  if (!Object.values(zone).every((v) => v === null || typeof v === 'string' || typeof v === 'number'))
    throw new PublishRefused('"zone" values must be text, numbers or null');
  return zone as Record<string, string | number | null>;
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PublishRefused(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

function text(change: Record<string, unknown>, field: string): string {
  const value = change[field];
  if (typeof value !== 'string' || value.trim() === '') throw new PublishRefused(`"${field}" must be text`);
  return value.trim();
}

/** A day as YYYY-MM-DD, one the calendar has. */
function day(change: Record<string, unknown>, field: string): string {
  const value = text(change, field);
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    throw new PublishRefused(`"${field}" must be a day, YYYY-MM-DD, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** FEMA's dates: epoch ms at UTC midnight. */
function utcMs(isoDay: string): number {
  return Date.parse(`${isoDay}T00:00:00Z`);
}

/** A revised panel's suffix: the next letter. */
function nextSuffix(suffix: string): string {
  if (!/^[A-Y]$/.test(suffix)) throw new PublishRefused(`no suffix follows ${JSON.stringify(suffix)}: give "suffix"`);
  return String.fromCharCode(suffix.charCodeAt(0) + 1);
}
