/**
 * The places of the independent map (independent-map.ts) and the features whose distances the spec
 * measures. What each place should answer is written in the spec, not here.
 */
import { IndependentMap, NFHL_NO_DATE, boxRing, circleRing, epochMs, lineAcross, pointAt, rectangleBeyond, squareRing } from './independent-map';
import type { LonLat } from './vincenty';

export const SHADED = '0.2 PCT ANNUAL CHANCE FLOOD HAZARD';
export const MINIMAL = 'AREA OF MINIMAL FLOOD HAZARD';
export const LEVEE = 'AREA WITH REDUCED FLOOD RISK DUE TO LEVEE';
export const SHALLOW = '1 PCT DEPTH LESS THAN 1 FOOT';

const day = (iso: string) => epochMs(`${iso}T00:00:00Z`);

export const map = new IndependentMap();

/** Every place by name: its point ([lon, lat], 6 decimals) and a query string for it. */
export const at = {
  /** Metairie, Louisiana: AE without a BFE; bracketed BFE lines among decoys; LOMAs of every status. */
  la: [-90.152973, 29.984512] as LonLat,
  /** Fairbanks, Alaska: AH; BFE lines in metres; hazards up to 2 km away. */
  ak: [-147.716389, 64.837778] as LonLat,
  /** Lihue, Hawaii: AE, lines on a local tidal datum; in a CBRS buffer zone. */
  hi: [-159.371111, 21.978889] as LonLat,
  /** Jackson County, Alabama: AE floodway; the other side's line is on another datum ("NAVD29" typo vs NGVD29). */
  al: [-86.032733, 34.657162] as LonLat,
  /** Davie County, North Carolina: lines in U.S. Survey Feet and one in Feet. */
  nc: [-80.516664, 36.038767] as LonLat,
  /** Monroe, Louisiana: the nearest line's LEN_UNIT is "NP" (not provided). */
  np: [-92.087721, 32.480578] as LonLat,
  /** Calhoun County, West Virginia: AE, but no usable BFE line within 300 m. */
  wv: [-81.095499, 38.739157] as LonLat,
  /** 400 m north of `wv`: inside NFHL availability, no zone polygon at all. */
  gap: [-81.095499, 38.742761] as LonLat,
  /** Lafourche Parish, Louisiana: X in the hole of an AE polygon; a two-ring floodway; a 4000-vertex moderate zone. */
  hole: [-90.452301, 29.601234] as LonLat,
  /** New Orleans: only OPEN WATER at the point (mapped_no_zone); a preliminary AE. */
  noZone: [-90.012345, 30.021234] as LonLat,
  /** Jefferson Parish, 4 km from `la`: AE with a printed BFE and a BFE line beside it. */
  staticBfe: [-90.123456, 29.951234] as LonLat,
  /** Baton Rouge: enough features to page through with maxRecordCount 3. */
  paged: [-91.100001, 30.450001] as LonLat,
  /** Baton Rouge west: 200 polygons within 500 m, 67 pages at maxRecordCount 3. */
  many: [-91.200001, 30.450001] as LonLat,
};

export const query = (p: LonLat, extra = '') => `/flood-zone?lat=${p[1]}&lon=${p[0]}${extra}`;

// ----- Metairie, Louisiana (22051C) -----
map.area(at.la, 1500, { dfirm: '22051C', panel: '22051C0105F', effective: '2008-02-20', community: 'Jefferson Parish', cid: '225199' });
map.zone([squareRing(at.la, 100)], '22051C', { FLD_ZONE: 'AE', SFHA_TF: 'T', V_DATUM: 'NAVD88', LEN_UNIT: 'Feet' });
map.zone([rectangleBeyond(at.la, 300, 130)], '22051C', { FLD_ZONE: 'OPEN WATER' });
map.zone([rectangleBeyond(at.la, 0, 110)], '22051C', { FLD_ZONE: 'X', ZONE_SUBTY: MINIMAL });
export const laFloodway = map.zone([rectangleBeyond(at.la, 90, 150)], '22051C', { FLD_ZONE: 'AE', ZONE_SUBTY: 'FLOODWAY', SFHA_TF: 'T' });
export const laLevee = map.zone([rectangleBeyond(at.la, 270, 240)], '22051C', { FLD_ZONE: 'X', ZONE_SUBTY: LEVEE });
map.zone([rectangleBeyond(at.la, 180, 260)], '22051C', { FLD_ZONE: 'X', ZONE_SUBTY: SHADED });

