// The gateway's one event path: a small typed dispatcher. The part that causes a domain
// event emits it by name (`emit('message.settled', event)`); its listeners subscribe where
// they are composed (`on('message.settled', publish)`). Listeners run synchronously, in the
// order they subscribed; one that throws is reported and the others still run, so a
// listener never undoes or fails the change that caused its event. What each part emits is
// declared beside it as an interface of names and payloads (store/outbox.ts OutboxEvents,
// sms/send-events.ts SendEvents); the whole map, with who emits and who listens, is
// events/domain-events.ts.

export type Listener<P> = (payload: P) => void;

/** What an emitting part is given: it can announce, not listen. */
export interface Emitter<M> {
  emit<K extends keyof M & string>(name: K, payload: M[K]): void;
}

/** What a listening part is given: it can subscribe, not announce. */
export interface Subscriber<M> {
  /** Subscribes; returns the unsubscribe. */
  on<K extends keyof M & string>(name: K, listener: Listener<M[K]>): () => void;
}

export type Dispatcher<M> = Emitter<M> &
  Subscriber<M> & {
    /** How many listeners an event has (diagnostics, tests). */
    listenerCount(name: keyof M & string): number;
    /** The names that have a listener now (tests hold them to the map of events). */
    subscribed(): string[];
  };

export interface DispatcherOptions {
  /** A listener threw: told with the event's name; the other listeners still run. */
  onListenerError(err: unknown, name: string): void;
}

export function createDispatcher<M>(opts: DispatcherOptions): Dispatcher<M> {
  const listeners = new Map<string, Listener<never>[]>();
  return {
    on(name, listener) {
      const list = listeners.get(name) ?? [];
      listeners.set(name, [...list, listener]);
      return () => {
        listeners.set(
          name,
          (listeners.get(name) ?? []).filter((l) => l !== listener),
        );
      };
    },
    emit(name, payload) {
      // Lists are replaced, never changed in place: a listener that subscribes or
      // unsubscribes changes the next emit, not this one.
      for (const listener of listeners.get(name) ?? []) {
        try {
          (listener as Listener<typeof payload>)(payload);
        } catch (err) {
          opts.onListenerError(err, name);
        }
      }
    },
    listenerCount: (name) => listeners.get(name)?.length ?? 0,
    subscribed: () => [...listeners].filter(([, list]) => list.length > 0).map(([name]) => name),
  };
}
