// A message's tags (decisions.md "Replies"): a small object of the client's own labels, at
// most 8 keys of 1 to 32 letters, digits, `_`, `.` or `-`, each a string of at most 64
// characters. Accepted on every send path, stored with the message (column `tags`, JSON;
// NULL when none), returned in its record as an object (`{}` when none) and handed back in
// the `inReplyTo` of a reply. One schema here for validation, records and the document.
import { z } from 'zod';

export const MAX_TAGS = 8;
export const TAG_KEY = /^[A-Za-z0-9_.-]{1,32}$/;
export const MAX_TAG_VALUE = 64;

export const TagsSchema = z
  .record(z.string().regex(TAG_KEY), z.string().max(MAX_TAG_VALUE, `a tag's value must be at most ${MAX_TAG_VALUE} characters`), {
    error: (issue) => (issue.code === 'invalid_key' ? 'a tag name must be 1 to 32 letters, digits, _ . or -' : undefined),
  })
  .refine((tags) => Object.keys(tags).length <= MAX_TAGS, `at most ${MAX_TAGS} tags`)
  .meta({ maxProperties: MAX_TAGS })
  .describe(`The client's own labels: at most ${MAX_TAGS} keys ([A-Za-z0-9_.-], 1 to 32 characters), string values of at most ${MAX_TAG_VALUE} characters`);

export type Tags = z.infer<typeof TagsSchema>;

/** The stored form: JSON, or NULL for no tags. */
export function tagsColumn(tags: Tags | undefined): string | null {
  return tags === undefined || Object.keys(tags).length === 0 ? null : JSON.stringify(tags);
}

/** The record's form: an object, `{}` for none (also for an unreadable column). */
export function tagsOf(column: string | null): Tags {
  if (column === null) return {};
  try {
    const parsed: unknown = JSON.parse(column);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Tags) : {};
  } catch {
    return {};
  }
}
