import { JobRecord, jobRecordOf, jobStatusView } from './job-record';

const record = (over: Partial<JobRecord>): JobRecord => ({
  id: 'j',
  status: 'running',
  total: 1000,
  done: 0,
  errors: 0,
  chunks: 1,
  createdAt: '2025-01-01T00:00:00.000Z',
  startedAt: '2025-01-01T00:00:10.000Z',
  finishedAt: null,
  expiresAt: null,
  include: [],
  radiusM: 500,
  otherColumns: [],
  warnings: [],
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
      ['createdAt', 'done', 'errors', 'etaSeconds', 'expiresAt', 'finishedAt', 'id', 'startedAt', 'status', 'total'].sort(),
    );
  });

  it("adds the body reader's warnings when there are some", () => {
    expect(jobStatusView(record({ otherColumns: ['Loan ID'], warnings: ['"Loan ID" is not read.'] }), started).warnings).toEqual(['"Loan ID" is not read.']);
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
      chunks: 1,
      createdAt: '2025-01-01T00:00:00.000Z',
      startedAt: null,
      finishedAt: null,
      expiresAt: null,
      include: ['nearby', 'cbrs'],
      radiusM: 300,
      otherColumns: [],
      warnings: [],
    });
    const read = jobRecordOf('j', { ...hash, otherColumns: '["Loan ID","Balance"]', warnings: '["w"]' });
    expect([read?.otherColumns, read?.warnings]).toEqual([['Loan ID', 'Balance'], ['w']]);
  });

  it('counts as done the rows answered in chunks not yet written', () => {
    const hash = { status: 'running', total: '5000', done: '2000', answering: '350', 'answering:2': '300', 'answering:4': '50', chunks: '5' };
    expect(jobRecordOf('j', { ...hash, createdAt: '2025-01-01T00:00:00.000Z', radiusM: '500' })?.done).toBe(2350);
  });

  it('is undefined for a missing hash', () => {
    expect(jobRecordOf('j', {})).toBeUndefined();
  });
});
