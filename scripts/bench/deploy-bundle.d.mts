export function buildDeployBundle(
  outdir: string,
  options?: { config?: string; env?: NodeJS.ProcessEnv },
): string[];
