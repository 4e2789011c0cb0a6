// The processes a local server runs as (on Linux, from /proc): its own and every descendant's id.
// The same set before and after a request means nothing exited or restarted meanwhile.
import { readdirSync, readFileSync } from "node:fs";

/** Parent of each running process, by id. */
function parents(): Map<number, number> {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The state and parent come after the command name, which may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parentOf.set(Number(entry), Number(ppid));
    } catch {
      // exited while listing
    }
  }
  return parentOf;
}

/** `pid` and its descendants, sorted; empty when `pid` is gone. */
export function processTree(pid: number): number[] {
  const parentOf = parents();
  if (!parentOf.has(pid)) return [];
  const tree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [child, parent] of parentOf) {
      if (tree.has(parent) && !tree.has(child)) {
        tree.add(child);
        grew = true;
      }
    }
  }
  return [...tree].sort((a, b) => a - b);
}
