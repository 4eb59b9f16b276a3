/** The part of autocannon's programmatic API (v8) the benchmark uses; the package ships no types. */
declare module 'autocannon' {
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  namespace autocannon {
    interface AutocannonRequest {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      setupRequest?: (req: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest | undefined;
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string | string[]>) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      /** ms between samples (default 1000); a run stops at the first sample after its duration */
      sampleInt?: number;
      amount?: number;
      pipelining?: number;
      timeout?: number;
      headers?: Record<string, string>;
      requests?: AutocannonRequest[];
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
    }

    interface Result {
      requests: Histogram & { sent: number };
      latency: Histogram;
      throughput: Histogram;
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
    }
  }
  export = autocannon;
}

/** autocannon's queue of requests awaiting their answers, whose addBody appends each body chunk to a string (scenarios/map-picture.ts swaps it). */
declare module 'autocannon/lib/pipelinedRequestsQueue' {
  class PipelinedRequestsQueue {
    addBody(data: Buffer): void;
  }
  export = PipelinedRequestsQueue;
}