const laLine = (bearing: number, metres: number, given: Record<string, string | number | null>, halfM = 30) =>
  map.bfeLine(lineAcross(at.la, bearing, metres, halfM), { DFIRM_ID: '22051C', LEN_UNIT: 'Feet', V_DATUM: 'NAVD88', ...given });
export const laL1 = laLine(0, 35, { ELEV: 4 });
export const laL2 = laLine(180, 80, { ELEV: 6 });
laLine(90, 10, { ELEV: -1 }, 5);
laLine(270, 12, { ELEV: 0 }, 5);
laLine(45, 20, { ELEV: 9, DFIRM_ID: '22071C' });
laLine(200, 50, { ELEV: 4 });
laLine(170, 60, { ELEV: 7, V_DATUM: 'NGVD29' });
laLine(60, 70, { ELEV: 5 });
laLine(180, 320, { ELEV: 8 });

/** LOMAs around `la`, by case number: where each lies (bearing, metres) and what FEMA published. */
export const laLomas: Record<string, { bearing: number; metres: number; attributes: Record<string, string | number | null> }> = {
  '19-06-1234A': {
    bearing: 10,
    metres: 20,
    attributes: { OUTCOME: '  structure DENIED  ', REVAL_STAT: null, PROJECTCATEGORY: 'LOMA', DATEENDED: day('2019-03-14') },
  },
  '20-06-0456A': {
    bearing: 100,
    metres: 45,
    attributes: { OUTCOME: 'Property out as shown', REVAL_STAT: ' Superseded', PROJECTCATEGORY: 'LOMR-F', DATEENDED: epochMs('2020-07-01T05:00:00Z') },
  },
  '12-06-0789A': {
    bearing: 200,
    metres: 60,
    attributes: { OUTCOME: 'PORTION OF PROPERTY DENIED AND IN FLOODWAY', REVAL_STAT: 'Superseded', PROJECTCATEGORY: 'LOMA', DATEENDED: day('2012-01-09') },
  },
  '15-06-1111A': {
    bearing: 250,
    metres: 72,
    attributes: {
      OUTCOME: 'Structure removed-Property partially inundated',
      REVAL_STAT: 'CONTACT COMMUNITY',
      PROJECTCATEGORY: 'LOMA',
      DATEENDED: NFHL_NO_DATE,
    },
  },
  '16-06-2222A': { bearing: 300, metres: 85, attributes: { OUTCOME: '   ', REVAL_STAT: 'Reevaluation Needed', PROJECTCATEGORY: '  ', DATEENDED: null } },
  '17-06-3333A': {
    bearing: 330,
    metres: 95,
    attributes: { OUTCOME: 'Multiple', REVAL_STAT: 'incorporated ', PROJECTCATEGORY: 'LOMR-FW', DATEENDED: day('2017-10-02') },
  },
  '18-06-4444A': {
    bearing: 135,
    metres: 98,
    attributes: { OUTCOME: 'Denied-In Floodway', REVAL_STAT: 'Valid', PROJECTCATEGORY: 'LOMA', DATEENDED: day('2018-05-30') },
  },
  '21-06-5555A': {
    bearing: 160,
    metres: 99,
    attributes: { OUTCOME: 'Structure  denied', REVAL_STAT: null, PROJECTCATEGORY: 'LOMR-VZ', DATEENDED: day('2021-12-31') },
  },
  '22-06-6666A': {
    bearing: 45,
    metres: 103,
    attributes: { OUTCOME: 'Property out as shown', REVAL_STAT: null, PROJECTCATEGORY: 'LOMA', DATEENDED: day('2022-02-02') },
  },
  '23-06-7777A': {
    bearing: 45,
    metres: 130,
    attributes: { OUTCOME: 'Property out as shown', REVAL_STAT: null, PROJECTCATEGORY: 'LOMA', DATEENDED: day('2023-03-03') },
  },
};
for (const [caseNumber, { bearing, metres, attributes }] of Object.entries(laLomas)) {
  map.loma(pointAt(at.la, bearing, metres), { CASENUMBER: caseNumber, ...attributes });
}

