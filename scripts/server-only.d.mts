export declare function isServerOnly(path: string): boolean;
