// Entry of the profile webview panel.
import type { FromProfileView, ToProfileView } from '../../src/contracts/messages';
import '../styles/base.css';
import '../styles/profile.css';
import { bootWebview, showDocumentTitle } from '../common/boot';
import { ProfileView } from './app';

bootWebview<FromProfileView>((message: ToProfileView, { api, root }) => {
  showDocumentTitle(api, message.title, message.state);
  new ProfileView(root, message.doc, {
    exportTrace: () => api.postMessage({ type: 'exportTrace' }),
    revealOp: (op) => api.postMessage({ type: 'revealOp', ...op }),
  });
});
