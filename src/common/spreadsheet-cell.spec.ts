import { asSpreadsheetText } from './spreadsheet-cell';

describe('a CSV cell as spreadsheet text', () => {
  it.each([
    ['=HYPERLINK("http://evil.example","x")', `'=HYPERLINK("http://evil.example","x")`],
    ['=1+2', `'=1+2`],
    ['+1+2', `'+1+2`],
    ['+12', `'+12`],
    ["-2+3+cmd|' /C calc'!A0", `'-2+3+cmd|' /C calc'!A0`],
    ['-', `'-`],
    ['--12', `'--12`],
    ['-12.5abc', `'-12.5abc`],
    ['@SUM(A1:A2)', `'@SUM(A1:A2)`],
    ['\t=1+2', `'\t=1+2`],
    ['\r=1+2', `'\r=1+2`],
    ['-12.5', '-12.5'],
    ['-90', '-90'],
    ['-0.000001', '-0.000001'],
    ['-.5', '-.5'],
    ['-1e-3', '-1e-3'],
    ['-12.', '-12.'],
    ['1 Main St, Town', '1 Main St, Town'],
    ['12.5', '12.5'],
    ['', ''],
    [' =1+2', ' =1+2'],
    ['a=1', 'a=1'],
    ['community;lomrs', 'community;lomrs'],
  ])('writes %j as %j', (cell, written) => {
    expect(asSpreadsheetText(cell)).toBe(written);
  });
});
