import type { UpstreamName } from '../api-error';

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The most bytes one answer of each upstream may have, enforced while the body streams in (a body that
 * never ends is cut at its cap, never held whole): a few times its largest real answer, so no true answer is
 * ever refused, yet a runaway body costs a replica at most this much memory. Over the cap is a failure of
 * that upstream, never retried (the same question gets the same body) and never cached.
 */
export const UPSTREAM_BODY_CAPS: Readonly<Record<UpstreamName, number>> = {
  // A query page (2,000 features, generalised polygons with their rings) or an export PNG of the largest
  // picture asked (4,096 px a side for the zones, mostly flat colour, which a PNG compresses far below 1 byte a pixel).
  flood_data: 16 * MiB,
  flood_data_preliminary: 16 * MiB,
  flood_data_pending: 16 * MiB,
  // Point queries of attributes only: a page of 2,000 features is about 1 MB.
  coastal_barrier: 4 * MiB,
  // A one-line answer is a few kB; a batch answer of 1,000 rows of CSV is about 250 kB.
  geocoder: 4 * MiB,
  // One point's JSON: about 300 bytes.
  elevation: 64 * KiB,
  // A Status Book page of 10,000 rows of nine fields: about 3.5 MB.
  openfema: 16 * MiB,
  // A PNG of the largest picture (1,600 x 1,600 px), which fits even uncompressed (10.3 MB).
  basemap: 16 * MiB,
};
