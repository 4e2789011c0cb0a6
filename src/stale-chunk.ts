// Recognizes a failed chunk load: a tab opened before a deploy asks for a chunk that is gone.

/** Chromium, Safari and Firefox word the failed dynamic import differently. */
const MESSAGES = /dynamically imported module|Importing a module script failed/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof TypeError && MESSAGES.test(error.message);
}
