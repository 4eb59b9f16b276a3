import type { CacheStatus } from '../cache/piece-cache';
import type { CachedEntity } from '../common/cached-entity';

/** A finished picture: the PNG as it goes out (with its legend header and, when the basemap failed, the header saying so). */
export interface MapPicture {
  entity: CachedEntity;
  /** How the answer behind it was read: MISS once composed, HIT when served from this cache, STALE from a stale answer. */
  cacheStatus: CacheStatus;
}

/**
 * Finished pictures, so that a repeated picture is neither looked up, nor exported, nor composed again: kept
 * until their answer's max-age runs out, the least recently served dropped first once their PNGs together pass
 * `maxBytes`. Concurrent requests for the same picture share one composition. Never holds a picture made from a
 * stale answer, nor a failure.
 */
export class PictureCache {
  /** In order of use, the least recently served first. */
  private readonly pictures = new Map<string, MapPicture>();
  private bytes = 0;
  private readonly composing = new Map<string, Promise<MapPicture>>();

  constructor(private readonly maxBytes: number) {}

  find(key: string): MapPicture | undefined {
    const picture = this.pictures.get(key);
    if (!picture) return undefined;
    this.drop(key, picture);
    if (picture.entity.expiresAt <= Date.now()) return undefined;
    this.pictures.set(key, picture);
    this.bytes += picture.entity.byteLength;
    return picture;
  }

  /** The key's picture, composed by `compose` unless a composition of it is already under way. */
  composeOnce(key: string, compose: () => Promise<MapPicture>): Promise<MapPicture> {
    let shared = this.composing.get(key);
    if (!shared) {
      shared = compose()
        .then((picture) => {
          this.keep(key, picture);
          return picture;
        })
        .finally(() => this.composing.delete(key));
      this.composing.set(key, shared);
    }
    return shared;
  }

  private keep(key: string, picture: MapPicture): void {
    const { expiresAt, byteLength } = picture.entity;
    if (picture.cacheStatus === 'STALE' || expiresAt <= Date.now() || byteLength > this.maxBytes) return;
    const held = this.pictures.get(key);
    if (held) this.drop(key, held);
    this.pictures.set(key, picture);
    this.bytes += byteLength;
    for (const [oldKey, old] of this.pictures) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldKey, old);
    }
  }

  private drop(key: string, picture: MapPicture): void {
    this.pictures.delete(key);
    this.bytes -= picture.entity.byteLength;
  }
}
