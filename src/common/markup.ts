/**
 * HTML built so that every value is escaped unless it is already markup: a report shows user input (the
 * address as sent) and upstream text (LOMA outcomes, community names), and none of it may become markup.
 */

/** A fragment of HTML, safe to place as it is. */
export class Markup {
  constructor(readonly html: string) {}

  toString(): string {
    return this.html;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML: safe in element content and in a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

/** A value placed in markup: markup as it is, lists joined, nothing for null, undefined or false, anything else escaped text. */
function placed(value: unknown): string {
  if (value instanceof Markup) return value.html;
  if (Array.isArray(value)) return value.map(placed).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** `html\`<p>${text}</p>\``: the template's own text is markup, every value it places is escaped (see `placed`). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += placed(value) + strings[i + 1]!;
  });
  return new Markup(out);
}

/** A value worth placing among words: text that is not empty (a list of facts drops the others). */
export const isText = (value: string | false | null | undefined): value is string => typeof value === 'string' && value.length > 0;
