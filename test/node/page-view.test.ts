// The data a page renders with on the server is what JSON delivers to the browser: whatever the
// loader returns, pageView gives what a JSON round trip gives (top-level Promises aside).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pageView } from "../../src/shared/page-view";

/** What the browser gets for a loader's `{ v }`, or the error JSON throws. */
function throughJson(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify({ v: value }));
  } catch (error) {
    return error;
  }
}

function viewOf(value: unknown): unknown {
  try {
    return pageView({ v: value });
  } catch (error) {
    return error;
  }
}

class Point {
  constructor(
    public x: number,
    public y: number,
  ) {}
}

describe("the page's view of its data", () => {
  it.each([
    ["a Date", new Date(Date.UTC(2026, 10, 25))],
    ["NaN and Infinity", [Number.NaN, Infinity, -Infinity]],
    ["-0", { zero: -0 }],
    ["undefined in an array and an object", [1, undefined, { gone: undefined, kept: 1 }]],
    ["a sparse array", [1, , 3]],
    [
      "a Map, a Set and a class instance",
      { map: new Map([["a", 1]]), set: new Set([1]), point: new Point(1, 2) },
    ],
    ["an object with toJSON", { toJSON: () => "as text" }],
    ["a null-prototype object", Object.assign(Object.create(null), { a: 1 })],
    ["a function beside data", { f: () => 1, a: [1, "two", null, true] }],
    [
      "rows of plain data",
      Array.from({ length: 50 }, (_, i) => ({ id: i, name: `Item ${i}`, ok: i % 2 === 0 })),
    ],
  ])("is what JSON gives for %s", (_, value) => {
    expect(viewOf(value)).toStrictEqual(throughJson(value));
  });

  it("refuses a cycle as JSON does", () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(viewOf(cycle)).toBeInstanceOf(TypeError);
  });

  it("is what JSON gives for anything a loader may return", () => {
    const anything = fc.anything({
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withSparseArray: true,
      withBoxedValues: true,
      withObjectString: true,
      maxDepth: 4,
    });
    fc.assert(
      fc.property(anything, (value) => {
        expect(viewOf(value)).toStrictEqual(throughJson(value));
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps a top-level Promise for <Await> and drops an undefined field", () => {
    const later = Promise.resolve(1);
    expect(pageView({ later, gone: undefined, when: new Date(0) })).toStrictEqual({
      later,
      when: "1970-01-01T00:00:00.000Z",
    });
  });
});
