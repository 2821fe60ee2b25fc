// Entry of the profile webview panel.
import type { FromProfileView, ToProfileView } from '../../src/contracts/messages';
import '../styles/base.css';
import '../styles/profile.css';
import { vscodeApi } from '../common/vscodeApi';
import { ProfileView } from './app';
import { displayText } from '../common/bidi';

const api = vscodeApi<FromProfileView>();
const root = document.getElementById('root') ?? document.body;

window.addEventListener('message', (event: MessageEvent<ToProfileView>) => {
  const message = event.data;
  document.title = displayText(message.title);
  if (message.state) api.setState(message.state);
  new ProfileView(root, message.doc, {
    exportTrace: () => api.postMessage({ type: 'exportTrace' }),
    revealOp: (op) => api.postMessage({ type: 'revealOp', ...op }),
  });
});

api.postMessage({ type: 'ready' });
