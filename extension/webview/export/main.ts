// Entry of the export report webview panel.
import type { FromExportView, ToExportView } from '../../src/contracts/exportReport';
import '../styles/base.css';
import '../styles/export.css';
import { displayText } from '../common/bidi';
import { vscodeApi } from '../common/vscodeApi';
import { ExportView } from './app';

const api = vscodeApi<FromExportView>();
const root = document.getElementById('root') ?? document.body;

window.addEventListener('message', (event: MessageEvent<ToExportView>) => {
  const message = event.data;
  document.title = displayText(message.title);
  if (message.state) api.setState(message.state);
  new ExportView(root, message.doc, {
    reveal: (artefact) => api.postMessage({ type: 'reveal', artefact }),
    openGraph: (artefact) => api.postMessage({ type: 'openGraph', artefact }),
    openSnippet: (artefact) => api.postMessage({ type: 'openSnippet', artefact }),
  });
});

api.postMessage({ type: 'ready' });
