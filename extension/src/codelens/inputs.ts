// Which inputs to run a Cell on: the shapes remembered for its class, else the file's
// make_inputs(), else ask once and remember (workspaceState).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InputSource } from '../runtime/cli';
import { findInputsFunction } from './cellClasses';
import { parseInputSpecs, validateInputSpecs } from './inputSpec';

const KEY = 'mindscope.inputs';

type Remembered = Record<string, string[]>;

function key(file: string, className: string): string {
  return `${vscode.workspace.asRelativePath(file)}:${className}`;
}

export class InputChooser {
  constructor(private readonly state: vscode.Memento) {}

  remembered(file: string, className: string): string[] | undefined {
    return this.state.get<Remembered>(KEY, {})[key(file, className)];
  }

  async remember(file: string, className: string, specs: string[]): Promise<void> {
    const all = { ...this.state.get<Remembered>(KEY, {}), [key(file, className)]: specs };
    await this.state.update(KEY, all);
  }

  /** undefined: the user dismissed the question. */
  async choose(document: vscode.TextDocument, className: string): Promise<InputSource | undefined> {
    const file = document.uri.fsPath;
    const specs = this.remembered(file, className);
    if (specs) return { kind: 'shapes', specs };
    const fn = findInputsFunction(document.getText());
    if (fn) return { kind: 'function', file, name: fn };
    return this.ask(file, className);
  }

  async ask(file: string, className: string): Promise<InputSource | undefined> {
    const previous = this.remembered(file, className);
    const text = await vscode.window.showInputBox({
      title: `MindScope: inputs of ${className} (${path.basename(file)})`,
      prompt:
        'Shape and dtype of each input of construct(), e.g. 2,3,32,32:float32; remembered for this class.',
      value: previous?.join('; ') ?? '1,3,32,32:float32',
      validateInput: validateInputSpecs,
      ignoreFocusOut: true,
    });
    const parsed = text === undefined ? undefined : parseInputSpecs(text);
    if (!parsed) return undefined;
    await this.remember(file, className, parsed);
    return { kind: 'shapes', specs: parsed };
  }
}
