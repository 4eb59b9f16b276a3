import type { AppConfig } from '../../config/app-config';

/** The string variables of the configuration: where a base URL can be. */
type BaseUrlVariable = { [Variable in keyof AppConfig]-?: AppConfig[Variable] extends string ? Variable : never }[keyof AppConfig];

const KiB = 1024;
const MiB = 1024 * KiB;

/** What the service knows of one upstream service apart from its client (docs/architecture.md, "Adding an upstream"). */
export interface UpstreamEntry {
  /**
   * Its public name: `upstream` of its 502 error bodies, its key in /health `upstreams`, its metrics label (its main
   * circuit is named like it), its logs.
   */
  readonly name: string;
  /** How its 502 error message names it: "<label> is unavailable or returned an error...". */
  readonly label: string;
  /**
   * The configuration variable holding its base URL. Its default, the real service, is AppConfig's, where every
   * default is: this folder reads the configuration (upstream-providers.ts), so the configuration cannot read it back.
   */
  readonly baseUrlVariable: BaseUrlVariable;
  /** The API reference's description of its base-URL variable. */
  readonly description: string;
  /** What a client sees while it is unreachable, in the start-up warning that says so. */
  readonly whileDown: string;
  /** What its circuit is, in the words /health's schema gives after its name. */
  readonly inHealth: string;
  /**
   * The most bytes one of its answers may have, enforced while the body streams in (a body that never ends is
   * cut at its cap, never held whole): a few times its largest real answer, so no true answer is ever refused,
   * yet a runaway body costs a replica at most this much memory. Over the cap is a failure of that upstream,
   * never retried (the same question gets the same body) and never cached.
   */
  readonly bodyCapBytes: number;
  /** Operations that fail independently of its main one, each on a circuit of its own (a /health key and metrics label). */
  readonly otherCircuits?: ReadonlyArray<{ readonly name: string; readonly inHealth: string }>;
}

/** Every upstream service, in the order /health's schema and docs list them. */
export const UPSTREAM_REGISTRY = [
  {
    name: 'flood_data',
    label: 'The FEMA flood data service (NFHL)',
    baseUrlVariable: 'NFHL_BASE_URL',
    description: "FEMA's National Flood Hazard Layer (ArcGIS MapServer): where every flood answer comes from.",
    whileDown: 'lookups will answer 502 until it is back',
    inHealth: 'FEMA NFHL, effective maps',
    // A query page (2,000 features, generalised polygons with their rings) or an export PNG of the largest
    // picture asked (4,096 px a side for the zones, mostly flat colour, which a PNG compresses far below 1 byte a pixel).
    bodyCapBytes: 16 * MiB,
  },
  {
    name: 'flood_data_preliminary',
    label: "FEMA's preliminary flood map service",
    baseUrlVariable: 'PRELIMINARY_NFHL_BASE_URL',
    description: "FEMA's preliminary flood maps (proposed, not yet effective), asked only with `include=preliminary`.",
    whileDown: 'include=preliminary will be listed as unavailable until it is back',
    inHealth: 'FEMA preliminary and pending maps',
    // The same MapServer protocol as the NFHL.
    bodyCapBytes: 16 * MiB,
  },
  {
    name: 'flood_data_pending',
    label: "FEMA's pending flood map service",
    baseUrlVariable: 'PENDING_NFHL_BASE_URL',
    description: "FEMA's pending flood maps (adopted, about to become effective), asked only with `include=preliminary`.",
    whileDown: 'include=preliminary will be listed as unavailable until it is back',
    inHealth: 'FEMA preliminary and pending maps',
    bodyCapBytes: 16 * MiB,
  },
  {
    name: 'coastal_barrier',
    label: 'The U.S. Fish and Wildlife Service Coastal Barrier Resources System service',
    baseUrlVariable: 'CBRS_BASE_URL',
    description: 'The Coastal Barrier Resources System map (U.S. Fish and Wildlife Service), asked only with `include=cbrs`.',
    whileDown: 'include=cbrs will be listed as unavailable until it is back',
    inHealth: 'USFWS CBRS',
    // Point queries of attributes (a page of 2,000 features is about 1 MB), and for the lender's form the units and buffer
    // zones over a building's footprint with every vertex: a unit along a long coast has tens of thousands of them.
    bodyCapBytes: 16 * MiB,
  },
  {
    name: 'geocoder',
    label: 'The U.S. Census geocoder',
    baseUrlVariable: 'GEOCODER_BASE_URL',
    description: 'U.S. Census geocoder: addresses to points, and the county and ZIP of a point.',
    whileDown: 'address lookups will answer 502 (and points lack county and ZIP) until it is back',
    inHealth: 'Census, address geocoding',
    // A one-line answer is a few kB; a batch answer of 1,000 rows of CSV is about 250 kB.
    bodyCapBytes: 4 * MiB,
    otherCircuits: [{ name: 'geocoder_point', inHealth: 'Census, county and ZIP of a point' }],
  },
  {
    name: 'elevation',
    label: 'The USGS Elevation Point Query Service',
    baseUrlVariable: 'ELEVATION_BASE_URL',
    description: 'The USGS Elevation Point Query Service (3DEP ground elevation), asked only with `include=elevation`.',
    whileDown: 'include=elevation will be listed as unavailable until it is back',
    inHealth: 'USGS Elevation Point Query Service',
    // One point's JSON: about 300 bytes.
    bodyCapBytes: 64 * KiB,
  },
  {
    name: 'openfema',
    label: "FEMA's OpenFEMA service (NFIP Community Status Book, NFIP claims and policies, disaster declarations)",
    baseUrlVariable: 'OPENFEMA_BASE_URL',
    description:
      "OpenFEMA, whose NFIP Community Status Book (`v1/NfipCommunityStatusBook`) gives a community's NFIP participation and CRS class, and whose NFIP Redacted Claims and Policies (`v3/NfipClaims`, `v3/NfipPolicies`) and Disaster Declarations Summaries (`v2/DisasterDeclarationsSummaries`) give the area's flood record of `include=history`.",
    whileDown:
      "the NFIP status of a community stays unknown until the Community Status Book can be loaded, and the area's flood record (include=history) is unavailable",
    inHealth: "OpenFEMA: the NFIP Community Status Book, downloaded in the background, and the area's flood record",
    // A Status Book page of 10,000 rows of nine fields: about 3.5 MB; a page of 10,000 claims of six fields, about 2 MB.
    bodyCapBytes: 16 * MiB,
  },
  {
    name: 'basemap',
    label: 'The USGS National Map basemap service',
    baseUrlVariable: 'BASEMAP_BASE_URL',
    description:
      'The USGS National Map basemap (an ArcGIS MapServer), exported under the flood zones of `GET /flood-zone/map`; while it fails, pictures show the zones on a plain background (`X-Map-Unavailable: basemap`).',
    whileDown: 'map pictures will show the flood zones on a plain background until it is back',
    inHealth: 'USGS National Map basemap under the map picture',
    // A PNG of the largest picture (1,600 x 1,600 px), which fits even uncompressed (10.3 MB).
    bodyCapBytes: 16 * MiB,
  },
  {
    name: 'structures',
    label: 'The FEMA/ORNL USA Structures building footprint service',
    baseUrlVariable: 'STRUCTURES_BASE_URL',
    description:
      "FEMA and Oak Ridge National Laboratory's USA Structures (an ArcGIS FeatureServer layer; its URL, queried at `{STRUCTURES_BASE_URL}/query`): the building footprints of `include=structure`.",
    whileDown: 'include=structure will be listed as unavailable until it is back',
    inHealth: 'FEMA/ORNL USA Structures, building footprints',
    // Buildings within 100 m: a few dozen footprints, tens of kB; a whole page of 2,000 footprints with their
    // attributes and unrounded rings is about 3 MB.
    bodyCapBytes: 8 * MiB,
  },
] as const satisfies readonly UpstreamEntry[];

