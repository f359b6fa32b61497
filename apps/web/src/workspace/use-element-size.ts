import { useCallback, useRef, useState } from 'react';

/**
 * An element's border-box width and height, kept up to date by a ResizeObserver: `[ref, size]`, with
 * size null until the element is mounted. The ref is a callback, so it measures before the first paint.
 */
export function useElementSize<T extends HTMLElement>(): [(element: T | null) => void, { width: number; height: number } | null] {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((element: T | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element) return;
    const measure = () => {
      const { width, height } = element.getBoundingClientRect();
      setSize((current) => (current && current.width === width && current.height === height ? current : { width, height }));
    };
    measure();
    observer.current = new ResizeObserver(measure);
    observer.current.observe(element);
  }, []);
  return [ref, size];
}
