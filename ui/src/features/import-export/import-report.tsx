import { useState } from 'react';
import { Button } from '../../components';
import type { ImportReport } from './api';
import { count, counted } from './jobs';

/** Report lines shown before 'Show all': a report can hold 5,000. */
export const REPORT_LINES_SHOWN = 100;

/** The counts of a report, in the order the owner reads them. */
const COUNTS: { key: keyof Omit<ImportReport, 'lines' | 'linesOmitted'>; label: string }[] = [
  { key: 'posts', label: 'Posts' },
  { key: 'pages', label: 'Pages' },
  { key: 'drafts', label: 'Drafts' },
  { key: 'scheduled', label: 'Scheduled' },
  { key: 'images', label: 'Images' },
  { key: 'tags', label: 'Tags' },
  { key: 'redirects', label: 'Old addresses kept' },
  { key: 'skipped', label: 'Skipped' },
];

/**
 * A finished import's report: what it brought in, then every item it skipped or changed with the
 * reason. The first REPORT_LINES_SHOWN lines show at once, the rest on request, in a box that
 * scrolls on its own so the page stays short.
 */
export function ImportReportView({
  id,
  fileName,
  report,
}: {
  id: string;
  /** The uploaded file's name (the server's type allows none; every upload sends one). */
  fileName: string | null;
  report: ImportReport;
}) {
  const [all, setAll] = useState(false);
  const { lines, linesOmitted } = report;
  const shown = all ? lines : lines.slice(0, REPORT_LINES_SHOWN);
  return (
    <div id={id} role="region" aria-label={`Report of ${fileName}`} className="q-import__report">
      <dl className="q-import__counts">
        {COUNTS.map(({ key, label }) => (
          <div key={key} className="q-import__count">
            <dt>{label}</dt>
            <dd>{count(report[key])}</dd>
          </div>
        ))}
      </dl>
      {lines.length === 0 ? (
        <p className="q-settings__muted">Nothing was skipped or changed.</p>
      ) : (
        <>
          <h4 className="q-settings__subtitle">Skipped or changed</h4>
          <ul className="q-import__lines" aria-label="Skipped or changed" tabIndex={0}>
            {shown.map((line, index) => (
              // The lines never move, so their place is their key.
              <li key={index}>
                <strong>{line.item}:</strong> {line.message}
              </li>
            ))}
          </ul>
          {shown.length < lines.length && (
            <Button variant="link" className="q-import__all" onClick={() => setAll(true)}>
              Show all {counted(lines.length, 'line')}
            </Button>
          )}
        </>
      )}
      {linesOmitted > 0 && (
        <p className="q-settings__muted">{counted(linesOmitted, 'more line')} did not fit in this report.</p>
      )}
    </div>
  );
}
