import { useEffect, useRef } from 'react';
import { Box } from '@chakra-ui/react';

/** Calls `onVisible` whenever the end of the list scrolls into view (infinite scroll). */
export function ScrollSentinel({ onVisible, disabled }: { onVisible(): void; disabled: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;
  useEffect(() => {
    const element = ref.current;
    if (!element || disabled) return;
    // Starts loading a little before the end is reached.
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && callback.current(), {
      rootMargin: '0px 0px 400px 0px',
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [disabled]);
  return <Box ref={ref} h="1px" aria-hidden="true" data-testid="scroll-sentinel" />;
}
