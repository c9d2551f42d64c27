/** Joins the non-empty string arguments: `cx('a', cond && 'b')`. Anything else is skipped. */
export function cx(...names: unknown[]): string {
  return names.filter((name): name is string => typeof name === 'string' && name !== '').join(' ');
}
