// An IntersectionObserver the test drives (jsdom has none): the icon picker's grid asks for the next
// page when its bottom comes into view.
import { act } from '@testing-library/react';
import { vi } from 'vitest';

/** An IntersectionObserver whose entries the test reports with `show(true | false)`. */
export class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly elements = new Set<Element>();

  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeIntersectionObserver.instances.push(this);
  }

  observe(element: Element) {
    this.elements.add(element);
  }

  unobserve(element: Element) {
    this.elements.delete(element);
  }

  disconnect() {
    this.elements.clear();
  }

  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }

  /** Reports every observed element as in view (or not). */
  show(isIntersecting: boolean) {
    const entries = [...this.elements].map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry);
    if (entries.length > 0) act(() => this.callback(entries, this as unknown as IntersectionObserver));
  }

  /** Installs the fake for the current test. */
  static install() {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  }

  /** Reports the elements of every live observer as in view (or not). */
  static showAll(isIntersecting: boolean) {
    for (const observer of FakeIntersectionObserver.instances) observer.show(isIntersecting);
  }
}
