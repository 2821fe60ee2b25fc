// Entry of the export report webview panel.
import type { FromExportView, ToExportView } from '../../src/contracts/exportReport';
import '../styles/base.css';
import '../styles/export.css';
import { bootWebview, showDocumentTitle } from '../common/boot';
import { ExportView } from './app';

bootWebview<FromExportView>((message: ToExportView, { api, root }) => {
  showDocumentTitle(api, message.title, message.state);
  new ExportView(root, message.doc, {
    reveal: (artefact) => api.postMessage({ type: 'reveal', artefact }),
    openGraph: (artefact) => api.postMessage({ type: 'openGraph', artefact }),
    openSnippet: (artefact) => api.postMessage({ type: 'openSnippet', artefact }),
  });
});
