/**
 * GET /flood-zone parameters, checked in order (the first rule broken decides), and the error
 * envelope of each rejection.
 */
import { DEMO_ADDRESSES, demoPlace } from '../../emulators';
import { NO_CACHE, Stack, expectErrorEnvelope, expectedResult, startStack } from '../../support/stack';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ ...NO_CACHE });
});
afterAll(async () => {
  await stack?.close();
});

const dc = demoPlace('dc-white-house-ae');
const LAT = String(dc.lat);
const LON = String(dc.lon);

async function expectRejected(pathAndQuery: string, status: number, code: string): Promise<void> {
  const res = await stack.get(pathAndQuery);
  expectErrorEnvelope(res, status, code);
  expect(res.body).not.toHaveProperty('result');
}

const expect400 = (q: string) => expectRejected(`/flood-zone${q}`, 400, 'INVALID_PARAMETERS');
const expect422 = (q: string) => expectRejected(`/flood-zone${q}`, 422, 'COORDINATES_OUT_OF_RANGE');

describe('step 1: no location at all', () => {
  it.each(['', '?', '?_=123', '?foo=bar&Address=x&LAT=1&LON=2'])('GET /flood-zone%s → 400', async (q) => {
    await expect400(q);
  });

  it('makes no upstream call', async () => {
    stack.emulators.resetCalls();
    await expect400('');
    expect(stack.emulators.nfhl.callCount() + stack.emulators.census.callCount()).toBe(0);
  });
});

