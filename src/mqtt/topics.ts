// Every topic the bridge uses, made from the prefix and the gateway id in one place.
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
    notifyFilter: `${base}/notify/+`,
    notify: (slug: string) => `${base}/notify/${slug}`,
    /** The contact level of a notify command topic (as published: any case), or undefined. */
    notifySlug: (topic: string) => (topic.startsWith(`${base}/notify/`) ? topic.slice(`${base}/notify/`.length) : undefined),
  };
}

export type Topics = ReturnType<typeof topicsFor>;