type RegisteredUpstream = (typeof UPSTREAM_REGISTRY)[number];

/** One upstream service: its own concurrency limit, metrics label, breakers and byte cap. */
export type UpstreamName = RegisteredUpstream['name'];

/** The configuration variables of the upstreams' base URLs. */
export type UpstreamBaseUrlVariable = RegisteredUpstream['baseUrlVariable'];

/**
 * A circuit breaker's name: the upstream's own for its main operation, plus one per operation that fails
 * independently of it (`geocoder` geocodes addresses, `geocoder_point` finds the county and ZIP of a point).
 */
export type CircuitName = UpstreamName | Extract<RegisteredUpstream, { otherCircuits: unknown }>['otherCircuits'][number]['name'];

/** Each upstream's entry by its name (an UpstreamUnavailableError's `upstream`, a ResilientUpstream's `name`). */
export const UPSTREAM_BY_NAME = Object.fromEntries(UPSTREAM_REGISTRY.map((upstream) => [upstream.name, upstream])) as Readonly<
  Record<UpstreamName, UpstreamEntry>
>;

/** Every circuit of every upstream with its /health words, in the registry's order (an upstream's main circuit first). */
export const UPSTREAM_CIRCUITS: ReadonlyArray<{ upstream: UpstreamName; name: CircuitName; inHealth: string }> = UPSTREAM_REGISTRY.flatMap(
  (upstream: UpstreamEntry) =>
    [upstream, ...(upstream.otherCircuits ?? [])].map(({ name, inHealth }) => ({
      upstream: upstream.name as UpstreamName,
      name: name as CircuitName,
      inHealth,
    })),
);

/** An upstream's circuits: its own, then one per operation that fails independently of it. */
export function circuitsOf(upstream: UpstreamName): CircuitName[] {
  return UPSTREAM_CIRCUITS.filter((circuit) => circuit.upstream === upstream).map((circuit) => circuit.name);
}

/** Every upstream's base-URL variable, each set to `baseUrlOf` it (an emulator's, in offline mode, benchmarks and tests). */
export function upstreamBaseUrls(baseUrlOf: (upstream: RegisteredUpstream) => string): Record<UpstreamBaseUrlVariable, string> {
  return Object.fromEntries(UPSTREAM_REGISTRY.map((upstream) => [upstream.baseUrlVariable, baseUrlOf(upstream)])) as Record<UpstreamBaseUrlVariable, string>;
}
