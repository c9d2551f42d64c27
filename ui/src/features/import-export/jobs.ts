// What the export and import sections of 'Import and export' share about background jobs: whether
// one is under way, and how their sizes and counts read.
import { useEffect, useRef } from 'react';
import type { JobState } from './api';

/** What each section of the panel is told about the other, and tells it. */
export interface JobSectionProps {
  blogId: number;
  /** A job of the other section is starting or under way: this one starts none meanwhile. */
  otherUnderWay: boolean;
  /** Called with true while a job of this section is starting or under way, and false after. */
  onUnderWay: (underWay: boolean) => void;
}

/** A job that is waiting or running: the blog takes no other export or import meanwhile. */
export const isUnderWay = (job: { state: JobState }) => job.state === 'queued' || job.state === 'running';

/** Bytes in a short form: 812 B, 4.2 KB, 13.0 MB. */
export function humanSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** A whole number with English digit grouping, like the rest of the app's text: 1,210. */
export const count = (n: number) => n.toLocaleString('en');

/** `n` things: 1 post, 9 posts. */
export const counted = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

/** False once the component has unmounted, so a call that ends later sets no state. */
export function useMounted() {
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}
