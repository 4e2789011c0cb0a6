export declare const SENTRY_VARIABLES: string[];
export declare function checkDebugIds(dir: string): Promise<Map<string, string>>;
export declare function uploadSourceMaps(
  dir: string,
  build: string,
  options?: { env?: NodeJS.ProcessEnv; quiet?: boolean },
): Promise<void>;
