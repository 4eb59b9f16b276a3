import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findResumePoint } from './resume-point';

describe('findResumePoint (what an interrupted batch run left in OUTPUT)', () => {
  let dir: string;
  let output: string;
  const header = 'index,id,status,query_address';
  const complete = `${header}\n0,a,200,"1 Main St,\nSuite 2"\n1,b,404,Nowhere\n`;
  const headerBytes = Buffer.byteLength(`${header}\n`);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'flood-zone-resume-'));
    output = join(dir, 'answer.csv');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('counts every complete row, a quoted cell over two lines included', async () => {
    writeFileSync(output, complete);
    expect(await findResumePoint(output)).toEqual({ header: header.split(','), rowsDone: 2, bytes: Buffer.byteLength(complete) });
  });

  it.each([
    ['a row without its line end', `${complete}2,c,20`],
    ['a row cut inside a quoted cell', `${complete}2,c,200,"12 Elm`],
    ['a row cut after a closing quote', `${complete}2,c,200,"12 Elm"`],
    ['a multi-byte character cut in half', Buffer.concat([Buffer.from(`${complete}2,c,200,Caf`), Buffer.from('é').subarray(0, 1)])],
  ])('discards %s', async (_case, content) => {
    writeFileSync(output, content);
    expect(await findResumePoint(output)).toEqual({ header: header.split(','), rowsDone: 2, bytes: Buffer.byteLength(complete) });
  });

  it('starts from nothing for a missing or empty file, or a header cut off', async () => {
    expect(await findResumePoint(output)).toEqual({ rowsDone: 0, bytes: 0 });
    writeFileSync(output, '');
    expect(await findResumePoint(output)).toEqual({ rowsDone: 0, bytes: 0 });
    writeFileSync(output, 'index,id,sta');
    expect(await findResumePoint(output)).toEqual({ rowsDone: 0, bytes: 0 });
    writeFileSync(output, `${header}\n`);
    expect(await findResumePoint(output)).toEqual({ header: header.split(','), rowsDone: 0, bytes: headerBytes });
  });

  it.each([
    ['no index column', 'id,status\na,200\n', /no index column/],
    ['rows not numbered from 0', `${header}\n0,a,200,x\n2,c,200,y\n`, /row 1 has the index "2"/],
    ['a short row in the middle', `${header}\n0,a,200\n1,b,200,y\n`, /row 0 has 3 cells under a header of 4/],
  ])('refuses a file that is not an output of this command (%s) with exit status 2', async (_case, content, message) => {
    writeFileSync(output, content);
    await expect(findResumePoint(output)).rejects.toMatchObject({ exitStatus: 2, message: expect.stringMatching(message) });
  });
});
