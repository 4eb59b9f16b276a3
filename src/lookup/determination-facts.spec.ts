import type { AnswerPart } from '../parts/answer-parts';
import { lenderDetermination } from '../parts/determination/determination';
import { determinationFacts, DeterminationSources } from './determination-facts';
import type { FloodZoneResult } from './flood-zone-lookup';

/** An answer at an AE point in Houston, its community's NFIP standing held, USA Structures not answering; what a case changes. */
function sources(change: { result?: Partial<FloodZoneResult>; missing?: AnswerPart[] } = {}): DeterminationSources {
  const result = {
    coverage: 'mapped',
    inSpecialFloodHazardArea: true,
    zonesAtPoint: [{ floodZone: 'AE', zoneSubtype: null, inSpecialFloodHazardArea: true, staticBaseFloodElevationFt: 38 }],
    firmPanel: { panel: '48201C0865L', panelNumber: '0865', suffix: 'L', effectiveDate: '2007-06-18', panelType: null },
    community: { name: 'City of Houston', communityId: '480296', nfip: { listed: true, participating: true, program: 'regular' } },
    lomrs: [],
    lomas: [],
    coastalBarrier: { status: 'outside', unit: null, type: null, floodInsuranceProhibitionDate: null, note: '' },
    ...change.result,
  } as unknown as FloodZoneResult;
  return {
    result,
    missing: change.missing ?? [],
    location: { matchedAddress: null, lat: 29.7, lon: -95.43, county: 'Harris County', countyFips: '48201', zip: null, source: 'coordinates' },
    building: null,
    lomaPositions: [],
    retrievedAt: '2026-11-27T06:00:00.000Z',
  };
}

describe('determinationFacts: what the lookup hands the form', () => {
  it('the community and its standing held: participating, regular program, required in the SFHA', () => {
    const { determination } = lenderDetermination(determinationFacts(sources()));
    expect(determination.insurance).toMatchObject({ available: true, program: 'regular', reason: 'participating' });
    expect(determination.floodInsuranceRequired).toBe(true);
  });

  it('the community missing: named once (as community), its standing unknown, never the Status Book named too', () => {
    const facts = determinationFacts(sources({ result: { community: null }, missing: ['community'] }));
    expect(facts.community).toBe('unavailable');
    expect(facts.nfip).toBe('unknown');
    const { determination, unavailable } = lenderDetermination(facts);
    expect(unavailable).toEqual(['community', 'structure']);
    expect(determination.insurance).toMatchObject({ available: null, reason: 'nfip_status_unknown' });
    expect(determination.floodInsuranceRequired).toBeNull();
  });

  it('the Status Book not held: the community kept, its standing named unavailable', () => {
    const held = sources().result.community!;
    const facts = determinationFacts(sources({ result: { community: { ...held, nfip: null } }, missing: ['nfipStatus'] }));
    expect(facts.nfip).toBe('unavailable');
    expect(lenderDetermination(facts).unavailable).toEqual(['nfipStatus', 'structure']);
  });

  it('USA Structures not answering: named, and the form answers for the point', () => {
    const { determination, unavailable } = lenderDetermination(determinationFacts(sources()));
    expect(determination.basis).toBe('point');
    expect(unavailable).toEqual(['structure']);
  });
});
