/** Longest string AsciiFirstTextEncoder copies itself. */
export declare const MAX_COPIED: number;
/** A TextEncoder whose encode() copies short ASCII strings in JavaScript (src/text-encoder.cjs). */
export declare class AsciiFirstTextEncoder {
  readonly encoding: string;
  encode(text?: string): Uint8Array;
}
