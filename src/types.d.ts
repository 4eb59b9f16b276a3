declare module 'http' {
  interface IncomingMessage {
    /** Set by the HTTP edge (src/common/http-edge.ts) before anything else runs. */
    id: string;
    /** The pace its body is held to (docs/api.md, "Slow uploads"); set by the HTTP edge with the id. */
    uploadPace: import('./common/upload-pace').UploadPace;
  }
}
declare global {
  namespace Express {
    /** What a request's handling tells the HTTP edge for its log line and metrics. */
    interface Locals {
      /** The route that answered (set before the router for answers the edge gives itself). */
      route?: string;
      /** X-Cache of a lookup answer: HIT, MISS or STALE. */
      cacheStatus?: string;
    }
  }
}
export {};
