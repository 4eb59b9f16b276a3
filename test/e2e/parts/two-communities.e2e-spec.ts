/**
 * Two NFIP communities at one place, end to end against the emulators: the demo place where two political
 * jurisdictions overlap over the whole area (and over the house standing there). Neither is taken for the point's or
 * the building's community: `result.community` is null with both in `communitiesAtPoint`, and the lender's form names
 * no community, leaves availability and the requirement unknown and says which communities are mapped there.
 */
import { demoPlace, metersToDegrees } from '../../emulators';
import { Stack, startStack } from '../../support/stack';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ CIRCUIT_BREAKER_MIN_CALLS: '100000' });
});
afterAll(async () => {
  await stack?.close();
});

const PLACE = demoPlace('two-communities-overlap');
const NOT_LISTED = expect.objectContaining({ listed: false, floodInsuranceAvailable: null });
const BOTH = [
  { name: 'City of Twin Forks', communityId: '200720', nfip: NOT_LISTED },
  { name: 'McPherson County', communityId: '200721', nfip: NOT_LISTED },
];
const DECIDES = 'the local floodplain administrator or a flood determination company decides.';

describe('two communities overlapping at a point', () => {
  it('GET: no community at the point, both listed in the order FEMA gives them, each with its standing', async () => {
    const res = await stack.get(`/flood-zone?lat=${PLACE.lat}&lon=${PLACE.lon}`);
    expect(res.status).toBe(200);
    expect(res.body.result.floodZone).toBe('AE');
    expect(res.body.result.community).toBeNull();
    expect(res.body.result.communitiesAtPoint).toEqual(BOTH);
    expect(res.body.result.unavailable).toEqual([]);
  });

  it('include=determination with the house both cover wholly: no community on the form, availability and the requirement unknown, a note naming both', async () => {
    const res = await stack.get(`/flood-zone?lat=${PLACE.lat}&lon=${PLACE.lon}&include=determination`);
    expect(res.status).toBe(200);
    const { determination, structure } = res.body.result;
    expect(structure.match).not.toBe('none');
    expect(determination.basis).toBe('building');
    expect(determination.buildingInSfha).toBe(true);
    expect(determination.community).toEqual({ name: null, number: null, county: 'McPherson County', state: 'KS' });
    expect(determination.insurance).toEqual({ available: null, reason: 'community_ambiguous', program: null, coastalBarrier: null });
    expect(determination.floodInsuranceRequired).toBeNull();
    expect(determination.notes).toEqual([
      "Two NFIP communities are mapped over the building's footprint, each over as much of it (City of Twin Forks, community 200720; McPherson " +
        "County, community 200721): which one the building lies in cannot be told from FEMA's map, so the form names no community, and its " +
        'standing in the NFIP and whether federal flood insurance can be bought here, and so whether a lender must require it, are unknown: ' +
        DECIDES,
    ]);
    expect(res.body.result.unavailable).toEqual([]);
  });

  it('include=determination at a point with no building near: the form for the point, no community, the note says at this point', async () => {
    const { dLon } = metersToDegrees(PLACE.lat, 250);
    const lon = Number((PLACE.lon + dLon).toFixed(6));
    const res = await stack.get(`/flood-zone?lat=${PLACE.lat}&lon=${lon}&include=determination`);
    expect(res.status).toBe(200);
    const { determination, structure, communitiesAtPoint, community } = res.body.result;
    expect(structure.match).toBe('none');
    expect(community).toBeNull();
    expect(communitiesAtPoint).toEqual(BOTH);
    expect(determination.basis).toBe('point');
    expect(determination.community).toMatchObject({ name: null, number: null });
    expect(determination.insurance).toMatchObject({ available: null, reason: 'community_ambiguous' });
    expect(determination.floodInsuranceRequired).toBeNull();
    expect(determination.notes).toContainEqual(
      'Two NFIP communities are mapped at this point (City of Twin Forks, community 200720; McPherson County, community 200721): which one the ' +
        "point lies in cannot be told from FEMA's map, so the form names no community, and its standing in the NFIP and whether federal flood " +
        `insurance can be bought here, and so whether a lender must require it, are unknown: ${DECIDES}`,
    );
  });
});
