import { pointKey } from '../../common/geo-point';
import { optionalPart } from '../answer-part';
import { coastalBarrierAt } from './coastal-barrier';
import { CoastalBarrierDto } from './coastal-barrier.dto';
import { CoastalBarrierModule } from './coastal-barrier.module';
import { CoastalBarrierPort } from './coastal-barrier-port';
import { COASTAL_BARRIER_ON_REPORT } from './coastal-barrier.words';

/** `include=cbrs`: whether the point is in a Coastal Barrier Resources System unit or its buffer. */
export const coastalBarrierPart = optionalPart({
  include: 'cbrs',
  field: 'coastalBarrier',
  description:
    'whether the point lies in a Coastal Barrier Resources System unit or its buffer zone, where new federal flood insurance is restricted (result.coastalBarrier)',
  summary: 'Coastal Barrier Resources System',
  upstream: 'coastal_barrier',
  module: CoastalBarrierModule,
  port: CoastalBarrierPort,
  cacheKey: ({ point }) => `coastal-barrier:${pointKey(point)}`,
  load: async (port, { point }, signal) => {
    const { prohibitions, inBufferZone } = await port.coastalBarrierAt(point, signal);
    return coastalBarrierAt(prohibitions, inBufferZone);
  },
  read: (coastalBarrier) => coastalBarrier,
  dto: {
    type: CoastalBarrierDto,
    description:
      "With include=cbrs: the U.S. Fish and Wildlife Service's Coastal Barrier Resources System, where new federal flood insurance is generally barred. Null when not asked for.",
  },
  csv: { after: 'map_change_zone', columns: [{ name: 'cbrs_status', cell: (coastalBarrier) => coastalBarrier?.status }] },
  comesFrom: "the U.S. Fish and Wildlife Service's Coastal Barrier Resources System map",
  report: COASTAL_BARRIER_ON_REPORT,
});
