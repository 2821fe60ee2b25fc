// Summary document → the side panel's "Training runs" rows. Pure, unit-tested.
import type { TrainingRunItem } from '../contracts/sidebar';
import type { ScalarSeries, SummaryDocument } from '../contracts/summaryDocument';

export const SPARK_POINTS = 40;
/** Tags the side panel asks the runtime for: loss-like first, any scalar as a fallback. */
export const LOSS_TAG_GLOBS = ['*loss*', '*Loss*'];

export function mainTag(scalars: readonly ScalarSeries[]): ScalarSeries | undefined {
  return scalars.find((s) => /loss/i.test(s.tag)) ?? scalars[0];
}

export function trainingItems(doc: SummaryDocument): TrainingRunItem[] {
  return doc.runs.map((run) => {
    const series = mainTag(run.scalars);
    const values = series?.values ?? [];
    return {
      name: run.name,
      root: doc.meta.root,
      path: run.path,
      tag: series?.tag ?? null,
      latest: values.length ? (values[values.length - 1] ?? null) : null,
      points: values.length,
      spark: values.slice(-SPARK_POINTS),
    };
  });
}
