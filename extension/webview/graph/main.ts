// Entry of the graph webview (panel and .mindir editor): receives the document, draws it.
import type { FromGraphView, ToGraphView } from '../../src/contracts/messages';
import '../styles/base.css';
import '../styles/graph.css';
import { vscodeApi } from '../common/vscodeApi';
import { GraphView } from './app';
import { displayText } from '../common/bidi';

const api = vscodeApi<FromGraphView>();
const root = document.getElementById('root') ?? document.body;
let view: GraphView | undefined;

window.addEventListener('message', (event: MessageEvent<ToGraphView>) => {
  const message = event.data;
  switch (message.type) {
    case 'load':
      document.title = displayText(message.title);
      if (message.state) api.setState(message.state);
      view = new GraphView(root, message.doc, {
        openSource: (target) => api.postMessage({ type: 'openSource', target }),
        rendered: (info) => api.postMessage({ type: 'rendered', ...info }),
        layout: root.dataset.layout === 'whole' ? 'whole' : 'levels',
      });
      void view.render();
      break;
    case 'reveal':
      void view?.reveal(message.fullName);
      break;
  }
});

api.postMessage({ type: 'ready' });
