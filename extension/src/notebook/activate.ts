// Wires the notebook side: the controller, its kernels, the status item and the restart command.
import * as vscode from 'vscode';
import { MindScopeController, type MindScopeNotebooks } from './controller';
import { KernelRegistry } from './kernelRegistry';
import { KernelStatusItem } from './kernelStatus';

/** The notebook URI a toolbar/palette invocation refers to (the active notebook by default). */
function targetNotebook(arg: unknown): vscode.NotebookDocument | undefined {
  const uri = (arg as { notebookEditor?: { notebookUri?: vscode.Uri } } | undefined)?.notebookEditor
    ?.notebookUri;
  if (uri)
    return vscode.workspace.notebookDocuments.find((nb) => nb.uri.toString() === uri.toString());
  return vscode.window.activeNotebookEditor?.notebook;
}

export function activateNotebooks(context: vscode.ExtensionContext): MindScopeNotebooks {
  const kernels = new KernelRegistry(context.extensionPath);
  const controller = new MindScopeController(kernels);
  const status = new KernelStatusItem(
    kernels,
    (nb) => controller.isSelected(nb),
    controller.onDidChangeSelection,
  );
  context.subscriptions.push(
    controller,
    status,
    vscode.commands.registerCommand('mindscope.restartKernel', async (arg: unknown) => {
      const notebook = targetNotebook(arg);
      if (!notebook) {
        void vscode.window.showInformationMessage(
          'MindScope: open a notebook to restart its kernel.',
        );
        return;
      }
      await controller.restart(notebook);
    }),
  );
  // Last: the registry's dispose shuts every kernel down when the extension deactivates.
  context.subscriptions.push(kernels);
  return controller;
}
