// Types for sizes.mjs, which the worker-size test (test/node/worker-size.test.ts) shares with the benchmark.
export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}
export function sizes(bytes: Uint8Array): Sizes;
export function workerBundle(): Promise<Sizes>;
