import { ApiProperty } from '@nestjs/swagger';
import { nullableString } from '../../common/nullable-api-property';

export class CoastalBarrierDto {
  @ApiProperty({
    enum: ['inside', 'buffer', 'outside'],
    description: 'inside a CBRS unit (System Unit or Otherwise Protected Area), only in its buffer zone (an official determination is advised), or outside.',
  })
  status: string;

  @nullableString('CBRS unit id; null unless inside.', 'FL-64P')
  unit: string | null;

  @ApiProperty({ type: String, nullable: true, enum: ['System Unit', 'Otherwise Protected Area'], description: 'Unit type; null unless inside.' })
  type: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date',
    description: 'When the federal flood insurance prohibition began (FI_Date), YYYY-MM-DD (UTC); null unless inside.',
    example: '1990-11-16',
  })
  floodInsuranceProhibitionDate: string | null;

  @ApiProperty({ description: 'What the status means for federal flood insurance.' })
  note: string;
}
