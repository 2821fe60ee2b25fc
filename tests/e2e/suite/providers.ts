// What VS Code's language providers answer at a position, read the way the workbench reads it:
// shared by the tests of Python files and of notebook cells.
import * as vscode from 'vscode';

/** Completions at `at`; the first `resolve` items also go through completionItem/resolve,
 * as VS Code does for the focused item (detail and documentation arrive that way). */
export async function completions(
  doc: vscode.TextDocument,
  at: vscode.Position,
  resolve = 0,
): Promise<vscode.CompletionItem[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>(
    'vscode.executeCompletionItemProvider',
    doc.uri,
    at,
    '.',
    resolve,
  );
  return list.items;
}

export function label(item: vscode.CompletionItem): string {
  return typeof item.label === 'string' ? item.label : item.label.label;
}

/** A completion item's documentation as text ('' when it has none). */
export function docText(item: vscode.CompletionItem | undefined): string {
  const docs = item?.documentation;
  return typeof docs === 'string' ? docs : (docs?.value ?? '');
}

/** The text of every hover at `at`, joined. */
export async function hoverText(doc: vscode.TextDocument, at: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
    'vscode.executeHoverProvider',
    doc.uri,
    at,
  );
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (c instanceof vscode.MarkdownString ? c.value : JSON.stringify(c)))
    .join('\n');
}
