import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import { packRows, unpackRows } from '../jobs/job-chunks';
import type { WatchFingerprint } from './watch-fingerprint';
import type { WatchEvent, WatchRecord, WatchStatus } from './watch-record';

/** Every key of the watches starts so, beside the jobs' and the queues' (`bull:`). */
const PREFIX = 'flood-zone:watch:';
/** The ids of the watches, scored by creation time: what a sweep goes over. */
const INDEX = 'flood-zone:watches';
/**
 * The sweep under way (see SweepState) and the copy of the Status Book it read, kept apart: every chunk's worker reads
 * the state, and the copy (tens of thousands of communities, megabytes) only the sweep's end. Then the copy the last
 * sweep read, and when it began.
 */
const SWEEP = 'flood-zone:watches:sweep';
const SWEEP_STATUS_BOOK = 'flood-zone:watches:sweep:status-book';
const SWEEP_DONE = 'flood-zone:watches:sweep:done';
const STATUS_BOOK = 'flood-zone:watches:status-book';
const LAST_SWEEP = 'flood-zone:watches:last-sweep';
const SWEEP_LOCK = 'flood-zone:watches:sweep-lock';
const deliveryLockKey = (id: string) => `${PREFIX}${id}:delivering`;

const keysOf = (id: string) => ({
  hash: `${PREFIX}${id}`,
  input: (chunk: number) => `${PREFIX}${id}:in:${chunk}`,
  locations: (chunk: number) => `${PREFIX}${id}:loc:${chunk}`,
  ids: `${PREFIX}${id}:ids`,
  removed: `${PREFIX}${id}:removed`,
  grid: `${PREFIX}${id}:grid`,
  communities: `${PREFIX}${id}:cid`,
  fingerprints: `${PREFIX}${id}:fp`,
  events: `${PREFIX}${id}:events`,
});

/** How long a stopped watch's status is kept (its data is deleted at once). */
const STOPPED_TTL_SECONDS = 48 * 3600;

/**
 * One watched location as stored: its id, its point (the geocoded one for an address: a re-check needs no geocoder),
 * its communities (comma-separated CIDs, for the sweep's community index), the key of its fingerprint (null until it
 * could be answered), the footprint it was given, and the status of its last failed answer (0 when answered).
 */
export interface WatchedLocation {
  id: string;
  lat: number | null;
  lon: number | null;
  communities: string | null;
  fingerprint: string | null;
  /** Where the point is, as the first answer said ("countyFips|zip|county"): a re-check asks no geocoder for it. */
  place?: string;
  footprint: unknown;
  problem: number;
  /** The address of a location never placed (its geocoding failed upstream), to try again; else undefined. */
  address?: string;
}

type StoredLocation = [string, number | null, number | null, string | null, string | null, string?, unknown?, number?, string?];

/** The short array of a location: its optional trailing fields only when it has them. */
function packLocation(l: WatchedLocation): StoredLocation {
  const stored: StoredLocation = [l.id, l.lat, l.lon, l.communities, l.fingerprint];
  const trailing: unknown[] = [l.place ?? '', l.footprint ?? 0, l.problem, l.address ?? ''];
  while (trailing.length > 0 && !trailing[trailing.length - 1]) trailing.pop();
  return [...stored, ...trailing] as StoredLocation;
}

const unpackLocation = ([id, lat, lon, communities, fingerprint, place, footprint, problem, address]: StoredLocation): WatchedLocation => ({
  id,
  lat,
  lon,
  communities,
  fingerprint,
  place: place || undefined,
  footprint: footprint || undefined,
  problem: problem ?? 0,
  address: address || undefined,
});

/** The key a fingerprint is kept under: locations that share one (a street in one zone) store it once. */
export const fingerprintKey = (print: WatchFingerprint) => createHash('sha1').update(JSON.stringify(print)).digest('base64url').slice(0, 12);

/** What a chunk's write adds beside its locations: new fingerprints, index entries, events, counts. */
export interface ChunkWrite {
  fingerprints: Record<string, string>;
  cells: string[];
  communities: string[];
  events: Array<Omit<WatchEvent, 'id'>>;
  counts: Record<string, number>;
  /** A baseline: its input is deleted, and the watch is watching once no chunk is left to baseline. */
  baseline: boolean;
}

/**
 * A chunk's locations written only if nobody wrote them since they were read (else 0: read again and retry), with
 * everything its write adds, in one step: a sweep run twice, or a chunk taken again after its worker died, writes
 * nothing twice. A baseline drops the locations removed meanwhile. Answers the number of events written + 1, or -1 when
 * the watch is stopped or gone. ARGV: the content read ('' for none), the new content, the write (ChunkWrite), the chunk, now.
 */
