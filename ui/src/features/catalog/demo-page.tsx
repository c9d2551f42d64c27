import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title';

/** Frame of one catalog demo: its heading, a line about the component, and its sections. */
export function DemoPage({ name, intro, children }: { name: string; intro: ReactNode; children: ReactNode }) {
  useDocumentTitle(`${name} · Catalog`);
  return (
    <article className="catalog-demo">
      <header className="catalog-demo__header">
        <h1>{name}</h1>
        <p>{intro}</p>
      </header>
      {children}
    </article>
  );
}

/** One state or use of the component under a small heading. */
export function DemoSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="catalog-demo__section" aria-label={title}>
      <h2>{title}</h2>
      <div className="catalog-demo__stage">{children}</div>
    </section>
  );
}

/** A live line showing the demo's current value (announced politely to screen readers). */
export function Readout({ children }: { children: ReactNode }) {
  return (
    <p className="catalog-readout" role="status">
      {children}
    </p>
  );
}
