import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { unknownOnFailure } from '../common/api-error';
import { entityTag } from '../common/cached-entity';
import { deadlineExceeded } from '../common/upstream/resilient-upstream';
import type { AppConfig } from '../config/app-config';
import { CachePolicy, PieceCache } from '../cache/piece-cache';
import { FloodHazardPort } from '../flood-hazard/flood-hazard-port';
import type { GeoPoint } from '../flood-hazard/flood-hazard.types';
import { addressMatches, geocodePolicyOf, normaliseAddress } from '../geocoding/geocode-cache';
import { AddressMatch, Geocoder } from '../geocoding/geocoder';
import type { FloodZoneLookup } from '../lookup/flood-zone-lookup';
import type { LocationQuery } from '../lookup/location-query';
import { LookupAnswer, LookupService } from '../lookup/lookup.service';
import { INCOMPLETE_ANSWER_MAX_AGE_SECONDS } from '../parts/answer-part';
import { footprintCredit } from '../parts/structure/structure-headline';
import { ServiceMetrics } from '../metrics/service-metrics';
import { BasemapPort } from './basemap-port';
import { MapPictureQuery, assertDrawable } from './dto/map-picture-query.pipe';
import { PictureFrame, footprintOutline, mapExtentAround } from './map-area';
import { composePicture } from './map-composer';
import { captionSegments, mapLegend, pointZoneSymbol } from './map-legend';
import { MapPicture, PictureCache } from './picture-cache';