const WRITE_CHUNK = `
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'stopped' then return -1 end
local current = redis.call('GET', KEYS[2]) or ''
if current ~= ARGV[1] then return 0 end
local w = cjson.decode(ARGV[3])
local content = ARGV[2]
if w.baseline and redis.call('SCARD', KEYS[8]) > 0 then
  local kept = {}
  for _, location in ipairs(cjson.decode(content)) do
    if redis.call('SREM', KEYS[8], location[1]) == 0 then table.insert(kept, location) end
  end
  content = #kept > 0 and cjson.encode(kept) or '[]'
end
redis.call('SET', KEYS[2], content)
for key, print in pairs(w.fingerprints) do redis.call('HSETNX', KEYS[4], key, print) end
local function index(hash, field)
  local chunks = redis.call('HGET', hash, field)
  local entry = ',' .. ARGV[4] .. ','
  if not chunks then redis.call('HSET', hash, field, entry)
  elseif not string.find(chunks, entry, 1, true) then redis.call('HSET', hash, field, chunks .. ARGV[4] .. ',') end
end
for _, cell in ipairs(w.cells) do index(KEYS[5], cell) end
for _, community in ipairs(w.communities) do index(KEYS[6], community) end
for _, event in ipairs(w.events) do redis.call('XADD', KEYS[3], '*', 'e', event) end
for field, n in pairs(w.counts) do redis.call('HINCRBY', KEYS[1], field, n) end
if w.baseline then
  redis.call('DEL', KEYS[7])
  local left = redis.call('HINCRBY', KEYS[1], 'chunksToBaseline', -1)
  if left <= 0 and status == 'baselining' then
    redis.call('HSET', KEYS[1], 'status', 'watching', 'lastFullCheckAt', ARGV[5])
  end
end
return #w.events + 1`;

/** Removes a location: from its chunk when baselined (ARGV[2] its content read, ARGV[3] the content without it), else marked removed for its baseline. */
const REMOVE_LOCATION = `
if redis.call('HGET', KEYS[1], 'status') ~= 'baselining' and redis.call('HGET', KEYS[1], 'status') ~= 'watching' then return -1 end
if redis.call('HDEL', KEYS[2], ARGV[1]) == 0 then return -2 end
if ARGV[2] == '' then
  redis.call('SADD', KEYS[4], ARGV[1])
else
  if (redis.call('GET', KEYS[3]) or '') ~= ARGV[2] then
    redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
    return 0
  end
  redis.call('SET', KEYS[3], ARGV[3])
end
redis.call('HINCRBY', KEYS[1], 'total', -1)
return 1`;

/** Adds the ids of a set of new locations, refusing them all when one is already watched (answers that id, or ''). */
const ADD_IDS = `
for n = 2, #ARGV do
  if redis.call('HEXISTS', KEYS[1], ARGV[n]) == 1 then return ARGV[n] end
end
for n = 2, #ARGV do redis.call('HSET', KEYS[1], ARGV[n], ARGV[1]) end
return ''`;

/** The delivery cursor moved past one event, if it still stands where the deliverer read it. */
const MOVE_CURSOR = `
if (redis.call('HGET', KEYS[1], 'deliveredUpTo') or '0-0') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'deliveredUpTo', ARGV[2])
for n = 3, #ARGV, 2 do
  if ARGV[n + 1] == '' then redis.call('HDEL', KEYS[1], ARGV[n]) else redis.call('HSET', KEYS[1], ARGV[n], ARGV[n + 1]) end
end
return 1`;

/** A lock held by `token`, renewed or released only by it. */
const RENEW_LOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const RELEASE_LOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** The sweep under way, kept until it ends so that a replica taking it over resumes it. */
export interface SweepState {
  id: string;
  startedAt: string;
  /** Whether every location of every watch is answered again. */
  full: boolean;
  /** The changed areas and communities the sweep re-checks (null for a full one). */
  areas: Array<{ envelope: readonly [number, number, number, number]; effectiveDate: string | null }>;
  communities: string[];
  /** What each watch's part of the sweep is: its chunks to re-check and whether it is its full re-check. */
  plan: Array<{ watchId: string; chunks: number[]; full: boolean }>;
  upstreamCalls: number;
}

/** The fields of a watch's hash that are numbers. */
type CountField =
  'total' | 'answered' | 'unanswerable' | 'chunks' | 'chunksToBaseline' | 'delivered' | 'deliveryAttemptsFailed' | 'abandoned' | 'webhookFailures';

