import { CsvRecord } from '../batch/batch-row';
import type { RowAnswer } from '../batch/row-answer';
import { packAnswers, packRows, unpackAnswers, unpackRows } from './job-chunks';

describe('job chunks', () => {
  it('keeps input rows as read, a CSV record still one with its other cells and its problem, a footprint (text or object) with its row', async () => {
    const rows = [
      { id: 'a', lat: '29.9', lon: '-90.1' },
      'not an object',
      null,
      7,
      [1],
      new CsvRecord({ id: 'b' }, ['L7', ''], 'Line 3 has 2 cells; the header row has 3.'),
      new CsvRecord({ lat: '1', lon: '2' }, ['L8', '250,000']),
      new CsvRecord({ lat: '1', lon: '2', footprint: '{"type":"Polygon","coordinates":[]}' }, []),
      {
        lat: '1',
        lon: '2',
        footprint: {
          type: 'Polygon',
          coordinates: [
            [
              [2, 1],
              [2.0001, 1],
              [2, 1.0001],
              [2, 1],
            ],
          ],
        },
      },
    ];
    const back = await unpackRows(await packRows(rows));
    expect(back.slice(0, 5)).toEqual(rows.slice(0, 5));
    expect(back[8]).toEqual(rows[8]);
    for (const at of [5, 6, 7]) {
      expect(back[at]).toBeInstanceOf(CsvRecord);
      expect(back[at]).toStrictEqual(rows[at]);
    }
  });

  it('keeps answers as they were', async () => {
    const answers: RowAnswer[] = [
      { index: 1000, id: null, status: 400, asked: { lat: '91' }, body: { error: 'x', statusCode: 400, code: 'INVALID_PARAMETERS', requestId: 'j' } },
    ];
    expect(await unpackAnswers(await packAnswers(answers))).toEqual(answers);
  });
});