map.comingMap('preliminary', [squareRing(at.la, 1000)], '22051C', 1747306800000);
map.comingZone('preliminary', [squareRing(at.la, 300)], '22051C', { FLD_ZONE: 'X', ZONE_SUBTY: SHADED });
map.cbrsProhibition([squareRing(at.la, 500)], { Unit: 'LA-09P', CBRS_Type: 'Otherwise Protected Area', FI_Date: '1990-11-16T00:00:00Z', SU_Date: 'Null' });

// ----- Fairbanks, Alaska (02090C) -----
map.area(at.ak, 3000, { dfirm: '02090C', panel: '02090C4560H', effective: '2014-03-17', community: 'Fairbanks North Star Borough', cid: '025009' });
map.zone([squareRing(at.ak, 150)], '02090C', { FLD_ZONE: 'AH', SFHA_TF: 'T', V_DATUM: 'NAVD88', LEN_UNIT: 'Feet' });
export const akModerate = map.zone([rectangleBeyond(at.ak, 30, 1500)], '02090C', { FLD_ZONE: 'X', ZONE_SUBTY: SHADED });
map.zone([rectangleBeyond(at.ak, 200, 2100)], '02090C', { FLD_ZONE: 'B' });
export const akFloodway = map.zone([rectangleBeyond(at.ak, 90, 1800)], '02090C', {
  FLD_ZONE: 'AE',
  ZONE_SUBTY: 'FLOODWAY',
  SFHA_TF: 'T',
  STATIC_BFE: 140,
  LEN_UNIT: 'Meters',
  V_DATUM: 'NAVD88',
});
const akLine = (bearing: number, metres: number, given: Record<string, string | number>) =>
  map.bfeLine(lineAcross(at.ak, bearing, metres), { DFIRM_ID: '02090C', LEN_UNIT: 'Meters', V_DATUM: 'NAVD88', ...given });
export const akL1 = akLine(45, 40, { ELEV: 132 });
akLine(120, 45, { ELEV: 134 });
akLine(225, 50, { ELEV: 435, LEN_UNIT: 'Feet' });
export const akL2 = akLine(200, 60, { ELEV: 133 });
map.comingMap('preliminary', [squareRing(at.ak, 1000)], '02090C', epochMs('2023-08-31T11:00:00Z'));

// ----- Lihue, Hawaii (150002) -----
map.area(at.hi, 1500, { dfirm: '150002', panel: '1500020207F', effective: '2010-11-26', community: 'Kauai County', cid: '150002' });
map.zone([squareRing(at.hi, 120)], '150002', { FLD_ZONE: 'AE', SFHA_TF: 'T', V_DATUM: 'LOCAL TIDAL DATUM', LEN_UNIT: 'Feet' });
const hiLine = (bearing: number, metres: number, given: Record<string, string | number>) =>
  map.bfeLine(lineAcross(at.hi, bearing, metres), { DFIRM_ID: '150002', LEN_UNIT: 'Feet', V_DATUM: 'LOCAL TIDAL DATUM', ...given });
export const hiL1 = hiLine(300, 25, { ELEV: 53 });
export const hiL2 = hiLine(120, 75, { ELEV: 55 });
hiLine(130, 50, { ELEV: 54, V_DATUM: 'MSL' });
map.cbrsBuffer([squareRing(at.hi, 400)], 'HI-04');

