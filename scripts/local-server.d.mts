export const LOCAL_SERVER_VARS: string[];
export function freePort(): Promise<number>;
export function wranglerDevArgs(options: {
  port: number;
  persistTo: string;
  config?: string;
  extra?: string[];
}): string[];
export function step(
  name: string,
  label: string,
  command: string,
  args: string[],
  env?: NodeJS.ProcessEnv,
): void;
export function migrateLocally(name: string, wranglerArgs: string[]): void;
export function runTogether(
  children: [
    string,
    string[],
    NodeJS.ProcessEnv?,
    { onMessage?: (message: unknown) => void; onLine?: (line: string) => void }?,
  ][],
  options?: { onStop?: () => void },
): void;
export const wranglerBin: string;
