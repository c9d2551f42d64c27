// What the landing page says of the instance (docs/api.md, 'The instance'): the operator's
// description and the newest posts of the blogs listed there.
import type { InstanceAnswer } from '../../api-types/instance';
import { api } from '../../lib/api';

/** The instance's description (HTML the server rendered from Markdown, '' for none) and its newest listed posts. */
export async function fetchInstance(signal?: AbortSignal): Promise<InstanceAnswer> {
  const { data } = await api.get<InstanceAnswer>('/api/instance', signal ? { signal } : {});
  return data;
}