/**
 * The watches' data in the jobs Redis: a hash per watch, its locations by chunk (a JSON array per chunk, each
 * location a short array with the key of its fingerprint; fingerprints shared by key), a grid-cell and a community
 * index of its chunks, and its events as a Redis stream (ids in order, paged by XRANGE). Every change that must not be
 * half done is one Lua script.
 */
export class WatchStore {
  constructor(private readonly redis: Redis) {}

  /** Opens a watch whose input chunks and ids are stored: from now on its chunks are baselined and it is swept. */
  async open(record: WatchRecord): Promise<void> {
    const keys = keysOf(record.id);
    await this.redis.multi().hset(keys.hash, toHash(record)).zadd(INDEX, Date.parse(record.createdAt), record.id).exec();
  }

  /** Stores a chunk of input rows to baseline (compressed, as a job's). */
  async storeInput(id: string, chunk: number, rows: unknown[]): Promise<void> {
    await this.redis.set(keysOf(id).input(chunk), await packRows(rows));
  }

  async inputRows(id: string, chunk: number): Promise<unknown[] | undefined> {
    const packed = await this.redis.getBuffer(keysOf(id).input(chunk));
    return packed ? unpackRows(packed) : undefined;
  }

  /** Adds the ids of a chunk's locations; answers an id already watched (then none is added), or null. */
  async addIds(id: string, chunk: number, ids: string[]): Promise<string | null> {
    const taken = (await this.redis.eval(ADD_IDS, 1, keysOf(id).ids, String(chunk), ...ids)) as string;
    return taken === '' ? null : taken;
  }

  /** Undoes an addition that failed midway: its ids and input chunks. */
  async dropAdded(id: string, ids: string[], chunks: number[]): Promise<void> {
    const keys = keysOf(id);
    for (let start = 0; start < ids.length; start += 1000) await this.redis.hdel(keys.ids, ...ids.slice(start, start + 1000));
    if (chunks.length > 0) await this.redis.unlink(...chunks.map((chunk) => keys.input(chunk)));
  }

  async hasId(id: string, locationId: string): Promise<boolean> {
    return (await this.redis.hexists(keysOf(id).ids, locationId)) === 1;
  }

  async record(id: string): Promise<WatchRecord | undefined> {
    const hash = await this.redis.hgetall(keysOf(id).hash);
    return hash.id ? fromHash(hash) : undefined;
  }

  async update(id: string, fields: Record<string, string | number>): Promise<void> {
    if ((await this.redis.exists(keysOf(id).hash)) === 0) return;
    await this.redis.hset(keysOf(id).hash, fields);
  }

  async increment(id: string, field: string, by = 1): Promise<void> {
    if ((await this.redis.exists(keysOf(id).hash)) === 0) return;
    await this.redis.hincrby(keysOf(id).hash, field, by);
  }

  /** Reserves the numbers of `chunks` new chunks of an open watch: the first of them (a failed addition leaves a gap, no chunk). */
  async reserveChunks(id: string, chunks: number): Promise<number> {
    return (await this.redis.hincrby(keysOf(id).hash, 'chunks', chunks)) - chunks;
  }

  /** New chunks stored are to be baselined: the watch is baselining again until they are answered. */
  async queueChunks(id: string, chunks: number, locations: number): Promise<void> {
    const keys = keysOf(id);
    await this.redis
      .multi()
      .hincrby(keys.hash, 'chunksToBaseline', chunks)
      .hincrby(keys.hash, 'total', locations)
      .hset(keys.hash, 'status', 'baselining')
      .exec();
  }

  /** Locations watched by all watches (the metrics' gauge). */
  async watchedLocations(): Promise<number> {
    let total = 0;
    for (const id of await this.watchIds()) total += Number((await this.redis.hget(keysOf(id).hash, 'total')) ?? 0);
    return total;
  }

  async watchIds(): Promise<string[]> {
    return this.redis.zrange(INDEX, 0, -1);
  }

  async locations(id: string, chunk: number): Promise<{ content: string; locations: WatchedLocation[] }> {
    const content = (await this.redis.get(keysOf(id).locations(chunk))) ?? '';
    return { content, locations: content === '' ? [] : (JSON.parse(content) as StoredLocation[]).map(unpackLocation) };
  }

  async fingerprints(id: string, keys: string[]): Promise<Map<string, WatchFingerprint>> {
    const unique = [...new Set(keys)];
    if (unique.length === 0) return new Map();
    const values = await this.redis.hmget(keysOf(id).fingerprints, ...unique);
    return new Map(unique.flatMap((key, n) => (values[n] ? [[key, JSON.parse(values[n]) as WatchFingerprint] as const] : [])));
  }

