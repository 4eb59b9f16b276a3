import { COASTAL_BARRIER_NOTES, coastalBarrierAt, floodInsuranceProhibitionDate } from './coastal-barrier';
import { CbrsProhibitionAttributes } from '../../flood-hazard/flood-hazard.types';

/** 1990-11-16T00:00Z. */
const NOV_16_1990 = 658713600000;
/** 1982-10-18T00:00Z. */
const OCT_18_1982 = 403747200000;

const INSIDE_NOTE = 'New federal flood insurance is generally unavailable here for buildings built or substantially improved after the prohibition date.';

function prohibition(overrides: Partial<CbrsProhibitionAttributes>): CbrsProhibitionAttributes {
  return { Unit: 'FL-64P', CBRS_Type: 'Otherwise Protected Area', FI_Date: NOV_16_1990, ...overrides };
}

describe('coastalBarrierAt', () => {
  it('gives the documented example: inside an Otherwise Protected Area', () => {
    expect(coastalBarrierAt([prohibition({})], false)).toEqual({
      status: 'inside',
      unit: 'FL-64P',
      type: 'Otherwise Protected Area',
      floodInsuranceProhibitionDate: '1990-11-16',
      note: INSIDE_NOTE,
    });
    expect(COASTAL_BARRIER_NOTES.inside).toBe(INSIDE_NOTE);
  });

  it('is inside whatever the buffer zone says', () => {
    expect(coastalBarrierAt([prohibition({})], true).status).toBe('inside');
  });

  it('is inside a System Unit', () => {
    const unit = prohibition({ Unit: ' NC-07 ', CBRS_Type: 'System Unit', FI_Date: OCT_18_1982 });
    expect(coastalBarrierAt([unit], false)).toEqual({
      status: 'inside',
      unit: 'NC-07',
      type: 'System Unit',
      floodInsuranceProhibitionDate: '1982-10-18',
      note: INSIDE_NOTE,
    });
  });

  it('is buffer when only the buffer zone contains the point, advising an official determination', () => {
    expect(coastalBarrierAt([], true)).toEqual({
      status: 'buffer',
      unit: null,
      type: null,
      floodInsuranceProhibitionDate: null,
      note: COASTAL_BARRIER_NOTES.buffer,
    });
    expect(COASTAL_BARRIER_NOTES.buffer).toMatch(/official CBRS determination/);
    expect(COASTAL_BARRIER_NOTES.buffer).toMatch(/U\.S\. Fish and Wildlife Service/);
  });

  it('is outside otherwise', () => {
    expect(coastalBarrierAt([], false)).toEqual({
      status: 'outside',
      unit: null,
      type: null,
      floodInsuranceProhibitionDate: null,
      note: COASTAL_BARRIER_NOTES.outside,
    });
  });

  it('always gives a sentence as the note', () => {
    for (const note of Object.values(COASTAL_BARRIER_NOTES)) expect(note).toMatch(/^[A-Z].+\.$/);
  });

  describe('several prohibition polygons at the point', () => {
    const opa = prohibition({ Unit: 'FL-64P', CBRS_Type: 'Otherwise Protected Area', FI_Date: OCT_18_1982 });
    const systemUnit = prohibition({ Unit: 'FL-64', CBRS_Type: 'System Unit', FI_Date: NOV_16_1990 });

    it('chooses the System Unit before the OPA, in any order', () => {
      for (const prohibitions of [
        [opa, systemUnit],
        [systemUnit, opa],
      ]) {
        expect(coastalBarrierAt(prohibitions, false)).toMatchObject({
          unit: 'FL-64',
          type: 'System Unit',
          floodInsuranceProhibitionDate: '1990-11-16',
        });
      }
    });

    it('then the earliest prohibition date, a known date before an unknown one', () => {
      const later = prohibition({ Unit: 'FL-10P', FI_Date: NOV_16_1990 });
      const earlier = prohibition({ Unit: 'FL-20P', FI_Date: '10/18/1982' });
      const unknown = prohibition({ Unit: 'FL-05P', FI_Date: 'Null' });
      for (const prohibitions of [
        [later, earlier, unknown],
        [unknown, earlier, later],
      ]) {
        expect(coastalBarrierAt(prohibitions, false)).toMatchObject({ unit: 'FL-20P', floodInsuranceProhibitionDate: '1982-10-18' });
      }
    });

    it('then the unit name', () => {
      const b = prohibition({ Unit: 'FL-64P' });
      const a = prohibition({ Unit: 'FL-63P' });
      expect(coastalBarrierAt([b, a], false).unit).toBe('FL-63P');
      expect(coastalBarrierAt([a, b], false).unit).toBe('FL-63P');
    });

    it('puts an unknown type after both known ones', () => {
      const odd = prohibition({ Unit: 'XX-1', CBRS_Type: null, FI_Date: OCT_18_1982 });
      expect(coastalBarrierAt([odd, opa], false).unit).toBe('FL-64P');
      expect(coastalBarrierAt([odd], false)).toMatchObject({ status: 'inside', unit: 'XX-1', type: null });
    });

    it('reads the type whatever its case and spacing, and shows it as published', () => {
      const shouting = prohibition({ Unit: 'FL-65', CBRS_Type: '  SYSTEM UNIT ' });
      expect(coastalBarrierAt([opa, shouting], false)).toMatchObject({ unit: 'FL-65', type: 'SYSTEM UNIT' });
    });
  });

  it('gives null unit and type when they are blank', () => {
    expect(coastalBarrierAt([prohibition({ Unit: ' ', CBRS_Type: '' })], false)).toMatchObject({
      status: 'inside',
      unit: null,
      type: null,
    });
  });
});

