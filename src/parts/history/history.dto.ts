import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { nullableNumber, nullableString } from '../../common/nullable-api-property';

const WITHHELD = 'Present, always 10, only when the count is withheld: a count from 1 to 9 is given as null, never exactly (it could point at a neighbour).';

export class HistoryAreaDto {
  @ApiProperty({
    enum: ['census_tract'],
    description:
      "The area the record is of: the census tract of the point, or, where include=structure found a building, the building's (USA Structures' CENSUSCODE).",
  })
  kind: string;

  @ApiProperty({ description: 'The 11-digit census tract GEOID (state, county, tract).', example: '48201312300' })
  geoid: string;

  @nullableString(
    "The tract's county, as the Census geocoder names it; null when it did not name one, or when the building's tract lies in another county than the point.",
    'Harris County',
  )
  county: string | null;

  @ApiProperty({ description: "The county's 5-digit FIPS code: the disaster declarations are the county's.", example: '48201' })
  countyFips: string;
}

export class YearCountDto {
  @ApiProperty({ description: 'Year of loss.', example: 2017 })
  year: number;

  @nullableNumber('Claims with a loss that year; null when 1 to 9 (withheld).', 160)
  count: number | null;

  @ApiPropertyOptional({ enum: [10], description: WITHHELD })
  fewerThan?: number;
}

export class LargestEventDto {
  @ApiProperty({ description: 'Year of loss.', example: 2017 })
  year: number;

  @ApiProperty({ description: 'Claims with a loss that year (always 10 or more: smaller years are never listed here).', example: 160 })
  count: number;

  @nullableString(
    "The event: the name most of the year's claims carry (OpenFEMA's floodEvent), else the title of the county's flood declaration that year; null when neither says.",
    'Hurricane Harvey',
  )
  event: string | null;
}

export class AreaClaimsDto {
  @nullableNumber('NFIP claims in the tract since 1978 (0 only when OpenFEMA answered and has none); null when 1 to 9 (withheld).', 214)
  count: number | null;

  @ApiPropertyOptional({ enum: [10], description: WITHHELD })
  fewerThan?: number;

  @nullableNumber('Year of the first claim; null when there is none.', 1978)
  firstYear: number | null;

  @nullableNumber('Year of the latest claim; null when there is none.', 2024)
  lastYear: number | null;

  @nullableNumber(
    'Percent (one decimal) of the claims whose rated flood zone is known that were rated outside the Special Flood Hazard Area (a zone that is neither A nor V). Null when the count is withheld or no claim gives its zone.',
    31.3,
  )
  outsideSfhaSharePercent: number | null;

  @nullableNumber(
    'Paid on building, contents and increased cost of compliance, in US dollars rounded to the nearest 100,000; null when the count is withheld.',
    18400000,
  )
  paidUsd: number | null;

  @ApiProperty({ type: [YearCountDto], description: 'Claims per year of loss, oldest first; only years with claims.' })
  byYear: YearCountDto[];

  @ApiProperty({ type: [LargestEventDto], description: 'The years with the most claims (at most 3, each with 10 or more), most first.' })
  largestEvents: LargestEventDto[];
}

export class AreaPoliciesDto {
  @nullableNumber('NFIP policies in force in the tract on asOf; null when 1 to 9 (withheld).', 388)
  inForce: number | null;

  @ApiPropertyOptional({ enum: [10], description: WITHHELD })
  fewerThan?: number;

  @ApiProperty({ format: 'date', description: 'The day the policies were in force (UTC): the day OpenFEMA was asked.', example: '2026-10-31' })
  asOf: string;
}

export class FloodDeclarationDto {
  @ApiProperty({ example: 4332 })
  disasterNumber: number;

  @ApiProperty({ format: 'date', description: 'UTC date of the declaration.', example: '2017-08-25' })
  declarationDate: string;

  @ApiProperty({ description: "FEMA's incident type: Flood, Hurricane, Severe Storm, Coastal Storm, Typhoon or Dam/Levee Break.", example: 'Hurricane' })
  incidentType: string;

  @ApiProperty({ description: "The declaration's title as FEMA gives it.", example: 'HURRICANE HARVEY' })
  title: string;

  @ApiProperty({ description: 'DR (major disaster), EM (emergency) or FM (fire management).', example: 'DR' })
  declarationType: string;
}

export class AreaHistoryDto {
  @ApiProperty({ type: HistoryAreaDto })
  area: HistoryAreaDto;

  @ApiProperty({ type: AreaClaimsDto, description: 'NFIP claims in the tract (NFIP Redacted Claims v3).' })
  claims: AreaClaimsDto;

  @ApiProperty({ type: AreaPoliciesDto, description: 'NFIP policies in force in the tract (NFIP Redacted Policies v3).' })
  policies: AreaPoliciesDto;

  @ApiProperty({
    type: [FloodDeclarationDto],
    description: "The county's flood-related federal disaster declarations (Disaster Declarations Summaries v2), newest first, at most 20.",
  })
  declarations: FloodDeclarationDto[];

  @ApiProperty({ example: 'FEMA OpenFEMA: NFIP Redacted Claims v3, NFIP Redacted Policies v3, Disaster Declarations Summaries v2' })
  source: string;

  @ApiProperty({
    description:
      "That this is the area's record, not the property's (a property's own claims are private by law), and how its numbers are withheld and rounded.",
  })
  note: string;
}
