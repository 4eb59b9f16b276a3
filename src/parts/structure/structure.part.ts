import { pointKey } from '../../common/geo-point';
import { optionalPart } from '../answer-part';
import { BuildingSurvey } from './building-survey.client';
import { footprintKey } from './footprint-geometry';
import { StructureDto } from './structure.dto';
import { StructureModule } from './structure.module';
import { STRUCTURE_COLUMNS, STRUCTURE_ON_REPORT } from './structure.words';

/** `include=structure`: the building at the location and the flood zones over its whole footprint. */
export const structurePart = optionalPart({
  include: 'structure',
  field: 'structure',
  description:
    'the building at the location (FEMA/ORNL USA Structures, or the footprint given with POST) and the flood zones over its whole footprint: a building any ' +
    'part of which is in the SFHA is in the SFHA (result.structure)',
  summary: 'the building and the flood zones over its whole footprint',
  upstream: 'structures',
  module: StructureModule,
  port: BuildingSurvey,
  // A geocoded point's building is chosen by its address and its block too, or by the caller's buildId; a given footprint is answered for itself wherever it is.
  cacheKey: ({ point, matchedAddress, addressBlock, footprint, buildId }) => {
    if (footprint) return `structure:given:${pointKey(point)}:${footprintKey(footprint)}`;
    if (buildId !== null) return `structure:chosen:${pointKey(point)}:${buildId}`;
    return `structure:${pointKey(point)}:${matchedAddress ?? ''}:${addressBlock ?? ''}`;
  },
  load: (survey, request, signal) => survey.survey(request, signal),
  read: (surveyed) => surveyed.structure,
  incomplete: (surveyed) => !surveyed.complete,
  dto: {
    type: StructureDto,
    description:
      'With include=structure (or a footprint given with POST): the building and the flood zones over its whole footprint. Null when not asked for, or ' +
      'when USA Structures did not answer (then `structure` is in `unavailable`).',
  },
  csv: { after: 'cbrs_status', columns: STRUCTURE_COLUMNS },
  comesFrom: "FEMA's building footprints (USA Structures, with Oak Ridge National Laboratory)",
  report: STRUCTURE_ON_REPORT,
});
