/**
 * Any ArcGIS MapServer served from an `ArcGisServiceData` (map-data.ts), with the protocol, faults and call
 * counts of every MapServer emulator: FEMA's preliminary and pending NFHL maps and the U.S. Fish and Wildlife
 * Service's Coastal Barrier Resources System. The base path is `/arcgis/rest/services/{serviceName}/MapServer`.
 */
import { ArcGisEmulatorOptions, ArcGisMapServerEmulator, MapServiceDefinition, ServedLayer, layerMetadata } from './arcgis-emulator';
import type { ArcGisServiceData } from './map-data';

export const PRELIMINARY_NFHL_SERVICE = 'PrelimPending/Prelim_NFHL';
export const PENDING_NFHL_SERVICE = 'PrelimPending/Pending_NFHL';
export const CBRS_SERVICE = 'CoastalBarrierResourcesSystem';

export function mapServerPath(serviceName: string): string {
  return `/arcgis/rest/services/${serviceName}/MapServer`;
}

export class ArcGisServiceEmulator extends ArcGisMapServerEmulator {
  private constructor(
    readonly data: ArcGisServiceData,
    options: ArcGisEmulatorOptions,
  ) {
    super(mapServerPath(data.serviceName), options, serviceDefinition(data));
  }

  static async start(data: ArcGisServiceData, options: ArcGisEmulatorOptions = {}): Promise<ArcGisServiceEmulator> {
    const emulator = new ArcGisServiceEmulator(data, options);
    await emulator.listen(options);
    return emulator;
  }

  /** The id of the layer with this name (what a client resolves). */
  layerId(name: string): number {
    const layer = this.data.layers.find((l) => l.name === name);
    if (!layer) throw new Error(`${this.data.serviceName} has no layer "${name}"`);
    return layer.id;
  }

  /** Count of queries to the layer with this name. */
  queryCount(name: string): number {
    return this.callCount({ endpoint: 'query', layerId: this.layerId(name) });
  }
}

function serviceDefinition(data: ArcGisServiceData): MapServiceDefinition {
  const mapName = data.serviceName.split('/').pop() as string;
  const layers = data.layers.map((l): ServedLayer => {
    const rootEntry = {
      id: l.id,
      name: l.name,
      parentLayerId: -1,
      defaultVisibility: true,
      subLayerIds: null,
      minScale: 0,
      maxScale: 0,
      type: 'Feature Layer',
      geometryType: l.geometryType,
    };
    return { id: l.id, name: l.name, rootEntry, metadata: layerMetadata(l), data: l };
  });
  const spatialReference = { wkid: 4269, latestWkid: 4269 };
  const root = {
    currentVersion: 11.1,
    serviceDescription: '',
    mapName,
    description: '',
    copyrightText: '',
    supportsDynamicLayers: false,
    layers: layers.map((l) => l.rootEntry),
    tables: [],
    spatialReference,
    singleFusedMapCache: false,
    units: 'esriDecimalDegrees',
    capabilities: 'Map,Query,Data',
    supportedQueryFormats: 'JSON, geoJSON, PBF',
  };
  return { title: `${mapName} (MapServer)`, root, layers };
}
