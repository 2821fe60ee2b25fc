// What "Export…" exports: format and quantization, asked once per Cell class and remembered
// (workspaceState), like the input shapes. The CLI flags are pure and unit-tested.
import * as vscode from 'vscode';
import type { ExportFormat, ExportOptions, ExportQuantize } from './exportFlags';

const KEY = 'mindscope.exportOptions';
const FORMATS: { label: string; value: ExportFormat; detail: string }[] = [
  { label: 'MINDIR and ONNX', value: 'both', detail: 'verified in GraphCell and onnxruntime' },
  { label: 'MINDIR', value: 'MINDIR', detail: 'MindSpore / MindSpore Lite, verified in GraphCell' },
  { label: 'ONNX', value: 'ONNX', detail: 'verified in onnxruntime' },
];
const QUANTIZE: { label: string; value: ExportQuantize; detail: string }[] = [
  { label: 'No quantization', value: 'none', detail: 'float artefacts only' },
  {
    label: 'int8, dynamic',
    value: 'int8-dynamic',
    detail: 'weights int8; activations at run time',
  },
  {
    label: 'int8, static',
    value: 'int8-static',
    detail: 'calibrated on random batches of the inputs',
  },
];

type Remembered = Record<string, ExportOptions>;

export class ExportOptionsChooser {
  constructor(private readonly state: vscode.Memento) {}

  private key(file: string, className: string): string {
    return `${vscode.workspace.asRelativePath(file)}:${className}`;
  }

  remembered(file: string, className: string): ExportOptions | undefined {
    return this.state.get<Remembered>(KEY, {})[this.key(file, className)];
  }

  async remember(file: string, className: string, options: ExportOptions): Promise<void> {
    const all = { ...this.state.get<Remembered>(KEY, {}), [this.key(file, className)]: options };
    await this.state.update(KEY, all);
  }

  async choose(file: string, className: string): Promise<ExportOptions | undefined> {
    return this.remembered(file, className) ?? this.ask(file, className);
  }

  /** undefined: the user dismissed a question. */
  async ask(file: string, className: string): Promise<ExportOptions | undefined> {
    const title = `MindScope: export ${className}`;
    const format = await vscode.window.showQuickPick(FORMATS, {
      title: `${title}: format (remembered for this class)`,
      ignoreFocusOut: true,
    });
    if (!format) return undefined;
    const quantize = await vscode.window.showQuickPick(QUANTIZE, {
      title: `${title}: quantization of the ONNX model`,
      ignoreFocusOut: true,
    });
    if (!quantize) return undefined;
    const options = { format: format.value, quantize: quantize.value };
    await this.remember(file, className, options);
    return options;
  }
}
