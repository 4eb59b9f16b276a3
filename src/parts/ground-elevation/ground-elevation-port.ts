import type { GeoPoint } from '../../flood-hazard/flood-hazard.types';
import type { ElevationReply } from './ground-elevation';

/** The USGS Elevation Point Query Service (3DEP ground). The use case sees this, never HTTP. */
export abstract class GroundElevationPort {
  /** The service's reply at the point: its JSON body, or null where it has no data (plain text, "Call failed."); an unreadable reply throws. */
  abstract groundAt(point: GeoPoint, deadline: AbortSignal): Promise<ElevationReply>;
}
