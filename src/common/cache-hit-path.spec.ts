import type { Request, Response } from 'express';
import { CachedRoute, serveCachedAnswers } from './cache-hit-path';
import type { EdgeHeaders } from './http-edge';
import { inOwnLoopTurn, ownLoopTurn } from './event-loop-turns';

const uncachedLookups: CachedRoute = { path: '/flood-zone', find: () => undefined };
const get = (path: string) => ({ method: 'GET', path, query: { lat: '29.95', lon: '-90.07' } }) as unknown as Request;
const response = {} as Response;
const edge: EdgeHeaders = { raw: [], requestId: 'test', apply: () => undefined };

describe('serveCachedAnswers: what it does not answer from a cache', () => {
  it('sends an answer still to be made on to the router in an event-loop turn of its own, after the work lined up before it', async () => {
    const serve = serveCachedAnswers([uncachedLookups]);
    const order: string[] = [];
    inOwnLoopTurn(() => order.push('lined up before'));
    serve(get('/flood-zone'), response, () => order.push('routed'), edge);
    expect(order).toEqual([]);
    await ownLoopTurn();
    expect(order).toEqual(['lined up before', 'routed']);
  });

  it('sends a request for a path without cached answers (/health) on to the router at once', () => {
    const serve = serveCachedAnswers([uncachedLookups]);
    const order: string[] = [];
    inOwnLoopTurn(() => order.push('lined up before'));
    serve(get('/health'), response, () => order.push('routed'), edge);
    expect(order).toEqual(['routed']);
  });
});
