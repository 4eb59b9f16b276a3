/**
 * Scenario 10: the NFIP join, in this process. FEMA's Community Status Book at its real size (25,000 rows) is
 * downloaded from the OpenFEMA emulator (50 ms per page) by the service's own client and held by the service's
 * own `CommunityStatusBook` (the lookup's `NfipStatusPort`): the load's time; then the time the pure rule
 * takes to index the rows and the heap the index holds; then the time one lookup's join takes (the community's
 * standing read and joined to it, as the lookup does).
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { HttpService } from '@nestjs/axios';
import { Logger } from '@nestjs/common';
import axios from 'axios';
import { CommunityStatusBook } from '../../src/community-status/community-status-book';
import { OpenFemaClient } from '../../src/community-status/openfema.client';
import { ResilientUpstream } from '../../src/common/upstream/resilient-upstream';
import type { Community } from '../../src/flood-hazard/flood-hazard.types';
import { CommunityStatusIndex, type CommunityStatusRow } from '../../src/parts/nfip-status/nfip-status';
import { COMMUNITY_STATUS_ROWS, syntheticCommunityNumber } from '../community-status-table';
import { CFG } from '../config';
import { Emulators, round } from '../lib';
import { log, results, row } from '../report';

const S = '10 NFIP join, 25,000 communities';
/** What the goal allows one lookup's join. */
const JOIN_GOAL_MS = 0.05;
const DAY_MS = 24 * 3_600_000;
const POLICY = {
  timeoutMs: 30_000,
  retries: 0,
  maxConcurrency: 4,
  breakerFailureRate: 100,
  breakerWindowMs: 30_000,
  breakerMinCalls: 1000,
  halfOpenAfterMs: 5000,
};

/** A full garbage collection, so that heap figures are what is held (the benchmark runs without --expose-gc). */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

const heapMiB = () => process.memoryUsage().heapUsed / 1024 ** 2;

/** Ids as lookups ask them: listed plain ids, ids published with a suffix (found by their six digits), and ids the book lacks. */
function askedIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const n = (i * 7919) % (COMMUNITY_STATUS_ROWS + COMMUNITY_STATUS_ROWS / 10);
    return n < COMMUNITY_STATUS_ROWS ? syntheticCommunityNumber(n) : String(900_000 + n);
  });
}

/** What the pure rule's index of `rows` costs to build (ms) and holds once built (MiB of heap, the rows dropped). */
function indexFootprint(rows: CommunityStatusRow[]): { buildMs: number; heldMiB: number } {
  const { buildMs, withIndex } = heapWithIndex(rows);
  // the index went with heapWithIndex's frame
  collectGarbage();
  return { buildMs, heldMiB: withIndex - heapMiB() };
}

/** Builds the index of `rows`, then drops the rows: the time it took, and the heap with the index alone held. */
function heapWithIndex(rows: CommunityStatusRow[]): { buildMs: number; withIndex: number } {
  const started = performance.now();
  const index = new CommunityStatusIndex(rows);
  const buildMs = performance.now() - started;
  rows.length = 0;
  collectGarbage();
  const withIndex = heapMiB();
  if (index.size === 0) throw new Error('the Community Status Book came back empty');
  return { buildMs, withIndex };
}

/** A Community Status Book as the service holds it, loaded as at start-up; the load's time goes into `loadMs`. */
async function loadBook(client: OpenFemaClient, loadMs: number[]): Promise<CommunityStatusBook> {
  const started = performance.now();
  const book = new CommunityStatusBook(client, DAY_MS);
  book.onModuleInit();
  await book.loadInProgress();
  loadMs.push(performance.now() - started);
  return book;
}

export async function nfipJoin(emulators: Emulators): Promise<void> {
  const latency = CFG.upstreamLatencyMs;
  const { joins, loads } = CFG.nfipJoin;
  await emulators.setLatency(latency);
  const { rows } = await emulators.setCommunityStatusRows(COMMUNITY_STATUS_ROWS);
  log(`${S}: ${loads} loads of ${rows} rows from OpenFEMA at ${latency} ms per page, then ${joins} joins`);
  // The book logs each load at info; stdout is for the table.
  Logger.overrideLogger(['error']);
  const client = () => new OpenFemaClient(new HttpService(axios.create()), new ResilientUpstream('openfema', POLICY), emulators.env.OPENFEMA_BASE_URL);

  const loadMs: number[] = [];
  let book: CommunityStatusBook | undefined;
  for (let i = 0; i < loads; i++) {
    book?.onModuleDestroy();
    book = await loadBook(client(), loadMs);
  }
  const footprint = indexFootprint(await client().communityStatusBook(new AbortController().signal));
  try {
    const communities = askedIds(10_000).map((communityId): Community => ({ name: 'COMMUNITY', communityId }));
    if (book!.lookup(syntheticCommunityNumber(0)) === undefined) throw new Error('the Community Status Book did not load');
    const join = (community: Community) => ({ ...community, nfip: book!.lookup(community.communityId ?? '') ?? null });
    let listed = 0;
    // warm-up: the join's code optimised before it is timed
    for (let i = 0; i < 100_000; i++) listed += join(communities[i % communities.length]).nfip!.listed ? 1 : 0;
    listed = 0;
    const started = performance.now();
    for (let i = 0; i < joins; i++) listed += join(communities[i % communities.length]).nfip!.listed ? 1 : 0;
    const perJoinMs = (performance.now() - started) / joins;
    const listedShare = listed / joins;

    const sorted = [...loadMs].sort((a, b) => a - b);
    const loadP50 = round(sorted[Math.floor(sorted.length / 2)], 0);
    const pages = Math.ceil(rows / 10_000);
    results.nfipJoin = {
      rows,
      upstreamLatencyMs: latency,
      pages,
      loads,
      loadMs: loadMs.map((ms) => round(ms, 0)),
      indexBuildMs: round(footprint.buildMs, 1),
      indexHeapMiB: round(footprint.heldMiB, 1),
      joins,
      perJoinMs: round(perJoinMs, 5),
      listedShare: round(listedShare, 3),
    };
    row(S, `table load: ${rows} rows in ${pages} pages at ${latency} ms, median of ${loads} (ms)`, loadP50);
    row(S, 'indexing the downloaded rows (ms)', round(footprint.buildMs, 0));
    row(S, 'heap held by the indexed table (MiB)', round(footprint.heldMiB, 1));
    row(
      S,
      `one lookup's join, mean of ${joins} (ms; ${round(listedShare * 100, 0)}% listed)`,
      round(perJoinMs, 5),
      `<= ${JOIN_GOAL_MS}`,
      perJoinMs <= JOIN_GOAL_MS,
    );
  } finally {
    book?.onModuleDestroy();
    Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose', 'fatal']);
  }
}
