import { ApiProperty } from '@nestjs/swagger';
import { nullableBoolean, nullableDate, nullableNumber, nullableString } from '../../common/nullable-api-property';

export class StructureZoneDto {
  @ApiProperty({ description: 'Flood zone code.', example: 'AE' })
  floodZone: string;

  @nullableString('Zone subtype (ZONE_SUBTY) as published.', null)
  zoneSubtype: string | null;

  @ApiProperty({ description: 'Whether the zone is a Special Flood Hazard Area.', example: true })
  inSpecialFloodHazardArea: boolean;

  @nullableNumber('Static base flood elevation of the zone in feet.', 11)
  staticBaseFloodElevationFt: number | null;

  @ApiProperty({ type: 'integer', description: "Whole square feet of the building's footprint in this zone.", example: 420 })
  areaSqFt: number;

  @ApiProperty({ description: "Share of the footprint's area in this zone, percent, one decimal.", example: 19 })
  sharePercent: number;
}

export class StructureCandidateDto {
  @nullableString("USA Structures' BUILD_ID, to choose it with `buildId`; null when the layer gives none.", '26010001')
  buildId: string | null;

  @ApiProperty({ description: 'Metres from the point to the footprint, one decimal.', example: 12.4 })
  distanceM: number;

  @nullableString("The building's address in USA Structures (PROP_ADDR), null when it has none (as on whole cities).", '140 1ST ST')
  address: string | null;

  @nullableBoolean(
    'Whether this building would be in the SFHA, from the flood zones over its footprint (one query for all the candidates): true when any part ' +
      'is, false when all of it is mapped and outside, null when unknown.',
    false,
  )
  buildingInSfha: boolean | null;
}

export class FootprintDto {
  @ApiProperty({ enum: ['Polygon', 'MultiPolygon'], description: 'GeoJSON geometry type.' })
  type: string;

  @ApiProperty({
    description: 'GeoJSON coordinates, WGS84 [lon, lat]: a Polygon is a list of rings (outer first, then holes), a MultiPolygon a list of Polygons.',
    type: 'array',
    items: {},
    example: [
      [
        [-87.58752, 45.09995],
        [-87.58729, 45.09995],
        [-87.58729, 45.10005],
        [-87.58752, 45.10005],
        [-87.58752, 45.09995],
      ],
    ],
  })
  coordinates: unknown[];
}

export class StructureDto {
  @ApiProperty({
    enum: ['contains', 'address', 'nearest', 'chosen', 'given', 'none', 'ambiguous'],
    description:
      'How the building was found: its footprint contains the point; the one building near a geocoded point with its address; the nearest near a ' +
      "geocoded point standing in the address's census block (its side of the street) with no other house there within 10 m more; the building " +
      'the caller chose with `buildId`; the footprint the caller gave; none within reach (or every building within reach across the street, listed ' +
      'in `candidates`); or several that cannot be told apart (see `candidates`). With `none` and `ambiguous` every building field, `zones` and ' +
      '`buildingInSfha` are null.',
    example: 'contains',
  })
  match: string;

  @nullableNumber('Metres from the point to the footprint (0 when it contains the point), one decimal.', 0)
  distanceM: number | null;

  @nullableString("USA Structures' BUILD_ID.", '26010001')
  buildId: string | null;

  @nullableString('Occupancy class (OCC_CLS).', 'Residential')
  occupancy: string | null;

  @nullableString('Primary occupancy (PRIM_OCC).', 'Single Family Dwelling')
  primaryOccupancy: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: "The footprint's ground area in whole square feet (found or given).", example: 2210 })
  footprintAreaSqFt: number | null;

  @nullableNumber('Height in metres where USA Structures has one (often not).', 7.4)
  heightM: number | null;

  @nullableDate('Date of the imagery the footprint was drawn from, YYYY-MM-DD (UTC).', '2019-03-02')
  imageDate: string | null;

  @ApiProperty({
    type: StructureZoneDto,
    isArray: true,
    nullable: true,
    description:
      'The flood zones over the whole footprint (polygons of one zone, subtype and BFE summed; slivers under 0.1 m² dropped): SFHA zones first, then ' +
      'by share. Null when no building was chosen or the zones could not be read (then `structure` is in `unavailable`).',
  })
  zones: StructureZoneDto[] | null;

  @nullableNumber('Percent of the footprint in no flood zone (off the digital map or not included), one decimal.', 0)
  unmappedSharePercent: number | null;

  @nullableBoolean(
    'Whether the building is in the SFHA: true when any part of it is; false when all of it is mapped and outside; null when unknown (part of it ' +
      'unmapped, never "no"), or no building.',
    true,
  )
  buildingInSfha: boolean | null;

  @nullableNumber('The highest static base flood elevation among the SFHA zones over the building, feet.', 11)
  highestBfeFt: number | null;

  @ApiProperty({
    type: String,
    isArray: true,
    nullable: true,
    description: 'Every FIRM panel covering the footprint, by panel number.',
    example: ['12086C0457L'],
  })
  firmPanels: string[] | null;

  @ApiProperty({
    type: StructureCandidateDto,
    isArray: true,
    description:
      'With `ambiguous` (or `none` when the buildings within reach all stand across the street): up to 5 buildings within reach, nearest first, ' +
      'any of which can be chosen with `buildId`; else empty.',
  })
  candidates: StructureCandidateDto[];

  @nullableString('Where the footprint comes from.', 'FEMA/ORNL USA Structures (CC BY 4.0)')
  source: string | null;

  @ApiProperty({ description: 'What the zones over the building mean, in one sentence.' })
  note: string;

  @ApiProperty({ type: FootprintDto, nullable: true, description: 'The footprint answered for, as GeoJSON (WGS84); null when no building was chosen.' })
  footprint: FootprintDto | null;
}
