// The phone's device id in SMSGate's routes and payloads: 21 random characters made once and kept
// in the meta table, so SMSGate's clients see one device across restarts, upgrades and key
// rotations. Made at its first use; a disk that refuses the write leaves it in memory for this run
// (tried again at the next use), so no answer fails for it.
import { newNanoId } from '../core/ids.js';
import type { MetaStore } from '../store/meta.js';

const KEY = 'smsgate_device_id';

export function createSmsgateDeviceId(meta: Pick<MetaStore, 'get' | 'set'>, make: () => string = newNanoId) {
  let kept: string | undefined;
  let made: string | undefined;
  return function smsgateDeviceId(): string {
    kept ??= meta.get(KEY);
    if (kept !== undefined) return kept;
    made ??= make();
    try {
      meta.set(KEY, made);
      kept = made;
    } catch {
      // Kept in memory; written at the next use.
    }
    return made;
  };
}
