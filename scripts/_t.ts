import * as fs from 'node:fs';
import { usngOf } from '../test/emulators/geometry';
const d = JSON.parse(fs.readFileSync('/work/shared/fixtures/structures/usa-structures-query-atlanta-2024.json', 'utf8'));
for (const f of d.features) { const a = f.attributes; const u = usngOf(a.LONGITUDE, a.LATITUDE); console.log(u === a.USNG ? 'ok' : 'DIFF', u, a.USNG, a.BUILD_ID, a.SQMETERS, a.SQFEET, a.HEIGHT, a.OUTBLDG, a.CENSUSCODE); }
