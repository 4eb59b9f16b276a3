import { AsyncLocalStorage } from 'node:async_hooks';
import { setImmediate } from 'node:timers';
import { inOwnLoopTurn, ownLoopTurn } from './event-loop-turns';

/** One turn of the event loop: resolves in the check phase after the one it was asked in. */
const aLoopTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('inOwnLoopTurn: work lined up together runs one piece per event-loop turn', () => {
  it('runs nothing at once, then one piece per turn, in arrival order', async () => {
    const done: string[] = [];
    for (const piece of ['a', 'b', 'c']) inOwnLoopTurn(() => done.push(piece));
    expect(done).toEqual([]);
    const afterEachTurn: string[][] = [];
    for (let turn = 0; turn < 4; turn++) {
      await aLoopTurn();
      afterEachTurn.push([...done]);
    }
    expect(afterEachTurn).toEqual([['a'], ['a', 'b'], ['a', 'b', 'c'], ['a', 'b', 'c']]);
  });

  it('lines work that a piece lines up behind what was already waiting', async () => {
    const done: string[] = [];
    inOwnLoopTurn(() => {
      done.push('first');
      inOwnLoopTurn(() => done.push('lined up by first'));
    });
    inOwnLoopTurn(() => done.push('second'));
    for (let turn = 0; turn < 3; turn++) await aLoopTurn();
    expect(done).toEqual(['first', 'second', 'lined up by first']);
  });

  it('runs each piece in the async context it was lined up in', async () => {
    const request = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    request.run('request 1', () => inOwnLoopTurn(() => seen.push(request.getStore())));
    request.run('request 2', () => inOwnLoopTurn(() => seen.push(request.getStore())));
    inOwnLoopTurn(() => seen.push(request.getStore()));
    await ownLoopTurn();
    expect(seen).toEqual(['request 1', 'request 2', undefined]);
  });

  it('resolves ownLoopTurn once the work lined up before it has run', async () => {
    const done: string[] = [];
    inOwnLoopTurn(() => done.push('before'));
    await ownLoopTurn();
    expect(done).toEqual(['before']);
  });
});
