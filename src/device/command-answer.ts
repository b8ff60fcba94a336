// How a device command's answer is read (termux.ts runs the command): its exit, Termux:API's
// {"error": "..."} answer on stdout (a missing permission among them), and whether stdout
// holds what the caller expects (JSON, any text, or nothing in particular).

export type RunFailure =
  | 'not_found' // the executable is not on PATH
  | 'timeout' // no answer within the timeout (killed)
  | 'permission_denied' // {"error": "...permission..."}
  | 'api_error' // {"error": ...}, non-zero exit, or an answer that cannot be parsed
  | 'no_output'; // expected an answer, got nothing (Termux:API's internal errors)

export type Outcome = { ok: true; stdout: string; json: unknown } | { ok: false; failure: RunFailure; detail: string };

/** What the caller expects on stdout: 'json', any non-empty 'text', or 'none' (output ignored). */
export type Expect = 'json' | 'text' | 'none';

const PERMISSION_TEXT = /permission/i;
/** Recognizes Termux:API's {"error": "..."} answer. */
export function termuxError(json: unknown): string | undefined {
  if (json && typeof json === 'object' && !Array.isArray(json) && 'error' in json) {
    const e = json.error;
    return typeof e === 'string' ? e : JSON.stringify(e);
  }
  return undefined;
}

/** A command's stdout after exit code 0: Termux:API's error answer, or what `expect` asks for. */
export function judgeAnswer(stdout: string, expect: Expect): Outcome {
  const trimmed = stdout.trim();
  let json: unknown;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      json = JSON.parse(trimmed);
    } catch {
      json = undefined;
    }
  }
  const error = termuxError(json);
  if (error !== undefined) {
    return {
      ok: false,
      failure: PERMISSION_TEXT.test(error) ? 'permission_denied' : 'api_error',
      detail: error.slice(0, 300),
    };
  }
  if (expect === 'none') return { ok: true, stdout, json };
  if (trimmed === '') return { ok: false, failure: 'no_output', detail: 'the command printed nothing' };
  if (expect === 'json' && json === undefined) {
    return { ok: false, failure: 'api_error', detail: 'the command printed something that is not JSON' };
  }
  return { ok: true, stdout, json };
}

/** A command that could not be run: not installed, or the spawn itself failed. */
export function spawnFailure(command: string, err: NodeJS.ErrnoException): Outcome {
  return err.code === 'ENOENT'
    ? { ok: false, failure: 'not_found', detail: `${command} is not installed (not found on PATH)` }
    : { ok: false, failure: 'api_error', detail: `could not run ${command}: ${err.code ?? err.message}` };
}

/** A command that ended otherwise than with exit code 0: how, with the last line of its stderr. */
export function exitFailure(
  command: string,
  code: number | null,
  signal: NodeJS.Signals | null,
  errText: string,
): Outcome {
  const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  const stderr = errText.trim().split('\n').slice(-1)[0]?.slice(0, 200);
  return { ok: false, failure: 'api_error', detail: stderr ? `${command} ${why}: ${stderr}` : `${command} ${why}` };
}
