import { csvHeader, csvHeaderLineWithInput, csvRow, csvRowWithInput } from './csv-answer';
import { RowAnswer, rowObject } from './row-answer';

/** How a batch answer is written as rows stream out: an opening, each row in input order, a closing. */
export interface AnswerFormat {
  contentType: string;
  opening(): string;
  row(answer: RowAnswer): string;
  closing(): string;
}

export const NDJSON = 'application/x-ndjson';
export const CSV = 'text/csv';

/** The formats `Accept` chooses from, NDJSON first: the default, also when Accept allows any type. */
export const ANSWER_FORMATS: Record<string, AnswerFormat> = {
  [NDJSON]: {
    contentType: `${NDJSON}; charset=utf-8`,
    opening: () => '',
    row: (answer) => `${JSON.stringify(rowObject(answer))}\n`,
    closing: () => '',
  },
  [CSV]: {
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

/**
 * The CSV answer with the input's columns, as `flood-zone batch` writes its output: after the answer's columns,
 * error_message, candidates, and the CSV body's other columns (`otherColumns`), each row's cells as given.
 */
export function csvWithInput(otherColumns: string[]): AnswerFormat {
  return { ...ANSWER_FORMATS[CSV], opening: () => csvHeaderLineWithInput(otherColumns), row: (answer) => csvRowWithInput(answer, answer.otherCells ?? []) };
}
