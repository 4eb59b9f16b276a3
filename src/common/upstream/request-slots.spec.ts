import { RequestSlots } from './request-slots';

/** A request that runs until its release is called; `started` lists the requests that got a slot. */
class HeldRequests {
  readonly started: string[] = [];
  private readonly releases = new Map<string, () => void>();

  request(label: string): () => Promise<string> {
    return () => {
      this.started.push(label);
      return new Promise((resolve) => this.releases.set(label, () => resolve(label)));
    };
  }

  release(label: string): void {
    this.releases.get(label)?.();
  }
}

const settled = () => new Promise((resolve) => setImmediate(resolve));
const never = new AbortController().signal;

describe('RequestSlots', () => {
  it('runs at most `size` requests at once and the rest in arrival order as slots free', async () => {
    const slots = new RequestSlots(2);
    const held = new HeldRequests();
    const answers = ['a', 'b', 'c', 'd'].map((label) => slots.run(held.request(label), never));
    await settled();
    expect(held.started).toEqual(['a', 'b']);
    held.release('b');
    await settled();
    expect(held.started).toEqual(['a', 'b', 'c']);
    held.release('a');
    held.release('c');
    await settled();
    held.release('d');
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('rejects a waiter whose signal aborts while it waits at once, with the reason, and serves the next waiter', async () => {
    const slots = new RequestSlots(1);
    const held = new HeldRequests();
    const first = slots.run(held.request('first'), never);
    const gone = new AbortController();
    const abandoned = slots.run(held.request('abandoned'), gone.signal);
    const next = slots.run(held.request('next'), never);
    await settled();

    const reason = new Error('deadline');
    gone.abort(reason);
    await expect(abandoned).rejects.toBe(reason);
    expect(held.started).toEqual(['first']);

    held.release('first');
    await settled();
    expect(held.started).toEqual(['first', 'next']);
    held.release('next');
    expect(await Promise.all([first, next])).toEqual(['first', 'next']);
  });

  it('frees nothing it did not hold: waiters leaving never let more than `size` run', async () => {
    const slots = new RequestSlots(1);
    const held = new HeldRequests();
    void slots.run(held.request('running'), never);
    const leaving = Array.from({ length: 3 }, () => new AbortController());
    const abandoned = leaving.map((gone, i) => slots.run(held.request(`left-${i}`), gone.signal).catch(() => 'left'));
    const waiting = slots.run(held.request('waiting'), never);
    for (const gone of leaving) gone.abort();
    expect(await Promise.all(abandoned)).toEqual(['left', 'left', 'left']);
    await settled();
    expect(held.started).toEqual(['running']);

    held.release('running');
    await settled();
    expect(held.started).toEqual(['running', 'waiting']);
    held.release('waiting');
    await expect(waiting).resolves.toBe('waiting');
  });

  it('refuses a request whose signal has already aborted without taking a slot', async () => {
    const slots = new RequestSlots(1);
    const held = new HeldRequests();
    const gone = new AbortController();
    gone.abort(new Error('cancelled'));
    await expect(slots.run(held.request('late'), gone.signal)).rejects.toThrow('cancelled');
    const after = slots.run(held.request('after'), never);
    await settled();
    held.release('after');
    await expect(after).resolves.toBe('after');
    expect(held.started).toEqual(['after']);
  });

  it('frees the slot of a request that fails', async () => {
    const slots = new RequestSlots(1);
    await expect(slots.run(() => Promise.reject(new Error('HTTP 503')), never)).rejects.toThrow('HTTP 503');
    await expect(slots.run(() => Promise.resolve('answer'), never)).resolves.toBe('answer');
  });
});
