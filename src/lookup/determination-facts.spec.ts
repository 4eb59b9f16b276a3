import type { AnswerPart } from '../parts/answer-parts';
import { lenderDetermination } from '../parts/determination/determination';
import type { NfipStatus } from '../parts/nfip-status/nfip-status';
import type { BuildingSurveyed } from '../parts/structure/building-survey.client';
import type { Structure } from '../parts/structure/structure.types';
import type { FootprintMapSite } from './building-site';
import { BuildingSiteRead, determinationFacts, DeterminationSources, StatusBookView } from './determination-facts';
import type { FloodZoneResult } from './flood-zone-lookup';

const REGULAR = { listed: true, participating: true, program: 'regular' } as unknown as NfipStatus;
const NOT_PARTICIPATING = { listed: true, participating: false, program: null } as unknown as NfipStatus;

/** The book held: Houston participates (a map dated), Harris County does not, 200612 participates with no map; the rest not listed. */
const BOOK: StatusBookView = {
  lookup: (id) =>
    ({ '480296': REGULAR, '480287': NOT_PARTICIPATING, '200612': REGULAR })[id] ??
    ({ listed: false, participating: null, program: null } as unknown as NfipStatus),
  mapDated: (id) => ({ '480296': true, '480287': true, '200612': false })[id] ?? null,
};
const NO_BOOK: StatusBookView = { lookup: () => undefined, mapDated: () => undefined };

/** A 10 m square footprint around (lon -95.43, lat 29.7), the point of the answer below. */
const FOOTPRINT = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [-95.43005, 29.69995],
      [-95.43005, 29.70005],
      [-95.42995, 29.70005],
      [-95.42995, 29.69995],
      [-95.43005, 29.69995],
    ] as Array<[number, number]>,
  ],
};

/** The building found around the point, wholly in AE. */
function found(
  zones: Structure['zones'] = [
    { floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 38, areaSqFt: 1, sharePercent: 100 },
  ],
): BuildingSurveyed {
  return {
    structure: { match: 'contains', zones, buildingInSfha: zones === null ? null : true, footprint: FOOTPRINT } as unknown as Structure,
    governingPanel: { panel: '48201C0865L', effectiveDate: '2007-06-18' },
    complete: zones !== null,
    tract: null,
  };
}

const SITE_MAP: FootprintMapSite = { community: { name: 'City of Houston', communityId: '480296' }, lomrs: [], lomas: null };
const SITE: BuildingSiteRead = { coastalBarrier: { status: 'outside', unit: null, type: null, floodInsuranceProhibitionDate: null }, map: SITE_MAP };

/** An answer at an AE point in Houston, its community's NFIP standing held, USA Structures not answering; what a case changes. */
function sources(change: Partial<Omit<DeterminationSources, 'result'>> & { result?: Partial<FloodZoneResult> } = {}): DeterminationSources {
  const result = {
    coverage: 'mapped',
    inSpecialFloodHazardArea: true,
    zonesAtPoint: [{ floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 38 }],
    firmPanel: { panel: '48201C0865L', panelNumber: '0865', suffix: 'L', effectiveDate: '2007-06-18', panelType: null },
    community: { name: 'City of Houston', communityId: '480296', nfip: REGULAR },
    lomrs: [],
    lomas: [],
    coastalBarrier: { status: 'outside', unit: null, type: null, floodInsuranceProhibitionDate: null, note: '' },
    ...change.result,
  } as unknown as FloodZoneResult;
  return {
    missing: [] as AnswerPart[],
    location: { matchedAddress: null, lat: 29.7, lon: -95.43, county: 'Harris County', countyFips: '48201', zip: null, source: 'coordinates' },
    building: null,
    site: null,
    lomaPositions: [],
    statusBook: BOOK,
    retrievedAt: '2026-11-27T06:00:00.000Z',
    ...change,
    result,
  };
}

const VALID_LOMA = { caseNumber: '15-06-1489A', effectiveDate: '2015-06-02', status: 'valid', outcome: null, category: 'LOMA' } as const;

