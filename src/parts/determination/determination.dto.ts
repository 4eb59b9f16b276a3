import { ApiProperty } from '@nestjs/swagger';
import { nullableBoolean, nullableDate, nullableString } from '../../common/nullable-api-property';

export class DeterminationCommunityDto {
  @nullableString("The NFIP community's name as FEMA's map gives it; null when FEMA maps no community here or its map did not answer.", 'City of Houston')
  name: string | null;

  @nullableString('The NFIP community number (CID); null as the name.', '480296')
  number: string | null;

  @nullableString("The location's county; null when unknown.", 'Harris County')
  county: string | null;

  @nullableString("Two-letter USPS code of the county's state or territory; null when the county is unknown.", 'TX')
  state: string | null;
}

export class LetterOfMapChangeDto {
  @ApiProperty({
    enum: ['LOMR', 'LOMA'],
    description:
      "LOMR: an effective Letter of Map Revision at the point (it changed the map itself); LOMA: a valid letter from FEMA's Letters of Map " +
      'Amendment (LOMR-Fs included) within 30 m of the building, or of the point.',
  })
  kind: string;

  @nullableString("FEMA's case number.", '19-06-1234P')
  caseNumber: string | null;

  @nullableDate('When the letter took effect, YYYY-MM-DD (UTC); null when FEMA gives no date.', '2020-02-14')
  effectiveDate: string | null;
}

export class DeterminationMapDto {
  @ApiProperty({ description: 'True exactly when FEMA has no digital flood map (NFHL) at the point (`coverage` unmapped).', example: false })
  noNfipMap: boolean;

  @nullableString(
    'The governing FIRM panel (number and suffix): with basis building the panel covering the largest share of the footprint, else the one at the ' +
      'point; null when none or when the footprint could not be read.',
    '48201C0865L',
  )
  panel: string | null;

  @nullableDate("The governing panel's effective date, YYYY-MM-DD (UTC); null when none.", '2007-06-18')
  panelEffectiveDate: string | null;

  @ApiProperty({
    type: LetterOfMapChangeDto,
    nullable: true,
    description:
      'An effective LOMR at the point, else the nearest valid LOMA within 30 m; null when none was found (a note says when the letters could ' +
      'not be checked).',
  })
  letterOfMapChange: LetterOfMapChangeDto | null;
}

export class DeterminationCoastalBarrierDto {
  @nullableString('CBRS unit id.', 'FL-64P')
  unit: string | null;

  @ApiProperty({ type: String, nullable: true, enum: ['System Unit', 'Otherwise Protected Area'], description: 'Unit type.' })
  type: string | null;

  @nullableDate(
    'When federal flood insurance was first barred in the unit, YYYY-MM-DD (UTC): only a building built before it, and not substantially improved ' +
      'since, may be insured.',
    '1990-11-16',
  )
  designationDate: string | null;
}

export class DeterminationInsuranceDto {
  @nullableBoolean(
    'Whether federal flood insurance (an NFIP policy) can be bought: true where the community participates, false where the Status Book lists ' +
      'it as not participating, null when that is unknown (not listed, the book unavailable, or the coastal barrier status unknown) or when ' +
      'the point is inside a CBRS unit or OPA (it depends on when the building was built).',
    true,
  )
  available: boolean | null;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['regular', 'emergency'],
    description:
      "The community's program: regular (it has a FIRM), emergency (not yet: lower coverage limits); null when it does not participate or it " + 'is unknown.',
    example: 'regular',
  })
  program: string | null;

  @ApiProperty({
    enum: ['participating', 'not_participating', 'not_listed', 'nfip_status_unknown', 'coastal_barrier', 'coastal_barrier_unknown'],
    description:
      "Why: the community participates or does not (the Community Status Book's word), is not in the book, or its standing is unknown; or the " +
      'point is inside a CBRS unit or OPA, or whether it is could not be checked.',
    example: 'participating',
  })
  reason: string;

  @ApiProperty({ type: DeterminationCoastalBarrierDto, nullable: true, description: 'The CBRS unit or OPA the point is inside; null elsewhere.' })
  coastalBarrier: DeterminationCoastalBarrierDto | null;
}

export class DeterminationDto {
  @ApiProperty({
    enum: ['building', 'point'],
    description: 'building: the answers are for the footprint of the building found (or given); point: no building could be located, they are for the point.',
    example: 'building',
  })
  basis: string;

  @ApiProperty({ type: DeterminationCommunityDto, description: 'The NFIP community, its county and state.' })
  community: DeterminationCommunityDto;

  @ApiProperty({ type: DeterminationMapDto, description: 'The flood map the answers come from.' })
  map: DeterminationMapDto;

  @ApiProperty({
    type: [String],
    nullable: true,
    description: "The building's (or the point's) flood zones, each once, SFHA zones first; null when the footprint's zones could not be read.",
    example: ['AE', 'X'],
  })
  floodZones: string[] | null;

  @ApiProperty({ type: DeterminationInsuranceDto, description: 'Whether federal flood insurance is available here, and why.' })
  insurance: DeterminationInsuranceDto;

  @nullableBoolean(
    'Whether the building (any part of its footprint), or the point with basis point, is in a Special Flood Hazard Area; null when unknown.',
    true,
  )
  buildingInSfha: boolean | null;

  @nullableBoolean(
    'The mandatory purchase requirement for a federally regulated or insured lender: true exactly when buildingInSfha and insurance.available are ' +
      'both true; false when the building is outside the SFHA, or in it where no NFIP policy can be bought; null otherwise.',
    true,
  )
  floodInsuranceRequired: boolean | null;

  @ApiProperty({
    type: [String],
    description: 'One plain sentence per fact that changes what a lender must do (the wording may change).',
    example: [
      'Flood insurance is required for a loan on a building here from a federally regulated or insured lender: it is in the SFHA and federal ' +
        'flood insurance is available (the mandatory purchase requirement of the Flood Disaster Protection Act of 1973).',
    ],
  })
  notes: string[];

  @ApiProperty({
    format: 'date-time',
    description: "When the service read FEMA's data (not an official determination date).",
    example: '2026-11-26T21:00:00.000Z',
  })
  determinedAt: string;
}
