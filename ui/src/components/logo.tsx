import { cx } from '../lib/cx';

/** The "Quire" wordmark: a folded-page mark and the name, drawn inline (no image request). */
export function Logo({ className, title = 'Quire' }: { className?: string; title?: string }) {
  return (
    <svg
      className={cx('q-logo', className)}
      viewBox="0 0 172 48"
      role="img"
      aria-label={title}
      xmlns="http://www.w3.org/2000/svg"
    >
      <g fill="none" stroke="currentColor" strokeWidth="3.5" strokeLinejoin="round" strokeLinecap="round">
        <path className="q-logo__page" d="M8 6h22l10 10v26H8z" />
        <path d="M30 6v10h10" />
        <path d="M15 24h18M15 31h18M15 38h10" />
      </g>
      <text
        x="52"
        y="37"
        fill="currentColor"
        fontFamily="system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
        fontSize="34"
        fontWeight="700"
        letterSpacing="-0.5"
      >
        Quire
      </text>
    </svg>
  );
}
