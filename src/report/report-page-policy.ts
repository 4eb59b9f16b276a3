/**
 * The report page's own Content-Security-Policy, instead of the JSON answers' `default-src 'none'`: its map picture,
 * inside the page as a `data:` image (so a saved page is whole), and its inline style; nothing else (no script, no
 * request of any origin, no form, no framing).
 */
export const REPORT_PAGE_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
