import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { cx } from '../lib/cx';

export interface ModalProps {
  open: boolean;
  /** Called on Escape, on a click on the backdrop and on the close button. */
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Action buttons along the bottom, e.g. Cancel and Confirm. */
  footer?: ReactNode;
  /** `large` suits grids (the tab-icon picker). */
  size?: 'small' | 'medium' | 'large';
  /** Element to focus on open; otherwise the first control in the body, else the dialog itself. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Accessible name of the × button. */
  closeLabel?: string;
  className?: string;
}

const FOCUSABLE =
  'a[href], area[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

function focusables(root: HTMLElement): HTMLElement[] {
  // A control taken out of the tab order (the Add-block dialog's hidden file input, tabIndex -1) or
  // hidden is no Tab stop: counting it as the last one would let Tab leave the dialog.
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.hasAttribute('inert') && el.tabIndex >= 0 && !el.closest('[hidden]'),
  );
}

// Open modals, innermost last: only the top one reacts to Escape and keeps focus.
const stack: symbol[] = [];

/**
 * A modal dialog rendered into <body> through a portal. While open, the rest of the page is inert,
 * Tab cycles inside the dialog, Escape or a backdrop click closes it, and focus returns to where it was.
 */
export function Modal({
  open,
  onClose,
  title,
  children,
  footer,
  size = 'medium',
  initialFocusRef,
  closeLabel = 'Close',
  className,
}: ModalProps) {
  const titleId = `modal-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}-title`;
  const overlayRef = useRef<HTMLDivElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const pressedOnBackdrop = useRef(false);
  // The latest onClose, so the effect below does not re-run (and steal focus) when it changes.
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    if (!open) return;
    const key = Symbol('modal');
    stack.push(key);
    const isTop = () => stack[stack.length - 1] === key;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const overlay = overlayRef.current;
    const dialog = dialogRef.current;

    // Make everything else inert (and hidden from assistive tech) while the dialog is up.
    const madeInert: Element[] = [];
    for (const el of Array.from(document.body.children)) {
      if (el === overlay || el.hasAttribute('inert') || el.tagName === 'SCRIPT') continue;
      el.setAttribute('inert', '');
      madeInert.push(el);
    }
    document.body.classList.add('q-scroll-locked');

    const target =
      initialFocusRef?.current ?? (bodyRef.current && focusables(bodyRef.current)[0]) ?? dialog ?? undefined;
    target?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (!isTop() || !dialog) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusables(dialog);
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) {
        event.preventDefault();
        dialog.focus();
        return;
      }
      const active = document.activeElement;
      if (!dialog.contains(active)) {
        event.preventDefault();
        first.focus();
      } else if (event.shiftKey && (active === first || active === dialog)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);

    return () => {
      document.removeEventListener('keydown', onKeyDown);
      const index = stack.indexOf(key);
      if (index !== -1) stack.splice(index, 1);
      for (const el of madeInert) el.removeAttribute('inert');
      if (stack.length === 0) document.body.classList.remove('q-scroll-locked');
      if (previous?.isConnected) previous.focus();
    };
    // initialFocusRef is read once on open on purpose.
  }, [open]);

  if (!open) return null;

  return createPortal(
    <div
      ref={overlayRef}
      className="q-modal-overlay"
      onMouseDown={(event) => {
        pressedOnBackdrop.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        if (pressedOnBackdrop.current && event.target === event.currentTarget) onClose();
        pressedOnBackdrop.current = false;
      }}
    >
      <div
        ref={dialogRef}
        className={cx('q-modal', `q-modal--${size}`, className)}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <header className="q-modal__header">
          <h2 className="q-modal__title" id={titleId}>
            {title}
          </h2>
          <button type="button" className="q-modal__close" aria-label={closeLabel} onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
        </header>
        <div ref={bodyRef} className="q-modal__body">
          {children}
        </div>
        {footer && <footer className="q-modal__footer">{footer}</footer>}
      </div>
    </div>,
    document.body,
  );
}
