import { useEffect, useState, type RefObject } from 'react';

/** Whether the browser has IntersectionObserver (every current one does; jsdom does not). */
export function canObserveVisibility(): boolean {
  return typeof IntersectionObserver === 'function';
}

/**
 * Whether the element `ref` points at is in view (inside every scrolling ancestor too, such as a
 * modal's body), as last reported for the current `layout`. Pass something that changes whenever
 * the content around the element changes (e.g. how many items are above it): until the browser
 * reports on the new layout the answer is false, so an answer about the old layout, where the
 * element was still in view, is never acted on. False where IntersectionObserver is missing.
 */
export function useVisible(ref: RefObject<Element | null>, layout: unknown): boolean {
  const [report, setReport] = useState<{ layout: unknown; visible: boolean } | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || !canObserveVisibility()) return;
    // A fresh observer reports the element's state at once, then on every change.
    const observer = new IntersectionObserver((entries) => {
      const last = entries[entries.length - 1];
      if (last) setReport({ layout, visible: last.isIntersecting });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, layout]);
  return report !== null && report.layout === layout && report.visible;
}
