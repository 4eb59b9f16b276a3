/**
 * The demo buildings the USA Structures emulator serves: footprints (clockwise lon/lat rings, as ArcGIS keeps
 * an outer ring) placed against the demo flood map of demo-map.ts, one building per case the building answer
 * part has to handle. The zone polygons they are measured against are demo-map.ts's own (ids in `purpose`).
 *
 * Attributes follow the real recorded answer (fixtures/structures/usa-structures-query-atlanta-2024.json, see
 * SOURCES.md): its fields in its order; PROP_ADDR, PROP_CITY and PROP_ZIP null as on all its 1,258 buildings (so no
 * demo building is found by its address: an address's building is chosen by its census block); PROP_ST the state's
 * full name; FIPS the county, CENSUSCODE the tract of the building's census block (each building stands in one of
 * the Census emulator's blocks); USNG, LONGITUDE and LATITUDE of its centre; SQMETERS, SQFEET and HEIGHT single
 * precision (seven significant digits); UUID lower case in braces; ORNL footprints without HEIGHT ("Automated"), NGA
 * ones with a LiDAR height ("Unverified"). OUTBLDG is null on a house, as on every recorded building; an outbuilding
 * carries "Yes" (the flag's real spelling is not recorded; the client reads every spelling). Shape__Area /
 * Shape__Length are its area and perimeter in Web Mercator metres, as a hosted layer in Web Mercator keeps them.
 */
import { tractGeoidAt } from './census-tracts';
import { Position, Ring, areaAndLength, bboxOfRings, lonLatToWebMercator, metersToDegrees, rectRing, usngOf } from './geometry';
import { DEMO_BLOCKS, DEMO_BUILDING_ADDRESSES, type DemoBlock, utcDate } from './demo-map';
import type { ArcGisFeature } from './map-data';

export interface DemoStructure {
  /** A name for tests and docs (not a layer field). */
  id: string;
  /** The case this building is for, and where it stands against the demo map's zone polygons. */
  purpose: string;
  /** The demo place (demo-map.ts `DEMO_PLACES`) it stands at or beside. */
  demoPlace: string;
  /** The point a geocoder gives for its address, where the case turns on it ([lon, lat]). */
  streetPoint?: Position;
  /** Its address as the Census emulator knows it, where it does (not a layer field: PROP_ADDR is null, as in the real data). */
  address?: string;
  /** The 2020 census block its interior stands in (what the Census emulator answers for a point inside it). */
  block: DemoBlock;
  feature: ArcGisFeature;
}

/** What differs between demo buildings; the rest of a row is filled by `structure()`. */
interface StructureSpec {
  id: string;
  purpose: string;
  demoPlace: string;
  streetPoint?: Position;
  address?: string;
  ring: Ring;
  buildId: number;
  occupancy: { OCC_CLS: string; PRIM_OCC: string; SEC_OCC: string | null };
  /** Its state's full name (PROP_ST). */
  state: string;
  /** Its block: one of DEMO_BLOCKS, or a 15-digit GEOID for a block drawn around the building alone. */
  block: DemoBlock | string;
  outbuilding?: boolean;
  /** NGA footprints carry a LiDAR height (metres); ORNL ones never do. */
  ngaHeightM?: number;
  image: { IMAGE_NAME: string; IMAGE_DATE: number | null };
  UUID: string;
  STATE_FIPS: string;
}

const SQUARE_FEET_PER_SQUARE_METRE = 10.7639104;

/** A footprint `widthM` east-west by `depthM` north-south centred on [lon, lat], as one clockwise ring (7 decimals, ~1 cm). */
export function rectangleFootprint([lon, lat]: Position, widthM: number, depthM: number): Ring {
  const { dLon } = metersToDegrees(lat, widthM / 2);
  const { dLat } = metersToDegrees(lat, depthM / 2);
  return rectRing(lon - dLon, lat - dLat, lon + dLon, lat + dLat).map(([x, y]): Position => [round7(x), round7(y)]);
}

