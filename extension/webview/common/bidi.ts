// Bidirectional-text controls in a model's strings (op names, metadata, file paths) would
// reorder what the user reads: a U+202E reverses the rest of a header, so a name can pass for
// another (spoofing; nothing runs). Every displayed string goes through displayText: dom.ts does
// it for text and the attributes people read; canvas and document titles call it directly.

// Embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069, the marks LRM, RLM and ALM.
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** `text` without bidi controls; everything else, letters of any script included, is kept. */
export function displayText(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
