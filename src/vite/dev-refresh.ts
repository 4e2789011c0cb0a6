// Under `vite dev`: a browser module that makes components with the runtime's factories (formFor)
// says where its top-level code starts and ends to the dev seam (src/shared/dev-seam.ts), which
// registers each made component with React Refresh under that module, no stack to read.
import { fileURLToPath } from "node:url";

const SEAM = fileURLToPath(new URL("../shared/dev-seam.ts", import.meta.url));

/** A call of a factory: `formFor<…>()(…)` or `formFor()(…)`, however it is imported. */
const MAKES_COMPONENTS = /\bformFor\s*[<(]/;

/**
 * `code` of `file` (from the project root) marked, or null when it makes no components. The marks
 * share the first line and follow the last: no line moves, so the module's map still holds.
 */
export function markRuns(file: string, code: string): string | null {
  // The runtime's own modules make none at their top (formFor itself is declared there).
  if (!MAKES_COMPONENTS.test(code) || /(^|\/)src\/shared\//.test(file)) return null;
  const runs = `import { moduleRuns as __vergeModuleRuns } from ${JSON.stringify(SEAM)};`;
  return `${runs} __vergeModuleRuns(${JSON.stringify(file)}); ${code}\n__vergeModuleRuns(null);\n`;
}
