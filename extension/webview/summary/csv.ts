// Scalars as CSV (the export): the same columns as `summary --format csv`. Pure.
import type { SummaryRun } from '../../src/contracts/summaryDocument';

function cell(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function scalarsCsv(runs: readonly SummaryRun[], tags?: ReadonlySet<string>): string {
  const rows = ['run,tag,step,wall_time,value'];
  for (const run of runs) {
    for (const s of run.scalars) {
      if (tags && !tags.has(s.tag)) continue;
      s.steps.forEach((step, i) => {
        const v = s.values[i];
        rows.push([cell(run.name), cell(s.tag), String(step), String(s.wallTimes[i] ?? ''),
          v === null || v === undefined ? '' : String(v)].join(',')); // prettier-ignore
      });
    }
  }
  return rows.join('\n') + '\n';
}
