import { ApiProperty } from '@nestjs/swagger';
import { nullableString, nullableNumber } from '../../common/nullable-api-property';

export class NearbyHazardDto {
  @ApiProperty({ type: 'integer', description: "Whole metres from the point to the polygon's nearest edge; 0 inside it.", example: 37 })
  distanceM: number;

  @ApiProperty({ description: 'Flood zone code of the polygon.', example: 'AE' })
  floodZone: string;

  @nullableString('Zone subtype (ZONE_SUBTY) as published.', null)
  zoneSubtype: string | null;

  @nullableNumber('Static base flood elevation of the polygon in feet.', 12)
  staticBaseFloodElevationFt: number | null;
}

export class NearbyHazardsDto {
  @ApiProperty({ type: 'integer', description: 'The search radius in metres (the `radius` parameter, default 500).', example: 500 })
  radiusM: number;

  @ApiProperty({
    type: NearbyHazardDto,
    nullable: true,
    description:
      'Nearest Special Flood Hazard Area polygon (A or V zones) within the radius; null when none was found (unknown, not none, at an unmapped point).',
  })
  sfha: NearbyHazardDto | null;

  @ApiProperty({
    type: NearbyHazardDto,
    nullable: true,
    description: 'Nearest regulatory floodway within the radius; null when none was found (unknown, not none, at an unmapped point).',
  })
  floodway: NearbyHazardDto | null;

  @ApiProperty({
    type: NearbyHazardDto,
    nullable: true,
    description: 'Nearest moderate-risk polygon (shaded X or B) within the radius; null when none was found (unknown, not none, at an unmapped point).',
  })
  moderate: NearbyHazardDto | null;

  @ApiProperty({
    description:
      'What a null entry means here: none within the radius on a mapped point; unknown where FEMA has no digital flood map at the point ' +
      '(result.coverage unmapped), as the ground around it may be unmapped too.',
    example: "Distances to FEMA's digital flood map; a null entry means none of that kind lies within 500 m.",
  })
  note: string;
}
