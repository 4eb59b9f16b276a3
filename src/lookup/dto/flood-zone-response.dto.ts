import { ApiProperty } from '@nestjs/swagger';
import { nullableBoolean, nullableDate, nullableNumber, nullableString } from '../../common/nullable-api-property';
import { BFE_LINE_REACH_M } from '../../flood-hazard/bfe-estimate';
import { COVERAGES, RISK_LEVELS } from '../../flood-hazard/flood-hazard.types';
import { LOMA_REACH_M } from '../../flood-hazard/loma-status';
import { ANSWER_PARTS, INCLUDED_PARTS } from '../../parts/answer-parts';

/** OpenAPI description of the GET /flood-zone answer (docs/api.md). Every field is always present. */

export class QueryEchoDto {
  @nullableString('The address as sent, or null for a lat/lon query.', '1600 pennsylvania ave nw, washington dc')
  address: string | null;

  @nullableNumber('The latitude as sent, or null for an address query.', null)
  lat: number | null;

  @nullableNumber('The longitude as sent, or null for an address query.', null)
  lon: number | null;
}

export class LocationDto {
  @nullableString('Address as normalised by the geocoder (upper case); null for a lat/lon query.', '1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500')
  matchedAddress: string | null;

  @ApiProperty({ description: 'Latitude of the point.', example: 38.8987 })
  lat: number;

  @ApiProperty({ description: 'Longitude of the point.', example: -77.0352 })
  lon: number;

  @nullableString('County name, from the Census geocoder; null when unknown.', 'District of Columbia')
  county: string | null;

  @nullableString('5-digit county FIPS code; null when unknown.', '11001')
  countyFips: string | null;

  @nullableString('Postal ZIP of the matched address, or for a lat/lon query the ZIP Code Tabulation Area (ZCTA); null when unknown.', '20500')
  zip: string | null;

  @ApiProperty({ enum: ['census_geocoder', 'coordinates'], description: 'Where the point came from.' })
  source: 'census_geocoder' | 'coordinates';
}

export class FirmPanelDto {
  @ApiProperty({ description: 'Full FIRM panel identifier (includes the suffix).', example: '11001C0019C' })
  panel: string;

  @nullableString('Panel number part.', '0019')
  panelNumber: string | null;

  @nullableString('Panel suffix letter.', 'C')
  suffix: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date',
    description: 'Effective date, YYYY-MM-DD (UTC); null when not published.',
    example: '2010-09-27',
  })
  effectiveDate: string | null;

  @nullableString('Panel type as published by FEMA.', 'Countywide, Panel Printed')
  panelType: string | null;
}

export class NfipStatusDto {
  @ApiProperty({
    description:
      "Whether FEMA's Community Status Book lists the community. When false every other field is null: whether federal flood insurance is " +
      'available is then unknown, not "no".',
    example: true,
  })
  listed: boolean;

  @nullableBoolean('Whether the community participates in the National Flood Insurance Program (NFIP); null when not listed or not stated.', true)
  participating: boolean | null;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['regular', 'emergency'],
    description:
      "The participating community's program: `regular` once it has a Flood Insurance Rate Map (the book gives its initial FIRM date, or marks " +
      'it as having no Special Flood Hazard Area), `emergency` before (lower coverage limits). Null when it does not participate, is not ' +
      'listed, or the book does not tell.',
    example: 'regular',
  })
  program: string | null;

  @nullableBoolean(
    'Whether federal flood insurance (an NFIP policy) can be bought here: exactly `participating`. It says nothing of private flood insurance, ' +
      'nor whether a lender requires a policy.',
    true,
  )
  floodInsuranceAvailable: boolean | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: 9,
    description: 'Community Rating System (CRS) class, 1 (best) to 9; null when the community is not in the CRS (class 10 or none) or not listed.',
    example: 5,
  })
  crsClass: number | null;

  @nullableNumber(
    "The CRS discount, in whole percent, on NFIP premiums for policies inside the Special Flood Hazard Area; null when none. It is the community's " +
      'discount, not a quote: a policy premium depends on the building.',
    25,
  )
  sfhaDiscountPercent: number | null;

  @nullableNumber("The CRS discount, in whole percent, on NFIP premiums for policies outside the SFHA; null when none. The community's, not a quote.", 10)
  nonSfhaDiscountPercent: number | null;

  @nullableDate("The community's current effective flood map date as the book lists it, YYYY-MM-DD (UTC); null when none or unreadable.", '2007-06-18')
  currentEffectiveMapDate: string | null;

  @nullableDate(
    'The date the community entered the program (the regular program, or the emergency program), YYYY-MM-DD (UTC); null when none or unreadable.',
    '1979-09-28',
  )
  programEntryDate: string | null;

  @nullableDate(
    "The date FEMA last refreshed the community's row, YYYY-MM-DD (UTC): the age of this answer's NFIP data (an old table is still used, and shows its age here).",
    '2026-11-22',
  )
  asOf: string | null;

  @ApiProperty({
    description: 'What the standing means for federal flood insurance here, in one or two sentences (the wording may change).',
    example:
      'Federal flood insurance (NFIP) is available: the community participates. Its Community Rating System class 5 gives a 25% discount in the SFHA and 10% outside it.',
  })
  note: string;
}