/** Ground area in square metres: the ring on a local plane through its first vertex (good to well under 0.1 % at house size). */
export function groundAreaSquareMetres(ring: Ring): number {
  const [lon0, lat0] = ring[0];
  const { dLon, dLat } = metersToDegrees(lat0, 1);
  return areaAndLength([ring.map(([x, y]): Position => [(x - lon0) / dLon, (y - lat0) / dLat])]).area;
}

function round7(v: number): number {
  return Number(v.toFixed(7));
}

/** A single-precision value as the layer writes it: seven significant digits. */
function single(v: number): number {
  return Number(v.toPrecision(7));
}

/** Metres a block drawn around one building reaches beyond it. */
const BLOCK_MARGIN_M = 10;

/**
 * The building's own block, drawn around it, when it stands in none of DEMO_BLOCKS: `geoid`'s state, county and block
 * number in the demo tract the Census emulator names at the building (census-tracts.ts), as a block lies in its tract.
 */
function blockAround(geoid: string, ring: Ring): DemoBlock {
  const { xmin, ymin, xmax, ymax } = bboxOfRings([ring]);
  const { dLon, dLat } = metersToDegrees(ymin, BLOCK_MARGIN_M);
  const tract = tractGeoidAt(geoid.slice(0, 2), geoid.slice(2, 5), (xmin + xmax) / 2, (ymin + ymax) / 2);
  return { geoid: `${tract}${geoid.slice(11)}`, box: [xmin - dLon, ymin - dLat, xmax + dLon, ymax + dLat] };
}

function structure(spec: StructureSpec, objectId: number): DemoStructure {
  const rings = [spec.ring];
  const sqMetres = groundAreaSquareMetres(spec.ring);
  const mercator = areaAndLength([spec.ring.map(([x, y]) => lonLatToWebMercator(x, y))]);
  const block = typeof spec.block === 'string' ? blockAround(spec.block, spec.ring) : spec.block;
  const bbox = bboxOfRings(rings);
  const [lon, lat] = [(bbox.xmin + bbox.xmax) / 2, (bbox.ymin + bbox.ymax) / 2];
  const nga = spec.ngaHeightM !== undefined;
  return {
    id: spec.id,
    purpose: spec.purpose,
    demoPlace: spec.demoPlace,
    ...(spec.streetPoint ? { streetPoint: spec.streetPoint } : {}),
    ...(spec.address ? { address: spec.address } : {}),
    block,
    feature: {
      attributes: {
        OBJECTID: objectId,
        BUILD_ID: spec.buildId,
        ...spec.occupancy,
        PROP_ADDR: null,
        PROP_CITY: null,
        PROP_ST: spec.state,
        PROP_ZIP: null,
        OUTBLDG: spec.outbuilding ? 'Yes' : null,
        HEIGHT: nga ? single(spec.ngaHeightM as number) : null,
        SQMETERS: single(sqMetres),
        SQFEET: single(sqMetres * SQUARE_FEET_PER_SQUARE_METRE),
        H_ADJ_ELEV: null,
        L_ADJ_ELEV: null,
        FIPS: block.geoid.slice(0, 5),
        CENSUSCODE: block.geoid.slice(0, 11),
        PROD_DATE: utcDate(nga ? '2023-03-14' : '2022-06-21'),
        SOURCE: nga ? 'NGA' : 'ORNL',
        USNG: usngOf(lon, lat),
        LONGITUDE: Number(lon.toFixed(9)),
        LATITUDE: Number(lat.toFixed(9)),
        ...spec.image,
        VAL_METHOD: nga ? 'Unverified' : 'Automated',
        REMARKS: null,
        UUID: spec.UUID.toLowerCase(),
        STATE_FIPS: spec.STATE_FIPS,
        Shape__Area: mercator.area,
        Shape__Length: mercator.length,
      },
      rings,
      bbox: bboxOfRings(rings),
    },
  };
}

