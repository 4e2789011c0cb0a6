export function buildDeployBundle(
  outdir: string,
  options?: { config?: string; script?: string; minify?: boolean; env?: NodeJS.ProcessEnv },
): string[];
