// Tags on the send paths (docs/receiving.md, replies): what a request's tags add to its
// Idempotency-Key hash. The same tags in any key order are the same request; no tags (or
// `{}`) add nothing, so a request without tags hashes as it did before tags existed and
// the hashes stored since 0.1 stay valid. The shape itself is store/message-tags.ts.
import type { Tags } from '../store/message-record.js';

/** The hash's extra field for these tags: their entries sorted by key, or none. */
export function tagsHashFields(tags: Tags | undefined): [string, string][][] {
  if (tags === undefined) return [];
  const entries = Object.entries(tags).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? [] : [entries];
}
