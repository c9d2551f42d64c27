import { useDocumentTitle } from '../../lib/use-document-title';

/** What /catalog shows before a demo is picked. */
export function CatalogIndex() {
  useDocumentTitle('Catalog');
  return (
    <article className="catalog-demo">
      <header className="catalog-demo__header">
        <h1>Component catalog</h1>
        <p>
          A developer demo area: every widget the owner app is built from, shown in each of its states. These are the
          same components the screens use, not copies. Pick a demo from the navigation.
        </p>
      </header>
    </article>
  );
}
