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
};

export type CellAction = 'mindscope.showGraph' | 'mindscope.profile' | 'mindscope.debugPyNative';

export type FromSidebar =
  | { type: 'ready' }
  | { type: 'openRun'; file: string; kind: RunItem['kind'] }
  | { type: 'cellAction'; command: CellAction };
