import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components';

/** One of the less common actions in the editor's More menu. */
export interface MoreAction {
  label: string;
  onSelect: () => void;
  /** Deleting: shown apart, in the danger colour. */
  danger?: boolean;
  /** Shown only where the toolbar has no room for it (a phone): 'Save and keep writing'. */
  narrowOnly?: boolean;
  disabled?: boolean;
}

/**
 * The editor's "More" button: a disclosure holding the actions a blogger needs less often
 * (History, Unpublish, Delete), away from Save. Escape or a click outside closes it, and the
 * focus goes back to the button; choosing an action closes it first.
 */
export function EditorMoreMenu({ actions }: { actions: MoreAction[] }) {
  const [open, setOpen] = useState(false);
  const id = `more-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  if (actions.length === 0) return null;
  return (
    <div
      className="q-more"
      ref={rootRef}
      onBlur={(event) => {
        // Tabbing past the last action closes the menu.
        if (open && !rootRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <Button
        ref={buttonRef}
        variant="secondary"
        className="q-more__button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((was) => !was)}
      >
        {/* On a phone the word gives way to three dots; it stays the button's name. */}
        <span className="q-more__dots" aria-hidden="true">
          ⋯
        </span>
        <span className="q-more__word">More</span>
      </Button>
      <ul className="q-more__menu" id={id} hidden={!open}>
        {actions.map((action) => (
          <li
            key={action.label}
            className={`${action.danger ? 'q-more__item q-more__item--danger' : 'q-more__item'}${action.narrowOnly ? ' q-more__item--narrow' : ''}`}
          >
            <button
              type="button"
              className="q-more__action"
              disabled={action.disabled}
              onClick={() => {
                setOpen(false);
                buttonRef.current?.focus();
                action.onSelect();
              }}
            >
              {action.label}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
