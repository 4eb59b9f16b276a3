/** The README's one example is the service's answer today: the request it gives, against the demo map of offline mode. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStack, type Stack } from '../../support/stack';

const README = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

describe('README: the example request and its answer', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('answers exactly the JSON the README shows (but the time it was read, and FEMA in place of the emulator)', async () => {
    const request = /curl '(http:\/\/localhost:3000\/flood-zone\?[^']+)'/.exec(README)?.[1];
    const shown = /```json\n([\s\S]*?)\n```/.exec(README)?.[1];
    expect(request).toBeDefined();
    expect(shown).toBeDefined();
    const answer = await stack.get(request!.replace('http://localhost:3000', ''));
    expect(answer.status).toBe(200);
    const expected = JSON.parse(shown!) as { retrievedAt: string; source: { floodService: string } };
    expect(expected.source.floodService).toBe('https://hazards.fema.gov/arcgis/rest/services/public/NFHL/MapServer');
    expect({
      ...answer.body,
      retrievedAt: expected.retrievedAt,
      source: { ...answer.body.source, floodService: expected.source.floodService },
    }).toEqual(expected);
  });
});
