/**
 * The HTML document around a report or an error page: UTF-8, inline style only (the page's Content-Security-Policy
 * allows no script and no resource but data: images), no referrer sent with the links.
 */
import { Markup, html } from '../common/markup';

/** The whole document, with `title` (text) and `main` (markup). */
export function pageDocument(title: string, main: Markup): string {
  return html`<!DOCTYPE html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title}</title>
        <style>
          ${new Markup(PAGE_STYLE)}
        </style>
      </head>
      <body>
        <main>${main}</main>
      </body>
    </html> `.html;
}

/**
 * On screen a centred column; printed, one A4 or Letter page: small type, the parts in two columns, no paragraph or
 * table split across columns.
 */
const PAGE_STYLE = `
:root { color-scheme: light; --ink: #1b1f23; --muted: #57606a; --line: #d0d7de; }
* { box-sizing: border-box; }
body { margin: 0; background: #f6f8fa; color: var(--ink); font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Arial, sans-serif; }
main { max-width: 900px; margin: 0 auto; padding: 20px 24px; background: #fff; }
h1 { margin: 0; font-size: 1.05em; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); }
h2 { margin: 0 0 4px; font-size: 1em; border-bottom: 1px solid var(--line); }
p { margin: 0 0 4px; }
header .place { margin: 2px 0; font-size: 1.5em; font-weight: 700; }
header .where { color: var(--muted); }
header .stamp { margin: 2px 0 0; color: var(--muted); font-size: .85em; }
.verdict { margin: 10px 0; padding: 8px 12px; border-left: 8px solid #8c959f; background: #f6f8fa; }
.verdict .zone { margin: 0; font-size: 1.6em; font-weight: 700; }
.verdict .subtype { font-size: .55em; font-weight: 600; color: var(--muted); }
.verdict .sfha { font-weight: 700; }
.verdict .building { font-size: 1.35em; }
.verdict .point-meaning { color: var(--muted); font-size: .92em; }
.risk-very_high { border-color: #7a0019; }
.risk-high { border-color: #cf222e; }
.risk-moderate { border-color: #bf8700; }
.risk-minimal { border-color: #1a7f37; }
.guidance { font-weight: 600; }
.overview { display: grid; grid-template-columns: minmax(0, 40fr) minmax(0, 60fr); gap: 14px; align-items: start; }
figure { margin: 0; }
figure img { display: block; width: 100%; height: auto; border: 1px solid var(--line); background: #eaeef2; }
figcaption, .small { color: var(--muted); font-size: .85em; }
.no-picture { margin: 0; padding: 12px; border: 1px dashed var(--line); color: var(--muted); }
.nowrap { white-space: nowrap; }
.facts-title { font-weight: 700; }
.facts { margin: 0; }
.facts div { display: grid; grid-template-columns: minmax(0, 36fr) minmax(0, 64fr); column-gap: 8px; border-bottom: 1px solid var(--line); padding: 2px 0; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; }
.parts { columns: 2; column-gap: 18px; margin: 10px 0 6px; }
.part { margin: 0 0 8px; }
/* A part may go on in the next column, a whole paragraph, table or note at a time, its title never left alone: so both columns end together. */
.part h2 { break-after: avoid; }
.part p, .part table, .part li { break-inside: avoid; }
table { width: 100%; border-collapse: collapse; font-size: .85em; }
th, td { text-align: left; vertical-align: top; padding: 1px 4px 1px 0; border-bottom: 1px solid var(--line); }
ul { margin: 0 0 4px; padding-left: 1.1em; }
.sources ul { columns: 2; column-gap: 18px; }
.sources li { font-size: .85em; overflow-wrap: anywhere; break-inside: avoid; }
.nearby th { font-weight: 600; }
.form-item { margin: 0 0 2px; }
.notes { margin-top: 3px; }
.links { overflow-wrap: anywhere; font-size: .85em; }
a { color: #0550ae; }
footer { margin-top: 6px; border-top: 1px solid var(--line); padding-top: 4px; }
.disclaimer { font-size: .8em; color: var(--muted); }
@page { margin: 9mm; }
@media print {
  body { background: #fff; font-size: 8pt; line-height: 1.15; }
  main { max-width: none; padding: 0; }
  header .place { margin: 0; }
  .verdict { margin: 5px 0; padding: 4px 8px; }
  .overview { gap: 10px; }
  .parts { margin-top: 6px; column-gap: 12px; }
  .sources ul { column-gap: 12px; }
  .part { margin-bottom: 3px; }
  h2 { margin-bottom: 2px; }
  p { margin-bottom: 2px; }
  a { color: inherit; }
}
`;
