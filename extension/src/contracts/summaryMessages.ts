// Messages between the extension host and the summary dashboard webview (types only).
import type { SummaryDocument } from './summaryDocument';

export interface SummaryPanelState {
  /** The folder whose runs the panel follows; re-followed on revive. */
  root: string;
  title: string;
  /** Runs to show (all when absent). */
  runs?: string[];
}

/** Host → dashboard. */
export type ToSummaryView =
  | { type: 'load'; doc: SummaryDocument; state: SummaryPanelState }
  | { type: 'append'; doc: SummaryDocument }
  | { type: 'status'; text: string; live: boolean };

/** Dashboard → host. */
export type FromSummaryView =
  | { type: 'ready' }
  | { type: 'export'; name: string; format: 'png' | 'svg' | 'csv'; data: string }
  | { type: 'openGraph'; run: string };
