import type { MapExtent, MapPixels } from '../common/upstream/arcgis-map-server';

/** The basemap under the flood zones (the USGS National Map). The use case sees this, never HTTP. */
export abstract class BasemapPort {
  /** The basemap over the extent. */
  abstract exportBasemap(extent: MapExtent, deadline: AbortSignal): Promise<MapPixels>;
}
