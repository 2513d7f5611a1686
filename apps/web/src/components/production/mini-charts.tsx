// Two tiny charts drawn in SVG, no library: a line of values (latency over time) and bars (generations
// per bucket). Each is an image with a name that says what it shows, followed by its figures bucket by
// bucket in a list hidden from view, for those who cannot see the chart.

const WIDTH = 120;
const HEIGHT = 32;
const PAD = 2;

/** The chart's figures, one text per bucket ("Dec 3, 2026 (UTC): 40 generations, 6 errors"), heard and not seen. */
export interface ChartData {
  label: string;
  items: string[];
}

function HiddenData({ data }: { data: ChartData }) {
  if (data.items.length === 0) return null;
  return (
    <ul className="sr-only" aria-label={data.label}>
      {data.items.map((item, i) => (
        <li key={i}>{item}</li>
      ))}
    </ul>
  );
}

/** A line through the values (nulls are gaps), scaled to its own range. */
export function Sparkline({ values, label, data, className }: { values: (number | null)[]; label: string; data: ChartData; className?: string }) {
  return (
    <>
      <SparklineImage values={values} label={label} className={className} />
      <HiddenData data={data} />
    </>
  );
}

function SparklineImage({ values, label, className }: { values: (number | null)[]; label: string; className?: string }) {
  const known = values.filter((value): value is number => value !== null);
  if (known.length === 0) return <span className="text-xs text-muted-foreground">–</span>;
  const max = Math.max(...known);
  const min = Math.min(...known);
  const x = (i: number) => (values.length === 1 ? WIDTH / 2 : PAD + (i * (WIDTH - 2 * PAD)) / (values.length - 1));
  const y = (value: number) => (max === min ? HEIGHT / 2 : HEIGHT - PAD - ((value - min) * (HEIGHT - 2 * PAD)) / (max - min));
  // One path with a move at each gap.
  let path = "";
  let drawing = false;
  values.forEach((value, i) => {
    if (value === null) {
      drawing = false;
      return;
    }
    path += `${drawing ? "L" : "M"}${x(i).toFixed(1)},${y(value).toFixed(1)} `;
    drawing = true;
  });
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className={className ?? "h-8 w-28"} preserveAspectRatio="none">
      <path d={path} fill="none" stroke="currentColor" strokeWidth={1.5} vectorEffect="non-scaling-stroke" className="text-primary" />
      {/* A value with gaps on both sides draws no line: a dot shows it. */}
      {values.map((value, i) => value !== null && (values[i - 1] ?? null) === null && (values[i + 1] ?? null) === null && <circle key={i} cx={x(i)} cy={y(value)} r={2} className="fill-primary" />)}
    </svg>
  );
}

/** Bars from zero, one per value, and a second, darker part of each (errors within generations). */
export function MiniBars({ values, marked, label, data, className }: { values: number[]; marked?: number[]; label: string; data: ChartData; className?: string }) {
  return (
    <>
      <MiniBarsImage values={values} marked={marked} label={label} className={className} />
      <HiddenData data={data} />
    </>
  );
}

function MiniBarsImage({ values, marked, label, className }: { values: number[]; marked?: number[]; label: string; className?: string }) {
  if (values.length === 0) return <span className="text-xs text-muted-foreground">–</span>;
  const max = Math.max(1, ...values);
  const slot = (WIDTH - 2 * PAD) / values.length;
  const bar = Math.max(1, slot * 0.8);
  const height = (value: number) => (value / max) * (HEIGHT - 2 * PAD);
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className={className ?? "h-8 w-28"} preserveAspectRatio="none">
      {values.map((value, i) => {
        const left = PAD + i * slot + (slot - bar) / 2;
        const part = marked?.[i] ?? 0;
        return (
          <g key={i}>
            <rect x={left} y={HEIGHT - PAD - height(value)} width={bar} height={height(value)} className="fill-primary/60" />
            {part > 0 && <rect x={left} y={HEIGHT - PAD - height(part)} width={bar} height={height(part)} className="fill-destructive" />}
          </g>
        );
      })}
    </svg>
  );
}
