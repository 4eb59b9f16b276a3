import { UPSTREAM_REGISTRY } from '../common/upstream/upstream-registry';
import { JobRecord, jobRecordOf, jobStatusView } from './job-record';

const record = (over: Partial<JobRecord>): JobRecord => ({
  id: 'j',
  status: 'running',
  total: 1000,
  done: 0,
  errors: 0,
  degradedRows: 0,
  chunks: 1,
  createdAt: '2025-01-01T00:00:00.000Z',
  startedAt: '2025-01-01T00:00:10.000Z',
  finishedAt: null,
  expiresAt: null,
  include: [],
  radiusM: 500,
  otherColumns: [],
  warnings: [],
  upstreamCalls: {},
  ...over,
});

const started = Date.parse('2025-01-01T00:00:10.000Z');

describe('jobStatusView: the seconds left, at the pace kept so far, once 1% of the rows are done', () => {
  it.each([
    ['running, 250 of 1000 done in 10 s', { done: 250 }, started + 10_000, 30],
    ['running, 3 of 200 done in 1 s (rounded up)', { total: 200, done: 3 }, started + 1000, 66],
    ['running, 10 of 1000 done in 10 s: 1%', { done: 10 }, started + 10_000, 990],
    ['running, 9 of 1000 done: under 1%, too few rows for a pace', { done: 9 }, started + 10_000, null],
    ['running, 1 of 50 done: 1% of 50 rounds up to one row', { total: 50, done: 1 }, started + 2000, 98],
    ['running, nothing done yet', { done: 0 }, started + 10_000, null],
    ['queued', { status: 'queued', startedAt: null }, started, null],
    ['completed', { status: 'completed', done: 1000 }, started + 50_000, 0],
    ['cancelled', { status: 'cancelled', done: 10 }, started + 50_000, null],
    ['failed', { status: 'failed', done: 10 }, started + 50_000, null],
  ] as const)('%s', (_case, over, now, eta) => {
    expect(jobStatusView(record(over as Partial<JobRecord>), now).etaSeconds).toBe(eta);
  });

  it('answers the documented fields only', () => {
    expect(Object.keys(jobStatusView(record({}), started)).sort()).toEqual(
      [
        'createdAt',
        'degradedRows',
        'done',
        'errors',
        'etaSeconds',
        'expiresAt',
        'finishedAt',
        'id',
        'startedAt',
        'status',
        'total',
        'upstreamCallsPerRow',
      ].sort(),
    );
  });

  it("adds the body reader's warnings when there are some", () => {
    expect(jobStatusView(record({ otherColumns: ['Loan ID'], warnings: ['"Loan ID" is not read.'] }), started).warnings).toEqual(['"Loan ID" is not read.']);
  });
});

describe("jobStatusView: each upstream's calls so far per row done, to 2 decimals, for every upstream the job's rows ask", () => {
  it.each([
    ['21 NFHL calls and 5 geocoder calls for 20 rows', { done: 20, upstreamCalls: { flood_data: 21, geocoder: 5 } }, { flood_data: 1.05, geocoder: 0.25 }],
    ['rounded to the nearest hundredth: 100/3 and 2/3', { done: 3, upstreamCalls: { flood_data: 100, geocoder: 2 } }, { flood_data: 33.33, geocoder: 0.67 }],
    ['a half hundredth rounds up (1669 calls for 200 rows is 8.345)', { done: 200, upstreamCalls: { flood_data: 1669 } }, { flood_data: 8.35, geocoder: 0 }],
    ['one call in 400 rows, rounding to 0', { done: 400, upstreamCalls: { geocoder: 1 } }, { flood_data: 0, geocoder: 0 }],
    ['rows done, no call yet (answered from the cache)', { done: 7, upstreamCalls: {} }, { flood_data: 0, geocoder: 0 }],
    ['no row done yet', { done: 0, upstreamCalls: {} }, { flood_data: 0, geocoder: 0 }],
    ['cancelled, with the calls of its cut chunk', { status: 'cancelled', done: 8, upstreamCalls: { flood_data: 44 } }, { flood_data: 5.5, geocoder: 0 }],
    [
      'include=cbrs, its upstream not called yet',
      { done: 4, include: ['cbrs'], upstreamCalls: { flood_data: 4 } },
      { flood_data: 1, coastal_barrier: 0, geocoder: 0 },
    ],
    [
      "include=preliminary: FEMA's preliminary and pending maps both",
      { done: 2, include: ['preliminary'], upstreamCalls: { flood_data_pending: 2 } },
      { flood_data: 0, flood_data_preliminary: 0, flood_data_pending: 1, geocoder: 0 },
    ],
    [
      'include=determination: the building and the coastal barrier it reads',
      { done: 1, include: ['determination'], upstreamCalls: {} },
      { flood_data: 0, coastal_barrier: 0, geocoder: 0, structures: 0 },
    ],
    ['an upstream called though no row asks it', { done: 2, upstreamCalls: { elevation: 1 } }, { flood_data: 0, geocoder: 0, elevation: 0.5 }],
  ] as const)('%s', (_case, over, perRow) => {
    const { upstreamCallsPerRow } = jobStatusView(record(over as Partial<JobRecord>), started);
    expect(upstreamCallsPerRow).toEqual(perRow);
    // In the order of the upstreams' registry.
    expect(Object.keys(upstreamCallsPerRow)).toEqual(UPSTREAM_REGISTRY.map(({ name }) => name).filter((name) => name in perRow));
  });
});

