/**
 * What changed in FEMA's Community Status Book between two reads of it, community by community. Pure: the rows in,
 * the changes out.
 */
import { CommunityStatusRow, NfipStatus, communityKey, nfipStatusOf, sixDigits } from '../../parts/nfip-status/nfip-status';
import type { ChangedCommunity, StatusBookCopy } from './map-change-scout.port';

/** The field a community gains or loses when the book starts or stops listing it. */
export const LISTED_FIELD = 'listed';

/** A copy's key of a community: its six-digit number. */
export function isCommunityKey(key: string): boolean {
  return /^\d{6}$/.test(key);
}

/**
 * The book's rows as a sweep keeps them: by six-digit community number (a plain six-digit id wins over a suffixed
 * one, as the lookup reads the book), each with the watched parts of its standing. Rows without a community number
 * are left out: no watched location can be in them.
 */
export function statusBookCopy(rows: readonly CommunityStatusRow[]): StatusBookCopy {
  const copy: StatusBookCopy = {};
  const plain = new Set<string>();
  for (const row of rows) {
    const id = communityKey(row.communityIdNumber);
    const six = id === null ? null : sixDigits(id);
    if (six === null || plain.has(six) || (id !== six && six in copy)) continue;
    if (id === six) plain.add(six);
    copy[six] = watchedFields(nfipStatusOf(row));
  }
  return copy;
}

/** The parts of a community's standing a watch follows, as `nfipStatusOf` reads them from its row. */
function watchedFields(status: NfipStatus): Record<string, string | number | null> {
  return {
    // A copy holds text, numbers and nulls only.
    participating: status.participating === null ? null : String(status.participating),
    program: status.program,
    crsClass: status.crsClass,
    currentEffectiveMapDate: status.currentEffectiveMapDate,
    programEntryDate: status.programEntryDate,
  };
}

/**
 * The communities whose row differs between the two copies, each with the fields that differ (`listed` for a
 * community only one of them lists), in community order. Keys of a copy that are not community numbers are not
 * compared here.
 */
export function changedCommunities(previous: StatusBookCopy, current: StatusBookCopy): ChangedCommunity[] {
  const ids = [...new Set([...Object.keys(previous), ...Object.keys(current)])].filter(isCommunityKey).sort();
  const changes: ChangedCommunity[] = [];
  for (const communityId of ids) {
    const before = previous[communityId];
    const after = current[communityId];
    if (before === undefined || after === undefined) {
      changes.push({ communityId, fields: [LISTED_FIELD] });
      continue;
    }
    const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    const fields = names.filter((name) => (before[name] ?? null) !== (after[name] ?? null));
    if (fields.length > 0) changes.push({ communityId, fields });
  }
  return changes;
}
