/**
 * A Community Status Book of the real table's size for the benchmark: the demo rows (every oddity of the real
 * table: ids with a suffix letter or `#`, both date forms, CRS class 10/0/missing, discounts as text) repeated
 * under distinct community ids. No side effects: the emulator host uses it too.
 */
import { DEMO_COMMUNITY_STATUS_BOOK, type CommunityStatusBookRow } from '../test/emulators/community-status-book';

/** The published size of the table (about 25,000 communities). */
export const COMMUNITY_STATUS_ROWS = 25_000;

/** The six-digit community number of row `i` (100000 up): distinct for every row. */
export const syntheticCommunityNumber = (i: number): string => String(100_000 + i);

/** `count` rows, row i a copy of demo row i % 9 numbered syntheticCommunityNumber(i), keeping the demo id's suffix. */
export function syntheticCommunityStatusBook(count = COMMUNITY_STATUS_ROWS): CommunityStatusBookRow[] {
  return Array.from({ length: count }, (_, i) => {
    const demo = DEMO_COMMUNITY_STATUS_BOOK[i % DEMO_COMMUNITY_STATUS_BOOK.length];
    const suffix = String(demo.communityIdNumber).slice(6);
    return { ...demo, communityIdNumber: `${syntheticCommunityNumber(i)}${suffix}`, communityName: `COMMUNITY ${i}` };
  });
}
