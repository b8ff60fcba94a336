// The proof that a shared opt-out change comes from a phone of this installation: a (lowercase) hex
// HMAC-SHA256, under SMS_GATEWAY_MQTT_SHARE_SECRET (its UTF-8 bytes), of the change's canonical text
// `sms-gateway/opt-out/v1|<number>|<true or false>|<at>` (the number as on the list, `+` and digits;
// `at` in ms since 1970 as a decimal integer). docs/mqtt.md gives the same form for other tools.
// Checked in constant time; the secret never leaves this file's closures.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface ProvenFields {
  number: string;
  optedOut: boolean;
  at: number;
}

const HEX_PROOF = /^[0-9a-fA-F]{64}$/;

/** The text a proof is made over: the same on every phone (docs/mqtt.md). */
export const canonicalChange = (c: ProvenFields) => `sms-gateway/opt-out/v1|${c.number}|${c.optedOut}|${c.at}`;

/** Makes and checks proofs under one secret. */
export function createOptOutProof(secret: string) {
  const key = Buffer.from(secret, 'utf8');
  const mac = (c: ProvenFields) => createHmac('sha256', key).update(canonicalChange(c), 'utf8').digest();
  return {
    /** The proof of this change (64 lowercase hex characters). */
    prove: (c: ProvenFields): string => mac(c).toString('hex'),
    /** Whether `proof` is this change's proof under the secret (constant time over the digest). */
    verify(c: ProvenFields, proof: unknown): boolean {
      if (typeof proof !== 'string' || !HEX_PROOF.test(proof)) return false;
      return timingSafeEqual(mac(c), Buffer.from(proof, 'hex'));
    },
  };
}

export type OptOutProof = ReturnType<typeof createOptOutProof>;
