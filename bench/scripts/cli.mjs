// Command-line options for the benchmark scripts: node's parseArgs, strict, with the script's
// opening comment as its usage (printed for --help, and with the error for a wrong option).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

/** Parses process.argv for the script at `scriptUrl` (its import.meta.url); exits on --help or a wrong option. */
export function parseOptions(scriptUrl, options) {
  const usage = () =>
    readFileSync(new URL(scriptUrl), "utf8")
      .split("\nimport ")[0]
      .replace(/^\/\/ ?/gm, "");
  let values;
  try {
    ({ values } = parseArgs({ options: { ...options, help: { type: "boolean", default: false } } }));
  } catch (error) {
    console.error(`${error.message}\n\n${usage()}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage());
    process.exit(0);
  }
  return values;
}
