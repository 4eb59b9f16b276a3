/**
 * The report page's own Content-Security-Policy, instead of the JSON answers' `default-src 'none'`: its map picture
 * from this origin and its inline style, nothing else (no script, no other origin, no form, no framing).
 */
export const REPORT_PAGE_POLICY = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