// ----- Jackson County, Alabama (01071C) -----
map.area(at.al, 1500, { dfirm: '01071C', panel: '01071C0310E', effective: '2011-06-02', community: 'Jackson County', cid: '010108' });
map.zone([squareRing(at.al, 120)], '01071C', { FLD_ZONE: 'AE', ZONE_SUBTY: 'FLOODWAY', SFHA_TF: 'T', V_DATUM: 'NGVD29', LEN_UNIT: 'Feet' });
const alLine = (bearing: number, metres: number, given: Record<string, string | number>) =>
  map.bfeLine(lineAcross(at.al, bearing, metres), { DFIRM_ID: '01071C', LEN_UNIT: 'Feet', ...given });
export const alL1 = alLine(0, 30, { ELEV: 613, V_DATUM: 'NAVD29' });
alLine(180, 50, { ELEV: 612, V_DATUM: 'NGVD29' });
alLine(20, 200, { ELEV: 614, V_DATUM: 'NAVD29' });
map.comingMap('pending', [squareRing(at.al, 500)], '01071C', epochMs('2024-11-20T11:00:00Z'));
map.comingZone('pending', [squareRing(at.al, 200)], '01071C', { FLD_ZONE: 'X', ZONE_SUBTY: SHADED });
map.comingZone('pending', [squareRing(at.al, 150)], '01071C', { FLD_ZONE: 'AE', ZONE_SUBTY: 'FLOODWAY', SFHA_TF: 'T', STATIC_BFE: 615, LEN_UNIT: 'Feet' });
map.cbrsProhibition([squareRing(at.al, 500)], { Unit: 'AL-01', CBRS_Type: 'System Unit', FI_Date: day('1982-10-18'), SU_Date: '10/18/1982' });

// ----- Davie County, North Carolina (37059C) -----
map.area(at.nc, 1500, { dfirm: '37059C', panel: '37059C0125D', effective: '2008-06-18', community: 'Davie County', cid: '370080' });
map.zone([squareRing(at.nc, 120)], '37059C', { FLD_ZONE: 'AE', SFHA_TF: 'T', V_DATUM: 'NAVD88', LEN_UNIT: 'Feet' });
const ncLine = (bearing: number, metres: number, given: Record<string, string | number>) =>
  map.bfeLine(lineAcross(at.nc, bearing, metres), { DFIRM_ID: '37059C', V_DATUM: 'NAVD88', ...given });
export const ncL1 = ncLine(90, 20, { ELEV: 712, LEN_UNIT: 'U.S. Survey Feet' });
ncLine(270, 40, { ELEV: 713, LEN_UNIT: 'Feet' });
export const ncL2 = ncLine(260, 60, { ELEV: 714, LEN_UNIT: 'U.S. Survey Feet' });
map.cbrsProhibition([squareRing(at.nc, 500)], { Unit: 'NC-03P', CBRS_Type: 'Otherwise Protected Area', FI_Date: '11/16/1990', SU_Date: 'Null' });

// ----- Monroe, Louisiana (22073C) -----
map.area(at.np, 1500, { dfirm: '22073C', panel: '22073C0165E', effective: '2010-09-03', community: 'City of Monroe', cid: '220136' });
map.zone([squareRing(at.np, 120)], '22073C', { FLD_ZONE: 'AE', SFHA_TF: 'T', V_DATUM: 'NAVD88', LEN_UNIT: 'Feet' });
export const npLine = map.bfeLine(lineAcross(at.np, 0, 15), { DFIRM_ID: '22073C', ELEV: 68, LEN_UNIT: 'NP', V_DATUM: 'NAVD88' });
export const npFeetLine = map.bfeLine(lineAcross(at.np, 180, 50), { DFIRM_ID: '22073C', ELEV: 70, LEN_UNIT: 'Feet', V_DATUM: 'NAVD88' });
map.cbrsProhibition([squareRing(at.np, 500)], { Unit: 'LA-05', CBRS_Type: 'System Unit', FI_Date: '1990-11-16', SU_Date: '11/16/1990' });

