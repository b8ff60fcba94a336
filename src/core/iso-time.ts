// A wall-clock ms value as the API and diagnostics show it: ISO 8601 UTC, or null.
export const isoOrNull = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : new Date(ms).toISOString());
