import { derivedPart } from '../answer-part';
import { DeterminationFacts, lenderDetermination } from './determination';
import { DETERMINATION_COLUMNS } from './determination.columns';
import { DeterminationDto } from './determination.dto';
import { DETERMINATION_ON_REPORT } from './determination.words';

/** `include=determination`: the answer shaped like section II of FEMA's Standard Flood Hazard Determination Form. */
export const determinationPart = derivedPart({
  include: 'determination',
  field: 'determination',
  implies: ['structure', 'cbrs'] as const,
  description:
    "the answer shaped like section II of FEMA's Standard Flood Hazard Determination Form: community, map panel, letter of map change, zones, whether " +
    'federal flood insurance is available and whether a federally regulated lender must require it, with notes (result.determination; asks for ' +
    'structure and cbrs too). Informational, never an official determination',
  summary: "the lender's form (FEMA's SFHDF section II) filled in",
  derive: (facts: DeterminationFacts) => {
    const { determination, unavailable } = lenderDetermination(facts);
    return { value: determination, unavailable };
  },
  dto: {
    type: DeterminationDto,
    description:
      "With include=determination: the answer as section II of FEMA's Standard Flood Hazard Determination Form would take it, for a lender's or an " +
      "insurer's system to pre-fill. Informational only. Null when not asked for.",
  },
  csv: { after: 'building_unmapped_share_percent', columns: DETERMINATION_COLUMNS },
  comesFrom: "the other parts of this answer (FEMA's flood map, the building, NFIP status, the Coastal Barrier Resources System)",
  report: DETERMINATION_ON_REPORT,
});
