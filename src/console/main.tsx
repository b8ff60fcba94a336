// The console's entry: signs in with the key, keeps it (key-store.ts), shows one view per
// hash route (#/overview, #/send, #/history?q=...: the address a sign-in lands on, so a
// bookmark survives it), and says plainly when the gateway cannot be reached, the key is
// refused (back to sign-in) or the phone is in simulated mode.
import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, health, onConnection, type Connection } from './api.js';
import { forgetKey, storedKey, storeKey } from './key-store.js';
import { Login } from './login.js';
import { Overview } from './overview.js';
import { Send } from './send.js';
import { Queue } from './messages.js';
import { History } from './history.js';
import { Inbox } from './inbox.js';
import { Rules } from './rules.js';
import { Webhooks } from './webhooks.js';
import { Key } from './key.js';
import { usePoll } from './poll.js';
import { forgetUnreadMark, useUnread } from './unread.js';
import type { Call } from './ui.js';

const VIEWS = [
  ['overview', 'Overview'],
  ['send', 'Send'],
  ['queue', 'Queue'],
  ['history', 'History'],
  ['inbox', 'Conversations'],
  ['rules', 'Rules'],
  ['webhooks', 'Webhooks'],
  ['key', 'Key'],
] as const;
type View = (typeof VIEWS)[number][0];

/**
 * The view a hash names (#/send; #/history?q=... with the history's filter), or undefined for any other hash (such as
 * #main).
 */
const viewOf = (hash: string): View | undefined => VIEWS.find(([id]) => hash.split('?')[0] === `#/${id}`)?.[0];

/** A link's text: Conversations shows the unread count, "(3)", and describes it ("3 new received SMS"). */
function LinkText({ id, name, unread }: { id: View; name: string; unread: number }) {
  if (id !== 'inbox' || unread === 0) return <>{name}</>;
  return (
    <>
      {name}
      <span aria-hidden="true">{` (${unread})`}</span>
      <span id="unread-count" hidden>{`${unread} new received SMS`}</span>
    </>
  );
}

/**
 * The top bar: the name, then (once signed in) the views' links and sign-out: one row on a
 * desktop (wrapping when narrow), a bar fixed at the screen's bottom on a phone, every view one tap away.
 */
function TopBar({
  signedIn,
  view,
  unread,
  onSignOut,
}: {
  signedIn: boolean;
  view: View;
  unread: number;
  onSignOut: () => void;
}) {
  return (
    <header class="top">
      <span class="brand">sms-gateway</span>
      {signedIn && (
        <nav aria-label="Views">
          {VIEWS.map(([id, name]) => (
            <a
              key={id}
              href={`#/${id}`}
              aria-current={id === view ? 'page' : undefined}
              aria-describedby={id === 'inbox' && unread > 0 ? 'unread-count' : undefined}
            >
              <LinkText id={id} name={name} unread={unread} />
            </a>
          ))}
          <button type="button" class="secondary signout" onClick={onSignOut}>
            Sign out
          </button>
        </nav>
      )}
    </header>
  );
}

/** The view the hash route names. */
function CurrentView({ view, call, onRotated }: { view: View; call: Call; onRotated: (key: string) => void }) {
  return (
    <>
      {view === 'overview' && <Overview call={call} />}
      {view === 'send' && <Send call={call} />}
      {view === 'queue' && <Queue call={call} />}
      {view === 'history' && <History call={call} />}
      {view === 'inbox' && <Inbox call={call} />}
      {view === 'rules' && <Rules call={call} />}
      {view === 'webhooks' && <Webhooks call={call} />}
      {view === 'key' && <Key call={call} onRotated={onRotated} />}
    </>
  );
}

/** Said plainly, above every view: the gateway cannot be reached; the phone is in simulated mode. */
function Banners({ conn, mode }: { conn: Connection; mode: string | undefined }) {
  return (
    <div class="banners">
      {conn === 'unreachable' && (
        <p class="banner banner-down" role="alert">
          The gateway cannot be reached: is it running, and is this device on the same network? Retrying every few
          seconds.
        </p>
      )}
      {mode === 'simulated' && (
        <p class="banner banner-sim" role="status">
          Simulated mode: nothing is really sent.
        </p>
      )}
    </div>
  );
}

/** The view the hash route names, followed as the hash changes (other hashes, such as #main, keep it). */
function useHashView() {
  const [view, setView] = useState<View>(viewOf(location.hash) ?? 'overview');
  useEffect(() => {
    const onHash = () => {
      const v = viewOf(location.hash);
      if (v) setView(v);
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  return [view, setView] as const;
}

/** The connection as the API calls and the health poll see it, and the phone's mode from the health poll. */
function useConnection() {
  const [conn, setConn] = useState<Connection>('ok');
  const [mode, setMode] = useState<string>();
  useEffect(() => {
    onConnection(setConn);
  }, []);
  usePoll(async () => {
    const h = await health();
    setMode(h?.mode);
    setConn((c) => (h ? (c === 'unreachable' ? 'ok' : c) : 'unreachable'));
  }, []);
  return { conn, setConn, mode };
}

function App() {
  const [key, setKey] = useState(storedKey());
  const { conn, setConn, mode } = useConnection();
  const [view, setView] = useHashView();
  const [notice, setNotice] = useState<string>();
  const [newKey, setNewKey] = useState<string>();

  useEffect(() => {
    if (conn === 'unauthorized' && key) {
      forgetKey();
      forgetUnreadMark();
      setKey(undefined);
      setNotice('The key was refused: it is wrong or was rotated. Paste the current key.');
    }
  }, [conn, key]);

  useEffect(() => {
    const name = VIEWS.find(([id]) => id === view)?.[1] ?? '';
    document.title = key ? `${name} · sms-gateway` : 'Sign in · sms-gateway';
  }, [view, key]);

  const call: Call = useCallback(
    <T,>(method: string, path: string, body?: unknown) => api<T>(key ?? '', method, path, body),
    [key],
  );
  const unread = useUnread(call, !!key, view === 'inbox');

  const signIn = (k: string, remember: boolean) => {
    storeKey(k, remember);
    setNotice(undefined);
    setNewKey(undefined);
    setConn('ok');
    setKey(k);
    // The address asked for (a bookmark, a link, the view before a refused key), else the overview.
    const asked = viewOf(location.hash);
    setView(asked ?? 'overview');
    if (!asked) history.replaceState(null, '', '#/overview');
  };
  const signOut = (message?: string, rotated?: string) => {
    forgetKey();
    forgetUnreadMark();
    setKey(undefined);
    setNotice(message);
    setNewKey(rotated);
  };

  return (
    <>
      <a class="skip" href="#main">
        Skip to the content
      </a>
      <TopBar signedIn={!!key} view={view} unread={unread} onSignOut={() => signOut('Signed out.')} />
      <Banners conn={conn} mode={mode} />
      {!key ? (
        <Login notice={notice} newKey={newKey} onKey={signIn} />
      ) : (
        <main id="main">
          <CurrentView
            view={view}
            call={call}
            onRotated={(k) => signOut('The key was rotated. Sign in with the new key.', k)}
          />
        </main>
      )}
    </>
  );
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
