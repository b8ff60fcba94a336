// Ids: "<prefix>_" + 10 characters of time (ms, Crockford base32, so ids sort by
// creation time) + 16 random characters. Messages use msg_, webhook events evt_.
import { randomInt } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
export const MESSAGE_ID_PATTERN = /^msg_[0-9a-z]{26}$/;

export function newId(prefix: string, nowMs: number): string {
  let time = '';
  let t = Math.max(0, Math.floor(nowMs));
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let rand = '';
  for (let i = 0; i < 16; i++) rand += ALPHABET[randomInt(32)];
  return `${prefix}_${time}${rand}`;
}

export const newMessageId = (nowMs: number) => newId('msg', nowMs);
