// The page number of a paged list, as its address carries it (`?p=`).

/** The page number in `?p=`: a whole number from 1; anything else means page 1. */
export function pageFromParam(raw: string | null): number {
  if (raw === null || !/^\d+$/.test(raw.trim())) return 1;
  const page = Number(raw.trim());
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}
