import CheapRuler from 'cheap-ruler';
import { ESTIMATED_BFE_NOTE, estimateBaseFloodElevation, needsBfeEstimate } from './bfe-estimate';
import { BfeLineAttributes, BfeLineFeature } from './flood-hazard.types';

const POINT = { lat: 34.657, lon: -86.032 };
const ORIGIN: [number, number] = [POINT.lon, POINT.lat];
const ruler = new CheapRuler(POINT.lat, 'meters');
const DFIRM = '01071C';

/**
 * A straight 400 m BFE line crossing the direction `bearing` at right angles, `metres` from POINT:
 * its nearest point to POINT is exactly that far in that direction.
 */
function lineAt(metres: number, bearing: number, attributes: Partial<BfeLineAttributes>): BfeLineFeature {
  const centre = ruler.destination(ORIGIN, metres, bearing);
  return {
    attributes: { ELEV: 612, LEN_UNIT: 'Feet', V_DATUM: 'NAVD88', DFIRM_ID: DFIRM, ...attributes },
    paths: [[ruler.destination(centre, 200, bearing - 90), ruler.destination(centre, 200, bearing + 90)]],
  };
}

const NORTH = 0;
const EAST = 90;
const SOUTH = 180;

function estimate(lines: BfeLineFeature[], dfirmId: string | null = DFIRM) {
  return estimateBaseFloodElevation(POINT, dfirmId, lines);
}

describe('needsBfeEstimate', () => {
  it.each([
    ['AE', null, true],
    ['AH', null, true],
    ['AE', 12, false],
    ['AH', 583.5, false],
    ['AO', null, false],
    ['A', null, false],
    ['VE', null, false],
    ['V', null, false],
    ['X', null, false],
    [null, null, false],
  ])('zone %j with static BFE %j: %j', (floodZone, staticBaseFloodElevationFt, expected) => {
    expect(needsBfeEstimate({ floodZone, staticBaseFloodElevationFt })).toBe(expected);
  });
});

