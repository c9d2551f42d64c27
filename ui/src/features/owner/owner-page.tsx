import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title';

/** One screen of the owner area: its title (also the tab's) and its content. */
export function OwnerPage({ title, children }: { title: string; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <div className="q-owner-page">
      <h1 className="q-owner-page__title">{title}</h1>
      {children}
    </div>
  );
}
