// The start of every webview entry: one API object, the root element, the host's messages, and
// `ready` last, so the host never posts to a page that is not listening yet.
import type { PanelState } from '../../src/contracts/messages';
import { displayText } from './bidi';
import { vscodeApi, type WebviewApi } from './vscodeApi';

export interface Webview<Out> {
  api: WebviewApi<Out>;
  root: HTMLElement;
}

/** `receive` types its own message parameter (the host → view union). */
export function bootWebview<Out extends { type: string }>(
  receive: (message: never, view: Webview<Out>) => void,
): Webview<Out> {
  const view: Webview<Out> = {
    api: vscodeApi<Out>(),
    root: document.getElementById('root') ?? document.body,
  };
  window.addEventListener('message', (event: MessageEvent) => receive(event.data as never, view));
  view.api.postMessage({ type: 'ready' } as Out);
  return view;
}

/** What every document load does first: the tab's title, and the state a reload restores. */
export function showDocumentTitle(
  api: WebviewApi<unknown>,
  title: string,
  state: PanelState | undefined,
): void {
  document.title = displayText(title);
  if (state) api.setState(state);
}
