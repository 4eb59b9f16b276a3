declare module 'http' {
  interface IncomingMessage {
    /** Set by the HTTP edge (src/common/http-edge.ts) before anything else runs. */
    id: string;
  }
}
export {};
