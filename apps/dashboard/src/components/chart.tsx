import { useEffect, useRef } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: number[];
  /** A CSS custom property holding the colour, so dark and light each get theirs. */
  colorVar: string;
}

interface ChartProps {
  /** Names the figure for screen readers and heads the data table. */
  caption: string;
  /** x positions: Unix seconds when `time`, otherwise plain numbers. */
  x: number[];
  time: boolean;
  xLabel: string;
  series: ChartSeries[];
  bars?: boolean;
  /** The same numbers as a table, for readers who cannot see the canvas (and to copy from). */
  table: ComponentChildren;
}

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || 'currentColor';
}

function options(props: ChartProps, width: number): uPlot.Options {
  const axisColor = cssVar('--text-muted');
  const gridColor = cssVar('--grid');
  const axis = { stroke: axisColor, grid: { stroke: gridColor, width: 1 }, ticks: { stroke: gridColor, width: 1 } };
  return {
    width,
    height: 240,
    // Days are UTC calendar days: shown as such, never shifted into the reader's zone.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: { x: { time: props.time } },
    axes: [{ ...axis, label: props.xLabel }, { ...axis }],
    // Not live: the legend names each series from the start (a live one shows "--" values until hovered).
    legend: { show: props.series.length > 1, live: false },
    cursor: { drag: { x: false, y: false } },
    series: [
      { label: props.xLabel },
      ...props.series.map((s) => ({
        label: s.label,
        stroke: cssVar(s.colorVar),
        width: 2,
        ...(props.bars ? { fill: cssVar(s.colorVar), paths: uPlot.paths.bars!({ size: [0.7, 40] }) } : {}),
      })),
    ],
  };
}

/** A uPlot chart (canvas) with its data table underneath. */
export function Chart(props: ChartProps) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const data: uPlot.AlignedData = [props.x, ...props.series.map((s) => s.values)];
    let plot = new uPlot(options(props, element.clientWidth || 600), data, element);
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth || 600, height: 240 }));
    resize.observe(element);
    // Colours come from CSS variables: a theme switch rebuilds the chart with the new ones.
    const scheme = matchMedia('(prefers-color-scheme: dark)');
    const rebuild = () => {
      plot.destroy();
      plot = new uPlot(options(props, element.clientWidth || 600), data, element);
    };
    scheme.addEventListener('change', rebuild);
    return () => {
      scheme.removeEventListener('change', rebuild);
      resize.disconnect();
      plot.destroy();
    };
  }, [props.x, props.series, props.time, props.bars]);

  return (
    <figure class="chart">
      <figcaption>{props.caption}</figcaption>
      <div ref={holder} class="chart-canvas" aria-hidden="true" />
      <details>
        <summary>Show the numbers</summary>
        {props.table}
      </details>
    </figure>
  );
}
