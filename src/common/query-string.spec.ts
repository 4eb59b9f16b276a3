import { ApiError } from './api-error';
import { parseQuery, refuseBracketedParameters, refuseUnreadParameters } from './query-string';

function refusal(
  query: Record<string, unknown>,
  reads: readonly string[],
  kind?: 'parameter' | 'field',
  refuse: typeof refuseUnreadParameters = refuseUnreadParameters,
): { status: number; code: string; message: string } | 'read' {
  try {
    refuse(query, reads, kind);
  } catch (error) {
    if (error instanceof ApiError) return { status: error.getStatus(), code: error.code, message: error.message };
    throw error;
  }
  return 'read';
}

const PICTURE = ['address', 'lat', 'lon', 'width', 'height', 'span'];

describe('refuseUnreadParameters: every parameter is read or refused', () => {
  it.each([
    [{}, PICTURE],
    [{ lat: '1', lon: '2' }, PICTURE],
    [{ lat: '1', lon: '2', width: '300', height: '200', span: '100' }, PICTURE],
    [{ lat: ['1', '2'], lon: '2' }, PICTURE],
    [{}, []],
  ])('%j, reading %j: read', (query, reads) => {
    expect(refusal(query, reads)).toBe('read');
  });

  const INVALID = { status: 400, code: 'INVALID_PARAMETERS' };
  it.each([
    [{ lat: '1', lon: '2', format: 'jpeg' }, PICTURE, 'Unknown parameter "format": this endpoint reads only address, lat, lon, width, height and span.'],
    [{ lat: '1', lon: '2', size: '800x600' }, PICTURE, 'Unknown parameter "size": this endpoint reads only address, lat, lon, width, height and span.'],
    [
      { lat: '1', lon: '2', 'width[]': '300' },
      PICTURE,
      'Unknown parameter "width[]": a name with brackets is not width (give width once, without brackets); this endpoint reads only address, lat, lon, width, height and span.',
    ],
    [
      { 'width[a]': '300' },
      PICTURE,
      'Unknown parameter "width[a]": a name with brackets is not width (give width once, without brackets); this endpoint reads only address, lat, lon, width, height and span.',
    ],
    [{ 'colour[]': 'red' }, PICTURE, 'Unknown parameter "colour[]": this endpoint reads only address, lat, lon, width, height and span.'],
    // a broken bracket is a bracketed name too
    [
      { 'lat]': '1' },
      PICTURE,
      'Unknown parameter "lat]": a name with brackets is not lat (give lat once, without brackets); this endpoint reads only address, lat, lon, width, height and span.',
    ],
    [{ include: 'nearby', radius: '300' }, ['include'], 'Unknown parameter "radius": this endpoint reads only include.'],
    [{ _: '123' }, [], 'Unknown parameter "_": this endpoint reads no query parameters.'],
    // the first one not read is named; a name is shown as JSON text, at most 64 characters of it
    [{ lat: '1', a: '1', b: '2' }, PICTURE, 'Unknown parameter "a": this endpoint reads only address, lat, lon, width, height and span.'],
    [{ 'tab\there': '1' }, [], 'Unknown parameter "tab\\there": this endpoint reads no query parameters.'],
    [{ ['x'.repeat(100)]: '1' }, [], `Unknown parameter "${'x'.repeat(64)}…": this endpoint reads no query parameters.`],
  ])('%j, reading %j: 400 "%s"', (query, reads, message) => {
    expect(refusal(query, reads)).toEqual({ ...INVALID, message });
  });

  it("names a JSON body's field as a field", () => {
    expect(refusal({ lat: 1, lng: 2 }, ['lat', 'lon', 'footprint'], 'field')).toEqual({
      ...INVALID,
      message: 'Unknown field "lng": this endpoint reads only lat, lon and footprint.',
    });
  });

  it('a parameter named __proto__ is a parameter like any other', () => {
    expect(refusal(parseQuery('lat=1&__proto__=x'), ['lat'])).toEqual({
      ...INVALID,
      message: 'Unknown parameter "__proto__": this endpoint reads only lat.',
    });
  });
});

describe('refuseBracketedParameters: where unknown names are let go (cache busters), a name with brackets is refused all the same', () => {
  const LOOKUP = ['address', 'lat', 'lon', 'include', 'radius'];
  const READS = 'this endpoint reads only address, lat, lon, include and radius.';
  const bracketed = (name: string) => `a name with brackets is not ${name} (give ${name} once, without brackets); ${READS}`;
  const refused = (query: Record<string, unknown>) => refusal(query, LOOKUP, 'parameter', (q, reads) => refuseBracketedParameters(q, reads));

  it.each([[{ lat: '1', lon: '2' }], [{ lat: '1', lon: '2', _: '1700000000', utm_source: 'x' }], [{ lat: ['1', '2'] }]])('%j: let go', (query) => {
    expect(refused(query)).toBe('read');
  });

  it.each([
    [{ 'lat[]': '1', lon: '2' }, `Unknown parameter "lat[]": ${bracketed('lat')}`],
    [{ lat: '1', lon: '2', 'include[]': 'nearby' }, `Unknown parameter "include[]": ${bracketed('include')}`],
    [{ lat: '1', lon: '2', include: 'nearby', 'radius[0]': '300' }, `Unknown parameter "radius[0]": ${bracketed('radius')}`],
    [{ 'lat[': '1', lon: '2' }, `Unknown parameter "lat[": ${bracketed('lat')}`],
    [{ 'lat]': '1', lon: '2' }, `Unknown parameter "lat]": ${bracketed('lat')}`],
    [{ lat: '1', lon: '2', 'foo[]': '1' }, `Unknown parameter "foo[]": ${READS}`],
    [{ lat: '1', lon: '2', '[]': '1' }, `Unknown parameter "[]": ${READS}`],
  ])('%j: 400 "%s"', (query, message) => {
    expect(refused(query)).toEqual({ status: 400, code: 'INVALID_PARAMETERS', message });
  });
});
