/** A count as the app writes it, with thousands separated: `5,000`. */
export const amount = (count: number) => count.toLocaleString('en-US');

/** `count` of `one` (or `many`), e.g. '1 like', '3 likes'. */
export const counted = (count: number, one: string, many: string) => `${amount(count)} ${count === 1 ? one : many}`;
