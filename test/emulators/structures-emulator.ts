/**
 * FEMA/ORNL USA Structures, the building footprints FEMA publishes as an ArcGIS Online hosted FeatureServer
 * (a view), on loopback: base `/FiaPA4ga0iQKduv3/arcgis/rest/services/USA_Structures_View/FeatureServer`, one
 * polygon layer, 0 "USA_Structures_B". The protocol is the MapServer emulator's (arcgis-emulator.ts, with
 * arcgis-query.ts: point, envelope, `distance` buffer measured to each polygon, where, outFields, paging,
 * returnCountOnly, faults and call log); what a hosted layer does differently is done here:
 *
 *   - the service root and the layer document come from fixtures/structures/ (see SOURCES.md there);
 *   - a query answer is shaped as ArcGIS Online shapes it (objectIdFieldName, uniqueIdField, globalIdFieldName,
 *     geometryProperties, then geometryType, spatialReference, fields with their sqlType, exceededTransferLimit
 *     before the features);
 *   - geometry without `inSR` is read, and answered without `outSR`, in the layer's own Web Mercator;
 *   - every query it cannot run is `{"error":{"code":400,"message":"","details":["Unable to perform query.
 *     Please check your parameters."]}}` in HTTP 200, whatever was wrong;
 *   - there is no `export` operation (a FeatureServer draws no pictures).
 */
import { ArcGisEmulatorOptions, ArcGisMapServerEmulator, MapServiceDefinition, ServedLayer, readFixture } from './arcgis-emulator';
import { queryFocus } from './arcgis-query';
import type { CallRecord } from './emulator-core';
import type { Position } from './geometry';
import type { ArcGisField } from './map-data';
import { DEMO_STRUCTURES, type DemoStructure } from './structure-footprints';

export const USA_STRUCTURES_BASE_PATH = '/FiaPA4ga0iQKduv3/arcgis/rest/services/USA_Structures_View/FeatureServer';
export const USA_STRUCTURES_LAYER_ID = 0;
export const USA_STRUCTURES_LAYER_NAME = 'USA_Structures_B';

/** ArcGIS Online's answer (in HTTP 200) to a query it cannot run: a bad parameter, or its own timeout on a huge one. */
export const UNABLE_TO_PERFORM_QUERY = {
  error: { code: 400, message: '', details: ['Unable to perform query. Please check your parameters.'] },
};

/** The layer's own spatial reference: what geometry without `inSR` is read in and what an answer without `outSR` is in. */
const LAYER_WKID = '102100';

export interface StructuresEmulatorOptions extends ArcGisEmulatorOptions {
  /** The buildings served; default `DEMO_STRUCTURES`. */
  structures?: readonly DemoStructure[];
}

/** A layer field as the layer document lists it (a query answer repeats it without nullable / editable). */
interface LayerField extends ArcGisField {
  sqlType: string;
  nullable?: boolean;
  editable?: boolean;
  defaultValue?: unknown;
}

/** What the served layer reads its features from on every query. */
interface ServedStructures {
  structures: readonly DemoStructure[];
}

export class StructuresFeatureServerEmulator extends ArcGisMapServerEmulator {
  private readonly served: ServedStructures;

  private constructor(options: StructuresEmulatorOptions, served: ServedStructures = { structures: options.structures ?? DEMO_STRUCTURES }) {
    super(USA_STRUCTURES_BASE_PATH, options, structuresService(served));
    this.served = served;
  }

  /** The buildings served; may be replaced between requests. */
  get structures(): readonly DemoStructure[] {
    return this.served.structures;
  }

  set structures(structures: readonly DemoStructure[]) {
    this.served.structures = structures;
  }

  static async start(options: StructuresEmulatorOptions = {}): Promise<StructuresFeatureServerEmulator> {
    const emulator = new StructuresFeatureServerEmulator(options);
    await emulator.listen(options);
    return emulator;
  }

  /** URL of the buildings layer: what the service is configured with (STRUCTURES_BASE_URL). */
  get layerUrl(): string {
    return `${this.baseUrl}/${USA_STRUCTURES_LAYER_ID}`;
  }

  /** URL of the buildings layer's query endpoint. */
  get layerQueryUrl(): string {
    return this.queryUrl(USA_STRUCTURES_LAYER_ID);
  }

  /** Count of queries to the buildings layer. */
  queryCount(): number {
    return this.callCount({ endpoint: 'query', layerId: USA_STRUCTURES_LAYER_ID });
  }

  protected describe(subPath: string): Pick<CallRecord, 'endpoint' | 'layerId' | 'layerName'> {
    return subPath === 'export' ? { endpoint: 'unknown' } : super.describe(subPath);
  }

  protected queryPoint(params: Record<string, string>): Position | undefined {
    return queryFocus(inLayerReference(params));
  }

  protected queryBody(layer: ServedLayer, params: Record<string, string>, f: string): unknown {
    return hostedAnswer(super.queryBody(layer, inLayerReference(params), f), layer.metadata.fields as LayerField[]);
  }
}

function structuresService(served: ServedStructures): MapServiceDefinition {
  const root = readFixture('structures/usa-structures-featureserver.json');
  const metadata = readFixture('structures/usa-structures-layer-0.json');
  const rootEntry = (root.layers as Array<Record<string, unknown>>)[0];
  const layer: ServedLayer = {
    id: USA_STRUCTURES_LAYER_ID,
    name: USA_STRUCTURES_LAYER_NAME,
    rootEntry,
    metadata,
    data: {
      geometryType: 'esriGeometryPolygon',
      fields: metadata.fields as ArcGisField[],
      displayField: metadata.displayField as string,
      // read on every query, so a test may change the buildings between requests
      get features() {
        return served.structures.map((s) => s.feature);
      },
    },
  };
  return { title: 'USA_Structures_View (FeatureServer)', root, layers: [layer] };
}

/** The query as the layer reads it: plain coordinates without `inSR`, and an answer without `outSR`, are Web Mercator. */
function inLayerReference(params: Record<string, string>): Record<string, string> {
  const given = (name: string) => (params[name] ?? '').trim() !== '';
  const geometryNamesItsReference = /spatialReference/.test(params.geometry ?? '');
  return {
    ...params,
    ...(given('inSR') || geometryNamesItsReference ? {} : { inSR: LAYER_WKID }),
    ...(given('outSR') ? {} : { outSR: LAYER_WKID }),
  };
}

/** A MapServer-shaped query answer (arcgis-query.ts) in ArcGIS Online's shape; counts, ids and GeoJSON are alike. */
function hostedAnswer(body: unknown, layerFields: readonly LayerField[]): unknown {
  const answer = body as Record<string, unknown>;
  if ('error' in answer) return UNABLE_TO_PERFORM_QUERY;
  if (!('features' in answer) || answer.type === 'FeatureCollection') return answer;
  const byName = new Map(layerFields.map((fd) => [fd.name, fd]));
  return {
    objectIdFieldName: 'OBJECTID',
    uniqueIdField: { name: 'OBJECTID', isSystemMaintained: true },
    globalIdFieldName: '',
    geometryProperties: { shapeAreaFieldName: 'Shape__Area', shapeLengthFieldName: 'Shape__Length', units: 'esriMeters' },
    geometryType: answer.geometryType,
    spatialReference: answer.spatialReference,
    fields: (answer.fields as ArcGisField[]).map((fd) => {
      const { nullable: _nullable, editable: _editable, ...asAnswered } = byName.get(fd.name) as LayerField;
      return asAnswered;
    }),
    ...(answer.exceededTransferLimit ? { exceededTransferLimit: true } : {}),
    features: answer.features,
  };
}
