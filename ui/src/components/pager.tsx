import { Button } from './button';

/** A pager button's face: the word, or on a phone just the arrow (the word stays its accessible name). */
function PagerLabel({ icon, label }: { icon: string; label: string }) {
  return (
    <>
      <span className="q-pager__icon" aria-hidden="true">
        {icon}
      </span>
      <span className="q-pager__label">{label}</span>
    </>
  );
}

/** First, previous, next and last; only when there is more than one page. */
export function Pager({ page, totalPages, onGo }: { page: number; totalPages: number; onGo: (page: number) => void }) {
  if (totalPages <= 1) return null;
  const first = page <= 1;
  const last = page >= totalPages;
  return (
    <nav className="q-pager" aria-label="Pages">
      <Button variant="secondary" disabled={first} onClick={() => onGo(1)}>
        <PagerLabel icon="«" label="First" />
      </Button>
      <Button variant="secondary" disabled={first} onClick={() => onGo(page - 1)}>
        <PagerLabel icon="‹" label="Previous" />
      </Button>
      <span className="q-pager__position">
        Page {page} of {totalPages}
      </span>
      <Button variant="secondary" disabled={last} onClick={() => onGo(page + 1)}>
        <PagerLabel icon="›" label="Next" />
      </Button>
      <Button variant="secondary" disabled={last} onClick={() => onGo(totalPages)}>
        <PagerLabel icon="»" label="Last" />
      </Button>
    </nav>
  );
}