/** Finished pictures held in memory at most: a few hundred pictures of 800x600. */
const PICTURE_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** The nearby zones a picture names are those within half its span (from 10 m to 2,000 m, the lookup's radius range). */
function nearbyRadiusM(spanM: number): number {
  return Math.min(2000, Math.max(10, Math.round(spanM / 2)));
}

/** Every parameter that shapes a picture's bytes: the place (an address normalised, as geocoding reads it), the building chosen and the frame. */
function pictureKey(query: MapPictureQuery): string {
  const place = query.kind === 'address' ? `a:${normaliseAddress(query.address)}` : `p:${query.lat},${query.lon}`;
  return `${place}|${query.buildId ?? ''}|${query.width}x${query.height}|${query.spanM}`;
}

function placeWords(location: FloodZoneLookup['location']): string {
  if (location.matchedAddress !== null) return location.matchedAddress;
  return [`${location.lat}, ${location.lon}`, location.county].filter((part) => part !== null).join(' · ');
}

/**
 * The /flood-zone/map use case: the lookup of the point (with its nearby zones and its building) and FEMA's and the basemap's
 * pictures of the ground around it, all at once (for an address, once it is geocoded), then the picture
 * composed from them and the answer. A failure of the lookup is the lookup's error, a failure of FEMA's
 * picture a 502 (the zones are the picture); without the basemap the zones are drawn on a plain background
 * and the picture is kept no longer than an incomplete answer.
 */
@Injectable()
export class MapPictureService {
  private readonly pictures = new PictureCache(PICTURE_CACHE_MAX_BYTES);
  private readonly deadlineMs: number;
  private readonly geocodePolicy: CachePolicy;

  constructor(
    private readonly lookups: LookupService,
    private readonly floodHazard: FloodHazardPort,
    private readonly basemap: BasemapPort,
    private readonly geocoder: Geocoder,
    private readonly pieces: PieceCache,
    private readonly metrics: ServiceMetrics,
    config: ConfigService<AppConfig, true>,
  ) {
    this.deadlineMs = config.get('LOOKUP_DEADLINE_MS', { infer: true });
    // As the lookup reads geocodes: the picture's geocode is the lookup's own cached piece.
    this.geocodePolicy = geocodePolicyOf(config);
  }

  /** The picture already made for the query, if it is still held (not counted: see countHit). */
  held(query: MapPictureQuery): MapPicture | undefined {
    return this.pictures.find(pictureKey(query));
  }

  /** Counts a picture served from the cache. */
  countHit(): void {
    this.metrics.cacheLookup('picture', 'hit');
  }

  async picture(query: MapPictureQuery): Promise<MapPicture> {
    const key = pictureKey(query);
    const held = this.pictures.find(key);
    if (held) {
      this.countHit();
      return { ...held, cacheStatus: 'HIT' };
    }
    const composed = await this.pictures.composeOnce(key, () => this.compose(query));
    this.metrics.cacheLookup('picture', composed.cacheStatus === 'STALE' ? 'stale' : 'miss');
    return composed;
  }

  private async compose(query: MapPictureQuery): Promise<MapPicture> {
    const lookupFailed = new AbortController();
    const deadline = AbortSignal.any([AbortSignal.timeout(this.deadlineMs), lookupFailed.signal]);
    const lookupQuery: LocationQuery = { ...query, include: new Set(['nearby', 'structure']), radiusM: nearbyRadiusM(query.spanM) };
    let lookup: Promise<LookupAnswer>;
    let point: GeoPoint | null;
    if (query.kind === 'point') {
      lookup = this.lookups.lookup(lookupQuery);
      point = query;
    } else {
      const matches = await this.geocode(query.address, deadline);
      // The lookup reads the same geocode: from the cache, or (with the cache off) from these matches, never asking twice.
      lookup = this.lookups.lookup(lookupQuery, { geocode: () => Promise.resolve(matches), pieces: this.pieces, cancelled: lookupFailed.signal });
      // Several matches may be one place or ambiguous: the lookup's rule decides, and the pictures wait for it.
      point = matches.length === 1 ? matches[0] : null;
    }
    lookup.catch(() => lookupFailed.abort());
    const layers = point === null ? lookup.then(({ body }) => this.layersAround(body.location, query, deadline)) : this.layersAround(point, query, deadline);
    // The lookup's failure is the answer (404, 502 naming its upstream); the layers are then abandoned.
    layers.catch(() => undefined);
    const answer = await lookup;
    const { floodZones, basemap } = await layers;

    const { result, location } = answer.body;
    const legend = mapLegend(result);
    const footprint = result.structure?.footprint ?? null;
    const started = performance.now();
    const png = await composePicture(floodZones, basemap, {
      frame: query,
      caption: captionSegments(result),
      place: placeWords(location),
      legend,
      pointZone: pointZoneSymbol(result),
      basemapShown: basemap !== null,
      buildingOutline: footprint ? footprintOutline(location, query, footprint) : [],
      footprintCredit: footprintCredit(result.structure),
    });
    this.metrics.pictureComposed(basemap !== null, (performance.now() - started) / 1000);
    const maxAgeSeconds = basemap ? answer.maxAgeSeconds : Math.min(answer.maxAgeSeconds, INCOMPLETE_ANSWER_MAX_AGE_SECONDS);
    const headers = ['X-Map-Legend', legend.map((entry) => entry.zone).join(', ')];
    if (!basemap) headers.push('X-Map-Unavailable', 'basemap');
    return {
      entity: { body: png, byteLength: png.length, contentType: 'image/png', etag: entityTag(png), expiresAt: Date.now() + maxAgeSeconds * 1000, headers },
      cacheStatus: answer.cacheStatus === 'STALE' ? 'STALE' : 'MISS',
    };
  }

  /** FEMA's flood zones and the basemap around the point, asked at once; the basemap null when it failed. */
  private async layersAround(point: GeoPoint, frame: PictureFrame, deadline: AbortSignal) {
    assertDrawable(point.lat);
    const extent = mapExtentAround(point, frame);
    const [floodZones, basemap] = await Promise.all([
      this.floodHazard.exportFloodZones(extent, deadline),
      unknownOnFailure(this.basemap.exportBasemap(extent, deadline)),
    ]);
    return { floodZones, basemap };
  }

  /** The address's matches, read as the lookup reads them (the shared cached geocode, one call for concurrent readers). */
  private async geocode(address: string, deadline: AbortSignal): Promise<AddressMatch[]> {
    const load = (signal: AbortSignal) => this.geocoder.geocodeAddress(address, signal);
    const wait = { signal: deadline, gaveUp: () => deadlineExceeded('geocoder') };
    return (await addressMatches(this.pieces, this.geocodePolicy, address, load, wait)).piece.value;
  }
}
