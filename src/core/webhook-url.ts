// What makes a URL usable as a webhook target, one rule for both sources: the environment
// (SMS_GATEWAY_WEBHOOK_URLS, checked at start) and the API (POST /api/webhooks); and what of
// it may be shown in logs and diagnostics (redactUrl).

export const MAX_URL_LENGTH = 2048;

/** Why a URL cannot be a webhook target (one sentence), or null when it can. */
export function webhookUrlProblem(raw: string): string | null {
  if (raw.length === 0) return 'url is empty.';
  if (raw.length > MAX_URL_LENGTH) return `url is longer than ${MAX_URL_LENGTH} characters.`;
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(raw)) return 'url must not contain spaces or control characters.';
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'url must be an absolute http:// or https:// URL.';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'url must start with http:// or https://.';
  if (u.hostname === '') return 'url must name a host.';
  if (u.username !== '' || u.password !== '') {
    return 'url must not carry user:password@ (HTTP clients refuse it); put a token in the path or query instead.';
  }
  return null;
}

/**
 * What of a URL may be shown in logs and diagnostics: scheme, host and port. Webhook URLs
 * often carry a secret in their path or query (Home Assistant's webhook id, a token).
 */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(not a URL)';
  }
}