describe('floodInsuranceProhibitionDate: FI_Date forms', () => {
  it.each([
    ['epoch ms', NOV_16_1990, '1990-11-16'],
    ['epoch ms late in the UTC day', NOV_16_1990 + 86_399_000, '1990-11-16'],
    ['epoch ms at US Eastern midnight', NOV_16_1990 + 5 * 3_600_000, '1990-11-16'],
    ['epoch ms before 1970', -86_400_000, '1969-12-31'],
    ['epoch ms as digits', '658713600000', '1990-11-16'],
    ['ISO date', '1990-11-16', '1990-11-16'],
    ['ISO date with one-digit month and day', '1990-1-6', '1990-01-06'],
    ['ISO date, padded', ' 1990-11-16 ', '1990-11-16'],
    ['ISO date-time in UTC', '1990-11-16T00:00:00Z', '1990-11-16'],
    ['ISO date-time with milliseconds', '1990-11-16T00:00:00.000Z', '1990-11-16'],
    ['ISO date-time without zone, read as UTC', '1990-11-16T23:30:00', '1990-11-16'],
    ['ISO date-time with a space', '1990-11-16 00:00:00', '1990-11-16'],
    ['ISO date-time without seconds', '1990-11-16T00:00', '1990-11-16'],
    ['ISO date-time with an offset, converted to UTC', '1990-11-16T20:00:00-05:00', '1990-11-17'],
    ['ISO date-time with a compact offset', '1990-11-16T02:00:00+0300', '1990-11-15'],
    ['US date', '11/16/1990', '1990-11-16'],
    ['US date, one-digit month', '1/6/1990', '1990-01-06'],
    ['US date with midnight AM', '11/16/1990 12:00:00 AM', '1990-11-16'],
    ['US date with afternoon PM', '11/16/1990 1:30:00 PM', '1990-11-16'],
    ['US date with a 24-hour time', '11/16/1990 23:59:59', '1990-11-16'],
  ])('%s (%j) is %j', (_label, value, expected) => {
    expect(floodInsuranceProhibitionDate(value)).toBe(expected);
  });

  it.each([
    ['"Null" (OPAs)', 'Null'],
    ['"NULL"', 'NULL'],
    ['"<Null>"', '<Null>'],
    ['null', null],
    ['undefined', undefined],
    ['blank', '   '],
    ['empty', ''],
    ['-9999', -9999],
    ['the 9999-09-09 placeholder', 253392451200000],
    ['NaN', Number.NaN],
    ['no date', 'unknown'],
    ['February 30', '1990-02-30'],
    ['month 13', '1990-13-01'],
    ['US February 30', '2/30/1990'],
    ['hour 24', '1990-11-16T24:00:00Z'],
    ['hour 13 PM', '11/16/1990 13:00:00 PM'],
    ['two-digit year', '11/16/90'],
    ['day-first text', '16.11.1990'],
  ])('%s is null', (_label, value) => {
    expect(floodInsuranceProhibitionDate(value)).toBeNull();
  });

  describe.each(['Pacific/Kiritimati', 'America/Los_Angeles'])('with the process in %s', (timeZone) => {
    const originalTz = process.env.TZ;
    beforeAll(() => {
      process.env.TZ = timeZone;
    });
    afterAll(() => {
      if (originalTz === undefined) delete process.env.TZ;
      else process.env.TZ = originalTz;
    });

    it('still reads written dates and times as UTC', () => {
      expect(floodInsuranceProhibitionDate('1990-11-16T00:00:00')).toBe('1990-11-16');
      expect(floodInsuranceProhibitionDate('1990-11-16 23:30:00')).toBe('1990-11-16');
      expect(floodInsuranceProhibitionDate('11/16/1990 12:00:00 AM')).toBe('1990-11-16');
      expect(floodInsuranceProhibitionDate('11/16/1990 11:30:00 PM')).toBe('1990-11-16');
      expect(floodInsuranceProhibitionDate(NOV_16_1990)).toBe('1990-11-16');
    });
  });

  it('is applied to the answer', () => {
    expect(coastalBarrierAt([prohibition({ FI_Date: '1990-11-16T00:00:00Z' })], false).floodInsuranceProhibitionDate).toBe('1990-11-16');
    expect(coastalBarrierAt([prohibition({ FI_Date: 'Null' })], false)).toMatchObject({
      status: 'inside',
      floodInsuranceProhibitionDate: null,
    });
  });
});
