// The schema a new database is made with in one step: the SQL the migrations leave behind and
// the version it stands for. Empty here (a new database replays every migration, as the tests
// do); the build writes in the one the migrations make (scripts/build.mjs, schema-snapshot.ts),
// so a new home's start runs one script instead of every migration one by one.
export interface FreshSchema {
  /** The user_version the SQL stands for: the migrations after it still run. */
  version: number;
  sql: string;
}

export const FRESH_SCHEMA: FreshSchema | undefined = undefined;
