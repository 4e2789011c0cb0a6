// After each worker test file: workerd printed no uncaught rejection while it ran (runtime-output.ts).
import { afterAll, expect, inject } from "vitest";

afterAll(async () => {
  const response = await fetch(inject("uncaughtURL"));
  const lines = (await response.json()) as string[];
  expect(lines, "workerd printed an uncaught rejection during this file (or just before it)").toEqual([]);
});
