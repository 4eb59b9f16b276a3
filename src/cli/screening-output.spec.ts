import { parse } from 'csv-parse/sync';
import { CSV_ANSWER_COLUMNS } from '../batch/csv-answer';
import type { RowAnswer } from '../batch/row-answer';
import type { LocationColumns } from '../batch/location-columns';
import type { PortfolioRow } from './portfolio-input';
import { echoesRow, outputHeader, outputLine, raggedRowAnswer } from './screening-output';

const columns: LocationColumns = {
  fields: [
    ['id', 0],
    ['address', 1],
  ],
  others: [
    { name: 'notes', column: 2 },
    { name: 'status', column: 3 },
    { name: 'input_status', column: 4 },
  ],
  width: 5,
};
const row = (cells: Partial<PortfolioRow> = {}): PortfolioRow => ({
  position: 0,
  line: 2,
  fields: { id: 'r1', address: '=1 Main St' },
  passedThrough: ['@note', 'open', '-3'],
  ...cells,
});
const cellsOf = (line: string) => (parse(line) as string[][])[0];
const named = (line: string) => Object.fromEntries(outputHeader(columns).map((name, i) => [name, cellsOf(line)[i]]));

describe('the output of flood-zone batch', () => {
  it("is the endpoint's CSV answer columns, the error columns, then the input's other columns (a name taken gets input_)", () => {
    expect(outputHeader(columns)).toEqual([...CSV_ANSWER_COLUMNS, 'error_message', 'candidates', 'notes', 'input_status', 'input_input_status']);
  });

  it("writes an error row's message and candidates, and every cell a spreadsheet would run as a formula as text", () => {
    const candidates = [{ matchedAddress: '+1 A St', lat: 29.1, lon: -95.1 }];
    const answer: RowAnswer = {
      index: 7,
      id: 'r1',
      status: 404,
      body: { error: '=Several places match.', statusCode: 404, code: 'AMBIGUOUS_ADDRESS', requestId: 'q', candidates },
      asked: { address: '=1 Main St' },
    };
    const line = outputLine(answer, row());
    expect(line.endsWith('\n')).toBe(true);
    expect(named(line)).toMatchObject({
      index: '7',
      id: 'r1',
      status: '404',
      error_code: 'AMBIGUOUS_ADDRESS',
      query_address: "'=1 Main St",
      flood_zone: '',
      error_message: "'=Several places match.",
      candidates: JSON.stringify(candidates),
      notes: "'@note",
      input_status: 'open',
      input_input_status: '-3',
    });
  });

  it('leaves the error columns empty for a 200', () => {
    const body = { location: { matchedAddress: 'X' }, result: { floodZone: 'AE', unavailable: [] }, retrievedAt: '2026-01-01T00:00:00.000Z' };
    const line = outputLine({ index: 0, id: null, status: 200, body: body as never, asked: { lat: '29.7', lon: '-95.3' } }, row());
    expect(named(line)).toMatchObject({ id: '', status: '200', matched_address: 'X', flood_zone: 'AE', query_lat: '29.7', error_message: '', candidates: '' });
  });

  it('answers a ragged row as the endpoint answers a row it cannot read: its 400, with the message naming the line', () => {
    const ragged = row({ ragged: 'Line 9 has 2 cells; the header row has 5.', fields: { id: '  ', address: '2 Elm St' } });
    expect(raggedRowAnswer(ragged, 41)).toEqual({
      index: 41,
      id: null,
      status: 400,
      body: { error: 'Line 9 has 2 cells; the header row has 5.', statusCode: 400, code: 'INVALID_PARAMETERS', requestId: '' },
      asked: { address: '2 Elm St' },
    });
  });

  it('tells whether an output record echoes an input row (what --resume checks)', () => {
    const answer: RowAnswer = {
      index: 0,
      id: 'r1',
      status: 502,
      body: { error: 'x', statusCode: 502, code: 'UPSTREAM_UNAVAILABLE', requestId: '' },
      asked: { address: '=1 Main St' },
    };
    const record = cellsOf(outputLine(answer, row()));
    expect(echoesRow(record, row())).toBe(true);
    expect(echoesRow(record, row({ fields: { id: 'r2', address: '=1 Main St' } }))).toBe(false);
    expect(echoesRow(record, row({ fields: { id: 'r1', address: '1 Main St' } }))).toBe(false);
    expect(echoesRow(record, row({ passedThrough: ['@note', 'closed', '-3'] }))).toBe(false);
  });
});
