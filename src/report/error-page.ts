/**
 * A failed report as a page: the status, code and message the JSON error envelope of GET /flood-zone gives for
 * the same request, in words a person reads, with the matches of an ambiguous address to choose from. Pure.
 */
import type { ErrorEnvelope } from '../common/error-envelope';
import { html } from '../common/markup';
import { pageDocument } from './page-document';

/** One match of an ambiguous address (the envelope's `candidates`). */
export interface AddressCandidate {
  matchedAddress: string;
  lat: number;
  lon: number;
}

/** The error page of an envelope; `reportOf` gives the report URL of a candidate the client may choose. */
export function errorPage(envelope: ErrorEnvelope, reportOf: (candidate: AddressCandidate) => string): string {
  const candidates = Array.isArray(envelope.candidates) ? (envelope.candidates as AddressCandidate[]) : [];
  const upstream = typeof envelope.upstream === 'string' ? envelope.upstream : null;
  return pageDocument(
    `Flood zone report: ${envelope.statusCode} ${envelope.code}`,
    html`<header>
        <h1>Flood zone report</h1>
        <p class="place">No report: ${envelope.statusCode} ${envelope.code}</p>
      </header>
      <section class="verdict">
        <p class="message">${envelope.error}</p>
        ${upstream && html`<p class="small">Service that failed: ${upstream}</p>`}
      </section>
      ${
        candidates.length > 0 &&
        html`<section class="part">
          <h2>Places that match the address</h2>
          <ul>
            ${candidates.map(
              (candidate) => html`<li><a href="${reportOf(candidate)}">${candidate.matchedAddress}</a> (${candidate.lat}, ${candidate.lon})</li>`,
            )}
          </ul>
        </section>`
      }
      <footer>
        <p class="small">
          Request id ${envelope.requestId} (the same id is in the service's logs). The API reference is at <a href="/api-docs.html">/api-docs.html</a>.
        </p>
      </footer>`,
  );
}
