import { CoastalBarrierSource } from '../../coastal-barrier/coastal-barrier-source';
import { coastalBarrierAt } from '../../flood-hazard/coastal-barrier';
import { pointKey } from '../../common/geo-point';
import { optionalPart } from './answer-part';

/** `include=cbrs`: whether the point is in a Coastal Barrier Resources System unit or its buffer. */
export const coastalBarrierPart = optionalPart({
  include: 'cbrs',
  field: 'coastalBarrier',
  description:
    'whether the point lies in a Coastal Barrier Resources System unit or its buffer zone, where new federal flood insurance is restricted (result.coastalBarrier)',
  upstream: 'coastal_barrier',
  source: CoastalBarrierSource,
  cacheKey: (point) => `coastal-barrier:${pointKey(point)}`,
  load: async (source, point, _radiusM, signal) => {
    const { prohibitions, inBufferZone } = await source.coastalBarrierAt(point, signal);
    return coastalBarrierAt(prohibitions, inBufferZone);
  },
  read: (coastalBarrier) => coastalBarrier,
});
