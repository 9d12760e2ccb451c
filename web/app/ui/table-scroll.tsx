import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

interface Overflow {
  /** The table is wider than its box. */
  scrolls: boolean;
  /** Columns are hidden to the right of what is shown. */
  more: boolean;
}

/**
 * A box that scrolls a wide table sideways and says so: while the table does
 * not fit, a hint above it tells that it scrolls, the right edge fades while
 * columns are hidden there, and the box takes keyboard focus so the arrow
 * keys scroll it.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState<Overflow>({ scrolls: false, more: false });

  const measure = useCallback(() => {
    const element = box.current;
    if (!element) return;
    const scrolls = element.scrollWidth > element.clientWidth + 1;
    const more = scrolls && element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
    setOverflow((current) => (current.scrolls === scrolls && current.more === more ? current : { scrolls, more }));
  }, []);

  // After every render (the rows may have changed) and whenever the window's width or the scroll position changes.
  useLayoutEffect(measure);
  useEffect(() => {
    const element = box.current;
    window.addEventListener('resize', measure);
    element?.addEventListener('scroll', measure, { passive: true });
    return () => {
      window.removeEventListener('resize', measure);
      element?.removeEventListener('scroll', measure);
    };
  }, [measure]);

  return (
    <>
      {overflow.scrolls && (
        <p className="scroll-hint">
          Scroll sideways to see every column <span aria-hidden="true">→</span>
        </p>
      )}
      <div className={overflow.more ? 'table-scroll-frame table-scroll-more' : 'table-scroll-frame'}>
        <div
          ref={box}
          className="table-scroll"
          {...(overflow.scrolls ? { tabIndex: 0, role: 'region', 'aria-label': `${label} (scrolls sideways)` } : {})}
        >
          {children}
        </div>
      </div>
    </>
  );
}
