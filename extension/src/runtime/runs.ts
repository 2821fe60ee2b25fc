// Where run outputs go (the extension's workspace storage) and the list of recent runs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

export type RunKind = 'graph' | 'profile' | 'stats' | 'mindir' | 'onnx';

export interface RunRecord {
  kind: RunKind;
  target: string;
  file: string;
  at: number;
  summary?: Record<string, unknown>;
}

const KEY = 'mindscope.runs';
const KEEP = 20;

export class RunStore {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
  ) {}

  outputFile(kind: RunKind, name: string): string {
    const base = this.context.storageUri ?? this.context.globalStorageUri;
    const dir = path.join(base.fsPath, 'runs');
    fs.mkdirSync(dir, { recursive: true });
    const safe = name.replace(/[^\w.-]+/g, '_').slice(0, 60);
    return path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safe}.${kind}.json`);
  }

  list(): RunRecord[] {
    return this.context.workspaceState
      .get<RunRecord[]>(KEY, [])
      .filter((r) => fs.existsSync(r.file));
  }

  async add(record: RunRecord): Promise<void> {
    const runs = [record, ...this.list().filter((r) => r.file !== record.file)].slice(0, KEEP);
    await this.context.workspaceState.update(KEY, runs);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