describe('estimateBaseFloodElevation', () => {
  it('interpolates between two bracketing lines (the documented example)', () => {
    expect(estimate([lineAt(41, NORTH, { ELEV: 612 }), lineAt(62, SOUTH, { ELEV: 613 })])).toEqual({
      elevationFt: 612.4,
      verticalDatum: 'NAVD88',
      method: 'interpolated',
      lines: [
        { elevationFt: 612, distanceM: 41 },
        { elevationFt: 613, distanceM: 62 },
      ],
      note: "Estimated from FEMA's whole-foot BFE lines; not an official base flood elevation.",
    });
    expect(ESTIMATED_BFE_NOTE).toBe("Estimated from FEMA's whole-foot BFE lines; not an official base flood elevation.");
  });

  it('interpolates downhill as well: L2 may be lower than L1', () => {
    const result = estimate([lineAt(62, SOUTH, { ELEV: 611 }), lineAt(41, NORTH, { ELEV: 612 })]);
    expect(result).toMatchObject({ elevationFt: 611.6, method: 'interpolated' });
    expect(result?.lines).toEqual([
      { elevationFt: 612, distanceM: 41 },
      { elevationFt: 611, distanceM: 62 },
    ]);
  });

  it('interpolates with the unrounded distances', () => {
    // 600 + 10 x 20.4 / 41 = 604.98 -> 605.0; with the rounded 20 m and 21 m it would be 604.9.
    const result = estimate([lineAt(20.4, NORTH, { ELEV: 600 }), lineAt(20.6, SOUTH, { ELEV: 610 })]);
    expect(result).toMatchObject({ elevationFt: 605, method: 'interpolated' });
    expect(result?.lines).toEqual([
      { elevationFt: 600, distanceM: 20 },
      { elevationFt: 610, distanceM: 21 },
    ]);
  });

  it('uses the nearest line alone when no line lies on the other side', () => {
    expect(estimate([lineAt(41, NORTH, { ELEV: 612 })])).toEqual({
      elevationFt: 612,
      verticalDatum: 'NAVD88',
      method: 'nearest_line',
      lines: [{ elevationFt: 612, distanceM: 41 }],
      note: ESTIMATED_BFE_NOTE,
    });
  });

  it('does not bracket with a line on the same side', () => {
    const result = estimate([lineAt(41, NORTH, { ELEV: 612 }), lineAt(80, NORTH, { ELEV: 613 })]);
    expect(result).toMatchObject({ elevationFt: 612, method: 'nearest_line', lines: [{ elevationFt: 612, distanceM: 41 }] });
  });

  it('does not bracket at exactly 90 degrees, and does just beyond', () => {
    const atRightAngle = estimate([lineAt(40, NORTH, { ELEV: 612 }), lineAt(60, EAST, { ELEV: 613 })]);
    expect(atRightAngle).toMatchObject({ method: 'nearest_line', elevationFt: 612 });
    const beyond = estimate([lineAt(40, NORTH, { ELEV: 612 }), lineAt(60, EAST + 1, { ELEV: 613 })]);
    expect(beyond).toMatchObject({ method: 'interpolated', elevationFt: 612.4 });
    expect(beyond?.lines).toEqual([
      { elevationFt: 612, distanceM: 40 },
      { elevationFt: 613, distanceM: 60 },
    ]);
  });

  it('measures the angle across north: bearings 350 and 170 are opposite', () => {
    const result = estimate([lineAt(30, 350, { ELEV: 612 }), lineAt(70, 170, { ELEV: 613 })]);
    expect(result).toMatchObject({ method: 'interpolated', elevationFt: 612.3 });
  });

  it('takes as L2 the nearest bracketing line with another elevation', () => {
    const result = estimate([
      lineAt(41, NORTH, { ELEV: 612 }),
      lineAt(50, SOUTH, { ELEV: 612 }),
      lineAt(90, SOUTH, { ELEV: 614 }),
      lineAt(62, SOUTH, { ELEV: 613 }),
    ]);
    expect(result?.lines).toEqual([
      { elevationFt: 612, distanceM: 41 },
      { elevationFt: 613, distanceM: 62 },
    ]);
  });

  it('never brackets across vertical datums', () => {
    const lines = [lineAt(41, NORTH, { ELEV: 612 }), lineAt(62, SOUTH, { ELEV: 613, V_DATUM: 'NGVD29' })];
    expect(estimate(lines)).toMatchObject({ method: 'nearest_line', verticalDatum: 'NAVD88', elevationFt: 612 });
    const withSameDatumFurther = [...lines, lineAt(120, SOUTH, { ELEV: 614, V_DATUM: ' navd88 ' })];
    expect(estimate(withSameDatumFurther)?.lines).toEqual([
      { elevationFt: 612, distanceM: 41 },
      { elevationFt: 614, distanceM: 120 },
    ]);
  });

  it('never brackets across length units', () => {
    const lines = [lineAt(41, NORTH, { ELEV: 612 }), lineAt(62, SOUTH, { ELEV: 187, LEN_UNIT: 'Meters' })];
    expect(estimate(lines)).toMatchObject({ method: 'nearest_line', elevationFt: 612 });
  });

  it('reads "U.S. Survey Feet" as feet, but as a LEN_UNIT of its own when bracketing', () => {
    expect(estimate([lineAt(41, NORTH, { ELEV: 612, LEN_UNIT: 'U.S. Survey Feet' })])).toMatchObject({
      method: 'nearest_line',
      elevationFt: 612,
    });
    const mixed = [lineAt(41, NORTH, { ELEV: 612, LEN_UNIT: 'U.S. Survey Feet' }), lineAt(62, SOUTH, { ELEV: 613 })];
    expect(estimate(mixed)).toMatchObject({ method: 'nearest_line' });
    const same = [lineAt(41, NORTH, { ELEV: 612, LEN_UNIT: 'U.S. Survey Feet' }), lineAt(62, SOUTH, { ELEV: 613, LEN_UNIT: 'u.s. survey feet' })];
    expect(estimate(same)).toMatchObject({ method: 'interpolated', elevationFt: 612.4 });
  });

  it('converts metres to feet, interpolating in metres and rounding once', () => {
    // 32 m + 1 m x 41/103 = 32.398 m = 106.3 ft; the lines are 32 m = 105.0 ft and 33 m = 108.3 ft.
    const result = estimate([
      lineAt(41, NORTH, { ELEV: 32, LEN_UNIT: 'Meters', V_DATUM: 'MSL' }),
      lineAt(62, SOUTH, { ELEV: 33, LEN_UNIT: 'Meters', V_DATUM: 'MSL' }),
    ]);
    expect(result).toEqual({
      elevationFt: 106.3,
      verticalDatum: 'MSL',
      method: 'interpolated',
      lines: [
        { elevationFt: 105, distanceM: 41 },
        { elevationFt: 108.3, distanceM: 62 },
      ],
      note: ESTIMATED_BFE_NOTE,
    });
  });

  it.each([
    ['NP', 'NP'],
    ['null', null],
    ['blank', '  '],
    ['<Null>', '<Null>'],
    ['Inches', 'Inches'],
  ])('reads a line whose LEN_UNIT is %s in feet, as v1 reads a static BFE, and brackets it only with its own unit', (_label, unit) => {
    const lines = [lineAt(20, NORTH, { ELEV: 700, LEN_UNIT: unit }), lineAt(41, NORTH, { ELEV: 612 }), lineAt(62, SOUTH, { ELEV: 701 })];
    expect(estimate(lines)).toMatchObject({ method: 'nearest_line', elevationFt: 700, lines: [{ elevationFt: 700, distanceM: 20 }] });
    const sameUnit = [lineAt(20, NORTH, { ELEV: 700, LEN_UNIT: unit }), lineAt(60, SOUTH, { ELEV: 701, LEN_UNIT: unit })];
    expect(estimate(sameUnit)).toMatchObject({ method: 'interpolated', elevationFt: 700.3 });
  });

  it.each([
    ['0', 0],
    ['-1', -1],
    ['-9999', -9999],
    ['null', null],
  ])('ignores a line with ELEV %s', (_label, elev) => {
    const lines = [lineAt(10, SOUTH, { ELEV: elev }), lineAt(41, NORTH, { ELEV: 612 }), lineAt(62, SOUTH, { ELEV: 613 })];
    expect(estimate(lines)).toMatchObject({ method: 'interpolated', elevationFt: 612.4 });
    expect(estimate([lineAt(10, SOUTH, { ELEV: elev })])).toBeNull();
  });

  it("ignores another DFIRM's lines, and needs the governing polygon's DFIRM_ID", () => {
    const lines = [
      lineAt(10, NORTH, { ELEV: 650, DFIRM_ID: '01089C' }),
      lineAt(41, NORTH, { ELEV: 612, DFIRM_ID: ' 01071C ' }),
      lineAt(30, SOUTH, { ELEV: 651, DFIRM_ID: '01089C' }),
      lineAt(62, SOUTH, { ELEV: 613 }),
    ];
    expect(estimate(lines)?.lines).toEqual([
      { elevationFt: 612, distanceM: 41 },
      { elevationFt: 613, distanceM: 62 },
    ]);
    expect(estimate([lineAt(10, NORTH, { DFIRM_ID: '01089C' })])).toBeNull();
    expect(estimate(lines, null)).toBeNull();
    expect(estimate([lineAt(41, NORTH, { DFIRM_ID: null })], null)).toBeNull();
  });

  it('keeps lines within 300 m only', () => {
    expect(estimate([lineAt(300.5, NORTH, {})])).toBeNull();
    expect(estimate([lineAt(299.6, NORTH, {})])?.lines).toEqual([{ elevationFt: 612, distanceM: 300 }]);
    const far = [lineAt(41, NORTH, { ELEV: 612 }), lineAt(301, SOUTH, { ELEV: 613 })];
    expect(estimate(far)).toMatchObject({ method: 'nearest_line' });
  });

  it('answers null without lines', () => {
    expect(estimate([])).toBeNull();
  });

  it('gives verticalDatum with the v1 null rules, and brackets only lines with the same V_DATUM as published', () => {
    expect(estimate([lineAt(41, NORTH, { V_DATUM: '<Null>' })])).toMatchObject({ verticalDatum: null });
    const unknown = [lineAt(41, NORTH, { ELEV: 612, V_DATUM: null }), lineAt(62, SOUTH, { ELEV: 613, V_DATUM: ' ' })];
    expect(estimate(unknown)).toMatchObject({ method: 'interpolated', verticalDatum: null, elevationFt: 612.4 });
    const mixed = [lineAt(41, NORTH, { ELEV: 612, V_DATUM: null }), lineAt(62, SOUTH, { ELEV: 613, V_DATUM: 'NAVD88' })];
    expect(estimate(mixed)).toMatchObject({ method: 'nearest_line', verticalDatum: null, elevationFt: 612 });
    expect(estimate([lineAt(41, NORTH, { V_DATUM: 'NAVD29' })])).toMatchObject({ verticalDatum: 'NAVD29' });
  });

  it('measures a line with several paths by its nearest path', () => {
    const near = lineAt(41, NORTH, {});
    const far = lineAt(150, NORTH, {});
    const multi: BfeLineFeature = { attributes: near.attributes, paths: [far.paths[0], near.paths[0]] };
    expect(estimate([multi])?.lines).toEqual([{ elevationFt: 612, distanceM: 41 }]);
  });

  it('measures to the nearest vertex when the line ends before the point', () => {
    const end = ruler.destination(ORIGIN, 50, EAST);
    const line: BfeLineFeature = {
      attributes: { ELEV: 612, LEN_UNIT: 'Feet', V_DATUM: 'NAVD88', DFIRM_ID: DFIRM },
      paths: [[end, ruler.destination(end, 100, EAST)]],
    };
    expect(estimate([line])?.lines).toEqual([{ elevationFt: 612, distanceM: 50 }]);
  });

  it('on a line, gives that line', () => {
    const onLine: BfeLineFeature = {
      attributes: { ELEV: 612, LEN_UNIT: 'Feet', V_DATUM: 'NAVD88', DFIRM_ID: DFIRM },
      paths: [[ruler.destination(ORIGIN, 100, EAST), ORIGIN, ruler.destination(ORIGIN, 100, 270)]],
    };
    expect(estimate([onLine, lineAt(62, SOUTH, { ELEV: 613 })])).toMatchObject({
      method: 'nearest_line',
      elevationFt: 612,
      lines: [{ elevationFt: 612, distanceM: 0 }],
    });
  });
});
