/**
 * Express's query parser for this service: every parameter, however many (the default `qs` parser
 * silently drops those past the 1,000th, so a repeated `lat` could slip through), with a repeated key
 * as an array of its values and no bracket syntax (`lat[]` is just another name).
 */
export function parseQuery(queryString: string): Record<string, string | string[]> {
  const query = new Map<string, string | string[]>();
  for (const [name, value] of new URLSearchParams(queryString)) {
    const earlier = query.get(name);
    if (earlier === undefined) query.set(name, value);
    else if (Array.isArray(earlier)) earlier.push(value);
    else query.set(name, [earlier, value]);
  }
  // fromEntries defines own properties, so a parameter named __proto__ stays a plain parameter.
  return Object.fromEntries(query);
}
