import { useId, useState, type ReactNode } from 'react';
import { cx } from '../lib/cx';

export interface PanelProps {
  title: ReactNode;
  children: ReactNode;
  /** Lets the reader fold the content away with a button in the header. */
  collapsible?: boolean;
  /** Initial state of a collapsible panel; ignored otherwise. */
  defaultCollapsed?: boolean;
  /** Heading level of the title (2 by default). */
  headingLevel?: 2 | 3 | 4;
  /** `danger` draws the panel in the destructive colour (e.g. 'Danger Zone!'). */
  tone?: 'default' | 'danger';
  /** Controls shown at the right of the header. */
  actions?: ReactNode;
  className?: string;
}

/** A titled section of a screen, optionally collapsible. */
export function Panel({
  title,
  children,
  collapsible = false,
  defaultCollapsed = false,
  headingLevel = 2,
  tone = 'default',
  actions,
  className,
}: PanelProps) {
  const id = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const titleId = `panel-${id}-title`;
  const bodyId = `panel-${id}-body`;
  const [collapsed, setCollapsed] = useState(collapsible && defaultCollapsed);
  const Heading = `h${headingLevel}` as const;
  const isCollapsed = collapsible && collapsed;

  return (
    <section
      className={cx('q-panel', tone === 'danger' && 'q-panel--danger', isCollapsed && 'q-panel--collapsed', className)}
      aria-labelledby={titleId}
    >
      <header className="q-panel__header">
        <Heading className="q-panel__title" id={titleId}>
          {collapsible ? (
            <button
              type="button"
              className="q-panel__toggle"
              aria-expanded={!isCollapsed}
              aria-controls={bodyId}
              onClick={() => setCollapsed((value) => !value)}
            >
              <span className="q-panel__chevron" aria-hidden="true" />
              <span>{title}</span>
            </button>
          ) : (
            title
          )}
        </Heading>
        {actions && <div className="q-panel__actions">{actions}</div>}
      </header>
      <div id={bodyId} className="q-panel__body" hidden={isCollapsed}>
        {children}
      </div>
    </section>
  );
}
