import type { CoastalBarrierSource } from '../../coastal-barrier/coastal-barrier-source';
import { coastalBarrierAt } from '../../flood-hazard/coastal-barrier';
import type { CoastalBarrier } from '../../flood-hazard/flood-hazard.types';
import { OptionalAnswerPart, pointKey } from './answer-part';

/** `include=cbrs`: whether the point is in a Coastal Barrier Resources System unit or its buffer. */
export function coastalBarrierPart(source: CoastalBarrierSource): OptionalAnswerPart<'coastalBarrier', CoastalBarrier> {
  return {
    field: 'coastalBarrier',
    askedBy: 'cbrs',
    upstream: 'coastal_barrier',
    cacheKey: (point) => `coastal-barrier:${pointKey(point)}`,
    load: async (point, _radiusM, signal) => {
      const { prohibitions, inBufferZone } = await source.coastalBarrierAt(point, signal);
      return coastalBarrierAt(prohibitions, inBufferZone);
    },
    read: (coastalBarrier) => coastalBarrier,
  };
}
