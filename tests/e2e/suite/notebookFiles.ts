// Notebook files the notebook and renderer tests start from: unexecuted code cells, and a
// notebook whose one cell holds a display_data output of a MindScope MIME type, as the kernel's
// magics leave it, opened in the workbench.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';

/** An unexecuted code cell of an .ipynb file. */
export function codeCell(source: string): Record<string, unknown> {
  return { cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source };
}

export interface OutputCell {
  /** The cell id and the notebook's file name. */
  id: string;
  source: string;
  mime: string;
  data: unknown;
  /** The text/plain fallback. */
  text: string;
}

export async function showOutputNotebook(o: OutputCell): Promise<vscode.NotebookDocument> {
  const output = {
    output_type: 'display_data',
    metadata: {},
    data: { [o.mime]: o.data, 'text/plain': [o.text] },
  };
  const cell = { cell_type: 'code', execution_count: 1, id: o.id, metadata: {}, source: [o.source], outputs: [output] }; // prettier-ignore
  const ipynb = { nbformat: 4, nbformat_minor: 5, metadata: { language_info: { name: 'python' } }, cells: [cell] }; // prettier-ignore
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ms-nb-')), `${o.id}.ipynb`);
  fs.writeFileSync(file, JSON.stringify(ipynb));
  const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
  await vscode.window.showNotebookDocument(notebook);
  return notebook;
}
