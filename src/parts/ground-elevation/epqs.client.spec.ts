import { HttpService } from '@nestjs/axios';
import { ConfigService } from '@nestjs/config';
import axios from 'axios';
import { EPQS_NO_DATA_VALUE, EpqsEmulator, EpqsPoint } from '../../../test/emulators/epqs-emulator';
import { SOCKET_BUFFERS_BYTES, upstreamUnderTest } from '../../../test/support/upstream-under-test';
import { UpstreamUnavailableError } from '../../common/api-error';
import { UpstreamOutageError, UpstreamPolicyOptions } from '../../common/upstream/resilient-upstream';
import { UPSTREAM_BY_NAME } from '../../common/upstream/upstream-registry';
import type { AppConfig } from '../../config/app-config';
import type { GeoPoint } from '../../flood-hazard/flood-hazard.types';
import { EpqsClient } from './epqs.client';

const GROUND: EpqsPoint = { at: [-95.3698, 29.7604], valueFt: 30.71, resolution: 1, acquisitionDate: '3/1/2020' };
const CALL_FAILED: EpqsPoint = { at: [-95.0, 29.5], valueFt: 12, callFailed: true };
const NULL_VALUE: EpqsPoint = { at: [-95.1, 29.5], valueFt: null };
const SLOW: EpqsPoint = { at: [-95.4, 29.5], valueFt: 7.5, delayMs: 600 };

const pointOf = ({ at: [lon, lat] }: EpqsPoint): GeoPoint => ({ lat, lon });

