/** Exit status when every row is in the output but some got a 5xx status (the service or a data source failed for them). */
export const ROWS_FAILED_STATUS = 3;

/**
 * Why a command stops early, with its exit status: 1 when the service could not be reached or did not answer a
 * request as a whole, 2 for bad arguments (and input files that cannot be used).
 */
export class CommandFailure extends Error {
  constructor(
    readonly exitStatus: 1 | 2,
    message: string,
  ) {
    super(message);
  }
}

export const badArguments = (message: string) => new CommandFailure(2, message);
export const serviceFailed = (message: string) => new CommandFailure(1, message);
