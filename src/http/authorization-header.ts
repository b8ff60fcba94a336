// The Authorization header as the key checks read it: only a request with exactly one such
// header has a credential (Node keeps only the first of duplicated headers, so the raw list is
// counted), and the Bearer form's token.
/** Scheme word in any case, one space, one token with no whitespace. */
const BEARER = /^bearer ([^\s]+)$/i;

/** The request's single Authorization header, or undefined when it has none or several. */
export function soleAuthorization(rawHeaders: string[]): string | undefined {
  let value: string | undefined;
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'authorization') {
      count++;
      value = rawHeaders[i + 1];
    }
  }
  return count === 1 ? value : undefined;
}

/** The token of the request's single Authorization header, or undefined if it has none usable. */
export function bearerToken(rawHeaders: string[]): string | undefined {
  const value = soleAuthorization(rawHeaders);
  return value === undefined ? undefined : BEARER.exec(value)?.[1];
}