describe('EpqsClient against the elevation emulator', () => {
  let epqs: EpqsEmulator;
  beforeAll(async () => {
    epqs = await EpqsEmulator.start({ points: [GROUND, CALL_FAILED, NULL_VALUE, SLOW] });
  });
  afterAll(async () => {
    await epqs.close();
  });
  beforeEach(() => {
    epqs.clearFaults();
    epqs.resetCalls();
  });

  function client(policy: Partial<UpstreamPolicyOptions> = {}, baseUrl = epqs.baseUrl) {
    const config = new ConfigService<AppConfig, true>({ ELEVATION_BASE_URL: baseUrl });
    return new EpqsClient(new HttpService(axios.create()), upstreamUnderTest('elevation', policy), config);
  }
  const deadline = (ms = 10_000) => AbortSignal.timeout(ms);

  it('asks one point in feet with its date, and returns the answer as sent', async () => {
    const answer = await client().groundAt(pointOf(GROUND), deadline());
    expect(answer).toEqual({
      location: { x: -95.3698, y: 29.7604, spatialReference: { wkid: 4326, latestWkid: 4326 } },
      locationId: 0,
      value: 30.71,
      rasterId: 42167,
      resolution: 1,
      attributes: { AcquisitionDate: '3/1/2020' },
    });
    expect(epqs.callCount()).toBe(1);
    expect(epqs.calls[0].path).toBe('/v1/json');
    expect(epqs.calls[0].query).toEqual({ x: '-95.3698', y: '29.7604', wkid: '4326', units: 'Feet', includeDate: 'true' });
  });

  it('accepts a base URL with a trailing slash', async () => {
    expect(await client({}, `${epqs.baseUrl}/`).groundAt(pointOf(GROUND), deadline())).toMatchObject({ value: 30.71 });
    expect(epqs.calls[0].path).toBe('/v1/json');
  });

  it('returns null for the "Call failed." text: no data, not a failure, asked once', async () => {
    expect(await client().groundAt(pointOf(CALL_FAILED), deadline())).toBeNull();
    expect(epqs.callCount()).toBe(1);
  });

  it('returns null for any other 200 body of plain text, which is no JSON at all', async () => {
    epqs.injectFault({ kind: 'http-status', status: 200, body: 'No elevation data available', times: 1 });
    expect(await client().groundAt(pointOf(GROUND), deadline())).toBeNull();
  });

  it('returns the no-data values as answered, for the rule to read', async () => {
    expect(await client().groundAt(pointOf(NULL_VALUE), deadline())).toMatchObject({ value: null });
    expect(await client().groundAt({ lat: 40, lon: -100 }, deadline())).toMatchObject({ value: EPQS_NO_DATA_VALUE });
  });

  it('retries an outage once and returns the retry answer', async () => {
    epqs.injectFault({ kind: 'http-status', status: 503, times: 1 });
    expect(await client().groundAt(pointOf(GROUND), deadline())).toMatchObject({ value: 30.71 });
    expect(epqs.callCount()).toBe(2);
  });

  it.each([
    ['a 5xx', { kind: 'http-status' as const, status: 502 }],
    ['an HTML page with 200', { kind: 'html' as const }],
    ['a reset connection', { kind: 'reset' as const }],
  ])('fails as an outage on %s, after its retry', async (_case, fault) => {
    epqs.injectFault(fault);
    const failure = client().groundAt(pointOf(GROUND), deadline());
    await expect(failure).rejects.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'elevation' });
    expect(epqs.callCount()).toBe(2);
  });

  it('fails as an outage when an attempt outlives its timeout', async () => {
    const failure = client({ timeoutMs: 200, retries: 0 }).groundAt(pointOf(SLOW), deadline());
    await expect(failure).rejects.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'elevation', reason: 'no answer within 200 ms' });
  });

  it('waits for a slow point within its timeout', async () => {
    expect(await client().groundAt(pointOf(SLOW), deadline())).toMatchObject({ value: 7.5 });
  });

  it.each([
    ['malformed JSON (a cut answer)', { kind: 'malformed-json' as const }, 'malformed JSON (HTTP 200)'],
    ['an empty 200 body', { kind: 'http-status' as const, status: 200, body: '' }, 'malformed JSON (HTTP 200)'],
    ['value "12abc"', { kind: 'http-status' as const, status: 200, body: { value: '12abc', resolution: 1 } }, 'value "12abc" is not a number'],
    ['value 1e308', { kind: 'http-status' as const, status: 200, body: { value: 1e308, resolution: 1 } }, 'value 1e+308 ft is above 30000 ft'],
    ['a JSON answer without a value', { kind: 'empty-object' as const }, 'answer without a value'],
    ['a JSON error envelope', { kind: 'arcgis-error' as const }, 'answer without a value'],
    ['a 400 with a text body', { kind: 'http-status' as const, status: 400, body: '[BadRequest] missing parameters' }, 'malformed JSON (HTTP 400)'],
    ['a 400 with a JSON body', { kind: 'errors-array' as const }, 'HTTP 400'],
  ])('fails at this point only, without a retry, on %s', async (_case, fault, reason) => {
    epqs.injectFault(fault);
    const failure = client().groundAt(pointOf(GROUND), deadline());
    await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(failure).rejects.not.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({ upstream: 'elevation', reason });
    expect(epqs.callCount()).toBe(1);
  });

  it('fails at this point only, without a retry, on an endless body, read no further than its byte cap', async () => {
    epqs.injectFault({ kind: 'endless-body' });
    const failure = client().groundAt(pointOf(GROUND), deadline());
    await expect(failure).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(failure).rejects.not.toBeInstanceOf(UpstreamOutageError);
    await expect(failure).rejects.toMatchObject({
      upstream: 'elevation',
      reason: `an answer over its cap of ${UPSTREAM_BY_NAME.elevation.bodyCapBytes} bytes`,
    });
    await epqs.endlessBodiesStopped();
    expect(epqs.callCount()).toBe(1);
    expect(epqs.calls[0].bodyBytes).toBeGreaterThan(UPSTREAM_BY_NAME.elevation.bodyCapBytes);
    expect(epqs.calls[0].bodyBytes).toBeLessThan(UPSTREAM_BY_NAME.elevation.bodyCapBytes + SOCKET_BUFFERS_BYTES);
  });

  it('fails fast once its circuit is open, without calling', async () => {
    const open = client({ retries: 0, breakerMinCalls: 2, breakerFailureRate: 50 });
    epqs.injectFault({ kind: 'http-status', status: 503 });
    for (let i = 0; i < 2; i += 1) await expect(open.groundAt(pointOf(GROUND), deadline())).rejects.toBeInstanceOf(UpstreamOutageError);
    epqs.clearFaults();
    const calls = epqs.callCount();
    await expect(open.groundAt(pointOf(GROUND), deadline())).rejects.toMatchObject({
      upstream: 'elevation',
      reason: 'circuit open after an outage; not called',
    });
    expect(epqs.callCount()).toBe(calls);
  });
});