describe('jobRecordOf', () => {
  it('reads a hash, with times not yet set as null (and no other columns or warnings for a job stored before it had them)', () => {
    const hash = {
      status: 'queued',
      total: '3',
      done: '0',
      errors: '0',
      chunks: '1',
      createdAt: '2025-01-01T00:00:00.000Z',
      include: 'nearby,cbrs',
      radiusM: '300',
    };
    expect(jobRecordOf('j', hash)).toEqual({
      id: 'j',
      status: 'queued',
      total: 3,
      done: 0,
      errors: 0,
      degradedRows: 0,
      chunks: 1,
      createdAt: '2025-01-01T00:00:00.000Z',
      startedAt: null,
      finishedAt: null,
      expiresAt: null,
      include: ['nearby', 'cbrs'],
      radiusM: 300,
      otherColumns: [],
      warnings: [],
      upstreamCalls: {},
    });
    const read = jobRecordOf('j', { ...hash, otherColumns: '["Loan ID","Balance"]', warnings: '["w"]' });
    expect([read?.otherColumns, read?.warnings]).toEqual([['Loan ID', 'Balance'], ['w']]);
  });

  it('reads the degraded rows counted as chunks were written', () => {
    const hash = { status: 'completed', total: '5', done: '5', errors: '1', degraded: '2', chunks: '1', createdAt: '2025-01-01T00:00:00.000Z', radiusM: '500' };
    const read = jobRecordOf('j', hash)!;
    expect([read.errors, read.degradedRows]).toEqual([1, 2]);
    expect(jobStatusView(read, started).degradedRows).toBe(2);
  });

  it('counts as done the rows answered in chunks not yet written', () => {
    const hash = { status: 'running', total: '5000', done: '2000', answering: '350', 'answering:2': '300', 'answering:4': '50', chunks: '5' };
    expect(jobRecordOf('j', { ...hash, createdAt: '2025-01-01T00:00:00.000Z', radiusM: '500' })?.done).toBe(2350);
  });

  it("reads the calls of every upstream called from its calls:<upstream> field, in the registry's order", () => {
    const hash = { status: 'running', total: '50', done: '10', chunks: '1', createdAt: '2025-01-01T00:00:00.000Z', radiusM: '500' };
    const calls = { 'calls:geocoder': '4', 'calls:flood_data': '37', 'calls:coastal_barrier': '0' };
    const read = jobRecordOf('j', { ...hash, ...calls, 'answering:0': '3' })?.upstreamCalls;
    expect(read).toEqual({ flood_data: 37, geocoder: 4 });
    expect(Object.keys(read!)).toEqual(['flood_data', 'geocoder']);
  });

  it('is undefined for a missing hash', () => {
    expect(jobRecordOf('j', {})).toBeUndefined();
  });
});