describe('step 2: address together with lat or lon', () => {
  it.each([
    `?address=x&lat=${LAT}`,
    `?address=x&lon=${LON}`,
    `?address=x&lat=${LAT}&lon=${LON}`,
    `?lat=${LAT}&lon=${LON}&address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}`,
    '?address=x&lat=100', // both given wins over the range
    '?address=&lat=abc', // both given wins over the address and coordinate formats
  ])('GET /flood-zone%s → 400', async (q) => {
    await expect400(q);
  });

  it('the message says to give one or the other', async () => {
    const res = await stack.get(`/flood-zone?address=x&lat=${LAT}&lon=${LON}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/either/i);
  });
});

describe('step 3: the address', () => {
  it.each([
    ['repeated', '?address=a&address=b'],
    ['repeated identically', `?address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}&address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}`],
    ['empty', '?address='],
    ['only spaces', '?address=%20%20%20'],
    ['only + (spaces)', '?address=+++'],
    ['201 characters', `?address=${'a'.repeat(201)}`],
    ['a NUL', '?address=1600%00Pennsylvania'],
    ['a unit separator (0x1F)', '?address=1600%1FPennsylvania'],
    ['a DEL (0x7F)', '?address=1600%7FPennsylvania'],
    ['a newline', '?address=1600%0APennsylvania'],
    ['a tab', '?address=1600%09Pennsylvania'],
    ['a C1 control character (U+0085)', '?address=1600%C2%85Pennsylvania'],
    ['201 non-ASCII characters', `?address=${encodeURIComponent('é'.repeat(201))}`],
  ])('%s → 400', async (_what, q) => {
    await expect400(q);
  });

  it('200 characters is allowed (a padded real address geocodes, echoed exactly as sent)', async () => {
    const padded = DEMO_ADDRESSES.whiteHouse.padEnd(200, ' ');
    expect(padded).toHaveLength(200);
    const res = await stack.get(`/flood-zone?address=${encodeURIComponent(padded)}`);
    expect(res.status).toBe(200);
    expect(res.body.query).toStrictEqual({ address: padded, lat: null, lon: null });
    expect(res.body.result).toEqual(expectedResult(dc));
  });

  it('200 characters that match nothing pass validation and are a 404 ADDRESS_NOT_FOUND', async () => {
    await expectRejected(`/flood-zone?address=${'a'.repeat(200)}`, 404, 'ADDRESS_NOT_FOUND');
  });

  it('200 non-ASCII characters (400 bytes of UTF-8) are 200 characters: allowed', async () => {
    await expectRejected(`/flood-zone?address=${encodeURIComponent('é'.repeat(200))}`, 404, 'ADDRESS_NOT_FOUND');
  });

  it('non-ASCII text is not a control character', async () => {
    await expectRejected(`/flood-zone?address=${encodeURIComponent('100 Calle Peñuelas, Toa Baja, PR 00949')}`, 404, 'ADDRESS_NOT_FOUND');
  });

  it('no upstream call for an invalid address', async () => {
    stack.emulators.resetCalls();
    await expect400(`?address=${'a'.repeat(201)}`);
    expect(stack.emulators.census.callCount()).toBe(0);
  });
});

describe('step 4: only one of lat, lon', () => {
  it.each([`?lat=${LAT}`, `?lon=${LON}`, '?lat=', '?lon=abc', '?lat=100', '?lon=500', `?lat=${LAT}&lng=${LON}`])('GET /flood-zone%s → 400', async (q) => {
    await expect400(q);
  });
});

describe('step 5: lat and lon are plain finite decimals, given once', () => {
  const badForms = ['0x10', '1e5', '1E2', 'NaN', 'Infinity', '-Infinity', '', '12abc', '%2012', '12%20', '1.', '.5', '--5', '%2B-5', '1,5', 'abc'];

  it.each(badForms)('lat=%s → 400', async (bad) => {
    await expect400(`?lat=${bad}&lon=${LON}`);
  });

  it.each(badForms)('lon=%s → 400', async (bad) => {
    await expect400(`?lat=${LAT}&lon=${bad}`);
  });

  it.each([
    ['lat repeated', `?lat=${LAT}&lat=${LAT}&lon=${LON}`],
    ['lon repeated', `?lat=${LAT}&lon=${LON}&lon=${LON}`],
    ['lat as an array', `?lat[]=${LAT}&lon=${LON}`],
    ['lat as an object', `?lat[a]=${LAT}&lon=${LON}`],
  ])('%s → 400', async (_what, q) => {
    await expect400(q);
  });

  it.each([
    ['+45.5', '%2B45.5', 45.5],
    ['-45.5', '-45.5', -45.5],
    ['45', '45', 45],
  ])('lat=%s (sent as %s) is accepted (200), echoed as the number %p', async (_form, sent, value) => {
    const res = await stack.get(`/flood-zone?lat=${sent}&lon=-50`);
    expect(res.status).toBe(200);
    expect(res.body.query).toStrictEqual({ address: null, lat: value, lon: -50 });
    expect(res.body.location.lat).toBe(value);
  });

  it('a leading + on both coordinates of a mapped place gives that place', async () => {
    const res = await stack.get(`/flood-zone?lat=%2B${LAT}&lon=${LON}`);
    expect(res.status).toBe(200);
    expect(res.body.query).toStrictEqual({ address: null, lat: dc.lat, lon: dc.lon });
    expect(res.body.result).toEqual(expectedResult(dc));
  });

  it('trailing zeros are a plain decimal', async () => {
    const res = await stack.get(`/flood-zone?lat=${LAT}000&lon=${LON}0`);
    expect(res.status).toBe(200);
    expect(res.body.query).toStrictEqual({ address: null, lat: dc.lat, lon: dc.lon });
    expect(res.body.result.floodZone).toBe(dc.expect.floodZone);
  });

  it('format is checked before range: lat=abc&lon=500 → 400', async () => {
    await expect400('?lat=abc&lon=500');
    await expect400('?lat=500&lon=abc');
    await expect400('?lat=1e3&lon=-77');
  });
});

describe('step 6: range', () => {
  it.each([
    ['lat 90.0001', '?lat=90.0001&lon=0'],
    ['lat -90.0001', '?lat=-90.0001&lon=0'],
    ['lon 180.5', '?lat=0&lon=180.5'],
    ['lon -181', '?lat=0&lon=-181'],
    ['lat 100 and lon 500', '?lat=100&lon=500'],
    ['lat 1000000', '?lat=1000000&lon=0'],
  ])('%s → 422 COORDINATES_OUT_OF_RANGE', async (_what, q) => {
    await expect422(q);
  });

  it.each([
    ['lat=90&lon=-180', 90, -180],
    ['lat=-90&lon=180', -90, 180],
  ])('%s exactly is in range (200)', async (q, lat, lon) => {
    const res = await stack.get(`/flood-zone?${q}`);
    expect(res.status).toBe(200);
    expect(res.body.query).toStrictEqual({ address: null, lat, lon });
    expect(res.body.result.coverage).toBe('unmapped');
  });

  it('no upstream call for an out-of-range point', async () => {
    stack.emulators.resetCalls();
    await expect422('?lat=90.0001&lon=0');
    expect(stack.emulators.nfhl.callCount() + stack.emulators.census.callCount()).toBe(0);
  });
});

describe('step 7: unknown extra parameters are ignored, and order does not matter', () => {
  it('a cache buster does not change the answer', async () => {
    const plain = await stack.get(`/flood-zone?lat=${LAT}&lon=${LON}`);
    const busted = await stack.get(`/flood-zone?lat=${LAT}&lon=${LON}&_=123&callback=x&format=xml`);
    expect(plain.status).toBe(200);
    expect(busted.status).toBe(200);
    expect(busted.body.query).toStrictEqual(plain.body.query);
    expect(busted.body.result).toEqual(plain.body.result);
    expect(busted.body.result).toEqual(expectedResult(dc));
  });

  it('lon before lat gives the same answer', async () => {
    const res = await stack.get(`/flood-zone?_=1&lon=${LON}&lat=${LAT}`);
    expect(res.status).toBe(200);
    expect(res.body.query).toStrictEqual({ address: null, lat: dc.lat, lon: dc.lon });
    expect(res.body.result).toEqual(expectedResult(dc));
  });

  it('an extra parameter with an address', async () => {
    const res = await stack.get(`/flood-zone?_=123&address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}`);
    expect(res.status).toBe(200);
    expect(res.body.query).toStrictEqual({ address: DEMO_ADDRESSES.whiteHouse, lat: null, lon: null });
  });
});

describe('the query is read exactly', () => {
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `p${i}=1`).join('&');

  it('a repeated lat past the 1,000th parameter is still seen (400)', async () => {
    const res = await stack.get(`/flood-zone?lat=${LAT}&lon=${LON}&${filler(1200)}&lat=${LAT}`);
    expectErrorEnvelope(res, 400, 'INVALID_PARAMETERS');
    expect(res.body.error).toMatch(/lat is repeated/);
  });

  it('an address past the 1,000th parameter, beside lat and lon, is still seen (400)', async () => {
    const res = await stack.get(`/flood-zone?lat=${LAT}&lon=${LON}&${filler(1500)}&address=x`);
    expectErrorEnvelope(res, 400, 'INVALID_PARAMETERS');
    expect(res.body.error).toMatch(/either/i);
  });

  it('lat and lon after 1,500 other parameters are a valid lookup', async () => {
    const res = await stack.get(`/flood-zone?${filler(1500)}&lat=${LAT}&lon=${LON}`);
    expect(res.status).toBe(200);
    expect(res.body.query).toStrictEqual({ address: null, lat: dc.lat, lon: dc.lon });
  });

  it('a repeated address is called repeated', async () => {
    const res = await stack.get('/flood-zone?address=a&address=b');
    expectErrorEnvelope(res, 400, 'INVALID_PARAMETERS');
    expect(res.body.error).toMatch(/address is repeated/);
  });

  it('lat with 400 trailing zeros is a plain decimal (200)', async () => {
    const res = await stack.get(`/flood-zone?lat=${LAT}${'0'.repeat(400)}&lon=${LON}`);
    expect(res.status).toBe(200);
    expect(res.body.query).toStrictEqual({ address: null, lat: dc.lat, lon: dc.lon });
  });

  it.each([
    ['lat=90.0000000000000000001', 'lat=90.0000000000000000001&lon=0', /lat/],
    ['lat=-90.00000000000000000000001', 'lat=-90.00000000000000000000001&lon=0', /lat/],
    ['lon=180.0000000000000000001', 'lat=0&lon=180.0000000000000000001', /lon/],
    ['lat=0090.5 (leading zeros)', 'lat=0090.5&lon=0', /lat/],
  ])('%s is beyond the bound when read as written (422)', async (_what, q, names) => {
    const res = await stack.get(`/flood-zone?${q}`);
    expectErrorEnvelope(res, 422, 'COORDINATES_OUT_OF_RANGE');
    expect(res.body.error).toMatch(names);
  });

  it.each(['lat=90.000000000000000000&lon=-180.0000', 'lat=0090&lon=000180'])('%s is exactly on the bound (200)', async (q) => {
    const res = await stack.get(`/flood-zone?${q}`);
    expect(res.status).toBe(200);
  });

  it.each(['/flood-zone', '/flood-zone?lat=abc&lon=0', '/flood-zone?address=a&address=b'])('a 400 (%s) carries no X-Cache', async (path) => {
    const res = await stack.get(path);
    expect(res.status).toBe(400);
    expect(res.headers.get('x-cache')).toBeNull();
  });

  it('a 422 carries no X-Cache', async () => {
    const res = await stack.get('/flood-zone?lat=91&lon=0');
    expect(res.status).toBe(422);
    expect(res.headers.get('x-cache')).toBeNull();
  });
});

describe('step 7: include', () => {
  const point = `lat=${LAT}&lon=${LON}`;

  it.each([
    ['repeated', 'include=nearby&include=cbrs'],
    ['an unknown part', 'include=flood'],
    ['upper case', 'include=Nearby'],
    ['an empty item', 'include=nearby,,cbrs'],
    ['a trailing comma', 'include=nearby,'],
    ['empty', 'include='],
    ['a space', 'include=nearby,%20cbrs'],
  ])('include %s → 400 naming the allowed values', async (_what, q) => {
    const res = await stack.get(`/flood-zone?${point}&${q}`);
    expectErrorEnvelope(res, 400, 'INVALID_PARAMETERS');
    expect(res.body.error).toMatch(/include/);
    expect(res.body.error).toMatch(/nearby, preliminary, cbrs/);
  });

  it('is checked after the location: a range error decides first (422)', async () => {
    await expect422('?lat=91&lon=0&include=flood');
  });

  it('is checked with an address too', async () => {
    await expect400(`?address=${encodeURIComponent(DEMO_ADDRESSES.whiteHouse)}&include=everything`);
  });

  it('makes no upstream call when refused', async () => {
    stack.emulators.resetCalls();
    await expect400(`?${point}&include=flood`);
    expect(stack.emulators.nfhl.callCount() + stack.emulators.census.callCount()).toBe(0);
  });
});

describe('steps 8-9: radius', () => {
  const point = `lat=${LAT}&lon=${LON}`;

  it.each([
    ['without include', `${point}&radius=100`],
    ['with include lacking nearby', `${point}&include=cbrs&radius=100`],
    ['repeated', `${point}&include=nearby&radius=100&radius=200`],
    ['a decimal', `${point}&include=nearby&radius=100.5`],
    ['signed', `${point}&include=nearby&radius=%2B100`],
    ['negative', `${point}&include=nearby&radius=-100`],
    ['empty', `${point}&include=nearby&radius=`],
    ['an exponent', `${point}&include=nearby&radius=1e3`],
  ])('radius %s → 400 naming radius', async (_what, q) => {
    const res = await stack.get(`/flood-zone?${q}`);
    expectErrorEnvelope(res, 400, 'INVALID_PARAMETERS');
    expect(res.body.error).toMatch(/radius/);
  });

  it('radius without nearby says it needs include=nearby', async () => {
    const res = await stack.get(`/flood-zone?${point}&radius=100`);
    expect(res.body.error).toMatch(/include=nearby/);
  });

  it.each(['9', '2001', '0', '00009', '99999999999999999999999'])('radius=%s → 422 RADIUS_OUT_OF_RANGE', async (radius) => {
    const res = await stack.get(`/flood-zone?${point}&include=nearby&radius=${radius}`);
    expectErrorEnvelope(res, 422, 'RADIUS_OUT_OF_RANGE');
    expect(res.body.error).toMatch(/radius must be between 10 and 2000/);
  });

  it('an include error decides before a radius error', async () => {
    const res = await stack.get(`/flood-zone?${point}&include=flood&radius=5`);
    expectErrorEnvelope(res, 400, 'INVALID_PARAMETERS');
    expect(res.body.error).toMatch(/include/);
  });
});
