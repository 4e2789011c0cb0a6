// The browser's copy of verge's `action()`: a form reads its schema in the browser, but nothing
// there may hold the run function, which is the worker's alone.
import { afterEach, describe, expect, it, vi } from "vitest";
import { action } from "../../src/shared/schema-action.ts";

describe("the browser's copy of action()", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("gives the schema and nothing that runs the run function", async () => {
    vi.stubEnv("SSR", false);
    const schema = {
      "~standard": {
        version: 1 as const,
        vendor: "test",
        validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
      },
    };
    const runs: unknown[] = [];
    const made = action(schema, (args) => runs.push(args));
    expect(made.schema).toBe(schema);
    // Whatever the browser does with it, the run function never runs there.
    await Promise.resolve()
      .then(() => (made as unknown as (args: unknown) => unknown)({ fields: {} }))
      .catch(() => undefined);
    expect(runs).toEqual([]);
  });
});
