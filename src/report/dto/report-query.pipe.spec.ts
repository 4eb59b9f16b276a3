import { ApiError } from '../../common/api-error';
import { INCLUDE_ITEMS } from '../../parts/answer-parts';
import { ReportQueryPipe } from './report-query.pipe';

const pipe = new ReportQueryPipe();

function refusal(raw: Record<string, unknown>): { status: number; code: string; message: string } {
  try {
    pipe.transform(raw);
  } catch (error) {
    if (error instanceof ApiError) return { status: error.getStatus(), code: error.code, message: error.message };
    throw error;
  }
  throw new Error('accepted');
}

const READS = 'this endpoint reads only address, lat, lon, include, radius, buildId and span.';
const bracketed = (name: string) => `a name with brackets is not ${name} (give ${name} once, without brackets); ${READS}`;

describe('ReportQueryPipe', () => {
  it.each([
    [
      { lat: '29.7', lon: '-95.43' },
      { kind: 'point', lat: 29.7, lon: -95.43, include: new Set(INCLUDE_ITEMS), radiusM: 500, spanM: 600 },
    ],
    [
      { address: '200 Main St', include: 'nearby', radius: '300', span: '900' },
      // the lender's form is always asked for: the report's words on insurance and lending are its
      { kind: 'address', address: '200 Main St', include: new Set(['nearby', 'determination']), radiusM: 300, spanM: 900 },
    ],
  ])('%j is %j', (raw, query) => {
    expect(pipe.transform(raw)).toEqual(query);
  });

  it.each([
    // a parameter the report does not read is refused by name, before anything else
    [{ lat: '1', lon: '1', width: '300' }, `Unknown parameter "width": ${READS}`],
    [{ lat: '1', lon: '1', format: 'pdf' }, `Unknown parameter "format": ${READS}`],
    [{ lat: '1', lon: '1', cachebuster: '1' }, `Unknown parameter "cachebuster": ${READS}`],
    [{ lat: '1', lon: '1', 'include[]': 'nearby' }, `Unknown parameter "include[]": ${bracketed('include')}`],
    [{ lat: '1', lon: '1', 'span[]': '1' }, `Unknown parameter "span[]": ${bracketed('span')}`],
    [{ 'lat[]': '1', lon: '1' }, `Unknown parameter "lat[]": ${bracketed('lat')}`],
    // then the rules of GET /flood-zone
    [{ lat: '1' }, 'lat and lon must be given together.'],
  ])('%j: 400 INVALID_PARAMETERS "%s"', (raw, message) => {
    expect(refusal(raw)).toEqual({ status: 400, code: 'INVALID_PARAMETERS', message });
  });
});
