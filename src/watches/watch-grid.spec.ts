import { gridCellOf, gridCellsOf, inEnvelope, MAX_AREA_CELLS } from './watch-grid';

describe('gridCellOf', () => {
  it.each([
    [29.76839, -95.377582, '297:-954'],
    [38.898754, -77.03535, '388:-771'],
    [0, 0, '0:0'],
    [-0.05, 179.99, '-1:1799'],
  ])('(%d, %d) is in cell %s', (lat, lon, cell) => {
    expect(gridCellOf(lat, lon)).toBe(cell);
  });
});

describe('gridCellsOf', () => {
  it.each<[string, readonly [number, number, number, number], string[] | null]>([
    ['a panel inside one cell (its margin stays inside)', [-95.38, 29.75, -95.36, 29.78], ['297:-954']],
    ['an envelope across a cell edge', [-95.41, 29.75, -95.38, 29.78], ['297:-955', '297:-954']],
    ['an envelope within the margin of the next row', [-95.38, 29.7995, -95.37, 29.7999], ['297:-954', '298:-954']],
    ['the conterminous United States: everywhere', [-125, 24, -66, 50], null],
  ])('%s', (_title, envelope, cells) => {
    expect(gridCellsOf(envelope)).toEqual(cells);
  });

  it('stops at MAX_AREA_CELLS', () => {
    expect(gridCellsOf([0.01, 0.01, 19.98, 19.98])?.length).toBe(MAX_AREA_CELLS);
  });
});

describe('inEnvelope', () => {
  it.each<[string, number, number, boolean]>([
    ['inside', 29.76, -95.37, true],
    ['on the margin (80 m east)', 29.76, -95.3592, true],
    ['beyond the margin (200 m east)', 29.76, -95.358, false],
    ['north of it', 29.8, -95.37, false],
  ])('%s', (_title, lat, lon, inside) => {
    expect(inEnvelope(lat, lon, [-95.38, 29.75, -95.36, 29.78])).toBe(inside);
  });
});
