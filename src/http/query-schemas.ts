// Zod schemas of query parameters: bounded whole numbers, the searches (q, since, until, tag), the history's query.
import * as z from 'zod';
import { MAX_TAG_VALUE, MessageStatusSchema } from '../store/message-record.js';

/**
 * A whole-number query parameter within [min, max]: digits only (no sign, point or
 * exponent), so the document shows an integer with its bounds and default.
 */
export const queryInt = (min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
    z
      .number({ error: `must be a whole number from ${min} to ${max}` })
      .int(`must be a whole number from ${min} to ${max}`)
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`)
      .default(fallback),
  );

/** The longest q a search takes: a number or a few words, never a whole message. */
export const MAX_SEARCH_LENGTH = 100;

/** A time whose offset's + a URL turned into a space ("...T12:00:00 01:00"): the usual curl slip. */
const PLUS_AS_SPACE = / \d{2}:?\d{2}$/;
/** What to write instead, when a URL turned the offset's + into a space. */
const plusHint = (input: unknown) =>
  typeof input === 'string' && PLUS_AS_SPACE.test(input) ? ' (in a URL, write its + as %2B)' : '';
const searchTime = z.iso.datetime({
  offset: true,
  error: (issue) =>
    `must be an ISO 8601 date-time with Z or an offset${plusHint(issue.input)}, e.g. 2026-11-01T00:00:00Z`,
});

/** The search parameters of GET /api/messages and GET /api/inbox (store/search-sql.ts does the matching). */
export const searchQueryFields = (what: string) => ({
  q: z
    .string()
    .max(MAX_SEARCH_LENGTH, `must be at most ${MAX_SEARCH_LENGTH} characters`)
    .optional()
    .describe(
      `A number or a text, matched literally (% and _ are no wildcards). Number-like (digits, spaces, dashes, dots, ` +
        `parentheses, a leading +): ${what} with the same characters removed contains it, or starts with it when q ` +
        `starts with +, or the text contains it. Otherwise: a case-insensitive part of the ` +
        `text${what === 'the sender' ? ', the contact name or the sender' : ''}. Empty: no search`,
    ),
  since: searchTime.optional().describe('Only messages from this time on (inclusive), ISO 8601 with Z or an offset'),
  until: searchTime
    .optional()
    .describe('Only messages before this time (exclusive), ISO 8601 with Z or an offset; not before since'),
});

/** since after until: 400 naming until. */
export const sinceNotAfterUntil = (v: { since?: string | undefined; until?: string | undefined }) =>
  v.since === undefined || v.until === undefined || Date.parse(v.since) <= Date.parse(v.until);
export const UNTIL_BEFORE_SINCE = { path: ['until'], error: 'must not be before since' };

/** The search's times as ms since epoch (the route passes them to the store). */
export const searchTimes = (v: { since?: string | undefined; until?: string | undefined }) => ({
  since: v.since === undefined ? undefined : Date.parse(v.since),
  until: v.until === undefined ? undefined : Date.parse(v.until),
});

/** A history search's tag: `key:value`, the key as a tag's, the value all after the first colon. */
const TAG_FILTER = new RegExp(`^[A-Za-z0-9_.-]{1,32}:[\\s\\S]{0,${MAX_TAG_VALUE}}$`);

const TAG_KEY_RULE = 'the key 1 to 32 letters, digits, _ . or -';
const TAG_FILTER_ERROR = `must be key:value, ${TAG_KEY_RULE}, the value at most ${MAX_TAG_VALUE} characters`;
const TAG_FILTER_DOC =
  'Only messages carrying this tag: key:value (e.g. alarm:home), the value (all after the first colon) ' +
  'compared exactly; an empty value: the tag given as ""';

/** The `tag` parameter as the store's filter: the key before the first colon, the value after it. */
export const tagFilter = (tag: string | undefined) =>
  tag === undefined ? undefined : { key: tag.slice(0, tag.indexOf(':')), value: tag.slice(tag.indexOf(':') + 1) };

export const MessagesQuerySchema = z
  .object({
    limit: queryInt(1, 100, 20).describe('1 to 100, default 20'),
    offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0).describe('0 or more, default 0'),
    status: MessageStatusSchema.optional(),
    ...searchQueryFields('the recipient'),
    tag: z.string().regex(TAG_FILTER, TAG_FILTER_ERROR).optional().describe(TAG_FILTER_DOC),
  })
  .strict()
  .refine(sinceNotAfterUntil, UNTIL_BEFORE_SINCE);
