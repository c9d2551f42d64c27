import { cx } from '../lib/cx';

/**
 * A small rotating ring. Decorative by default (the busy control says aria-busy);
 * give it a `label` when it stands alone, e.g. while a page loads.
 */
export function Spinner({ label, className }: { label?: string; className?: string }) {
  if (label) {
    return (
      <span className={cx('q-spinner', className)} role="status">
        <span className="q-visually-hidden">{label}</span>
      </span>
    );
  }
  return <span className={cx('q-spinner', className)} aria-hidden="true" />;
}
