import { UPSTREAM_REGISTRY, type UpstreamName } from '../common/upstream/upstream-registry';
import { OPTIONAL_PARTS, type IncludeItem } from '../parts/answer-parts';
import { EFFECTIVE_MAP_UPSTREAM } from './effective-map';

/** Geocodes an address, and finds the county of a point: asked by every lookup. */
const GEOCODER: UpstreamName = 'geocoder';

/**
 * Every upstream a lookup asking for the parts `include` (with those they imply) may call, in the registry's order:
 * FEMA's NFHL for the effective map, the Census geocoder, and each opt-in part's upstreams.
 */
export function lookupUpstreams(include: ReadonlySet<IncludeItem>): UpstreamName[] {
  const asked = new Set<UpstreamName>([EFFECTIVE_MAP_UPSTREAM, GEOCODER]);
  for (const part of OPTIONAL_PARTS) {
    if (!include.has(part.include)) continue;
    asked.add(part.upstream);
    for (const upstream of part.alsoAsks ?? []) asked.add(upstream);
  }
  return UPSTREAM_REGISTRY.map(({ name }) => name).filter((name) => asked.has(name));
}
