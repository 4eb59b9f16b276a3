/**
 * A body of many rows sent piece by piece as the service takes it in, never held whole on the sending side: how
 * the job tests and the job benchmark submit bodies of up to a million rows.
 */
import { request } from 'node:http';

/** POSTs `pieces` in turn, waiting for the socket to drain between them; the answer's status and JSON. */
export function postPieces(base: string, path: string, contentType: string, pieces: Iterable<string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: 'POST', agent: false, headers: { 'content-type': contentType } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    const source = pieces[Symbol.iterator]();
    const send = () => {
      for (let next = source.next(); !next.done; next = source.next()) if (!req.write(next.value)) return void req.once('drain', send);
      req.end();
    };
    send();
  });
}

/** A header line, then `rows` CSV lines made by `line`, 1,000 at a time. */
export function* csvPieces(header: string, rows: number, line: (row: number) => string): Generator<string> {
  yield `${header}\n`;
  for (let first = 0; first < rows; first += 1000) {
    yield `${Array.from({ length: Math.min(1000, rows - first) }, (_, n) => line(first + n)).join('\n')}\n`;
  }
}
