// Where an open conversation is scrolled, as in a messaging app: it opens at its newest message
// with the reply box in view (beside the list on a desktop the thread pane scrolls by itself,
// app.css; on a phone the page scrolls, and what is in view ends at the views' bar); while the
// reader is at the newest message, new ones keep it there; when messages come above ("Load
// older") or the reader has scrolled up to older ones, the message read stays where it was. The
// place (the first message in view and whether the newest is) is noted after each scroll and each
// change, so it is known as it was before the next change. The browser's own scroll anchoring is
// off for the thread (app.css).
import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

/** This close (px) below what is in view, the newest message still counts as read. */
const SLACK = 24;
/** Room (px) left below the reply box when the page scrolls to it. */
const GAP = 8;

interface Place {
  /** The newest message is in view. */
  atEnd: boolean;
  /** The first message in view (its data-id) and its top (px, in the window). */
  anchor: { id: string; top: number } | undefined;
}

/** Where the window's visible part ends: above the views' bar when it is fixed at the bottom (a phone). */
function viewBottom(): number {
  const bar = document.querySelector('header.top nav');
  return bar && getComputedStyle(bar).position === 'fixed' ? bar.getBoundingClientRect().top : innerHeight;
}

/** The thread pane when it scrolls by itself (a desktop), else null: the page scrolls. */
function ownScroller(section: HTMLElement): HTMLElement | null {
  const y = getComputedStyle(section).overflowY;
  return y === 'auto' || y === 'scroll' ? section : null;
}

/** Where the thread is now. */
function placeOf(section: HTMLElement): Place {
  const pane = ownScroller(section)?.getBoundingClientRect();
  const top = Math.max(0, pane?.top ?? 0);
  const bottom = Math.min(viewBottom(), pane?.bottom ?? innerHeight);
  const messages = [...section.querySelectorAll<HTMLElement>('li[data-id]')];
  const last = messages[messages.length - 1];
  const first = messages.find((li) => li.getBoundingClientRect().bottom > top);
  return {
    atEnd: !last || last.getBoundingClientRect().bottom <= bottom + SLACK,
    anchor:
      first?.dataset.id === undefined ? undefined : { id: first.dataset.id, top: first.getBoundingClientRect().top },
  };
}

/**
 * To the newest message: the pane to its end (a desktop); then, on opening or on a phone, the
 * page as far as needed for the whole reply box to be in view.
 */
function toEnd(section: HTMLElement, opening: boolean) {
  const pane = ownScroller(section);
  if (pane) pane.scrollTop = pane.scrollHeight;
  if (pane && !opening) return;
  const reply = (section.querySelector('form.reply') ?? section).getBoundingClientRect();
  const end = viewBottom();
  if (reply.bottom + GAP > end || reply.top < 0) scrollBy(0, reply.bottom + GAP - end);
}

/** The message read back where it was, after messages came above it. */
function keepAnchor(section: HTMLElement, anchor: Place['anchor']) {
  if (!anchor) return;
  const now = section.querySelector(`li[data-id="${CSS.escape(anchor.id)}"]`)?.getBoundingClientRect().top;
  if (now === undefined || now === anchor.top) return;
  const pane = ownScroller(section);
  if (pane) pane.scrollTop += now - anchor.top;
  else scrollBy(0, now - anchor.top);
}

/** Keeps the thread in `section` scrolled as a messaging app does; `ids` are its messages' ids, oldest first. */
export function useThreadScroll(section: RefObject<HTMLElement | null>, ids: readonly string[]) {
  const place = useRef<Place>(undefined);
  const shown = useRef(ids);
  // Opened: at the end. From then on every scroll and every change notes the place.
  useLayoutEffect(() => {
    const s = section.current;
    if (!s) return;
    const note = () => {
      place.current = placeOf(s);
    };
    toEnd(s, true);
    note();
    const changes = new MutationObserver(note);
    changes.observe(s, { childList: true, subtree: true, characterData: true });
    s.addEventListener('scroll', note, { passive: true });
    addEventListener('scroll', note, { passive: true });
    addEventListener('resize', note);
    return () => {
      changes.disconnect();
      s.removeEventListener('scroll', note);
      removeEventListener('scroll', note);
      removeEventListener('resize', note);
    };
  }, []);
  const first = ids[0];
  const last = ids[ids.length - 1];
  // The messages changed: follow the newest if it was in view (and none came above the first), else keep the place.
  useLayoutEffect(() => {
    const s = section.current;
    const was = place.current;
    const before = shown.current;
    shown.current = ids;
    if (!s || !was || (before[0] === first && before[before.length - 1] === last && before.length === ids.length))
      return;
    const cameAbove = before[0] !== undefined && ids.indexOf(before[0]) > 0;
    if (was.atEnd && !cameAbove) toEnd(s, false);
    else keepAnchor(s, was.anchor);
    place.current = placeOf(s);
  }, [first, last, ids.length]);
}
