import { ApiProperty } from '@nestjs/swagger';
import { nullableBoolean, nullableDate, nullableString } from '../../common/nullable-api-property';

export class DeterminationCommunityDto {
  @nullableString(
    "The NFIP community's name as FEMA's map gives it: with basis building the community whose political jurisdiction covers the largest share " +
      "of the footprint, else the point's; null when FEMA maps no community there or its map did not answer, and null when two or more are " +
      'mapped there and none can be told to be its own (covering equal shares of the footprint to the tenth of a percent, or at the point ' +
      'several at all): a note names them.',
    'City of Houston',
  )
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
      "LOMR: an effective Letter of Map Revision whose area covers part of the building's footprint (or the point, basis point): it changed the " +
      "map itself; LOMA: a valid letter from FEMA's Letters of Map Amendment (LOMR-Fs included) whose point lies inside the building's " +
      'footprint (basis building only).',
  })
  kind: string;

  @nullableString("FEMA's case number.", '19-06-1234P')
  caseNumber: string | null;

  @nullableDate('When the letter took effect, YYYY-MM-DD (UTC); null when FEMA gives no date.', '2020-02-14')
  effectiveDate: string | null;
}

export class NearbyLetterDto {
  @nullableString("FEMA's case number.", '15-06-1489A')
  caseNumber: string | null;

  @nullableDate('When the letter took effect, YYYY-MM-DD (UTC); null when FEMA gives no date.', '2015-06-02')
  effectiveDate: string | null;

  @ApiProperty({
    description: "Metres from the building's footprint (0: inside it), or from the point with basis point, one decimal.",
    example: 23,
  })
  distanceM: number;
}

export class DeterminationMapDto {
  @nullableBoolean(
    "Box B5, no NFIP map: false where a map exists (FEMA's digital map covers the place, a FIRM panel is named there, or the Community Status " +
      "Book dates the community's initial FIRM or current map); true only where the Status Book lists the community with no map at all; null " +
      'when that cannot be told (no digital map, no panel, and the community unknown or not in the book).',
    false,
  )
  noNfipMap: boolean | null;

  @ApiProperty({
    description:
      "Whether FEMA's digital flood map (NFHL) maps the place (the point, or a flood zone on the building's footprint). False with a panel: a " +
      'paper FIRM, whose zones are not in the answer.',
    example: true,
  })
  digital: boolean;

  @nullableString(
    'The governing FIRM panel (number and suffix), a paper panel too: with basis building the panel covering the largest share of the footprint, ' +
      'else the one at the point; null when none, or when the building or its footprint could not be read.',
    '48201C0865L',
  )
  panel: string | null;

  @nullableDate("The governing panel's effective date, YYYY-MM-DD (UTC); null when none.", '2007-06-18')
  panelEffectiveDate: string | null;

  @ApiProperty({
    type: LetterOfMapChangeDto,
    nullable: true,
    description:
      "Box B4, this building's letter or none: an effective LOMR covering part of the building's footprint (or the point, basis point), the " +
      'newest; else a valid LOMA whose point lies inside the footprint (basis building). Null when none was found, and when the building could ' +
      'not be looked up (a note says when the letters could not be checked).',
  })
  letterOfMapChange: LetterOfMapChangeDto | null;

  @ApiProperty({
    type: [NearbyLetterDto],
    nullable: true,
    description:
      "Valid LOMAs within 30 m of the building's footprint (or of the point) that the form's letter does not name, nearest first, at most 5: " +
      'each may concern this building and should be read (a note says so). Null when the letters could not be read.',
  })
  nearbyLetters: NearbyLetterDto[] | null;
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
      'the building (any part of its footprint; the point, with basis point or the building not looked up) is inside a CBRS unit or OPA (it ' +
      'depends on when the building was built).',
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
    enum: ['participating', 'not_participating', 'not_listed', 'nfip_status_unknown', 'community_ambiguous', 'coastal_barrier', 'coastal_barrier_unknown'],
    description:
      "Why: the community participates or does not (the Community Status Book's word), is not in the book, or its standing is unknown; " +
      'several communities are mapped at the building (or the point) and which one it lies in cannot be told (`community_ambiguous`); or the ' +
      'building (or the point) is inside a CBRS unit or OPA, or whether it is could not be checked.',
    example: 'participating',
  })
  reason: string;

  @ApiProperty({
    type: DeterminationCoastalBarrierDto,
    nullable: true,
    description:
      "Box C3: the CBRS unit or OPA any part of the building's footprint lies inside (the point's, with basis point or the building not looked " +
      'up); null elsewhere. Given beside `program` (box C1) in a participating community.',
  })
  coastalBarrier: DeterminationCoastalBarrierDto | null;
}

export class DeterminationDto {
  @ApiProperty({
    enum: ['building', 'point'],
    description:
      'building: the answers are for the building found (or given), judged over its footprint, or unknown when it could not be looked up this ' +
      "time (USA Structures or the footprint's zones not answering: never the point's answer); point: USA Structures answered and no building " +
      'could be chosen, the answers are for the point.',
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
    description:
      "The building's (or the point's) flood zones, each once, SFHA zones first; null when none is known: the building or its footprint's zones " +
      "could not be read, or FEMA's digital map gives no zone there.",
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
