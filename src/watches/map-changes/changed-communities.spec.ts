import type { CommunityStatusRow } from '../../parts/nfip-status/nfip-status';
import { changedCommunities, statusBookCopy } from './changed-communities';
import type { StatusBookCopy } from './map-change-scout.port';

const HOBOKEN: CommunityStatusRow = {
  communityIdNumber: '340222',
  communityName: 'HOBOKEN, CITY OF',
  participatingInNFIP: true,
  classRating: '5',
  currentlyEffectiveMapDate: '08/16/06',
  regularEmergencyProgramDate: '1977-05-16T00:00:00.000Z',
  initialFloodInsuranceRateMap: '1977-05-16T00:00:00.000Z',
};
const HOBOKEN_FIELDS = { participating: 'true', program: 'regular', crsClass: 5, currentEffectiveMapDate: '2006-08-16', programEntryDate: '1977-05-16' };

describe('statusBookCopy: the Status Book as a sweep keeps it', () => {
  it.each<[string, CommunityStatusRow[], StatusBookCopy]>([
    ['a row by its six-digit number, with the watched parts of its standing', [HOBOKEN], { '340222': HOBOKEN_FIELDS }],
    [
      'a suspended community: not participating, so no program',
      [{ ...HOBOKEN, participatingInNFIP: false }],
      { '340222': { ...HOBOKEN_FIELDS, participating: 'false', program: null } },
    ],
    ['an id with a suffix, under its six digits', [{ ...HOBOKEN, communityIdNumber: ' 340222b ' }], { '340222': HOBOKEN_FIELDS }],
    [
      'a plain id over a suffixed one, whichever comes first',
      [{ ...HOBOKEN, communityIdNumber: '340222#', classRating: '7' }, HOBOKEN, { ...HOBOKEN, communityIdNumber: '340222C', classRating: '8' }],
      { '340222': HOBOKEN_FIELDS },
    ],
    [
      'a row without a six-digit number left out',
      [
        { ...HOBOKEN, communityIdNumber: '34FED' },
        { ...HOBOKEN, communityIdNumber: null },
      ],
      {},
    ],
  ])('%s', (_, rows, copy) => {
    expect(statusBookCopy(rows)).toEqual(copy);
  });
});

describe('changedCommunities: what differs between two copies', () => {
  const copy = (fields: Record<string, string | number | null> = {}): StatusBookCopy => ({ '340222': { ...HOBOKEN_FIELDS, ...fields } });
  it.each<[string, StatusBookCopy, StatusBookCopy, Array<{ communityId: string; fields: string[] }>]>([
    ['nothing', copy(), copy(), []],
    ['suspended', copy(), copy({ participating: 'false', program: null }), [{ communityId: '340222', fields: ['participating', 'program'] }]],
    ['reinstated', copy({ participating: 'false', program: null }), copy(), [{ communityId: '340222', fields: ['participating', 'program'] }]],
    ['a new CRS class', copy(), copy({ crsClass: 6 }), [{ communityId: '340222', fields: ['crsClass'] }]],
    ['left the CRS', copy(), copy({ crsClass: null }), [{ communityId: '340222', fields: ['crsClass'] }]],
    ['a new effective map', copy(), copy({ currentEffectiveMapDate: '2026-11-20' }), [{ communityId: '340222', fields: ['currentEffectiveMapDate'] }]],
    ['listed for the first time', {}, copy(), [{ communityId: '340222', fields: ['listed'] }]],
    ['no longer listed', copy(), {}, [{ communityId: '340222', fields: ['listed'] }]],
    [
      'a field the previous copy lacked, now with no value',
      { '340222': { participating: 'true' } },
      { '340222': { participating: 'true', crsClass: null } },
      [],
    ],
    [
      'several, in community order; coming maps kept beside them are not communities',
      { '480296': { crsClass: 5 }, '340222': { crsClass: 5 }, 'preliminary:34017C': { issued: '2026-01-01' } },
      { '480296': { crsClass: 6 }, '340222': { crsClass: 4 }, 'preliminary:34017C': { issued: '2026-11-01' } },
      [
        { communityId: '340222', fields: ['crsClass'] },
        { communityId: '480296', fields: ['crsClass'] },
      ],
    ],
  ])('%s', (_, previous, current, changes) => {
    expect(changedCommunities(previous, current)).toEqual(changes);
  });
});
