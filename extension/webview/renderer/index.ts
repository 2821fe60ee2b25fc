// Notebook renderer for MindScope's MIME types: the same graph, profile and export report
// views, inline in an output. Works in VS Code notebooks; other front-ends use the text/html fallback.
import { EXPORT_MIME, isExportReport, type ArtefactAction } from '../../src/contracts/exportReport';
import { GRAPH_MIME, isGraphDocument } from '../../src/contracts/graphDocument';
import type { SourceTarget } from '../../src/contracts/messages';
import { isProfileDocument, PROFILE_MIME } from '../../src/contracts/profileDocument';
import { isSummaryDocument, SUMMARY_MIME } from '../../src/contracts/summaryDocument';
import baseCss from '../styles/base.css';
import exportCss from '../styles/export.css';
import graphCss from '../styles/graph.css';
import profileCss from '../styles/profile.css';
import summaryCss from '../styles/summary.css';
import { h } from '../common/dom';
import { ExportView } from '../export/app';
import { GraphView } from '../graph/app';
import { ProfileView } from '../profile/app';
import { displayText } from '../common/bidi';
import { SummaryView } from '../summary/app';

/** The slice of VS Code's renderer API (vscode-notebook-renderer) used here. */
interface OutputItem {
  id: string;
  mime: string;
  json(): unknown;
}

interface RendererContext {
  postMessage?(message: unknown): void;
}

/** What the renderer sends to the extension (see panels/register.ts). */
export type RendererMessage =
  | { type: 'openSource'; target: SourceTarget }
  | { type: 'artefact'; action: ArtefactAction; file: string; snippet?: string | null };

let styled = false;

function addStyles(): void {
  if (styled) return;
  styled = true;
  const style = document.createElement('style');
  style.textContent = [baseCss, graphCss, profileCss, summaryCss, exportCss].join('\n');
  document.head.appendChild(style);
}

export function activate(context: RendererContext): {
  renderOutputItem(item: OutputItem, element: HTMLElement): void;
} {
  const openSource = (target: SourceTarget): void => {
    const message: RendererMessage = { type: 'openSource', target };
    context.postMessage?.(message);
  };
  return {
    renderOutputItem(item, element) {
      addStyles();
      const data = item.json();
      const root = h('div', { class: 'mindscope-output' });
      element.replaceChildren(root);
      if (item.mime === GRAPH_MIME && isGraphDocument(data)) {
        root.style.height = '560px';
        void new GraphView(root, data, { openSource }).render();
      } else if (item.mime === PROFILE_MIME && isProfileDocument(data)) {
        new ProfileView(root, data, {});
      } else if (item.mime === SUMMARY_MIME && isSummaryDocument(data)) {
        new SummaryView(root, data, {});
      } else if (item.mime === EXPORT_MIME && isExportReport(data)) {
        const send = (action: ArtefactAction, index: number): void => {
          const artefact = data.artefacts[index];
          if (!artefact) return;
          const message: RendererMessage = {
            type: 'artefact',
            action,
            file: artefact.file,
            snippet: artefact.snippet,
          };
          context.postMessage?.(message);
        };
        new ExportView(root, data, {
          reveal: (i) => send('reveal', i),
          openGraph: (i) => send('openGraph', i),
          openSnippet: (i) => send('openSnippet', i),
        });
      } else {
        root.textContent = displayText(
          `MindScope cannot show this ${item.mime} output (not a version 1 document).`,
        );
      }
    },
  };
}
