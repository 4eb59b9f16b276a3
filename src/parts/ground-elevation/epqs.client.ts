import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ResilientUpstream, UpstreamFailure } from '../../common/upstream/resilient-upstream';
import { getUpstreamJson, isRecord } from '../../common/upstream/upstream-json';
import type { AppConfig } from '../../config/app-config';
import type { GeoPoint } from '../../flood-hazard/flood-hazard.types';
import { ElevationReply, elevationReading } from './ground-elevation';
import { GroundElevationPort } from './ground-elevation-port';

export const ELEVATION_UPSTREAM = Symbol('ELEVATION_UPSTREAM');

/**
 * The USGS Elevation Point Query Service (keyless): one GET per point, feet, with the acquisition date.
 * Where 3DEP has no data it answers HTTP 200 with plain text ("Call failed."): that is a reply, not a
 * failure. Network errors, timeouts, 5xx and HTML pages are outages; malformed JSON, a reply whose value
 * cannot be read (see elevationReading), a body over the byte cap, or a 4xx, is a failure at this point only.
 */
@Injectable()
export class EpqsClient extends GroundElevationPort {
  private readonly url: string;

  constructor(
    private readonly http: HttpService,
    @Inject(ELEVATION_UPSTREAM) private readonly upstream: ResilientUpstream,
    config: ConfigService<AppConfig, true>,
  ) {
    super();
    this.url = `${config.get('ELEVATION_BASE_URL', { infer: true }).replace(/\/+$/, '')}/v1/json`;
  }

  groundAt(point: GeoPoint, deadline: AbortSignal): Promise<ElevationReply> {
    return this.upstream.operation(() =>
      this.upstream.request(async (signal) => {
        const params = { x: String(point.lon), y: String(point.lat), wkid: '4326', units: 'Feet', includeDate: 'true' };
        const { status, body } = await getUpstreamJson(this.http, this.url, params, signal, {
          maxBodyBytes: this.upstream.maxBodyBytes,
          plainTextMeansNone: true,
        });
        if (status >= 300) throw new UpstreamFailure(`HTTP ${status}`, false);
        if (body === undefined) return null;
        if (!isRecord(body)) throw new UpstreamFailure('answer without a value', false);
        const reading = elevationReading(body);
        if (reading.kind === 'unreadable') throw new UpstreamFailure(reading.reason, false);
        return body;
      }, deadline),
    );
  }
}
