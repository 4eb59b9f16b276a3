const JSON_TYPES = ['string', 'number', 'boolean', 'null', 'object', 'array'] as const;

/**
 * The JSON types other than the ones a value is declared as, for a field of a JSON body whose every wrong value the
 * service answers itself (a 400 naming it): a validating gateway answers a request its schema does not admit with
 * its own 422, so each field also admits the rest, after its own type, which a generated client keeps (e.g.
 * `number | string | boolean | ...` for a lat).
 */
export const otherJsonTypes = (...declared: Array<(typeof JSON_TYPES)[number]>) =>
  JSON_TYPES.filter((type) => !declared.includes(type)).map((type) => (type === 'array' ? { type, items: {} } : { type }));
