import { inInputOrder } from './input-order';

/** A row whose work finishes when the test says so. */
function controllableRows() {
  const finish: Array<(value: string) => void> = [];
  const started: number[] = [];
  const work = (index: number) =>
    new Promise<string>((resolve) => {
      started.push(index);
      finish[index] = resolve;
    });
  return { work, finish, started };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('inInputOrder', () => {
  it('hands results out in input order when later rows finish first', async () => {
    const { work, finish } = controllableRows();
    const out: string[] = [];
    const done = (async () => {
      for await (const result of inInputOrder(3, work, { running: 3, ahead: 10 })) out.push(result);
    })();
    await tick();
    finish[2]('c');
    finish[1]('b');
    await tick();
    expect(out).toEqual([]);
    finish[0]('a');
    await done;
    expect(out).toEqual(['a', 'b', 'c']);
  });

  it('hands a row out as soon as it and every row before it are done', async () => {
    const { work, finish } = controllableRows();
    const out: string[] = [];
    void (async () => {
      for await (const result of inInputOrder(3, work, { running: 3, ahead: 10 })) out.push(result);
    })();
    await tick();
    finish[0]('a');
    await tick();
    expect(out).toEqual(['a']);
    finish[1]('b');
    await tick();
    expect(out).toEqual(['a', 'b']);
    finish[2]('c');
  });

  it('runs at most `running` rows at once', async () => {
    const { work, finish, started } = controllableRows();
    void (async () => {
      for await (const _ of inInputOrder(5, work, { running: 2, ahead: 10 }));
    })();
    await tick();
    expect(started).toEqual([0, 1]);
    finish[1]('b');
    await tick();
    expect(started).toEqual([0, 1, 2]);
  });

  it('lets work run at most `ahead` rows past the oldest row not handed out', async () => {
    const { work, finish, started } = controllableRows();
    void (async () => {
      for await (const _ of inInputOrder(6, work, { running: 6, ahead: 3 }));
    })();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    finish[1]('b');
    finish[2]('c');
    await tick();
    expect(started).toEqual([0, 1, 2]);
    finish[0]('a');
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('starts no row once stopped, and ends after the rows under way', async () => {
    const { work, finish, started } = controllableRows();
    const stop = new AbortController();
    const out: string[] = [];
    const done = (async () => {
      for await (const result of inInputOrder(5, work, { running: 2, ahead: 10 }, stop.signal)) out.push(result);
    })();
    await tick();
    stop.abort();
    finish[0]('a');
    finish[1]('b');
    await done;
    expect(started).toEqual([0, 1]);
    expect(out).toEqual(['a', 'b']);
  });
});
