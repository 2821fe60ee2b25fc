// The documented subset of VS Code's notebook renderer API that MindScope's renderer uses,
// exactly as `@types/vscode-notebook-renderer` declares it (that package is not installed
// here): https://github.com/DefinitelyTyped/DefinitelyTyped/blob/master/types/vscode-notebook-renderer/index.d.ts
// and https://code.visualstudio.com/api/extension-guides/notebook#notebook-renderer

/** One output of one MIME type. */
export interface OutputItem {
  /** Unique per output; `disposeOutputItem` receives it. */
  readonly id: string;
  readonly mime: string;
  readonly metadata: unknown;
  text(): string;
  json(): unknown;
  data(): Uint8Array;
  blob(): Blob;
}

export interface Disposable {
  dispose(): void;
}

export interface RendererContext<TState> {
  getState(): TState | undefined;
  setState(newState: TState): void;
  getRenderer(rendererId: string): Promise<RendererApi | undefined>;
  readonly workspace: { readonly isTrusted: boolean };
  readonly settings: { readonly lineLimit: number };
  /** Present when the renderer declares `requiresMessaging` in package.json. */
  postMessage?(message: unknown): void;
  onDidReceiveMessage?(listener: (e: unknown) => unknown): Disposable;
}

export interface RendererApi {
  renderOutputItem(
    outputItem: OutputItem,
    element: HTMLElement,
    signal: AbortSignal,
  ): void | Promise<void>;
  /** One output removed (`id`), or all of them (no `id`). */
  disposeOutputItem?(id?: string): void;
}

export type ActivationFunction<TState = unknown> = (
  context: RendererContext<TState>,
) => RendererApi | Promise<RendererApi>;
