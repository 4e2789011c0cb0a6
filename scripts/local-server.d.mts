export function freePort(): Promise<number>;
export function wranglerDevArgs(options: {
  port: number;
  persistTo: string;
  config?: string;
  extra?: string[];
}): string[];
