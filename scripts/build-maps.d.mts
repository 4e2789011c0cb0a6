export declare function buildMapsDir(appDir: string, build: string): string;
export declare function keepBuildMaps(options: {
  appDir: string;
  build: string;
  dev: boolean;
  files: { name: string; code: string; map: string }[];
}): Promise<string>;
