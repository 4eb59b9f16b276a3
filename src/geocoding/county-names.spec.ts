import { countyName } from './county-names';
import COUNTY_NAME_TABLE from './county-names.json';

describe('countyName', () => {
  it('names counties as the Counties layer does, suffix included', () => {
    expect(countyName('36091')).toBe('Saratoga County');
    expect(countyName('11001')).toBe('District of Columbia');
    expect(countyName('72001')).toBe('Adjuntas Municipio');
    expect(countyName('22071')).toBe('Orleans Parish');
    expect(countyName('51059')).toBe('Fairfax County');
    expect(countyName('51600')).toBe('Fairfax city');
    expect(countyName('02020')).toBe('Anchorage Municipality');
  });

  it('keeps the Census spellings with accents', () => {
    expect(countyName('35013')).toBe('Doña Ana County');
    expect(countyName('72011')).toBe('Añasco Municipio');
    expect(countyName('72097')).toBe('Mayagüez Municipio');
    expect(countyName('72119')).toBe('Río Grande Municipio');
  });

  it('knows the areas created or renamed since 2010', () => {
    expect(countyName('09110')).toBe('Capitol Planning Region');
    expect(countyName('09190')).toBe('Western Connecticut Planning Region');
    expect(countyName('02063')).toBe('Chugach Census Area');
    expect(countyName('02066')).toBe('Copper River Census Area');
    expect(countyName('02158')).toBe('Kusilvak Census Area');
    expect(countyName('02195')).toBe('Petersburg Borough');
    expect(countyName('46102')).toBe('Oglala Lakota County');
  });

  it('still names retired codes, which older vintages answer', () => {
    expect(countyName('09001')).toBe('Fairfield County');
    expect(countyName('46113')).toBe('Shannon County');
  });

  it('answers null for a code it does not know', () => {
    expect(countyName('99999')).toBeNull();
    expect(countyName('1101')).toBeNull();
    expect(countyName('constructor')).toBeNull();
    expect(countyName('')).toBeNull();
  });

  it('holds every state, DC and Puerto Rico, one well-formed entry per code', () => {
    const codes = Object.keys(COUNTY_NAME_TABLE);
    expect(codes).toHaveLength(3248);
    for (const code of codes) expect(code).toMatch(/^\d{5}$/);
    for (const name of Object.values(COUNTY_NAME_TABLE)) expect(name).toMatch(/^\S.*\S$/);
    const states = new Set(codes.map((c) => c.slice(0, 2)));
    for (const state of ['01', '02', '06', '09', '11', '15', '48', '56', '72']) expect(states).toContain(state);
    expect(codes.filter((c) => c.startsWith('72'))).toHaveLength(78);
  });
});
