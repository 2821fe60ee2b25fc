// Messages between the extension host and its webviews: discriminated unions on `type`.
// Both sides import this file; it holds types only.
import type { GraphDocument } from './graphDocument';
import type { ProfileDocument } from './profileDocument';

export interface SourceTarget {
  file: string;
  line: number;
  column?: number | null;
}

/** Host → graph view. */
export type ToGraphView =
  | { type: 'load'; doc: GraphDocument; title: string; state?: PanelState }
  /** A large document's JSON text, in order (documentParts.ts). */
  | {
      type: 'loadPart';
      index: number;
      count: number;
      text: string;
      title: string;
      state?: PanelState;
    }
  | { type: 'reveal'; fullName: string };

/** Graph view → host. */
export type FromGraphView =
  | { type: 'ready' }
  | { type: 'openSource'; target: SourceTarget }
  | { type: 'rendered'; visibleNodes: number; layoutMs: number };

/** Host → profile view. */
export interface ToProfileView {
  type: 'load';
  doc: ProfileDocument;
  title: string;
  state?: PanelState;
}

/** Profile view → host. */
export type FromProfileView =
  | { type: 'ready' }
  | { type: 'exportTrace' }
  | { type: 'revealOp'; fullName: string; scope: string };

/** What a panel keeps with `setState` so that a reload can restore it. */
export interface PanelState {
  /** The document file on disk, reread on revive. */
  file?: string;
  title?: string;
}
