import { optionalPart } from '../answer-part';
import { HistoryArea, areaHistory, floodDeclarations } from './area-history';
import { AreaHistoryDto } from './history.dto';
import { HistoryModule } from './history.module';
import { HISTORY_ON_REPORT } from './history.words';
import { TractRecords } from './tract-records.client';

/**
 * `include=history`: the area's flood record from OpenFEMA, for the point's census tract (named by the Census
 * geocoder in the call that names the county, or, where the building part found a building, the building's). Kept per
 * tract, with the county's declarations kept per county, for HISTORY_TTL_SECONDS: the datasets change monthly. A
 * portfolio job where its rows crowd reads its tracts from their county's whole record (see TractRecords).
 */
export const historyPart = optionalPart({
  include: 'history',
  field: 'history',
  description:
    "the area's flood record: NFIP claims and policies in the point's census tract and the county's flood-related disaster declarations, from OpenFEMA; the area's, never the property's (result.history)",
  summary: "OpenFEMA NFIP claims, policies and disaster declarations of the point's census tract and county",
  upstream: 'openfema',
  module: HistoryModule,
  port: TractRecords,
  readsArea: true,
  ttlSecondsVariable: 'HISTORY_TTL_SECONDS',
  answerable: ({ area }) => Boolean(area?.tract && area.countyFips),
  cacheKey: ({ area }) => `history:tract:${area?.tract}`,
  load: async (records, { area }, signal, shared) => {
    const tract = area!.tract!;
    const countyFips = area!.countyFips!;
    const [record, declarations] = await Promise.all([
      records.tractRecord(tract, signal),
      shared(`history:county:${countyFips}`, async (countySignal) => floodDeclarations(await records.countyDeclarations(countyFips, countySignal))),
    ]);
    const place: HistoryArea = { kind: 'census_tract', geoid: tract, county: area!.county, countyFips };
    return { place, ...record, declarations };
  },
  read: ({ place, claims, policies, declarations }) => areaHistory(place, claims, policies, declarations),
  dto: {
    type: AreaHistoryDto,
    description:
      "With include=history: the area's flood record (the census tract's NFIP claims and policies, the county's flood-related disaster declarations) from FEMA's OpenFEMA. " +
      "The area's, not the property's: a property's own claims are private by law. Counts from 1 to 9 are withheld, dollars rounded. Null when not asked for, or when OpenFEMA or the tract could not be had (then named in unavailable).",
  },
  // A withheld count is written as "<10", never the exact small number.
  csv: {
    after: 'ground_minus_bfe_ft',
    columns: [
      { name: 'tract', cell: (history) => history?.area.geoid },
      { name: 'area_claims', cell: (history) => history && (history.claims.count ?? `<${history.claims.fewerThan}`) },
      { name: 'area_claims_outside_sfha_percent', cell: (history) => history?.claims.outsideSfhaSharePercent },
      { name: 'area_flood_declarations', cell: (history) => history?.declarations.length },
    ],
  },
  comesFrom: "FEMA's OpenFEMA (NFIP claims, policies and disaster declarations)",
  report: HISTORY_ON_REPORT,
});
