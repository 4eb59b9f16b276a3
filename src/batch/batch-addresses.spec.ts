import type { CachePolicy, CacheRead, PieceWait } from '../cache/piece-cache';
import type { BatchAddress, BatchGeocode, BatchGeocoder } from '../geocoding/census-batch-geocoder';
import type { AddressMatch, Geocoder, PlaceArea } from '../geocoding/geocoder';
import { asJobWork } from '../common/upstream/resilient-upstream';
import { UpstreamCallBudget } from '../common/upstream/upstream-call-budget';
import { BatchAddresses } from './batch-addresses';
import type { BatchMemo } from './batch-memo';

const match = (county: string | null, countyFips: string | null = '22071'): AddressMatch => ({
  matchedAddress: '1 MAIN ST, TOWN, LA, 70112',
  lat: 29.95,
  lon: -90.07,
  county,
  countyFips,
  zip: '70112',
  tract: null,
});

/** A batch geocoder answering each address by a rule, and recording every call. */
function fakeBatchGeocoder(answer: (address: string) => BatchGeocode | undefined) {
  const calls: BatchAddress[][] = [];
  const geocoder = {
    geocodeBatch: (rows: readonly BatchAddress[]) => {
      calls.push([...rows]);
      return Promise.resolve(
        new Map(
          rows.flatMap((row) => {
            const geocode = answer(row.address);
            return geocode ? [[row.id, geocode] as const] : [];
          }),
        ),
      );
    },
  } as unknown as BatchGeocoder;
  return { geocoder, calls };
}

function fakeGeocoder(place: PlaceArea = { county: 'Orleans Parish', countyFips: '22071', zip: '70112', tract: null }) {
  const oneLine: string[] = [];
  const points: number[] = [];
  const geocoder = {
    geocodeAddress: (address: string) => {
      oneLine.push(address);
      return Promise.resolve([match('From One Line')]);
    },
    describePoint: () => {
      points.push(1);
      return Promise.resolve(place);
    },
  } as unknown as Geocoder;
  return { geocoder, oneLine, points };
}

/** A memo that just loads (the real one is tested through the batch end to end). */
const passThroughMemo = {
  getOrLoad: async <T>(
    _name: string,
    _key: string,
    _policy: CachePolicy<T>,
    load: (signal: AbortSignal) => Promise<T>,
    wait: PieceWait,
  ): Promise<CacheRead<T>> => ({
    status: 'MISS',
    piece: { value: await load(wait.signal), storedAt: 0, freshUntil: 0 },
  }),
} as unknown as BatchMemo;

function batchAddresses(addresses: string[], batchGeocoder: BatchGeocoder, geocoder: Geocoder) {
  return new BatchAddresses(addresses, {
    batchGeocoder,
    geocoder,
    memo: passThroughMemo,
    geocodePolicy: { ttlSeconds: 0, staleIfErrorSeconds: 0 },
    deadlineMs: 1000,
    cancelled: new AbortController().signal,
  });
}

const signal = new AbortController().signal;

describe('BatchAddresses', () => {
  it('sends the distinct addresses (normalised) in chunks of at most 1,000, each once, asked for as rows reach it and one ahead', async () => {
    const addresses = Array.from({ length: 2500 }, (_, i) => `${i} Main St`);
    const { geocoder: batch, calls } = fakeBatchGeocoder(() => ({ kind: 'match', match: match('Orleans Parish') }));
    const book = batchAddresses([...addresses, ' 0  MAIN st '], batch, fakeGeocoder().geocoder);
    await book.ready(addresses[0]);
    expect(calls.map((rows) => rows.length)).toEqual([1000, 1000]);
    await book.ready(addresses[1]);
    await book.ready(addresses[2400]);
    expect(calls.map((rows) => rows.length)).toEqual([1000, 1000, 500]);
    expect(new Set(calls.flat().map((row) => row.id)).size).toBe(2500);
  });

  it('gives a Match as it is, without a one-line call', async () => {
    const { geocoder: batch } = fakeBatchGeocoder(() => ({ kind: 'match', match: match('Orleans Parish') }));
    const { geocoder, oneLine } = fakeGeocoder();
    const book = batchAddresses(['1 Main St'], batch, geocoder);
    await book.ready('1 Main St');
    expect(await book.geocode('1 Main St', signal)).toEqual([match('Orleans Parish')]);
    expect(oneLine).toEqual([]);
  });

  it.each<[string, BatchGeocode | undefined]>([
    ['No_Match', { kind: 'no_match' }],
    ['Tie', { kind: 'tie' }],
    ['failed', { kind: 'failed' }],
    ['missing from the answer', undefined],
  ])('looks up a %s row with the one-line geocoder', async (_what, answer) => {
    const { geocoder: batch } = fakeBatchGeocoder(() => answer);
    const { geocoder, oneLine } = fakeGeocoder();
    const book = batchAddresses(['1 Main St'], batch, geocoder);
    await book.ready('1 Main St');
    expect(await book.geocode('1 Main St', signal)).toEqual([match('From One Line')]);
    expect(oneLine).toEqual(['1 Main St']);
  });

  it("in a portfolio job, does not count the batch call's wait for its turn in the shared budget against its deadline", async () => {
    /** A budget whose every turn comes after 1.5 s: longer than the whole deadline (1 s). */
    class SlowBudget extends UpstreamCallBudget {
      admit = () => new Promise<void>((resolve) => setTimeout(resolve, 1500));
    }
    const budget = new SlowBudget();
    const batch = {
      geocodeBatch: async (rows: readonly BatchAddress[], deadline: AbortSignal) => {
        await budget.turn('geocoder', deadline);
        deadline.throwIfAborted();
        return new Map(rows.map((row) => [row.id, { kind: 'match', match: match('Orleans Parish') } as BatchGeocode]));
      },
    } as unknown as BatchGeocoder;
    const { geocoder, oneLine } = fakeGeocoder();
    const book = batchAddresses(['1 Main St'], batch, geocoder);
    const answer = await asJobWork(budget, async () => {
      await book.ready('1 Main St');
      return book.geocode('1 Main St', signal);
    });
    expect(answer).toEqual([match('Orleans Parish')]);
    expect(oneLine).toEqual([]);
  });

  it('treats a batch call that throws as a chunk of failed rows', async () => {
    const batch = { geocodeBatch: () => Promise.reject(new Error('boom')) } as unknown as BatchGeocoder;
    const { geocoder, oneLine } = fakeGeocoder();
    const book = batchAddresses(['1 Main St'], batch, geocoder);
    await book.ready('1 Main St');
    expect(await book.geocode('1 Main St', signal)).toEqual([match('From One Line')]);
    expect(oneLine).toEqual(['1 Main St']);
  });

  it('names the county by the point when the shipped table has no name for its FIPS code', async () => {
    const { geocoder: batch } = fakeBatchGeocoder(() => ({ kind: 'match', match: match(null) }));
    const { geocoder, points } = fakeGeocoder({ county: 'New County', countyFips: '22071', zip: null, tract: null });
    const book = batchAddresses(['1 Main St'], batch, geocoder);
    await book.ready('1 Main St');
    expect(await book.geocode('1 Main St', signal)).toEqual([match('New County')]);
    expect(points.length).toBe(1);
  });
});
