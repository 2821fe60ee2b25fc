// Messages of the MindScope side panel (a webview view in the activity bar).

export interface RunItem {
  kind: 'graph' | 'profile' | 'stats' | 'mindir' | 'onnx';
  target: string;
  file: string;
  at: number;
}

export interface ProfileSummary {
  target: string;
  meanStepMs: number;
  opMsPerStep: number;
  mode: string;
  topTypes: { type: string; share: number; totalMs: number }[];
  topCells: { scope: string; share: number }[];
}

export interface CellUnderCursor {
  name: string;
  file: string;
}

export type ToSidebar = {
  type: 'update';
  runs: RunItem[];
  cell: CellUnderCursor | null;
  profile: ProfileSummary | null;
  trusted: boolean;
  training?: TrainingRuns;
};

export type CellAction = 'mindscope.showGraph' | 'mindscope.profile' | 'mindscope.debugPyNative';

export type FromSidebar =
  | { type: 'ready' }
  | { type: 'openRun'; file: string; kind: RunItem['kind'] }
  | { type: 'cellAction'; command: CellAction }
  | { type: 'openTraining'; root: string; runs: string[] };

/** A summary run of the workspace (the "Training runs" section). */
export interface TrainingRunItem {
  /** The run's folder relative to `root`, as the dashboard names it. */
  name: string;
  root: string;
  path: string;
  /** The main loss tag (the first tag with "loss" in it, else the first scalar). */
  tag: string | null;
  latest: number | null;
  points: number;
  /** The last values of `tag`, for the sparkline (null: NaN/Inf). */
  spark: (number | null)[];
}

export interface TrainingRuns {
  items: TrainingRunItem[];
  reading: boolean;
  error?: string;
}
