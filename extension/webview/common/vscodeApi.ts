// The one object a webview gets from VS Code: typed postMessage and state.
import type { PanelState } from '../../src/contracts/messages';

export interface WebviewApi<Out> {
  postMessage(message: Out): void;
  getState(): PanelState | undefined;
  setState(state: PanelState): void;
}

declare function acquireVsCodeApi(): {
  postMessage(message: unknown): void;
  getState(): PanelState | undefined;
  setState(state: unknown): void;
};

export function vscodeApi<Out>(): WebviewApi<Out> {
  const api = acquireVsCodeApi();
  return {
    postMessage: (m: Out) => api.postMessage(m),
    getState: () => api.getState(),
    setState: (s: PanelState) => api.setState(s),
  };
}
