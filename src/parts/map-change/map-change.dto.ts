import { ApiProperty } from '@nestjs/swagger';
import { nullableString, nullableNumber } from '../../common/nullable-api-property';

export class MapChangeDto {
  @ApiProperty({
    enum: ['pending', 'preliminary', 'none'],
    description: 'pending: adopted, with an effective date set; preliminary: issued, still open to appeal; none: no coming map here.',
  })
  status: string;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date',
    description: 'When the coming map was issued (PRELM_ISSUE_DATE), YYYY-MM-DD (UTC); null for none.',
    example: '2025-05-15',
  })
  issuedDate: string | null;

  @nullableString('Governing flood zone on the coming map.', 'AE')
  floodZone: string | null;

  @nullableString('Its zone subtype as published.', null)
  zoneSubtype: string | null;

  @ApiProperty({ type: Boolean, nullable: true, description: 'Whether the coming map puts the point in the SFHA; null when it has no zone here.' })
  inSpecialFloodHazardArea: boolean | null;

  @nullableNumber('Static base flood elevation on the coming map, in feet.', 9)
  staticBaseFloodElevationFt: number | null;

  @ApiProperty({
    enum: ['into_sfha', 'out_of_sfha', 'unchanged', 'unknown'],
    description:
      'How the SFHA status changes from the effective map to the coming one; unknown when either has no zone here, and at an unmapped point ' +
      '(no digital effective map) even when no coming map covers it.',
  })
  sfhaChange: string;

  @ApiProperty({
    description:
      'Says that a coming map does not yet set flood insurance requirements, or, with none, that the effective map stays (at an unmapped point: ' +
      'that there is no digital flood map here, so a change is unknown).',
    example: 'A preliminary map is not the effective map and does not yet set flood insurance requirements.',
  })
  note: string;
}
