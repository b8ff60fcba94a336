// Every topic the bridge uses, made from the prefix and the gateway id in one place. A number
// in a topic is written as in a URL path (`+` as %2B): `+` is a wildcard in MQTT, never
// allowed in a topic name.
export function topicsFor(prefix: string, id: string) {
  const base = `${prefix}/${id}`;
  return {
    base,
    availability: `${base}/availability`,
    /** This gateway's own send topic. */
    send: `${base}/send`,
    /** The topic several gateways share; each message goes to one of them. */
    sharedSend: `${prefix}/send`,
    sharedFilter: `$share/${prefix}/${prefix}/send`,
    errors: `${base}/errors`,
    event: (type: string) => `${base}/events/${type}`,
    /** Retained: the sensors' values (JSON). */
    state: `${base}/state`,
    /** Retained: the last received SMS (JSON: sender, body, receivedAt). */
    lastReceived: `${base}/last-received`,
    /** Not retained: every received SMS, for Home Assistant's event entity (received.ts). */
    received: `${base}/received`,
    /** Retained, shared by every gateway of the prefix: one topic per number (opt-out-sharing.ts). */
    optOutsFilter: `${prefix}/opt-outs/+`,
    optOut: (number: string) => `${prefix}/opt-outs/${encodeURIComponent(number)}`,
    /** The number an opt-out topic names (its `+` written %2B), or undefined. */
    optOutNumber: (topic: string) => optOutLevel(topic, `${prefix}/opt-outs/`),
    notifyFilter: `${base}/notify/+`,
    notify: (slug: string) => `${base}/notify/${slug}`,
    /** The contact level of a notify command topic (as published: any case), or undefined. */
    notifySlug: (topic: string) =>
      topic.startsWith(`${base}/notify/`) ? topic.slice(`${base}/notify/`.length) : undefined,
  };
}

/** The (decoded) last level of an opt-out topic; undefined when it is not one or not decodable. */
function optOutLevel(topic: string, start: string): string | undefined {
  if (!topic.startsWith(start)) return undefined;
  try {
    return decodeURIComponent(topic.slice(start.length));
  } catch {
    return undefined;
  }
}

export type Topics = ReturnType<typeof topicsFor>;