// ----- Calhoun County, West Virginia (54013C) -----
map.area(at.wv, 1500, { dfirm: '54013C', panel: '54013C0150C', effective: '2011-09-02', community: 'Calhoun County', cid: '540014' });
map.zone([squareRing(at.wv, 120)], '54013C', { FLD_ZONE: 'AE', SFHA_TF: 'T', V_DATUM: 'NAVD88', LEN_UNIT: 'Feet' });
map.bfeLine(lineAcross(at.wv, 0, 20), { DFIRM_ID: '54013C', ELEV: 0, LEN_UNIT: 'Feet', V_DATUM: null });
map.bfeLine(lineAcross(at.wv, 90, 30), { DFIRM_ID: '54087C', ELEV: 701, LEN_UNIT: 'Feet', V_DATUM: 'NAVD88' });
map.bfeLine(lineAcross(at.wv, 180, 310), { DFIRM_ID: '54013C', ELEV: 700, LEN_UNIT: 'Feet', V_DATUM: 'NAVD88' });
map.cbrsProhibition([squareRing(at.wv, 500)], { Unit: 'WV-01P', CBRS_Type: 'Otherwise Protected Area', FI_Date: '1982-10-18T23:00:00-05:00', SU_Date: 'Null' });

// ----- Lafourche Parish, Louisiana (22057C) -----
map.area(at.hole, 1500, { dfirm: '22057C', panel: '22057C0450F', effective: '2019-05-14', community: 'Lafourche Parish', cid: '220108' });
/** The hole around the point: its south edge 30 m away is the nearest edge of the AE polygon. */
export const holeAe = map.zone([squareRing(at.hole, 600), boxRing(at.hole, 30, 50, 45, 45, true)], '22057C', {
  FLD_ZONE: 'AE',
  SFHA_TF: 'T',
  V_DATUM: 'NAVD88',
  LEN_UNIT: 'Feet',
});
// an X polygon filling the hole, published with a contradicting SFHA_TF
map.zone([boxRing(at.hole, 30, 50, 45, 45)], '22057C', { FLD_ZONE: 'X', ZONE_SUBTY: MINIMAL, SFHA_TF: 'T' });
export const holeFloodway = map.zone([rectangleBeyond(at.hole, 0, 400), rectangleBeyond(at.hole, 90, 120)], '22057C', {
  FLD_ZONE: 'AE',
  ZONE_SUBTY: 'FLOODWAY',
  SFHA_TF: 'T',
  STATIC_BFE: 7,
  LEN_UNIT: 'Feet',
  V_DATUM: 'NAVD88',
});
export const holeCircle = map.zone([circleRing(pointAt(at.hole, 225, 700), 400, 4000)], '22057C', { FLD_ZONE: 'X', ZONE_SUBTY: SHALLOW });
map.zone([rectangleBeyond(at.hole, 180, 200)], '22057C', { FLD_ZONE: 'D' });
map.comingMap('pending', [squareRing(at.hole, 800)], '22057C', epochMs('2025-01-30T11:00:00Z'));
map.comingZone('pending', [squareRing(at.hole, 300)], '22057C', { FLD_ZONE: 'AE', SFHA_TF: 'T', STATIC_BFE: 3, LEN_UNIT: 'Meters', V_DATUM: 'NAVD88' });
map.comingMap('preliminary', [squareRing(at.hole, 800)], '22057C', epochMs('2025-06-12T11:00:00Z'));
map.comingZone('preliminary', [squareRing(at.hole, 300)], '22057C', { FLD_ZONE: 'VE', SFHA_TF: 'T', STATIC_BFE: 14, LEN_UNIT: 'Feet' });
map.cbrsProhibition([squareRing(at.hole, 500)], { Unit: 'LA-07', CBRS_Type: 'System Unit', FI_Date: epochMs('1990-11-16T05:00:00Z'), SU_Date: '11/16/1990' });

// ----- New Orleans (22071C): open water only -----
map.area(at.noZone, 1000, { dfirm: '22071C', panel: '22071C0095G', effective: '2016-09-30', community: 'City of New Orleans', cid: '225203' });
map.zone([squareRing(at.noZone, 200)], '22071C', { FLD_ZONE: 'OPEN WATER' });
map.comingMap('preliminary', [squareRing(at.noZone, 500)], '22071C', epochMs('2024-02-29T11:00:00Z'));
map.comingZone('preliminary', [squareRing(at.noZone, 200)], '22071C', { FLD_ZONE: 'AE', SFHA_TF: 'T', STATIC_BFE: 11, LEN_UNIT: 'Feet' });

