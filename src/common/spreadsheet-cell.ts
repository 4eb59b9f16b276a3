/** Characters a spreadsheet reads as the start of a formula (or, for tab and carriage return, that it strips before one). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A negative number such as `-12.5` or `-1e-3`: spreadsheets read it as a number, which is what it is. */
const NEGATIVE_NUMBER = /^-(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A CSV cell as text a spreadsheet will not run as a formula ("CSV injection"): a cell that starts with `=`, `+`, `-`
 * (unless it is a number), `@`, tab or carriage return gets a leading single quote, the OWASP advice, which
 * spreadsheets show as text. Every other cell is unchanged.
 */
export function asSpreadsheetText(cell: string): string {
  return FORMULA_START.test(cell) && !NEGATIVE_NUMBER.test(cell) ? `'${cell}` : cell;
}
