// Applies a `--follow` update (meta.incremental) to the document held by the dashboard or the
// side panel's Training runs. Pure.
import type { SummaryDocument, SummaryRun, Tagged } from '../contracts/summaryDocument';

function mergeTagged<T>(into: Tagged<T>[], add: Tagged<T>[]): void {
  for (const item of add) {
    const found = into.find((t) => t.tag === item.tag);
    if (found) found.samples.push(...item.samples);
    else into.push({ tag: item.tag, samples: item.samples.slice() });
  }
}

function mergeRun(into: SummaryRun, add: SummaryRun): void {
  for (const series of add.scalars) {
    const found = into.scalars.find((s) => s.tag === series.tag);
    if (!found) {
      into.scalars.push(series);
      continue;
    }
    found.steps.push(...series.steps);
    found.wallTimes.push(...series.wallTimes);
    found.values.push(...series.values);
  }
  mergeTagged(into.histograms, add.histograms);
  mergeTagged(into.images, add.images);
  mergeTagged(into.tensors, add.tensors);
  into.graphs.push(...add.graphs);
  into.files = add.files.length ? add.files : into.files;
  into.version = into.version ?? add.version;
  into.firstWallTime = into.firstWallTime ?? add.firstWallTime;
  into.lastWallTime = add.lastWallTime ?? into.lastWallTime;
}

/** `doc` with `update`'s values appended (in place); returns the tags that changed. */
export function mergeSummary(doc: SummaryDocument, update: SummaryDocument): Set<string> {
  const changed = new Set<string>();
  for (const run of update.runs) {
    for (const s of run.scalars) changed.add(s.tag);
    const found = doc.runs.find((r) => r.name === run.name);
    if (found) mergeRun(found, run);
    else doc.runs.push(run);
  }
  doc.runs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  doc.issues.push(...update.issues);
  return changed;
}
