import type { Cell } from '@jupyterlab/cells';
import type { NotebookPanel } from '@jupyterlab/notebook';
import { Widget } from '@lumino/widgets';
import type { ServerSettings } from '@crane-llm/prompt';
import type { CheckCenter } from './check-center';
import { switchControls, type SwitchStore } from './switches';
import { CheckRenderer, el, renderSentCalls, usageLine, type ViewActions } from '@crane-llm/core';
import type { SentLog } from './sent-log';

export const SIDEBAR_ID = 'crane-llm-sidebar';

/** Provider settings as the sidebar shows them: what is in effect and where it came from, never the key. */
export function renderProvider(settings: ServerSettings | null, error: string | null): HTMLElement {
  const box = el('dl', 'crane-provider');
  const row = (name: string, value: string, from?: string) => {
    const dd = el('dd', '', value);
    dd.dataset.setting = name;
    if (from) dd.append(el('br', ''), el('span', 'crane-provider-source', `from ${from}`));
    box.append(el('dt', '', name), dd);
  };
  if (error) {
    box.append(el('p', 'crane-provider-error', error));
    return box;
  }
  if (!settings) {
    row('Model', 'loading…');
    return box;
  }
  row('Model', settings.model ?? 'not set', settings.sources.model.label);
  row('base_url', settings.baseUrl ?? 'none (OpenAI Responses API)', settings.sources.baseUrl.label);
  const api = settings.apiKind === 'responses' ? 'Responses API' : 'Chat Completions';
  row('API', settings.api === 'auto' ? `${api} (auto)` : api, settings.sources.api.label);
  row('Output limit', `${settings.maxOutputTokens.toLocaleString('en')} tokens`, settings.sources.maxOutputTokens.label);
  const key = settings.keyFound ? 'found' : settings.keyRequired ? 'not found' : 'not needed (local server)';
  row('API key', key, settings.keyFound ? settings.sources.apiKey.label : undefined);
  for (const warning of settings.warnings ?? []) box.append(el('p', 'crane-provider-error', warning));
  return box;
}

function section(title: string, cls: string, open = true): { root: HTMLDetailsElement; body: HTMLElement } {
  const root = el('details', `crane-section ${cls}`);
  root.open = open;
  const body = el('div', 'crane-section-body');
  root.append(el('summary', '', title), body);
  return { root, body };
}

/**
 * The right sidebar: the latest check of the current notebook (verdict, steps, origin, prompt,
 * raw response), the switches and "Ask before sending", this session's model calls, and the
 * provider settings in effect.
 */
export class CraneSidebar extends Widget {
  private panel: NotebookPanel | null = null;
  /** A change came while the sidebar was hidden. */
  private stale = false;
  private readonly subject = el('div', 'crane-sidebar-subject');
  private readonly verdictHost = el('div', 'crane-sidebar-verdict');
  private readonly verdict: CheckRenderer;
  private readonly promptText = el('pre', 'crane-prompt');
  private readonly rawText = el('pre', 'crane-raw crane-raw-full');
  private readonly usageText = el('p', 'crane-usage');
  private readonly providerHost = el('div', 'crane-provider-host');
  private readonly disposeSwitches: () => void;
  private readonly sentHost = el('div', 'crane-sent-host');
  private chosenCall: number | null = null;

  constructor(
    private readonly center: CheckCenter,
    switches: SwitchStore,
    private readonly actionsFor: (panel: NotebookPanel, cell: Cell | null) => ViewActions,
    private readonly loadProvider: () => Promise<ServerSettings>,
    private readonly sentLog: SentLog
  ) {
    super();
    this.id = SIDEBAR_ID;
    this.addClass('crane-sidebar');
    this.title.caption = 'CRANE-LLM';
    // The sidebar is where Details leads, so it has no Details button of its own.
    this.verdict = new CheckRenderer(this.verdictHost, () => (this.panel ? { ...this.actionsFor(this.panel, this.center.latestOf(this.panel)?.cell ?? null), showDetails: undefined } : {}), {
      finishedSteps: 'open'
    });

    const head = el('header', 'crane-sidebar-head');
    head.append(el('h2', '', 'CRANE-LLM'), this.subject);

    const prompt = section('Prompt', 'crane-section-prompt', false);
    prompt.body.append(this.promptText);
    const raw = section('Raw response', 'crane-section-raw');
    raw.body.append(this.rawText, this.usageText);
    const sw = section('Switches', 'crane-section-switches');
    const controls = switchControls(switches, 'crane-sidebar');
    sw.body.append(controls.node);
    this.disposeSwitches = controls.dispose;
    const provider = section('Provider settings in effect', 'crane-section-provider');
    provider.body.append(this.providerHost);

    const sent = section('What was sent, this session', 'crane-section-sent');
    sent.body.append(this.sentHost);

    this.node.append(head, this.verdictHost, prompt.root, raw.root, sw.root, sent.root, provider.root);
    center.changed.connect(this.onChanged, this);
    sentLog.changed.connect(this.showSent, this);
    this.showSent();
    this.show_(null);
    void this.refreshProvider();
  }

  /** Follow the notebook the user is looking at. */
  follow(panel: NotebookPanel | null): void {
    this.panel = panel;
    this.show_(panel);
  }

  async refreshProvider(): Promise<void> {
    this.providerHost.replaceChildren(renderProvider(null, null));
    try {
      this.providerHost.replaceChildren(renderProvider(await this.loadProvider(), null));
    } catch (error) {
      this.providerHost.replaceChildren(renderProvider(null, error instanceof Error ? error.message : String(error)));
    }
  }

  private onChanged(_: CheckCenter, panel: NotebookPanel): void {
    if (panel !== this.panel) return;
    // Hidden, it is drawn when shown: a check's verdict under the cell does not wait for a second copy.
    if (this.isVisible) this.show_(panel);
    else this.stale = true;
  }

  protected onAfterShow(msg: Parameters<Widget['processMessage']>[0]): void {
    super.onAfterShow(msg);
    if (this.stale) this.show_(this.panel);
  }

  private show_(panel: NotebookPanel | null): void {
    this.stale = false;
    const latest = panel ? this.center.latestOf(panel) : null;
    if (!panel) {
      this.subject.textContent = 'Open a notebook to check its cells.';
    } else if (!latest) {
      this.subject.textContent = `${panel.context.localPath}: no check yet. Select a cell and click CRANE-LLM in the toolbar.`;
    } else {
      const index = panel.content.widgets.indexOf(latest.cell);
      this.subject.textContent = `${panel.context.localPath}, cell ${index + 1}`;
    }
    this.verdict.render(latest?.state ?? null);
    const state = latest?.state;
    this.promptText.textContent = state?.prompt ?? (state ? 'No prompt: nothing was sent to a model for this check.' : '');
    const waiting = state?.phase === 'running' && state.prompt !== null;
    this.rawText.textContent = state?.raw || (!state ? '' : waiting ? 'Waiting for the first words…' : 'No response: no model was asked for this check.');
    this.usageText.textContent = usageLine(state?.usage);
  }

  /** The session's calls, newest first; a click opens one's prompt and raw response. */
  private showSent(): void {
    this.sentHost.replaceChildren(
      renderSentCalls(this.sentLog.all, this.chosenCall, id => {
        this.chosenCall = id;
        this.showSent();
      })
    );
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.center.changed.disconnect(this.onChanged, this);
    this.sentLog.changed.disconnect(this.showSent, this);
    this.disposeSwitches();
    super.dispose();
  }
}