const RESIDENTIAL = { OCC_CLS: 'Residential', PRIM_OCC: 'Single Family Dwelling', SEC_OCC: null };
const UNCLASSIFIED = { OCC_CLS: 'Unclassified', PRIM_OCC: 'Unclassified', SEC_OCC: null };
const ORNL_IMAGE = (name: string, day: string) => ({ IMAGE_NAME: name, IMAGE_DATE: utcDate(day) });

// Menominee, MI: the AE polygon 6430122 lies inside the X shaded polygon 6430121; its west edge is at lon -87.587273.
const MENOMINEE_AE_WEST_EDGE = -87.587273;
const menomineeMetre = metersToDegrees(45.1, 1).dLon;
const houstonMetre = metersToDegrees(DEMO_BUILDING_ADDRESSES.houstonXHouse.lat, 1).dLon;

const SPECS: readonly StructureSpec[] = [
  {
    id: 'menominee-straddles-ae-x',
    purpose:
      'A house across the west edge of AE polygon 6430122 (lon -87.587273): its east 7.2 m of 18 m (40 %) inside the AE, the rest in the X shaded polygon 6430121 only; 43 m short of the VE polygon 6430123.',
    demoPlace: 'menominee-overlap',
    ring: rectangleFootprint([MENOMINEE_AE_WEST_EDGE - 1.8 * menomineeMetre, 45.1], 18, 12),
    buildId: 26_010_001,
    occupancy: RESIDENTIAL,
    state: 'Michigan',
    block: '261090001001001',
    image: ORNL_IMAGE('104001005B7E3400', '2019-08-02'),
    UUID: '{6E4C1B72-0F3A-4D8E-9B15-2A7C3E8D1F04}',
    STATE_FIPS: '26',
  },
  {
    id: 'houston-x-house-ae-street-point',
    purpose:
      'A house wholly inside the small X unshaded polygon 6430134 (50 m square around the demo place); the street point of its address lies in AE polygon 6430135, 36 m east of the house (within the 40 m a building is looked for).',
    demoPlace: 'houston-nearby-hazards',
    address: DEMO_BUILDING_ADDRESSES.houstonXHouse.address,
    streetPoint: [DEMO_BUILDING_ADDRESSES.houstonXHouse.lon, DEMO_BUILDING_ADDRESSES.houstonXHouse.lat],
    ring: rectangleFootprint([-95.45, 29.83], 14, 11),
    buildId: 48_020_001,
    occupancy: RESIDENTIAL,
    state: 'Texas',
    block: DEMO_BLOCKS.houston34thWest,
    image: ORNL_IMAGE('1040010041C2B700', '2018-11-20'),
    UUID: '{B0D3F6A1-57C2-4E19-8A6F-C94E21D07B35}',
    STATE_FIPS: '48',
  },
  {
    id: 'houston-floodway-house',
    purpose: 'A house wholly inside the AE FLOODWAY polygon 6430101, around the demo place and its address.',
    demoPlace: 'houston-ae-floodway',
    address: '2100 Memorial Dr, Houston, TX 77007',
    ring: rectangleFootprint([-95.39, 29.763], 16, 12),
    buildId: 48_020_002,
    occupancy: RESIDENTIAL,
    state: 'Texas',
    block: '482010001001002',
    image: ORNL_IMAGE('1040010041C2B700', '2018-11-20'),
    UUID: '{3A91E0C7-2B64-4F3D-A8D2-61F5B9C4E720}',
    STATE_FIPS: '48',
  },
  {
    id: 'dc-partly-unmapped',
    purpose:
      'A building across the east edge of NFHL Availability 3100 (lon -77.029579): its west half mapped with no zone polygon there, its east half outside any NFHL data. NGA-sourced, with a height; no address.',
    demoPlace: 'dc-white-house-ae',
    ring: rectangleFootprint([-77.029579, 38.899], 20, 15),
    buildId: 11_001_001,
    occupancy: UNCLASSIFIED,
    state: 'District of Columbia',
    block: '110010001001003',
    ngaHeightM: 14.2,
    image: { IMAGE_NAME: '-99999', IMAGE_DATE: null },
    UUID: '{F27A4D90-8C1E-4B63-95A0-7D3E6C2B18F9}',
    STATE_FIPS: '11',
  },
  {
    id: 'renton-main-house',
    purpose: "The first of two houses at one address (200 MILL AVE S), wholly inside the X shaded polygon 6430130, 7.5 m west of the address's point.",
    demoPlace: 'renton-x-shaded',
    address: '200 Mill Ave S, Renton, WA 98057',
    ring: rectangleFootprint([-122.2013, 47.483], 14, 10),
    buildId: 53_030_001,
    occupancy: RESIDENTIAL,
    state: 'Washington',
    block: DEMO_BLOCKS.rentonMillAve,
    image: ORNL_IMAGE('10400100487A6C00', '2019-05-16'),
    UUID: '{9C5B2E18-A4F7-4D02-B3C6-0E81D7F5A294}',
    STATE_FIPS: '53',
  },
  {
    id: 'renton-second-house',
    purpose:
      "The second house at the same address (200 MILL AVE S), 23 m south of the first (centre to centre), in the same census block and also in the X shaded polygon 6430130: 14 m from the address's point against the first's 7.5 m, so no house can be chosen (ambiguous).",
    demoPlace: 'renton-x-shaded',
    address: '200 Mill Ave S, Renton, WA 98057',
    ring: rectangleFootprint([-122.2013, 47.48275], 9, 9),
    buildId: 53_030_002,
    occupancy: RESIDENTIAL,
    state: 'Washington',
    block: DEMO_BLOCKS.rentonMillAve,
    image: ORNL_IMAGE('10400100487A6C00', '2019-05-16'),
    UUID: '{D4E8A3B6-19F0-4C7A-8E25-B6C1F09D3A47}',
    STATE_FIPS: '53',
  },
  {
    id: 'sacramento-house',
    purpose: 'A house wholly inside the A99 polygon 6430116, at the demo place and its address; an outbuilding stands 3.5 m east of it.',
    demoPlace: 'sacramento-a99',
    address: '2000 Natomas Park Dr, Sacramento, CA 95833',
    ring: rectangleFootprint([-121.5131, 38.64], 20, 12),
    buildId: 6_067_001,
    occupancy: RESIDENTIAL,
    state: 'California',
    block: '060670001001004',
    image: ORNL_IMAGE('1040010037F95D00', '2018-03-09'),
    UUID: '{27B6F9C3-E5D1-4A48-9F73-1C0A8E6B5D92}',
    STATE_FIPS: '06',
  },
  {
    id: 'sacramento-outbuilding',
    purpose: 'An outbuilding (OUTBLDG "Y", unclassified) 3.5 m east of the house at the same address, also inside the A99 polygon 6430116.',
    demoPlace: 'sacramento-a99',
    address: '2000 Natomas Park Dr, Sacramento, CA 95833',
    ring: rectangleFootprint([-121.512893, 38.64], 9, 7),
    buildId: 6_067_002,
    occupancy: UNCLASSIFIED,
    state: 'California',
    block: '060670001001004',
    outbuilding: true,
    image: ORNL_IMAGE('1040010037F95D00', '2018-03-09'),
    UUID: '{E1A07C4D-6B38-4F95-A2E4-93D5B17C0F68}',
    STATE_FIPS: '06',
  },
  {
    id: 'fernandina-cbrs-house',
    purpose: 'A beach house wholly inside CBRS System Unit FL-05 and the VE polygon 6430149, around the demo place.',
    demoPlace: 'fernandina-cbrs-system-unit',
    ring: rectangleFootprint([-81.4626, 30.6697], 15, 10),
    buildId: 12_089_001,
    occupancy: RESIDENTIAL,
    state: 'Florida',
    block: '120890001001005',
    image: ORNL_IMAGE('104001003E8B4900', '2018-06-27'),
    UUID: '{58C2D7E0-3F19-4B6A-8C4D-A0E9F2B71C36}',
    STATE_FIPS: '12',
  },
  {
    id: 'charleston-not-participating',
    purpose:
      'A house wholly inside the AE polygon 6430145 in the City of Charleston (455412), which the demo Community Status Book lists as not participating in the NFIP.',
    demoPlace: 'charleston-pending-out-of-sfha',
    ring: rectangleFootprint([-79.92469, 32.7765], 17, 11),
    buildId: 45_019_001,
    occupancy: RESIDENTIAL,
    state: 'South Carolina',
    block: '450190001001006',
    image: ORNL_IMAGE('1040010039A1E800', '2018-02-11'),
    UUID: '{A6F31B85-C2E7-4D90-B15A-4E8C6D29F073}',
    STATE_FIPS: '45',
  },
  {
    id: 'willow-creek-emergency-program',
    purpose:
      "A house wholly inside the AE polygon of the demo place (150 m square, BFE 1012 ft) in the City of Willow Creek (200610), which the demo Community Status Book lists in the NFIP's emergency program. The place's X polygon is 600 m away, so no house can straddle the two.",
    demoPlace: 'emergency-program-ae',
    ring: rectangleFootprint([-96.2889, 39.0167], 16, 12),
    buildId: 20_197_001,
    occupancy: RESIDENTIAL,
    state: 'Kansas',
    block: '201970001001007',
    image: ORNL_IMAGE('10400100455B2A00', '2018-09-14'),
    UUID: '{C3E95A27-7D1B-4F60-9B84-2F6A0D3E8C51}',
    STATE_FIPS: '20',
  },
  {
    id: 'twin-forks-two-communities',
    purpose:
      "A house wholly inside the AE square of the demo place, where the City of Twin Forks (200720) and McPherson County (200721) both cover all of it in FEMA's map: its community cannot be told.",
    demoPlace: 'two-communities-overlap',
    ring: rectangleFootprint([-97.65, 38.45], 14, 10),
    buildId: 20_113_001,
    occupancy: RESIDENTIAL,
    state: 'Kansas',
    block: '201130001001008',
    image: ORNL_IMAGE('10400100455B2A01', '2018-09-14'),
    UUID: '{D4F06B38-8E2C-4A71-AC95-3A7B1E4F9D62}',
    STATE_FIPS: '20',
  },
  {
    id: 'houston-across-the-street',
    purpose:
      "A house across the street from 5210 W 34TH ST: 7 m east of the address's point on the street's centre line (the X house is 36.5 m west), in the AE polygon 6430135 and in another census block of the same tract. The nearest building, yet never the address's.",
    demoPlace: 'houston-nearby-hazards',
    ring: rectangleFootprint([DEMO_BUILDING_ADDRESSES.houstonXHouse.lon + 12 * houstonMetre, DEMO_BUILDING_ADDRESSES.houstonXHouse.lat], 10, 10),
    buildId: 48_020_003,
    occupancy: RESIDENTIAL,
    state: 'Texas',
    block: DEMO_BLOCKS.houston34thEast,
    image: ORNL_IMAGE('1040010041C2B700', '2018-11-20'),
    UUID: '{7F2A9C41-3B8E-4D16-A5C7-E09B14D62F83}',
    STATE_FIPS: '48',
  },
];

/** The demo buildings, OBJECTID 1 upwards in this order. */
export const DEMO_STRUCTURES: readonly DemoStructure[] = SPECS.map((spec, i) => structure(spec, i + 1));

export function demoStructure(id: string): DemoStructure {
  const found = DEMO_STRUCTURES.find((s) => s.id === id);
  if (!found) throw new Error(`no demo structure "${id}"`);
  return found;
}
