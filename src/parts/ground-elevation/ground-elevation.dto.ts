import { ApiProperty } from '@nestjs/swagger';
import { nullableNumber } from '../../common/nullable-api-property';

export class GroundElevationComparisonDto {
  @ApiProperty({
    enum: ['static', 'estimated'],
    description: "static: the map's own BFE (staticBaseFloodElevationFt); estimated: estimatedBaseFloodElevation.",
  })
  bfe: string;

  @ApiProperty({ description: 'The base flood elevation compared with, in feet (NAVD88).', example: 38 })
  bfeFt: number;

  @ApiProperty({ description: 'Ground minus BFE in feet (one decimal): negative when the ground is below it.', example: -7.3 })
  differenceFt: number;

  @ApiProperty({
    enum: ['above', 'below', 'within_uncertainty'],
    description: 'within_uncertainty when the difference is no larger than uncertaintyFt; otherwise above or below.',
  })
  position: string;
}

export class GroundElevationDto {
  @nullableNumber('Bare-earth ground elevation at the point in feet (one decimal), from USGS 3DEP; null where 3DEP has no data here.', 30.7)
  elevationFt: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['NAVD88'],
    description: "NAVD88 in the 48 conterminous states and DC; null elsewhere, where 3DEP's vertical datum varies, and where there is no data.",
  })
  verticalDatum: string | null;

  @nullableNumber('Resolution of the elevation model at the point, in metres (1 for lidar); null when not given.', 1)
  resolutionM: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date',
    description: 'When the elevation data was acquired, YYYY-MM-DD; null when not given.',
    example: '2020-03-01',
  })
  acquisitionDate: string | null;

  @nullableNumber(
    'Vertical uncertainty of the elevation in feet: 1.7 where the model is 3 m or finer (USGS: 0.53 m RMSE), else 5.1 (3.04 m at 95%); null where there is no data.',
    1.7,
  )
  uncertaintyFt: number | null;

  @ApiProperty({
    type: GroundElevationComparisonDto,
    nullable: true,
    description:
      'The ground against the base flood elevation (static, else estimated), only when both are in NAVD88: datums are never converted. Null otherwise; the note says why.',
  })
  comparedWith: GroundElevationComparisonDto | null;

  @ApiProperty({
    description:
      'What the elevation is and is not (not the lowest adjacent grade, a floor elevation or an elevation certificate), why it was not compared, and for an address that the point may lie on the street.',
    example:
      'Bare-earth ground at the point from USGS 3DEP, 7.3 ft below the base flood elevation. Not the lowest adjacent grade or a floor elevation, and not an elevation certificate.',
  })
  note: string;
}
