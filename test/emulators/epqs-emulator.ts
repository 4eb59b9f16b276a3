/**
 * Emulator of the USGS Elevation Point Query Service (EPQS, 3DEP), on loopback, answering as the real
 * service does (fixtures/epqs-v1-answers.json). The base URL is the origin, like https://epqs.nationalmap.gov:
 *
 *   GET /v1/json?x={lon}&y={lat}&wkid=4326&units=Feet|Meters&includeDate=true|false
 *
 * One point per call. The elevations come from the points a test or the demo gives it: the nearest one within
 * `withinM` (0 = the exact point only). A point with `callFailed` answers HTTP 200 with the text `Call failed.`;
 * `valueFt: null` answers `"value": null`; -1000000 is the service's own no-data number; `delayMs` makes that
 * point slow. Anywhere else the answer is the no-data number. Missing or unreadable x/y, or a wkid other than
 * 4326: HTTP 400 text/plain `[BadRequest] missing parameters`. Any other path: a 404 HTML page.
 */
import { Answer, CallRecord, EmulatorOptions, RequestContext, UpstreamEmulator, genericErrorPage, htmlAnswer, jsonAnswer } from './emulator-core';
import { haversineMeters, type Position } from './geometry';

/** The service's number for "no elevation at this point". */
export const EPQS_NO_DATA_VALUE = -1000000;

/** The plain-text body of a 200 answer the real service sends where it has no data (not JSON). */
export const EPQS_CALL_FAILED = 'Call failed.';

/** International feet per metre are exact: 0.3048 m per foot. */
const METRES_PER_FOOT = 0.3048;

/** How far from a given point a query still gets its elevation, by default. */
export const EPQS_DEFAULT_WITHIN_M = 100;

/** The elevation the emulator answers at one point. */
export interface EpqsPoint {
  /** [lon, lat]. */
  at: Position;
  /** Ground in feet; null answers `"value": null`; EPQS_NO_DATA_VALUE is the service's own no-data number. */
  valueFt: number | null;
  /** `resolution` in metres; default 1 (lidar). */
  resolution?: number;
  /** `attributes.AcquisitionDate` as the service writes it (M/D/YYYY); default "3/1/2020"; null leaves it out. */
  acquisitionDate?: string | null;
  /** Answer HTTP 200 with the text `Call failed.` instead of JSON. */
  callFailed?: boolean;
  /** Answer this much later (a slow point), on top of the latency and any delay fault. */
  delayMs?: number;
}

export interface EpqsEmulatorOptions extends EmulatorOptions {
  points?: EpqsPoint[];
  /** The nearest given point within this many metres answers; 0 = the exact point only. Default 100. */
  withinM?: number;
}

const DEFAULT_RASTER_ID = 42167;
const DEFAULT_ACQUISITION_DATE = '3/1/2020';

/** The Elevation Point Query Service emulator. */
export class EpqsEmulator extends UpstreamEmulator {
  private points: EpqsPoint[];
  private readonly withinM: number;

  private constructor(options: EpqsEmulatorOptions) {
    super('', options);
    this.points = [...(options.points ?? [])];
    this.withinM = options.withinM ?? EPQS_DEFAULT_WITHIN_M;
  }

  static async start(options: EpqsEmulatorOptions = {}): Promise<EpqsEmulator> {
    const emulator = new EpqsEmulator(options);
    await emulator.listen(options);
    return emulator;
  }

  /** Replaces the points answered (a test gives its own elevations). */
  setPoints(points: EpqsPoint[]): void {
    this.points = [...points];
  }

  /** The given point a query at [lon, lat] is answered from, if any. */
  pointAt(position: Position): EpqsPoint | undefined {
    let nearest: EpqsPoint | undefined;
    let nearestM = Infinity;
    for (const point of this.points) {
      const metres = haversineMeters(position[1], position[0], point.at[1], point.at[0]);
      if (metres < nearestM) {
        nearest = point;
        nearestM = metres;
      }
    }
    return nearestM <= this.withinM ? nearest : undefined;
  }

  protected describe(subPath: string): Pick<CallRecord, 'endpoint'> {
    return { endpoint: subPath === 'v1/json' ? 'json' : 'unknown' };
  }

  protected override queryPoint(params: Record<string, string>): Position | undefined {
    const lon = coordinate(params.x);
    const lat = coordinate(params.y);
    return lon === null || lat === null ? undefined : [lon, lat];
  }

  protected htmlErrorPage(status: number): string {
    return genericErrorPage(status);
  }

  protected answer(ctx: RequestContext): Answer {
    if (ctx.call.endpoint !== 'json') return htmlAnswer(genericErrorPage(404), 404);
    const position = ctx.call.point;
    const wkid = ctx.params.wkid ?? '4326';
    if (position === undefined || wkid !== '4326') {
      return { status: 400, contentType: 'text/plain;charset=UTF-8', body: '[BadRequest] missing parameters' };
    }
    const point = this.pointAt(position);
    if (point?.callFailed) return { status: 200, contentType: 'text/plain;charset=UTF-8', body: EPQS_CALL_FAILED };
    const valueFt = point ? point.valueFt : EPQS_NO_DATA_VALUE;
    const inMetres = (ctx.params.units ?? 'Feet').toLowerCase() === 'meters';
    const value = valueFt === null || valueFt === EPQS_NO_DATA_VALUE || !inMetres ? valueFt : valueFt * METRES_PER_FOOT;
    const acquisitionDate = point ? point.acquisitionDate : null;
    const withDate = (ctx.params.includeDate ?? '').toLowerCase() === 'true' && acquisitionDate !== null;
    return jsonAnswer({
      location: { x: position[0], y: position[1], spatialReference: { wkid: 4326, latestWkid: 4326 } },
      locationId: 0,
      value,
      rasterId: DEFAULT_RASTER_ID,
      resolution: point?.resolution ?? 1,
      ...(withDate ? { attributes: { AcquisitionDate: acquisitionDate ?? DEFAULT_ACQUISITION_DATE } } : {}),
    });
  }

  /** A slow point answers late, on top of the latency and any delay fault. */
  protected override answerDelayMs(call: CallRecord): number {
    return call.endpoint === 'json' && call.point ? (this.pointAt(call.point)?.delayMs ?? 0) : 0;
  }
}

function coordinate(text: string | undefined): number | null {
  if (text === undefined || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}
