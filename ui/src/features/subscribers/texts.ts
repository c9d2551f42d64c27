// What the Subscribers panel says about counts: the subscribers by state, and an import's outcome.
import { amount, counted } from '../../lib/counted';
import type { EmailSettings, SubscriberImport } from './api';

/** What the counts line says: confirmed, and those waiting or bounced when there are some. */
export function countsText({ confirmed, pending, bounced }: EmailSettings): string {
  if (confirmed + pending + bounced === 0) return 'No subscribers yet.';
  return [
    `${amount(confirmed)} confirmed`,
    pending > 0 && `${amount(pending)} waiting for confirmation`,
    bounced > 0 && `${amount(bounced)} bounced`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** What an import did, in one line: added, and what was left out when something was. */
export function outcomeText(outcome: SubscriberImport): string {
  return [
    `Added ${amount(outcome.added)}`,
    outcome.already > 0 && `${amount(outcome.already)} already subscribed`,
    outcome.unsubscribed > 0 && `${amount(outcome.unsubscribed)} unsubscribed there left out`,
    outcome.invalidCount > 0 && `${counted(outcome.invalidCount, 'row', 'rows')} not taken`,
  ]
    .filter(Boolean)
    .join(' · ');
}