  /** See WRITE_CHUNK: 'written' with the events it wrote, 'conflict' (read again), or 'gone'. */
  async writeChunk(id: string, chunk: number, read: string, locations: WatchedLocation[], write: ChunkWrite, now: Date) {
    const keys = keysOf(id);
    const written = Number(
      await this.redis.eval(
        WRITE_CHUNK,
        8,
        keys.hash,
        keys.locations(chunk),
        keys.events,
        keys.fingerprints,
        keys.grid,
        keys.communities,
        keys.input(chunk),
        keys.removed,
        read,
        JSON.stringify(locations.map(packLocation)),
        JSON.stringify({ ...write, events: write.events.map((event) => JSON.stringify(event)) }),
        String(chunk),
        now.toISOString(),
      ),
    );
    if (written === -1) return { outcome: 'gone' as const, events: 0 };
    if (written === 0) return { outcome: 'conflict' as const, events: 0 };
    return { outcome: 'written' as const, events: written - 1 };
  }

  /** The chunks whose locations lie in these grid cells or communities (each chunk once, in order). */
  async chunksOf(id: string, cells: string[], communities: string[]): Promise<number[]> {
    const keys = keysOf(id);
    const lists = [
      ...(cells.length > 0 ? await this.redis.hmget(keys.grid, ...cells) : []),
      ...(communities.length > 0 ? await this.redis.hmget(keys.communities, ...communities) : []),
    ];
    const chunks = new Set<number>();
    for (const list of lists) for (const chunk of (list ?? '').split(',')) if (chunk !== '') chunks.add(Number(chunk));
    return [...chunks].sort((a, b) => a - b);
  }

  /** See REMOVE_LOCATION: 'removed', 'not_found', or 'conflict' (read again). */
  async removeLocation(id: string, locationId: string): Promise<'removed' | 'not_found' | 'conflict'> {
    const keys = keysOf(id);
    const chunkField = await this.redis.hget(keys.ids, locationId);
    if (chunkField === null) return 'not_found';
    const chunk = Number(chunkField);
    const { content, locations } = await this.locations(id, chunk);
    const kept = locations.filter((location) => location.id !== locationId);
    const outcome = Number(
      await this.redis.eval(
        REMOVE_LOCATION,
        4,
        keys.hash,
        keys.ids,
        keys.locations(chunk),
        keys.removed,
        locationId,
        content,
        JSON.stringify(kept.map(packLocation)),
        chunkField,
      ),
    );
    return outcome === 1 ? 'removed' : outcome === 0 ? 'conflict' : 'not_found';
  }

  /** Stops a watch: its data deleted, its status kept a while as stopped. */
  async stop(id: string, now: Date): Promise<void> {
    const keys = keysOf(id);
    const record = await this.record(id);
    if (!record) return;
    await this.redis.multi().hset(keys.hash, 'status', 'stopped', 'stoppedAt', now.toISOString()).expire(keys.hash, STOPPED_TTL_SECONDS).zrem(INDEX, id).exec();
    const doomed = [keys.ids, keys.removed, keys.grid, keys.communities, keys.fingerprints, keys.events];
    for (let chunk = 0; chunk < record.chunks; chunk++) doomed.push(keys.locations(chunk), keys.input(chunk));
    for (let start = 0; start < doomed.length; start += 500) await this.redis.unlink(...doomed.slice(start, start + 500));
  }

  /** Events after the stream id `after` (exclusive; from the first when null), at most `limit`. */
  async events(id: string, after: string | null, limit: number): Promise<WatchEvent[]> {
    const entries = await this.redis.xrange(keysOf(id).events, after === null ? '-' : `(${after}`, '+', 'COUNT', limit);
    return entries.map(([eventId, fields]) => ({ id: eventId, ...(JSON.parse(fields[1]) as Omit<WatchEvent, 'id'>) }));
  }

  async eventCount(id: string): Promise<number> {
    return this.redis.xlen(keysOf(id).events);
  }

  /** The id of the last event, or null. */
  async lastEventId(id: string): Promise<string | null> {
    const [last] = await this.redis.xrevrange(keysOf(id).events, '+', '-', 'COUNT', 1);
    return last ? last[0] : null;
  }

  /** Moves the delivery cursor from `from` to `to` with the webhook's state (a field set to '' is deleted); false if someone moved it first. */
  async moveCursor(id: string, from: string, to: string, state: Record<string, string>): Promise<boolean> {
    const args = Object.entries(state).flat();
    return Number(await this.redis.eval(MOVE_CURSOR, 1, keysOf(id).hash, from, to, ...args)) === 1;
  }

