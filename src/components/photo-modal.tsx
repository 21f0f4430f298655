/**
 * A modal dialog over the page (an intercepted route's frame). Closing it — Escape, the close
 * button, a click on the backdrop — goes back in history, which is where the page under it
 * lives. While open, Tab stays inside it and the page under it does not scroll; once closed,
 * focus returns to the link that opened it.
 */
import { useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { useRouter } from 'switchyard-react';

const FOCUSABLE = 'a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex="-1"])';

export interface PhotoModalProps {
  labelledBy: string;
  /** The URL of the same content as a page of its own. */
  fullPage: string;
  children: ReactNode;
}

export function PhotoModal({ labelledBy, fullPage, children }: PhotoModalProps) {
  const router = useRouter();
  const dialog = useRef<HTMLDivElement>(null);
  // Read while rendering, before the router moves focus to the new page: the link clicked.
  const [opener] = useState(() => (typeof document === 'undefined' ? null : document.activeElement));

  useEffect(() => {
    dialog.current?.focus();
    document.documentElement.classList.add('modal-open');
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        router.back();
      } else if (event.key === 'Tab' && dialog.current) {
        keepFocusInside(dialog.current, event);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.documentElement.classList.remove('modal-open');
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus({ preventScroll: true });
    };
  }, [router, opener]);

  const onBackdrop = (event: MouseEvent) => {
    if (event.target === event.currentTarget) router.back();
  };
  return (
    <div className="modal-backdrop" onClick={onBackdrop}>
      <div
        ref={dialog}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        tabIndex={-1}
      >
        <div className="modal-bar">
          {/* A plain anchor: the full page is a document load, never the modal again. */}
          <a href={fullPage}>Open the full page</a>
          <button type="button" className="modal-close" aria-label="Close" onClick={() => router.back()}>
            ×
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

/** Tab from the last focusable element goes to the first, Shift+Tab from the first to the last. */
function keepFocusInside(container: HTMLElement, event: KeyboardEvent): void {
  const focusable = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === container)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !container.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}
