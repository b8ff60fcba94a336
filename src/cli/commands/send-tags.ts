// `sms-gateway send --tag key=value` (repeatable): each tag checked as the API checks a
// request's tags (store/message-tags.ts: at most 8, a name of 1 to 32 letters, digits, _ . or
// -, a value of at most 64 characters), with a line naming the tag at fault, before anything
// is sent. The value is everything after the first `=` (it may hold `=` itself, or be empty).
// The name __proto__ passes the API's pattern, but the gateway refuses any JSON body holding
// it (prototype poisoning), so it is refused here with its own line.
import { MAX_TAG_VALUE, MAX_TAGS, TAG_KEY, type Tags } from '../../store/message-record.js';

/** The tags given so far, by name. */
export type TagList = Map<string, string>;

/** Adds one `--tag` argument to the list; answers why it cannot be taken, or undefined. */
export function addTag(tags: TagList, arg: string | undefined): string | undefined {
  const at = arg?.indexOf('=') ?? -1;
  if (arg === undefined || at < 0) return '--tag takes key=value, e.g. --tag order=1042';
  const key = arg.slice(0, at);
  const value = arg.slice(at + 1);
  if (!TAG_KEY.test(key)) return `--tag ${JSON.stringify(key)}: a tag name must be 1 to 32 letters, digits, _ . or -`;
  if (key === '__proto__') return '--tag __proto__: the gateway refuses this name in any request';
  // Characters as the API (zod) counts them: code points, so an emoji is one, not two.
  const length = [...value].length;
  if (length > MAX_TAG_VALUE)
    return `--tag ${key}: a tag's value must be at most ${MAX_TAG_VALUE} characters (this one has ${length})`;
  if (tags.has(key)) return `--tag ${key} is given twice`;
  if (tags.size >= MAX_TAGS) return `at most ${MAX_TAGS} tags (--tag ${key} is one more)`;
  tags.set(key, value);
  return undefined;
}

/** The request's tags field: none when no --tag was given. */
export const tagsField = (tags: TagList): { tags?: Tags } =>
  tags.size === 0 ? {} : { tags: Object.fromEntries(tags) };
