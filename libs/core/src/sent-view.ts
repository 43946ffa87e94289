import { sentRow, type SentCall } from './sent-calls';

/**
 * Draws "What was sent, this session": one button per call (newest first) and, for the chosen one,
 * its prompt and raw response in full. Like verdict-view, it only sets textContent.
 */
export function renderSentCalls(calls: readonly SentCall[], chosen: number | null, choose: (id: number | null) => void): HTMLElement {
  const root = document.createElement('div');
  root.className = 'crane-sent';
  if (!calls.length) {
    const empty = document.createElement('p');
    empty.className = 'crane-sent-empty';
    empty.textContent = 'Nothing was sent to a model in this session.';
    root.append(empty);
    return root;
  }
  const list = document.createElement('ol');
  list.className = 'crane-sent-list';
  for (const call of [...calls].reverse()) {
    const row = sentRow(call);
    const item = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = `crane-sent-call crane-${row.colour}`;
    b.dataset.callId = String(call.id);
    b.setAttribute('aria-expanded', String(call.id === chosen));
    const line = (cls: string, text: string) => {
      const span = document.createElement('span');
      span.className = cls;
      span.textContent = text;
      return span;
    };
    b.append(
      line('crane-sent-head', `${row.time} · ${row.cell}`),
      line('crane-sent-verdict', `${row.icon} ${row.verdict}`),
      line('crane-sent-where', `${row.model} at ${row.host}`),
      line('crane-sent-size', `prompt ${row.size}; usage ${row.usage}`)
    );
    b.addEventListener('click', () => choose(call.id === chosen ? null : call.id));
    item.append(b);
    if (call.id === chosen) item.append(renderSentDetail(call));
    list.append(item);
  }
  root.append(list);
  return root;
}

function renderSentDetail(call: SentCall): HTMLElement {
  const box = document.createElement('div');
  box.className = 'crane-sent-detail';
  const part = (title: string, cls: string, text: string) => {
    const h = document.createElement('h4');
    h.textContent = title;
    const pre = document.createElement('pre');
    pre.className = cls;
    pre.textContent = text;
    box.append(h, pre);
  };
  part('Prompt sent', 'crane-sent-prompt', call.prompt);
  part('Raw response', 'crane-sent-raw', call.raw || '(nothing arrived)');
  return box;
}
