// Notebook renderer for MindScope's MIME types: the same graph, profile and export report
// views, inline in an output. Works in VS Code notebooks; other front-ends use the text/html fallback.
// Each output renders into its own shadow root with MindScope's styles adopted there, so
// nothing leaks into (or from) the notebook's page.
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
import type { ActivationFunction } from './rendererApi';

/** What the renderer sends to the extension (see panels/rendererMessaging.ts). */
export type RendererMessage =
  | { type: 'openSource'; target: SourceTarget }
  | { type: 'artefact'; action: ArtefactAction; file: string; snippet?: string | null };

let sheet: CSSStyleSheet | undefined;

/** One style sheet, parsed once, adopted by every output's shadow root. */
function styles(): CSSStyleSheet {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync([baseCss, graphCss, profileCss, summaryCss, exportCss].join('\n'));
  }
  return sheet;
}

function shadowOf(element: HTMLElement): ShadowRoot {
  const shadow = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
  shadow.adoptedStyleSheets = [styles()];
  return shadow;
}

export const activate: ActivationFunction = (context) => {
  const openSource = (target: SourceTarget): void => {
    const message: RendererMessage = { type: 'openSource', target };
    context.postMessage?.(message);
  };
  const shown = new Map<string, ShadowRoot>();
  return {
    renderOutputItem(item, element) {
      const data = item.json();
      const root = h('div', { class: 'mindscope-output' });
      const shadow = shadowOf(element);
      shadow.replaceChildren(root);
      shown.set(item.id, shadow);
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
    disposeOutputItem(id) {
      // Emptying the shadow root detaches the view and what observes its elements. (The
      // profile timeline also watches document.body for theme changes until the page goes.)
      for (const [key, shadow] of shown) {
        if (id !== undefined && key !== id) continue;
        shadow.replaceChildren();
        shown.delete(key);
      }
    },
  };
};
