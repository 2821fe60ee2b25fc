// Entry of the graph webview (panel and .mindir editor): receives the document, draws it.
import { PartAssembler } from '../../src/contracts/documentParts';
import type { GraphDocument } from '../../src/contracts/graphDocument';
import type { FromGraphView, PanelState, ToGraphView } from '../../src/contracts/messages';
import '../styles/base.css';
import '../styles/graph.css';
import { vscodeApi } from '../common/vscodeApi';
import { GraphView } from './app';
import { startElkWorker } from './layout/elkWorker';
import { displayText } from '../common/bidi';

const api = vscodeApi<FromGraphView>();
const root = document.getElementById('root') ?? document.body;
let view: GraphView | undefined;
const parts = new PartAssembler();

function show(doc: GraphDocument, title: string, state: PanelState | undefined): void {
  document.title = displayText(title);
  if (state) api.setState(state);
  view = new GraphView(root, doc, {
    openSource: (target) => api.postMessage({ type: 'openSource', target }),
    rendered: (info) => api.postMessage({ type: 'rendered', ...info }),
    layout: root.dataset.layout === 'whole' ? 'whole' : 'levels',
    ...(root.dataset.busyAfterMs ? { busyAfterMs: Number(root.dataset.busyAfterMs) } : {}),
  });
  void view.render();
}

window.addEventListener('message', (event: MessageEvent<ToGraphView>) => {
  const message = event.data;
  switch (message.type) {
    case 'load':
      show(message.doc, message.title, message.state);
      break;
    case 'loadPart':
      try {
        const start = performance.now();
        const doc = parts.add(message);
        // For bench/: joining and parsing a large document is part of its load.
        performance.measure('mindscope:graph-parse', { start });
        if (doc) show(doc, message.title, message.state);
      } catch (e) {
        root.textContent = `MindScope: cannot read the graph document: ${String(e)}`;
      }
      break;
    case 'reveal':
      void view?.reveal(message.fullName);
      break;
  }
});

startElkWorker();
api.postMessage({ type: 'ready' });