// ----- Jefferson Parish: a printed BFE -----
map.area(at.staticBfe, 1000, { dfirm: '22051C', panel: '22051C0115F', effective: '2008-02-20', community: 'Jefferson Parish', cid: '225199' });
map.zone([squareRing(at.staticBfe, 120)], '22051C', { FLD_ZONE: 'AE', SFHA_TF: 'T', STATIC_BFE: 12, V_DATUM: 'NAVD88', LEN_UNIT: 'Feet' });
map.bfeLine(lineAcross(at.staticBfe, 0, 30), { DFIRM_ID: '22051C', ELEV: 11, LEN_UNIT: 'Feet', V_DATUM: 'NAVD88' });

// ----- Baton Rouge (22033C): paging -----
map.area(at.paged, 1500, { dfirm: '22033C', panel: '22033C0145E', effective: '2012-05-02', community: 'City of Baton Rouge', cid: '220013' });
map.zone([squareRing(at.paged, 40)], '22033C', { FLD_ZONE: 'AE', SFHA_TF: 'T', V_DATUM: 'NAVD88', LEN_UNIT: 'Feet' });
/** Distances of 12 small shaded-X squares, in the order the layer answers them: the nearest is on the third page. */
const PAGED_MODERATE_M = [420, 380, 340, 300, 260, 180, 220, 400, 360, 320, 280, 240];
export const pagedModerate = PAGED_MODERATE_M.map((metres, i) =>
  map.zone([rectangleBeyond(at.paged, 30 * i, metres, 20, 20)], '22033C', { FLD_ZONE: 'X', ZONE_SUBTY: SHADED }),
);
export const pagedFloodway = map.zone([rectangleBeyond(at.paged, 10, 333, 40, 40)], '22033C', { FLD_ZONE: 'AE', ZONE_SUBTY: 'FLOODWAY', SFHA_TF: 'T' });
/** Seven LOMAs within 100 m: three pages at maxRecordCount 3. */
export const pagedLomas = [90, 15, 60, 45, 75, 30, 5].map((metres, i) => ({ caseNumber: `24-06-00${i}0A`, metres, bearing: 50 * i }));
for (const l of pagedLomas) {
  map.loma(pointAt(at.paged, l.bearing, l.metres), {
    CASENUMBER: l.caseNumber,
    OUTCOME: 'Property out as shown',
    PROJECTCATEGORY: 'LOMA',
    DATEENDED: day('2024-06-01'),
  });
}
const pagedLine = (bearing: number, metres: number, elev: number) =>
  map.bfeLine(lineAcross(at.paged, bearing, metres, 10), { DFIRM_ID: '22033C', ELEV: elev, LEN_UNIT: 'Feet', V_DATUM: 'NAVD88' });
export const pagedL1 = pagedLine(0, 20, 20);
pagedLine(30, 40, 21);
pagedLine(90, 5, -1);
export const pagedL2 = pagedLine(180, 60, 22);
pagedLine(270, 10, 0);

// ----- Baton Rouge west (22033C): 200 polygons -----
map.area(at.many, 1500, { dfirm: '22033C', panel: '22033C0140E', effective: '2012-05-02', community: 'City of Baton Rouge', cid: '220013' });
map.zone([squareRing(at.many, 50)], '22033C', { FLD_ZONE: 'X', ZONE_SUBTY: MINIMAL });
export const manyNearest = { index: 150, bearing: 75, metres: 100 };
export const manyModerate = Array.from({ length: 200 }, (_, i) =>
  i === manyNearest.index
    ? map.zone([rectangleBeyond(at.many, manyNearest.bearing, manyNearest.metres, 6, 6)], '22033C', { FLD_ZONE: 'X', ZONE_SUBTY: SHADED })
    : map.zone([rectangleBeyond(at.many, (i * 37) % 360, 120 + (i % 37) * 10, 6, 6)], '22033C', { FLD_ZONE: 'X', ZONE_SUBTY: SHADED }),
);
