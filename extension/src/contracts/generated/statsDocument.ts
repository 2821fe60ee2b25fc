// Generated from schemas/stats-document.schema.json by scripts/gen-contracts.mjs: do not edit.
// Change the schema and run `npm run gen:contracts`.

export type Shape = number[] | null;
export type NullableNumber = number | null;

/**
 * Tensor statistics of one forward and backward step (PyNative, mindspore.value_and_grad): every Cell output and every trainable parameter's gradient, with flags for NaN/Inf, vanishing and exploding gradients and dead ReLUs. Statistics are over the finite values; a statistic with no finite value is null.
 */
export interface StatsDocument {
  kind: 'mindscope.stats';
  version: 1;
  meta: StatsMeta;
  inputs: {
    name: string;
    stats: TensorStats;
  }[];
  /**
   * One entry per Cell call and output tensor, in the order the Cells returned (children before parents).
   */
  outputs: {
    order: number;
    /**
     * attribute path, '' for the root Cell
     */
    cell: string;
    /**
     * Default/block-Block/conv-Conv2d, as in the graph document
     */
    scope: string;
    cellType: string;
    /**
     * 0 for the first call of a shared Cell, 1 for the next…
     */
    call: number;
    /**
     * position among the output's tensors (tuples are flattened)
     */
    index: number;
    stats: TensorStats;
    /**
     * NaN+Inf values in the Cell's tensor inputs
     */
    inputNonFinite: number;
    /**
     * ReLU/ReLU6 only: share of units (axis 1) that are 0 for the whole batch
     */
    deadUnitFraction?: number | null;
  }[];
  gradients: {
    /**
     * block.conv.weight
     */
    parameter: string;
    /**
     * the owning Cell's scope
     */
    scope: string | null;
    stats: TensorStats;
  }[];
  /**
   * Most severe first.
   */
  flags: {
    /**
     * constant-loss: the default loss (sum of outputs) gave every gradient exactly 0, one flag instead of one vanishing-gradient per weight
     */
    kind:
      | 'non-finite'
      | 'non-finite-loss'
      | 'non-finite-gradient'
      | 'vanishing-gradient'
      | 'exploding-gradient'
      | 'dead-relu'
      | 'constant-loss';
    severity: 'error' | 'warning';
    subject: 'input' | 'output' | 'gradient' | 'loss';
    /**
     * a parameter name, a Cell attribute path, an input name or `loss`
     */
    name: string;
    scope: string;
    /**
     * the measured value the rule compared
     */
    value: number | null;
    threshold: number | null;
    /**
     * the rule that raised the flag, in words
     */
    rule: string;
    message: string;
  }[];
  /**
   * Where NaN/Inf first appear, or null. where: `input` (a model input), `inside` (the Cell made them from finite inputs) or `before` (its inputs already held them: the parent's own code made them, after the Cell named in `after`).
   */
  firstNonFinite: {
    subject: 'input' | 'output';
    where: 'input' | 'inside' | 'before';
    cell: string | null;
    scope: string | null;
    cellType: string | null;
    name: string;
    order: number | null;
    after: string | null;
    nanCount: number;
    infCount: number;
  } | null;
}
export interface StatsMeta {
  mindsporeVersion: string;
  mode: 'PYNATIVE_MODE';
  syntaxLevel?: string;
  device: string;
  target: string;
  rootCell: string;
  inputs: InputDescription[];
  /**
   * the Cell was in training mode (set_train)
   */
  train: boolean;
  loss: {
    /**
     * `sum` (sum of the floating-point outputs) or `file.py:function`
     */
    name: string;
    /**
     * null when NaN or Inf
     */
    value: number | null;
  };
  stepSeconds?: number;
  createdAt?: string;
  thresholds: {
    vanishingRms: number;
    vanishingRatio: number;
    explodingRms: number;
    explodingRatio: number;
    deadUnitFraction: number;
  };
  counts: {
    outputs: number;
    cells: number;
    gradients: number;
    flags: number;
    errors: number;
    warnings: number;
  };
}
export interface InputDescription {
  shape: Shape;
  dtype: string;
}
export interface TensorStats {
  shape: number[];
  dtype: string;
  size: number;
  mean: NullableNumber;
  std: NullableNumber;
  min: NullableNumber;
  max: NullableNumber;
  rms: NullableNumber;
  l2Norm: NullableNumber;
  absMax: NullableNumber;
  zeroFraction: number;
  nanCount: number;
  infCount: number;
  finiteCount: number;
  /**
   * 16 equal bins over [min, max] of the finite values: len(edges) = len(counts) + 1; one bin when min = max; empty when no finite value.
   */
  histogram: {
    edges: number[];
    counts: number[];
  };
}
