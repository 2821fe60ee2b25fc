// A large graph document travels host → view as its JSON text in parts: one ~90 MB message
// (a 50k-op graph) closes the page, while parts of a few MB each arrive and are joined once.
// Both sides import this file (pure: no vscode, no DOM).
import type { GraphDocument } from './graphDocument';
import type { PanelState, ToGraphView } from './messages';

/** Characters per part; documents at most this long go as one `load` message. */
export const PART_CHARS = 8 * 1024 * 1024;

/** The messages that carry `doc` to the graph view: one `load`, or `loadPart`s in order. */
export function documentMessages(
  doc: GraphDocument,
  title: string,
  state?: PanelState,
  partChars = PART_CHARS,
): ToGraphView[] {
  const text = JSON.stringify(doc);
  if (text.length <= partChars) return [{ type: 'load', doc, title, state }];
  const count = Math.ceil(text.length / partChars);
  const parts: ToGraphView[] = [];
  for (let index = 0; index < count; index++) {
    const part = text.slice(index * partChars, (index + 1) * partChars);
    parts.push({ type: 'loadPart', index, count, text: part, title, state });
  }
  return parts;
}

type Part = Extract<ToGraphView, { type: 'loadPart' }>;

/** Joins `loadPart`s back into the document; a part out of order starts over. */
export class PartAssembler {
  private texts: string[] = [];

  /** The document once the last part is in, else undefined. */
  add(part: Part): GraphDocument | undefined {
    if (part.index === 0) this.texts = [];
    if (part.index !== this.texts.length) {
      this.texts = [];
      throw new Error(`graph document part ${part.index + 1} of ${part.count} came out of order`);
    }
    this.texts.push(part.text);
    if (this.texts.length < part.count) return undefined;
    const text = this.texts.join('');
    this.texts = [];
    return JSON.parse(text) as GraphDocument;
  }
}