  async takeLock(key: string, token: string, ms: number): Promise<boolean> {
    return (await this.redis.set(key, token, 'PX', ms, 'NX')) === 'OK';
  }

  async renewLock(key: string, token: string, ms: number): Promise<boolean> {
    return Number(await this.redis.eval(RENEW_LOCK, 1, key, token, String(ms))) === 1;
  }

  async releaseLock(key: string, token: string): Promise<void> {
    await this.redis.eval(RELEASE_LOCK, 1, key, token);
  }

  readonly sweepLock = SWEEP_LOCK;
  readonly deliveryLock = deliveryLockKey;

  async sweepInProgress(): Promise<SweepState | undefined> {
    const state = await this.redis.get(SWEEP);
    return state ? (JSON.parse(state) as SweepState) : undefined;
  }

  /** A sweep planned, with the Status Book as it read it: the copy becomes the next sweep's once this one ends. */
  async beginSweep(state: SweepState, statusBook: unknown): Promise<void> {
    await this.redis.multi().set(SWEEP, JSON.stringify(state)).set(SWEEP_STATUS_BOOK, JSON.stringify(statusBook)).del(SWEEP_DONE).exec();
  }

  /** Marks a chunk of a watch done in the sweep; false when it already was (a re-check run twice). */
  async sweptChunk(watchId: string, chunk: number): Promise<boolean> {
    return (await this.redis.sadd(SWEEP_DONE, `${watchId}.${chunk}`)) === 1;
  }

  async isSwept(watchId: string, chunk: number): Promise<boolean> {
    return (await this.redis.sismember(SWEEP_DONE, `${watchId}.${chunk}`)) === 1;
  }

  async sweptCount(): Promise<number> {
    return this.redis.scard(SWEEP_DONE);
  }

  /** The sweep ended: its Status Book copy and its time kept for the next one. */
  async endSweep(state: SweepState): Promise<void> {
    await this.redis.multi().rename(SWEEP_STATUS_BOOK, STATUS_BOOK).set(LAST_SWEEP, state.startedAt).del(SWEEP, SWEEP_DONE).exec();
  }

  async lastSweep(): Promise<{ at: string | null; statusBook: unknown }> {
    const [at, book] = await this.redis.mget(LAST_SWEEP, STATUS_BOOK);
    return { at, statusBook: book ? JSON.parse(book) : null };
  }

  /** Bytes Redis uses for one watch's keys (MEMORY USAGE of each), for the bench. */
  async memoryUsage(id: string): Promise<number> {
    const record = await this.record(id);
    if (!record) return 0;
    const keys = keysOf(id);
    const all = [keys.hash, keys.ids, keys.grid, keys.communities, keys.fingerprints, keys.events];
    for (let chunk = 0; chunk < record.chunks; chunk++) all.push(keys.locations(chunk));
    let bytes = 0;
    // SAMPLES 0: every element counted, not an estimate from a few.
    for (const key of all) bytes += Number((await this.redis.memory('USAGE', key, 'SAMPLES', 0)) ?? 0);
    return bytes;
  }
}

function toHash(record: WatchRecord): Record<string, string> {
  const hash: Record<string, string> = {};
  for (const [field, value] of Object.entries(record)) {
    if (value === null || value === undefined) continue;
    hash[field] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return hash;
}

function fromHash(hash: Record<string, string>): WatchRecord {
  const count = (field: CountField) => Number(hash[field] ?? 0);
  return {
    id: hash.id,
    name: hash.name ?? null,
    status: hash.status as WatchStatus,
    include: hash.include ? (JSON.parse(hash.include) as string[]) : [],
    webhookUrl: hash.webhookUrl ?? null,
    webhookSecret: hash.webhookSecret ?? null,
    createdAt: hash.createdAt,
    stoppedAt: hash.stoppedAt ?? null,
    lastSweepAt: hash.lastSweepAt ?? null,
    lastFullCheckAt: hash.lastFullCheckAt ?? null,
    deliveredUpTo: hash.deliveredUpTo ?? '0-0',
    webhookLastSuccessAt: hash.webhookLastSuccessAt ?? null,
    webhookNextRetryAt: hash.webhookNextRetryAt ?? null,
    webhookFailingSince: hash.webhookFailingSince ?? null,
    webhookLastError: hash.webhookLastError ?? null,
    total: count('total'),
    answered: count('answered'),
    unanswerable: count('unanswerable'),
    chunks: count('chunks'),
    chunksToBaseline: count('chunksToBaseline'),
    delivered: count('delivered'),
    deliveryAttemptsFailed: count('deliveryAttemptsFailed'),
    abandoned: count('abandoned'),
    webhookFailures: count('webhookFailures'),
  };
}
