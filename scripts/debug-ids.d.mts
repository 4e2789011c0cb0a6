export declare function readDebugId(code: string): string | undefined;
export declare function debugIdSnippet(code: string): string;
export declare function withDebugId(
  map: { sources: string[]; sourceRoot?: string },
  code: string,
  mapDir: string,
): string;
