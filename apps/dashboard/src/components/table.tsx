import type { ComponentChildren } from 'preact';

/** A table that scrolls sideways on a narrow screen; focusable so a keyboard can scroll it too. */
export function TableRegion({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-region" role="region" aria-label={label} tabIndex={0}>
      <table>{children}</table>
    </div>
  );
}

/** A figure with its label: one number a reader came for. */
export function Stat({ label, value, note }: { label: string; value: ComponentChildren; note?: ComponentChildren }) {
  return (
    <div class="stat">
      <dt>{label}</dt>
      <dd>
        <span class="stat-value">{value}</span>
        {note ? <span class="stat-note">{note}</span> : null}
      </dd>
    </div>
  );
}

/** Labelled counts as horizontal bars with their share of the total. */
export function BarList({ label, items }: { label: string; items: { label: string; value: number; display: string; share: string; tone?: string }[] }) {
  const max = Math.max(1, ...items.map((i) => i.value));
  return (
    <ul class="bar-list" aria-label={label}>
      {items.map((item) => (
        <li key={item.label}>
          <span class="bar-label">{item.label}</span>
          <span class="bar-track" aria-hidden="true">
            <span class={`bar-fill ${item.tone ?? ''}`} style={{ width: `${(item.value / max) * 100}%` }} />
          </span>
          <span class="bar-value">
            {item.display} <span class="bar-share">({item.share})</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