describe('determinationFacts: what the lookup hands the form', () => {
  const HOUSTON = { name: 'City of Houston', communityId: '480296' };
  const HARRIS = { name: 'Harris County', communityId: '480287' };
  const BOTH = [
    { name: 'City of Houston', number: '480296' },
    { name: 'Harris County', number: '480287' },
  ];

  it('two communities at the point, no building chosen: ambiguous, named in the order FEMA gave them, none in the form', () => {
    const building = { ...found(), structure: { match: 'none' } as unknown as Structure };
    const facts = determinationFacts(
      sources({
        building,
        result: {
          community: null,
          communitiesAtPoint: [
            { ...HOUSTON, nfip: REGULAR },
            { ...HARRIS, nfip: NOT_PARTICIPATING },
          ],
        },
      }),
    );
    expect(facts.community).toEqual({ ambiguousAmong: BOTH });
    const { determination, unavailable } = lenderDetermination(facts);
    expect(determination.community).toMatchObject({ name: null, number: null });
    expect(determination.insurance).toMatchObject({ available: null, reason: 'community_ambiguous', program: null });
    expect(determination.floodInsuranceRequired).toBeNull();
    expect(unavailable).toEqual([]);
  });

  it('two communities at the point, but the building in one of them: the building decides', () => {
    const facts = determinationFacts(
      sources({
        building: found(),
        site: SITE,
        result: {
          community: null,
          communitiesAtPoint: [
            { ...HARRIS, nfip: NOT_PARTICIPATING },
            { ...HOUSTON, nfip: REGULAR },
          ],
        },
      }),
    );
    expect(facts.community).toEqual({ ambiguousAmong: [BOTH[1], BOTH[0]] });
    const { determination } = lenderDetermination(facts);
    expect(determination.community).toMatchObject({ name: 'City of Houston', number: '480296' });
    expect(determination.floodInsuranceRequired).toBe(true);
  });

  it('the building split evenly between two communities: ambiguous, though the point has one', () => {
    const facts = determinationFacts(sources({ building: found(), site: { ...SITE, map: { ...SITE_MAP, community: { ambiguousAmong: [HOUSTON, HARRIS] } } } }));
    const { determination } = lenderDetermination(facts);
    expect(determination.community).toMatchObject({ name: null, number: null });
    expect(determination.insurance).toMatchObject({ available: null, reason: 'community_ambiguous' });
    expect(determination.floodInsuranceRequired).toBeNull();
    expect(determination.notes[0]).toMatch(
      /^Two NFIP communities are mapped over the building's footprint.*\(City of Houston, community 480296; Harris County, community 480287\)/,
    );
  });

  it('the community and its standing held: participating, regular program, required in the SFHA', () => {
    const facts = determinationFacts(sources({ building: found(), site: SITE }));
    expect(facts.community).toEqual({ name: 'City of Houston', number: '480296', nfip: 'regular', mapInStatusBook: true });
    const { determination } = lenderDetermination(facts);
    expect(determination.insurance).toMatchObject({ available: true, program: 'regular', reason: 'participating' });
    expect(determination.floodInsuranceRequired).toBe(true);
  });

  it('the community missing: named once (as community), its standing unknown, never the Status Book named too', () => {
    const facts = determinationFacts(sources({ result: { community: null }, missing: ['community'] }));
    expect(facts.community).toBe('unavailable');
    const { determination, unavailable } = lenderDetermination(facts);
    expect(unavailable).toEqual(['community', 'structure']);
    expect(determination.insurance).toMatchObject({ available: null, reason: 'nfip_status_unknown' });
    expect(determination.floodInsuranceRequired).toBeNull();
  });

  it('the Status Book not held: the community kept, its standing named unavailable', () => {
    const held = sources().result.community!;
    const facts = determinationFacts(sources({ result: { community: { ...held, nfip: null } }, missing: ['nfipStatus'], statusBook: NO_BOOK }));
    expect(facts.community).toEqual({ name: 'City of Houston', number: '480296', nfip: 'unavailable', mapInStatusBook: null });
    expect(lenderDetermination(facts).unavailable).toEqual(['nfipStatus', 'structure']);
  });

  it('USA Structures not answering: named, and the building unknown, never the point answered for it', () => {
    const { determination, unavailable } = lenderDetermination(determinationFacts(sources()));
    expect(determination).toMatchObject({ basis: 'building', buildingInSfha: null, floodInsuranceRequired: null, floodZones: null });
    expect(unavailable).toEqual(['structure']);
  });

  it("a building found: where it stands is the site's, its community's standing and map date from the book", () => {
    const site: BuildingSiteRead = {
      coastalBarrier: { status: 'inside', unit: 'TX-01', type: 'System Unit', floodInsuranceProhibitionDate: '1990-11-16' },
      map: { ...SITE_MAP, community: { name: 'Harris County', communityId: '480287' }, lomrs: [{ caseNumber: '12-06-0456P', effectiveDate: '2012-06-01' }] },
    };
    const facts = determinationFacts(sources({ building: found(), site }));
    expect(facts.building).toEqual({
      status: 'found',
      zones: [{ floodZone: 'AE', inSfha: true }],
      inSfha: true,
      governingPanel: { panel: '48201C0865L', effectiveDate: '2007-06-18' },
      site: {
        community: { name: 'Harris County', number: '480287', nfip: 'not_participating', mapInStatusBook: true },
        coastalBarrier: site.coastalBarrier,
        lomrs: [{ caseNumber: '12-06-0456P', effectiveDate: '2012-06-01' }],
        lomas: [],
      },
    });
  });

  it("the footprint's maps not answering: each named unavailable, never the point's", () => {
    const facts = determinationFacts(sources({ building: found(), site: { coastalBarrier: 'unavailable', map: 'unavailable' } }));
    expect(facts.building).toMatchObject({ site: { community: 'unavailable', coastalBarrier: 'unavailable', lomrs: 'unavailable', lomas: 'unavailable' } });
    expect(determinationFacts(sources({ building: found(null), site: null })).building).toEqual({
      status: 'footprint_unread',
      site: { community: 'unavailable', coastalBarrier: 'unavailable', lomrs: 'unavailable', lomas: 'unavailable' },
    });
  });

  it("the point's LOMAs measured from the footprint when they reach it: inside it, or metres from it", () => {
    const facts = determinationFacts(
      sources({
        building: found(),
        site: SITE,
        result: {
          lomas: [
            { ...VALID_LOMA, distanceM: 0 },
            { ...VALID_LOMA, caseNumber: 'NEAR', distanceM: 23 },
          ],
        },
        lomaPositions: [
          [-95.43, 29.7],
          [-95.43, 29.7002],
        ],
      }),
    );
    expect(facts.building).toMatchObject({
      site: {
        lomas: [
          { caseNumber: '15-06-1489A', distanceM: 0, inFootprint: true },
          { caseNumber: 'NEAR', distanceM: expect.closeTo(16.6, 0) as number, inFootprint: false },
        ],
      },
    });
    // from the point, none is inside a footprint
    expect(facts.lomas).toEqual([
      { caseNumber: '15-06-1489A', effectiveDate: '2015-06-02', status: 'valid', distanceM: 0, inFootprint: false },
      { caseNumber: 'NEAR', effectiveDate: '2015-06-02', status: 'valid', distanceM: 23, inFootprint: false },
    ]);
  });

  it("the LOMAs read around a footprint beyond the point's reach are the ones measured; their query failing leaves them unavailable", () => {
    const placed = [{ loma: { ...VALID_LOMA, distanceM: 400 }, position: [-95.43, 29.7] as [number, number] }];
    const far = determinationFacts(sources({ building: found(), site: { ...SITE, map: { ...SITE_MAP, lomas: placed } }, result: { lomas: [] } }));
    expect(far.building).toMatchObject({ site: { lomas: [{ caseNumber: '15-06-1489A', distanceM: 0, inFootprint: true }] } });
    const failed = determinationFacts(sources({ building: found(), site: { ...SITE, map: { ...SITE_MAP, lomas: 'unavailable' } } }));
    expect(failed.building).toMatchObject({ site: { lomas: 'unavailable' } });
  });

  it("the point's community with no map in the book: said so, for box B5", () => {
    const facts = determinationFacts(sources({ result: { community: { name: 'Town of Prairie Hollow', communityId: '200612', nfip: REGULAR } as never } }));
    expect(facts.community).toEqual({ name: 'Town of Prairie Hollow', number: '200612', nfip: 'regular', mapInStatusBook: false });
  });
});
