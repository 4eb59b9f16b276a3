import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { askedLocation, Portfolio, PortfolioRow, rowId } from './portfolio-input';

describe('Portfolio (reading the input CSV)', () => {
  let dir: string;
  let path: string;
  const open = (content: string | Buffer) => {
    writeFileSync(path, content);
    return Portfolio.open(path);
  };
  const rowsOf = async (portfolio: Portfolio, skip = 0) => {
    const rows: PortfolioRow[] = [];
    for await (const row of portfolio.rows(skip)) rows.push(row);
    return rows;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'flood-zone-input-'));
    path = join(dir, 'in.csv');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('numbers each row by the line it starts on: BOM, CRLF, blank lines and line ends inside quoted cells', async () => {
    const portfolio = await open('\ufeffid,address\r\nr0,"1 Main St\r\nSuite 2\r\nHouston"\r\n\r\n\r\nr1,2 Elm St\r\n\nr2,"3 Oak\nSt"\rr3,4 Ash St');
    expect(portfolio.rowCount).toBe(4);
    expect((await rowsOf(portfolio)).map((row) => [row.position, row.line, row.fields.id, row.fields.address])).toEqual([
      [0, 2, 'r0', '1 Main St\r\nSuite 2\r\nHouston'],
      [1, 7, 'r1', '2 Elm St'],
      [2, 9, 'r2', '3 Oak\nSt'],
      [3, 11, 'r3', '4 Ash St'],
    ]);
    expect((await rowsOf(portfolio, 2)).map((row) => row.position)).toEqual([2, 3]);
  });

  it('reads aliases of lat and lon in any case, keeps the other columns to pass through, and sends the read ones under their field names', async () => {
    const portfolio = await open('Ref,  LATITUDE ,Long,Id,,Notes\nP1,29.7,-95.3,r1,x,"a, b"\n');
    expect(portfolio.columns).toEqual({
      fields: [
        ['lat', 1],
        ['lon', 2],
        ['id', 3],
      ],
      others: [
        { name: 'Ref', column: 0 },
        { name: '', column: 4 },
        { name: 'Notes', column: 5 },
      ],
      width: 6,
    });
    expect(portfolio.unreadColumnsWarning).toBe(
      '"Ref", (unnamed column 5), "Notes" are not read as a location (id, address, lat or latitude, lon or longitude, lng, long)',
    );
    const rows = await rowsOf(portfolio);
    expect(rows[0]).toEqual({ position: 0, line: 2, fields: { lat: '29.7', lon: '-95.3', id: 'r1' }, passedThrough: ['P1', 'x', 'a, b'] });
    expect(parse(portfolio.requestCsv(rows))).toEqual([
      ['lat', 'lon', 'id'],
      ['29.7', '-95.3', 'r1'],
    ]);
  });

  it('marks a row with more or fewer cells than the header row as ragged, naming its line; its cells are still read', async () => {
    const rows = await rowsOf(await open('id,address,notes\nr0,a\nr1,b,c,d\nr2,c,\n'));
    expect(rows.map((row) => [row.ragged, row.fields, row.passedThrough])).toEqual([
      ['Line 2 has 2 cells; the header row has 3.', { id: 'r0', address: 'a' }, ['']],
      ['Line 3 has 4 cells; the header row has 3.', { id: 'r1', address: 'b' }, ['c']],
      [undefined, { id: 'r2', address: 'c' }, ['']],
    ]);
  });

  it('echoes a row as the service does: blank cells not given, cells otherwise as given', async () => {
    const [row, blank] = await rowsOf(await open('id,address,lat,lon\n r1 , 1 Main St ,,\n  ,,29.7,-95.3\n'));
    expect([rowId(row), askedLocation(row)]).toEqual([' r1 ', { address: ' 1 Main St ' }]);
    expect([rowId(blank), askedLocation(blank)]).toEqual([null, { lat: '29.7', lon: '-95.3' }]);
  });

  it.each([
    [
      'an open quote after blank lines',
      'id,address\nr1,ok\n\n\nr2,"open quote\nr3,x\n',
      /is not valid CSV: the record starting at line 5: Quote Not Closed: the parsing is finished with an opening quote\.$/,
    ],
    [
      'a stray character after a closing quote',
      'id,address\r\nr1,"two\r\nlines"\r\nr2,"bad"x\r\n',
      /is not valid CSV: the record starting at line 4: Invalid Closing Quote: got "x"/,
    ],
    ['a quote inside an unquoted cell', 'id,address\nr1,12" pipe\n', /is not valid CSV: the record starting at line 2: Invalid Opening Quote/],
    ['a broken header row', 'id,"address\n', /is not valid CSV: the record starting at line 1: /],
    ['a header naming lat twice', 'lat,Latitude,lon\n1,2,3\n', /the header row names lat twice \("lat" and "Latitude"\); keep one\.$/],
  ])('refuses with exit status 2: %s', async (_case, content, message) => {
    await expect(open(content)).rejects.toMatchObject({ exitStatus: 2, message: expect.stringMatching(message) });
  });
});