export class CommunityDto {
  @nullableString('NFIP community name.', 'District of Columbia')
  name: string | null;

  @nullableString('6-character NFIP community id (CID).', '110001')
  communityId: string | null;

  @ApiProperty({
    type: NfipStatusDto,
    nullable: true,
    description:
      "The community's standing in the NFIP, from FEMA's Community Status Book (OpenFEMA), joined on the community id. Null only when no " +
      'copy of the book could be had, and then `nfipStatus` is in `unavailable`.',
  })
  nfip: NfipStatusDto | null;
}

export class LomrDto {
  @nullableString('LOMR case number.', '19-03-0123P')
  caseNumber: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date', description: 'Effective date, YYYY-MM-DD (UTC).', example: '2020-02-14' })
  effectiveDate: string | null;
}

export class ZoneAtPointDto {
  @ApiProperty({ description: 'Flood zone code as published (includes OPEN WATER / AREA NOT INCLUDED).', example: 'AE' })
  floodZone: string;

  @nullableString('Zone subtype (ZONE_SUBTY) as published.', null)
  zoneSubtype: string | null;

  @ApiProperty({ type: Boolean, nullable: true, description: 'Whether this zone is a Special Flood Hazard Area; null for non-zone areas.' })
  inSpecialFloodHazardArea: boolean | null;

  @nullableNumber('Static base flood elevation in feet.', 583)
  staticBaseFloodElevationFt: number | null;
}

export class LomaDto {
  @nullableString('LOMA case number (CASENUMBER).', '15-10-1489A')
  caseNumber: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date',
    description: 'Effective date (DATEENDED), YYYY-MM-DD (UTC); null when not published.',
    example: '2015-06-02',
  })
  effectiveDate: string | null;

  @ApiProperty({
    enum: ['valid', 'denied', 'incorporated', 'superseded', 'contact_community', 'reevaluation_needed'],
    description:
      "FEMA's own reading of the letter (the LOMAs layer's renderer rule): denied by its outcome, otherwise its revalidation status, otherwise valid.",
  })
  status: string;

  @nullableString('Outcome as published (OUTCOME), e.g. "Structure removed-Property partially inundated".', 'Structure removed-Property partially inundated')
  outcome: string | null;

  @nullableString('Project category as published (PROJECTCATEGORY): LOMA, LOMR-F, LOMR-FW, LOMR-VZ.', 'LOMA')
  category: string | null;

  @ApiProperty({ type: 'integer', description: 'Whole metres from the queried point to where FEMA located the letter.', example: 23 })
  distanceM: number;
}

export class BfeLineUsedDto {
  @ApiProperty({ description: 'Elevation of the BFE line in feet (one decimal).', example: 612 })
  elevationFt: number;

  @ApiProperty({ type: 'integer', description: 'Whole metres from the point to the line.', example: 41 })
  distanceM: number;
}

export class EstimatedBaseFloodElevationDto {
  @ApiProperty({ description: 'Estimated base flood elevation in feet (one decimal).', example: 612.4 })
  elevationFt: number;

  @nullableString('Vertical datum of the lines used (V_DATUM); datums are never converted or mixed.', 'NAVD88')
  verticalDatum: string | null;

  @ApiProperty({
    enum: ['interpolated', 'nearest_line'],
    description: 'interpolated between two lines on either side of the point, or the nearest line alone.',
  })
  method: string;

  @ApiProperty({ type: [BfeLineUsedDto], description: 'The lines used, nearest first.' })
  lines: BfeLineUsedDto[];

  @ApiProperty({
    description: 'Says that this is an estimate, not an official BFE.',
    example: "Estimated from FEMA's whole-foot BFE lines; not an official base flood elevation.",
  })
  note: string;
}

export class FloodDeterminationDto {
  @ApiProperty({
    enum: [...COVERAGES],
    description:
      'mapped: a zone polygon covers the point. mapped_no_zone: inside FEMA coverage but no zone at this exact point (not a safe result). unmapped: no digital flood map here (unknown, not "no risk").',
  })
  coverage: string;

  @ApiProperty({ description: 'True for mapped and mapped_no_zone.' })
  isMapped: boolean;

  @nullableString('Governing (most severe) flood zone code; null when no zone applies.', 'AE')
  floodZone: string | null;

  @nullableString('Zone subtype (ZONE_SUBTY) as published, e.g. FLOODWAY or 0.2 PCT ANNUAL CHANCE FLOOD HAZARD.', null)
  zoneSubtype: string | null;

  @ApiProperty({ type: Boolean, nullable: true, description: 'Whether the point is in a regulatory floodway; null when not mapped.' })
  isFloodway: boolean | null;

  @ApiProperty({ type: Boolean, nullable: true, description: 'true in zones A*/V*, false only when mapped outside the SFHA, null when there is no data.' })
  inSpecialFloodHazardArea: boolean | null;

  @ApiProperty({ enum: [...RISK_LEVELS] })
  riskLevel: string;

