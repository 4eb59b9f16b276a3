import { ApiError } from '../../common/api-error';
import { MapPictureQueryPipe } from './map-picture-query.pipe';

const pipe = new MapPictureQueryPipe();

/** A query, and the status, code and message it is refused with. */
type Refusal = [Record<string, unknown>, number, string, string];

const READS = 'this endpoint reads only address, lat, lon, buildId, width, height and span.';
const bracketed = (name: string) => `a name with brackets is not ${name} (give ${name} once, without brackets); ${READS}`;

function refusal(raw: Record<string, unknown>): { status: number; code: string; message: string } {
  try {
    pipe.transform(raw);
  } catch (error) {
    if (error instanceof ApiError) return { status: error.getStatus(), code: error.code, message: error.message };
    throw error;
  }
  throw new Error('accepted');
}

describe('MapPictureQueryPipe', () => {
  it.each([
    [
      { lat: '29.7', lon: '-95.43' },
      { kind: 'point', lat: 29.7, lon: -95.43, width: 800, height: 600, spanM: 600 },
    ],
    [{ address: '200 Main St' }, { kind: 'address', address: '200 Main St', width: 800, height: 600, spanM: 600 }],
    [
      { lat: '0', lon: '0', width: '200', height: '1600', span: '100' },
      { kind: 'point', lat: 0, lon: 0, width: 200, height: 1600, spanM: 100 },
    ],
    [
      { lat: '0', lon: '0', width: '1600', height: '200', span: '5000' },
      { kind: 'point', lat: 0, lon: 0, width: 1600, height: 200, spanM: 5000 },
    ],
    [
      { lat: '0', lon: '0', width: '0800' },
      { kind: 'point', lat: 0, lon: 0, width: 800, height: 600, spanM: 600 },
    ],
    [
      { lat: '85.051128', lon: '0' },
      { kind: 'point', lat: 85.051128, lon: 0, width: 800, height: 600, spanM: 600 },
    ],
    [
      { address: '200 Mill Ave S', buildId: '53030002' },
      { kind: 'address', address: '200 Mill Ave S', buildId: '53030002', width: 800, height: 600, spanM: 600 },
    ],
  ])('%j is %j', (raw, query) => {
    expect(pipe.transform(raw)).toEqual(query);
  });

  it.each<Refusal>([
    [{}, 400, 'INVALID_PARAMETERS', 'Give an address, or both lat and lon.'],
    [
      { lat: '1', lon: '1', buildId: '5a' },
      400,
      'INVALID_PARAMETERS',
      'buildId must be a USA Structures BUILD_ID: a whole number of at most 12 digits, given once',
    ],
    [{ lat: '1', lon: '1', buildId: ['1', '2'] }, 400, 'INVALID_PARAMETERS', 'buildId is repeated; give it once'],
    // the building is checked before the picture's size
    [
      { lat: '1', lon: '1', buildId: '', width: '9' },
      400,
      'INVALID_PARAMETERS',
      'buildId must be a USA Structures BUILD_ID: a whole number of at most 12 digits, given once',
    ],
    [{ address: 'x', lat: '1' }, 400, 'INVALID_PARAMETERS', 'Give either address, or lat and lon, not both.'],
    [{ lat: '1' }, 400, 'INVALID_PARAMETERS', 'lat and lon must be given together.'],
    [{ lat: 'abc', lon: '1' }, 400, 'INVALID_PARAMETERS', 'lat must be a plain decimal number such as 38.8987, given once'],
    [{ lat: '91', lon: '1' }, 422, 'COORDINATES_OUT_OF_RANGE', 'lat must be between -90 and 90'],
    [{ lat: '1', lon: '-180.5' }, 422, 'COORDINATES_OUT_OF_RANGE', 'lon must be between -180 and 180'],
    [
      { lat: '-86', lon: '1' },
      422,
      'COORDINATES_OUT_OF_RANGE',
      'The map picture can show latitudes from -85.051128 to 85.051128 (Web Mercator); GET /flood-zone answers for any latitude.',
    ],
    [{ lat: '1', lon: '1', width: '199' }, 422, 'IMAGE_SIZE_OUT_OF_RANGE', 'width must be from 200 to 1600 pixels'],
    [{ lat: '1', lon: '1', width: '1601' }, 422, 'IMAGE_SIZE_OUT_OF_RANGE', 'width must be from 200 to 1600 pixels'],
    [{ lat: '1', lon: '1', height: '99999999999999999999' }, 422, 'IMAGE_SIZE_OUT_OF_RANGE', 'height must be from 200 to 1600 pixels'],
    [{ lat: '1', lon: '1', span: '99' }, 422, 'IMAGE_SIZE_OUT_OF_RANGE', 'span must be from 100 to 5000 metres'],
    [{ lat: '1', lon: '1', span: '5001' }, 422, 'IMAGE_SIZE_OUT_OF_RANGE', 'span must be from 100 to 5000 metres'],
    [{ lat: '1', lon: '1', width: 'abc' }, 400, 'INVALID_PARAMETERS', 'width must be a whole number of pixels (digits only), from 200 to 1600'],
    [{ lat: '1', lon: '1', width: '800.0' }, 400, 'INVALID_PARAMETERS', 'width must be a whole number of pixels (digits only), from 200 to 1600'],
    [{ lat: '1', lon: '1', height: '-300' }, 400, 'INVALID_PARAMETERS', 'height must be a whole number of pixels (digits only), from 200 to 1600'],
    [{ lat: '1', lon: '1', span: '' }, 400, 'INVALID_PARAMETERS', 'span must be a whole number of metres (digits only), from 100 to 5000'],
    [{ lat: '1', lon: '1', width: ['800', '600'] }, 400, 'INVALID_PARAMETERS', 'width is repeated; give it once'],
    // a parameter the picture does not read is refused by name (include and radius are GET /flood-zone's own), before anything else
    ...['format', 'size', 'include', 'radius', 'cachebuster'].map((name): Refusal => [
      { lat: '1', lon: '1', [name]: '300' },
      400,
      'INVALID_PARAMETERS',
      `Unknown parameter "${name}": ${READS}`,
    ]),
    ...[
      ['width[]', 'width'],
      ['width[a]', 'width'],
      ['span[]', 'span'],
    ].map(([name, meant]): Refusal => [{ lat: '1', lon: '1', [name]: '300' }, 400, 'INVALID_PARAMETERS', `Unknown parameter "${name}": ${bracketed(meant)}`]),
    [{ 'lat[]': '91', lon: '1' }, 400, 'INVALID_PARAMETERS', `Unknown parameter "lat[]": ${bracketed('lat')}`],
    // the location is checked first
    [{ lat: '91', lon: '1', width: '10' }, 422, 'COORDINATES_OUT_OF_RANGE', 'lat must be between -90 and 90'],
    [{ width: '10' }, 400, 'INVALID_PARAMETERS', 'Give an address, or both lat and lon.'],
  ])('%j: %d %s', (raw, status, code, message) => {
    expect(refusal(raw)).toEqual({ status, code, message });
  });
});
