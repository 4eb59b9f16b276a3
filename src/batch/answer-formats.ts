import { csvHeader, csvRow } from './csv-answer';
import { RowAnswer, rowObject } from './row-answer';

/** How a batch answer is written as rows stream out: an opening, each row in input order, a closing. */
export interface AnswerFormat {
  contentType: string;
  opening(): string;
  row(answer: RowAnswer): string;
  closing(): string;
}

export const NDJSON = 'application/x-ndjson';

/** The formats `Accept` chooses from, NDJSON first: the default, also when Accept allows any type. */
export const ANSWER_FORMATS: Record<string, AnswerFormat> = {
  [NDJSON]: {
    contentType: `${NDJSON}; charset=utf-8`,
    opening: () => '',
    row: (answer) => `${JSON.stringify(rowObject(answer))}\n`,
    closing: () => '',
  },
  'text/csv': {
    contentType: 'text/csv; charset=utf-8',
    opening: csvHeader,
    row: csvRow,
    closing: () => '',
  },
  'application/json': {
    contentType: 'application/json; charset=utf-8',
    opening: () => '{"results":[',
    row: (answer) => `${answer.index === 0 ? '' : ','}${JSON.stringify(rowObject(answer))}`,
    closing: () => ']}',
  },
};
