import type { LocationQuery } from '../lookup/location-query';
import type { IncludeItem } from '../parts/answer-parts';
import { candidateReportUrl, jsonAnswerUrl, pictureQueryOf, plainDecimal } from './report-links';

const point = (lat: number, lon: number, include: IncludeItem[] = [], radiusM = 500): LocationQuery => ({
  kind: 'point',
  lat,
  lon,
  include: new Set(include),
  radiusM,
});

describe('plainDecimal', () => {
  it.each([
    [29.7, '29.7'],
    [-95.43, '-95.43'],
    [0, '0'],
    [90, '90'],
    [1e-7, '0.0000001'],
    [-2.5e-7, '-0.00000025'],
  ])('%d → %s', (value, text) => {
    expect(plainDecimal(value)).toBe(text);
    expect(Number(plainDecimal(value))).toBe(value);
  });
});

describe('jsonAnswerUrl: the equivalent GET /flood-zone', () => {
  it.each([
    [point(29.7, -95.43), '/flood-zone?lat=29.7&lon=-95.43'],
    [point(29.7, -95.43, ['elevation', 'nearby', 'cbrs', 'preliminary']), '/flood-zone?lat=29.7&lon=-95.43&include=nearby,preliminary,cbrs,elevation'],
    [point(29.7, -95.43, ['nearby'], 800), '/flood-zone?lat=29.7&lon=-95.43&include=nearby&radius=800'],
    [point(29.7, -95.43, ['nearby'], 500), '/flood-zone?lat=29.7&lon=-95.43&include=nearby'],
    [point(1e-7, 0, ['cbrs']), '/flood-zone?lat=0.0000001&lon=0&include=cbrs'],
    [
      { kind: 'address', address: '1600 Pennsylvania Ave NW, Washington, DC 20500 & <b>', include: new Set<IncludeItem>(['nearby']), radiusM: 500 },
      '/flood-zone?address=1600%20Pennsylvania%20Ave%20NW%2C%20Washington%2C%20DC%2020500%20%26%20%3Cb%3E&include=nearby',
    ],
  ] as const)('%j → %s', (query, url) => {
    expect(jsonAnswerUrl(query as LocationQuery)).toBe(url);
  });
});

describe('pictureQueryOf', () => {
  it('is the picture GET /flood-zone/map draws of the location, at the size the page shows, with the span asked for', () => {
    expect(pictureQueryOf({ ...point(38.898754, -77.03535, ['nearby'], 800), spanM: 1200 })).toEqual({
      kind: 'point',
      lat: 38.898754,
      lon: -77.03535,
      width: 560,
      height: 360,
      spanM: 1200,
    });
    expect(pictureQueryOf({ kind: 'address', address: '1 Main St', spanM: 600 })).toEqual({
      kind: 'address',
      address: '1 Main St',
      width: 560,
      height: 360,
      spanM: 600,
    });
  });

  it('is none beyond the latitudes of a Web Mercator map', () => {
    expect(pictureQueryOf({ ...point(85.06, 0), spanM: 600 })).toBeNull();
    expect(pictureQueryOf({ ...point(-89, 0), spanM: 600 })).toBeNull();
    expect(pictureQueryOf({ ...point(85.05, 0), spanM: 600 })).not.toBeNull();
  });
});

describe('candidateReportUrl', () => {
  it("keeps the request's other parameters and puts the match's point for the address", () => {
    expect(candidateReportUrl('address=200%20Main%20St&include=nearby&span=900&cachebuster=1', { lat: 29.7589, lon: -95.3632 })).toBe(
      '/flood-zone/report?include=nearby&span=900&cachebuster=1&lat=29.7589&lon=-95.3632',
    );
  });
});
