// `verge/vite` as Node loads it: Vite hands a config's packages to Node (its config bundle leaves
// every bare import, this package's own included, to Node's resolver), and Node 20 runs no
// TypeScript. So this entry has Vite's own module runner load the plugin's TypeScript (as
// `vite --configLoader runner` loads a config), the same on every Node the package supports.
// Types come from index.ts itself (package.json "exports": "types").
import { fileURLToPath } from "node:url";
import { runnerImport } from "vite";

const { module } = await runnerImport(fileURLToPath(new URL("./index.ts", import.meta.url)));

export const { verge, localVars, MANIFEST_MODULE, BUILD_REPORT } = module;
