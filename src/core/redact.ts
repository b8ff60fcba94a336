// What of a URL may be shown in logs and diagnostics: scheme, host and port. Webhook URLs
// often carry a secret in their path or query (Home Assistant's webhook id, a token).
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(not a URL)';
  }
}
