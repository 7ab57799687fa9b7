import { useEffect, useRef } from 'preact/hooks';

/**
 * The page's h1. On a client-side navigation focus moves to it, so a screen reader announces the
 * new page and the keyboard starts from its top; the document title follows.
 */
export function PageHeading({ title, focusOnMount = true }: { title: string; focusOnMount?: boolean }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Vigil`;
    if (focusOnMount && document.body.dataset.navigated === 'true') ref.current?.focus();
  }, [title, focusOnMount]);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {title}
    </h1>
  );
}
