// Entry of the summary dashboard webview panel.
import type { FromSummaryView, ToSummaryView } from '../../src/contracts/summaryMessages';
import '../styles/base.css';
import '../styles/summary.css';
import { displayText } from '../common/bidi';
import { vscodeApi } from '../common/vscodeApi';
import { SummaryView } from './app';

const api = vscodeApi<FromSummaryView>();
const root = document.getElementById('root') ?? document.body;
let view: SummaryView | undefined;

window.addEventListener('message', (event: MessageEvent<ToSummaryView>) => {
  const message = event.data;
  if (message.type === 'load') {
    document.title = displayText(message.state.title);
    api.setState({ file: message.state.root, title: message.state.title });
    view = new SummaryView(root, message.doc, {
      exportFile: (name, format, data) => api.postMessage({ type: 'export', name, format, data }),
      openGraph: (run) => api.postMessage({ type: 'openGraph', run }),
    }, message.state.runs); // prettier-ignore
    (window as unknown as { mindscopeSummary?: SummaryView }).mindscopeSummary = view;
  } else if (message.type === 'append') {
    view?.append(message.doc);
  } else {
    view?.setStatus(message.text, message.live);
  }
});

api.postMessage({ type: 'ready' });
