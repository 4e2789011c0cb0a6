// `npm run bench:loop -- --writes`: what one answer's body costs in streams, counted while one call
// runs. Each stream the call makes (ReadableStream, TransformStream), each pipeThrough, pipeTo and
// tee, each enqueue and the bytes of each; then the body as its reader gets it: chunks and sizes.
// The runtime's own classes are put back after the call (loop.mjs sends one call at a time).

export interface Census {
  readableStreams: number;
  transformStreams: number;
  pipeThrough: number;
  pipeTo: number;
  tee: number;
  /** Enqueues into streams made during the call (React's writes, a wrapper's copies). */
  enqueues: number;
  enqueuedBytes: number;
  /** The body as read: chunks, their sizes (smallest, median, largest) and total. */
  chunks: number;
  bytes: number;
  sizes: [number, number, number];
}

/** Runs `call` with the stream classes counted, and reads the body of what it answers. */
export async function streamCensus(call: () => Promise<Response>): Promise<Census> {
  const counts = { readableStreams: 0, transformStreams: 0, pipeThrough: 0, pipeTo: 0, tee: 0 };
  const written = { enqueues: 0, enqueuedBytes: 0 };
  const Readable = globalThis.ReadableStream;
  const Transform = globalThis.TransformStream;
  const proto = Readable.prototype;
  const saved = { pipeThrough: proto.pipeThrough, pipeTo: proto.pipeTo, tee: proto.tee };
  /** An underlying source or transformer's controller, its enqueue counted. */
  const counted = (controller: { enqueue(chunk?: unknown): void }) => {
    const enqueue = controller.enqueue.bind(controller);
    return new Proxy(controller, {
      get(target, key) {
        if (key !== "enqueue") {
          const value = Reflect.get(target, key, target) as unknown;
          return typeof value === "function" ? value.bind(target) : value;
        }
        return (chunk: ArrayBufferView | undefined) => {
          written.enqueues++;
          written.enqueuedBytes += chunk?.byteLength ?? 0;
          enqueue(chunk);
        };
      },
    });
  };
  /** `hooks` with each of `names` given a counted controller as its first argument. */
  const wrapped = <T extends object>(hooks: T | undefined, names: string[], at: number): T | undefined => {
    if (!hooks) return hooks;
    const copy: Record<string, unknown> = { ...(hooks as Record<string, unknown>) };
    for (const name of names) {
      const hook = copy[name];
      if (typeof hook !== "function") continue;
      copy[name] = (...args: unknown[]) => {
        args[at] = counted(args[at] as { enqueue(chunk?: unknown): void });
        return (hook as (...a: unknown[]) => unknown).apply(hooks, args);
      };
    }
    return copy as T;
  };
  globalThis.ReadableStream = class extends Readable<unknown> {
    constructor(source?: UnderlyingSource, strategy?: QueuingStrategy) {
      // A byte source keeps its own controller (its enqueue is counted all the same).
      super(wrapped(source, ["start", "pull"], 0) as UnderlyingDefaultSource, strategy);
      counts.readableStreams++;
    }
  } as typeof ReadableStream;
  globalThis.TransformStream = class extends Transform<unknown, unknown> {
    constructor(transformer?: Transformer, ...strategies: QueuingStrategy[]) {
      super(wrapped(transformer, ["transform", "flush"], 1), ...strategies);
      counts.transformStreams++;
    }
  } as typeof TransformStream;
  proto.pipeThrough = function (this: ReadableStream, ...args: Parameters<typeof saved.pipeThrough>) {
    counts.pipeThrough++;
    return saved.pipeThrough.apply(this, args);
  } as typeof proto.pipeThrough;
  proto.pipeTo = function (this: ReadableStream, ...args: Parameters<typeof saved.pipeTo>) {
    counts.pipeTo++;
    return saved.pipeTo.apply(this, args);
  };
  proto.tee = function (this: ReadableStream) {
    counts.tee++;
    return saved.tee.call(this);
  } as typeof proto.tee;
  const sizes: number[] = [];
  try {
    const response = await call();
    const reader = response.body?.getReader();
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      sizes.push((next.value as Uint8Array).byteLength);
    }
  } finally {
    globalThis.ReadableStream = Readable;
    globalThis.TransformStream = Transform;
    Object.assign(proto, saved);
  }
  sizes.sort((a, b) => a - b);
  return {
    ...counts,
    ...written,
    chunks: sizes.length,
    bytes: sizes.reduce((a, b) => a + b, 0),
    sizes: [sizes[0] ?? 0, sizes[Math.floor(sizes.length / 2)] ?? 0, sizes.at(-1) ?? 0],
  };
}