  @nullableNumber('Static base flood elevation in feet, where the zone has one.', 583)
  staticBaseFloodElevationFt: number | null;

  @nullableString('Vertical datum of the base flood elevation.', 'NAVD88')
  verticalDatum: string | null;

  @nullableNumber('Flood depth in feet (zone AO).', null)
  depthFt: number | null;

  @ApiProperty({ description: 'Plain-language explanation of the result.' })
  meaning: string;

  @nullableString('What to do when the result is not definitive; null when mapped.', null)
  guidance: string | null;

  @ApiProperty({ type: FirmPanelDto, nullable: true, description: 'The FIRM panel containing the point, whatever the coverage; null when none does.' })
  firmPanel: FirmPanelDto | null;

  @ApiProperty({
    type: CommunityDto,
    nullable: true,
    description:
      'NFIP community at the point; null when none, unknown, or ambiguous: where FEMA maps two or more communities at the point (on their ' +
      "shared boundary, or where their polygons overlap) none is taken for the point's, and `communitiesAtPoint` lists them.",
  })
  community: CommunityDto | null;

  @ApiProperty({
    type: [CommunityDto],
    nullable: true,
    description:
      'Every NFIP community FEMA maps at the point, each once, in the order FEMA gives them, with its NFIP standing: the one `community` gives, ' +
      'or the several that make it null (which one the point lies in the floodplain administrator or a determination company decides); [] ' +
      'when none; null when unknown (`community` in `unavailable`).',
  })
  communitiesAtPoint: CommunityDto[] | null;

  @ApiProperty({ type: [LomrDto], nullable: true, description: 'Effective Letters of Map Revision at the point, newest first; null when unknown.' })
  lomrs: LomrDto[] | null;

  @ApiProperty({ type: [ZoneAtPointDto], description: 'Every distinct zone polygon at the point, most severe first.' })
  zonesAtPoint: ZoneAtPointDto[];

  @ApiProperty({
    description: 'FEMA Flood Map Service Center search for the point.',
    example: 'https://msc.fema.gov/portal/search?AddressQuery=38.8987%2C-77.0352',
  })
  femaMapUrl: string;

  @ApiProperty({
    type: [LomaDto],
    nullable: true,
    description:
      `Letters of Map Amendment within ${LOMA_REACH_M} m, nearest first; null when unknown. A LOMA is evidence about one structure or lot, ` +
      'located by its own geocode: it does not change the zone of this point, and may concern a neighbouring building.',
  })
  lomas: LomaDto[] | null;

  @ApiProperty({
    type: EstimatedBaseFloodElevationDto,
    nullable: true,
    description:
      `For AE and AH zones without a printed BFE: an estimate from the BFE lines within ${BFE_LINE_REACH_M} m of the same study. ` +
      'It is not an official base flood elevation and not an elevation certificate. Null when the zone does not call for it, a static BFE exists, or no usable line is near.',
  })
  estimatedBaseFloodElevation: EstimatedBaseFloodElevationDto | null;
}

// The opt-in parts' fields, as the registry of parts declares them, then `unavailable`: decorated in that order, they
// are documented in the order every answer lists them.
for (const part of INCLUDED_PARTS) {
  ApiProperty({ type: part.dto.type, nullable: true, description: part.dto.description })(FloodDeterminationDto.prototype, part.field);
}
ApiProperty({
  type: 'array',
  items: { type: 'string', enum: [...ANSWER_PARTS] },
  description:
    'Parts whose upstream query failed: each is null in this answer (unknown, not "none"; `nfipStatus` is `community.nfip`), and the answer is cached for at most 60 seconds. [] when the answer is complete; a part not asked for is null and not listed. ' +
    "`structure` is also named when the building was found but the zones over it were not read; with include=determination, `community`, `coastalBarrier`, `lomrs` and `lomas` are also named when what the lender's form reads over the building's footprint failed, though the point's own may be given.",
  example: [],
})(FloodDeterminationDto.prototype, 'unavailable');

export class SourceDto {
  @ApiProperty({ example: 'FEMA National Flood Hazard Layer (NFHL)' })
  floodData: string;

  @ApiProperty({ description: 'The flood data service queried.', example: 'https://hazards.fema.gov/arcgis/rest/services/public/NFHL/MapServer' })
  floodService: string;

  @ApiProperty({ description: 'The geocoder and benchmark used.', example: 'U.S. Census Bureau Geocoder (Public_AR_Current)' })
  geocoder: string;
}

export class FloodZoneLookupDto {
  @ApiProperty({ type: QueryEchoDto })
  query: QueryEchoDto;

  @ApiProperty({ type: LocationDto })
  location: LocationDto;

  @ApiProperty({ type: FloodDeterminationDto })
  result: FloodDeterminationDto;

  @ApiProperty({ type: SourceDto })
  source: SourceDto;

  @ApiProperty({
    format: 'date-time',
    description: 'When the flood data was fetched from FEMA (ISO 8601 UTC, milliseconds); a cached answer keeps it.',
    example: '2026-11-22T10:00:00.000Z',
  })
  retrievedAt: string;

  @ApiProperty({ description: 'Informational-use notice.' })
  disclaimer: string;
}
