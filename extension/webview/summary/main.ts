// Entry of the summary dashboard webview panel.
import type { FromSummaryView, ToSummaryView } from '../../src/contracts/summaryMessages';
import '../styles/base.css';
import '../styles/summary.css';
import { bootWebview, showDocumentTitle } from '../common/boot';
import { SummaryView } from './app';

let view: SummaryView | undefined;

bootWebview<FromSummaryView>((message: ToSummaryView, { api, root }) => {
  if (message.type === 'load') {
    const { root: folder, title } = message.state;
    showDocumentTitle(api, title, { file: folder, title });
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
