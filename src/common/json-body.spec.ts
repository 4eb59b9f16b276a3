import { ApiError } from './api-error';
import { jsonPlace, numberAsPlainDecimal, numbersAsWritten, parseJsonBody, plainDecimal } from './json-body';

const refuse = (message: string) => new ApiError(400, 'INVALID_PARAMETERS', message);

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return `${error.getStatus()} ${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error('not refused');
}

describe('parseJsonBody', () => {
  it('gives the value and its text, without a leading byte order mark', () => {
    expect(parseJsonBody(Buffer.from('\uFEFF{"lat": 1}'), refuse)).toEqual({ document: { lat: 1 }, text: '{"lat": 1}' });
  });

  it.each([
    ['{"lat": }', 'The JSON body is malformed at line 1, column 9: ValueExpected.'],
    ['{\n  "lat": 1,\n}', 'The JSON body is malformed at line 3, column 1: PropertyNameExpected.'],
    ['', 'The JSON body is malformed at line 1, column 1: ValueExpected.'],
    ["{'lat': 1}", 'The JSON body is malformed at line 1, column 2: InvalidSymbol.'],
    [`${'['.repeat(33)}${']'.repeat(33)}`, 'The JSON body nests arrays and objects more than 32 levels deep (at line 1).'],
    [`{"a":\n${'['.repeat(40)}`, 'The JSON body nests arrays and objects more than 32 levels deep (at line 2).'],
    // 200,000 open brackets: refused by counting, never by a parser recursing into them.
    ['['.repeat(200_000), 'The JSON body nests arrays and objects more than 32 levels deep (at line 1).'],
  ])("refuses %p through the endpoint's refusal: %p", (text, message) => {
    expect(refusal(() => parseJsonBody(Buffer.from(text), refuse))).toBe(`400 INVALID_PARAMETERS: ${message}`);
  });

  it('takes 32 levels', () => {
    expect(parseJsonBody(Buffer.from(`${'['.repeat(32)}${']'.repeat(32)}`), refuse).text).toHaveLength(64);
  });
});

describe('numbersAsWritten', () => {
  it('gives the numbers at the places asked for as written, the last of a repeated key winning', () => {
    const text = '{"lat": 90.00000000000000001, "lon": 1e2, "lon": -180.0, "deep": {"lat": 5}, "locations": [{"lat": 0.50}]}';
    const written = numbersAsWritten(text, new Set([jsonPlace('lat'), jsonPlace('lon'), jsonPlace('locations', 0, 'lat'), jsonPlace('radius')]), refuse);
    expect(Object.fromEntries(written)).toEqual({
      [jsonPlace('lat')]: '90.00000000000000001',
      [jsonPlace('lon')]: '-180.0',
      [jsonPlace('locations', 0, 'lat')]: '0.50',
    });
  });

  it('keeps a key with a slash apart from a path', () => {
    const written = numbersAsWritten('{"locations/0": {"lat": 91}, "locations": [{"lat": 90}]}', new Set([jsonPlace('locations', 0, 'lat')]), refuse);
    expect([...written.values()]).toEqual(['90']);
  });

  it('refuses deep nesting that a repeated key hid from JSON.parse', () => {
    const text = `{"a": ${'['.repeat(40)}${']'.repeat(40)}, "a": 1, "lat": 1}`;
    expect(refusal(() => numbersAsWritten(text, new Set([jsonPlace('lat')]), refuse))).toBe(
      '400 INVALID_PARAMETERS: The JSON body nests arrays and objects more than 32 levels deep (at line 1).',
    );
  });
});

describe('plainDecimal', () => {
  it.each([
    ['29.9', '29.9'],
    ['-90.0715', '-90.0715'],
    ['0', '0'],
    ['1e-7', '0.0000001'],
    ['-1.5e-7', '-0.00000015'],
    ['1E+2', '100'],
    ['0.5e1', '5'],
    ['0.05e1', '0.5'],
    ['12.5e-1', '1.25'],
    ['1e21', '1000000000000000000000'],
    ['1.25e22', '12500000000000000000000'],
    ['9.000000000000000000001e1', '90.00000000000000000001'],
    ['1e400', `1${'0'.repeat(400)}`],
    ['1e401', undefined],
    ['1e-401', undefined],
    ['Infinity', undefined],
  ])('%p is %p', (number, text) => {
    expect(plainDecimal(number)).toBe(text);
  });
});

describe('numberAsPlainDecimal', () => {
  it.each([
    [29.9, '29.9'],
    [1e-7, '0.0000001'],
    [300, '300'],
    [Number.MAX_VALUE, `17976931348623157${'0'.repeat(292)}`],
  ])('%p is %p', (value, text) => {
    expect(numberAsPlainDecimal(value)).toBe(text);
  });
});
