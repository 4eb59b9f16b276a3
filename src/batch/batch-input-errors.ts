import { ApiError } from '../common/api-error';

/** A body that cannot be read as a batch at all (a row-level problem is that row's answer instead); the message says where. */
export const invalidBatch = (message: string) => new ApiError(400, 'INVALID_BATCH', message);

export const tooManyRows = (maxRows: number) =>
  new ApiError(413, 'BATCH_TOO_LARGE', `A batch holds at most ${maxRows} locations; split it into several requests.`);

export const bodyTooLarge = (maxBytes: number) =>
  new ApiError(413, 'BATCH_TOO_LARGE', `A batch body holds at most ${maxBytes} bytes; split it into several requests.`);

/** Why a CSV record is its own row's 400: its cells do not line up with the header's (the endpoint and the command line say it alike). */
export const raggedRowProblem = (line: number, cells: number, headerCells: number) => `Line ${line} has ${cells} cells; the header row has ${headerCells}.`;
