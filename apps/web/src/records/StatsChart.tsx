import { useEffect, useRef } from 'react';
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import type { ColumnStats } from './types';

// Only the parts a bar chart needs, so the bundle stays small.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

/** A small bar chart of MIN, MEAN - STD, MEAN, MEAN + STD and MAX of one numeric column. */
export function StatsChart({ header, stats }: { header: string; stats: ColumnStats }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const { MIN, MAX, MEAN, STD } = stats;
    const labels = ['MIN', 'MEAN - STD', 'MEAN', 'MEAN + STD', 'MAX'];
    const mean = MEAN ?? 0;
    const std = STD ?? 0;
    const values = [MIN, MEAN === null ? null : mean - std, MEAN, MEAN === null ? null : mean + std, MAX];
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: { labels, datasets: [{ label: header, data: values, backgroundColor: ['#94a3b8', '#5eead4', '#0d9488', '#5eead4', '#94a3b8'] }] },
      options: { responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { display: false } } },
    });
    return () => chart.destroy();
  }, [header, stats]);
  return (
    <div style={{ position: 'relative', height: 160, width: '100%', maxWidth: 360 }}>
      <canvas ref={canvas} role="img" aria-label={`Statistics of ${header}`} />
    </div>
  );
}
