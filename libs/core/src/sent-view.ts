import { el } from './dom';
import { sentRow, type SentCall } from './sent-calls';

/**
 * Draws "What was sent, this session": one button per call (newest first) and, for the chosen one,
 * its prompt and raw response in full. Like verdict-view, it only sets textContent.
 */
export function renderSentCalls(calls: readonly SentCall[], chosen: number | null, choose: (id: number | null) => void): HTMLElement {
  const root = el('div', 'crane-sent');
  if (!calls.length) {
    root.append(el('p', 'crane-sent-empty', 'Nothing was sent to a model in this session.'));
    return root;
  }
  const list = el('ol', 'crane-sent-list');
  for (const call of [...calls].reverse()) {
    const row = sentRow(call);
    const item = el('li', '');
    const b = el('button', `crane-sent-call crane-${row.colour}`);
    b.type = 'button';
    b.dataset.callId = String(call.id);
    b.setAttribute('aria-expanded', String(call.id === chosen));
    b.append(
      el('span', 'crane-sent-head', `${row.time} · ${row.cell}`),
      el('span', 'crane-sent-verdict', `${row.icon} ${row.verdict}`),
      el('span', 'crane-sent-where', `${row.model} at ${row.host}`),
      el('span', 'crane-sent-size', `prompt ${row.size}; usage ${row.usage}`)
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
  const box = el('div', 'crane-sent-detail');
  box.append(
    el('h4', '', 'Prompt sent'),
    el('pre', 'crane-sent-prompt', call.prompt),
    el('h4', '', 'Raw response'),
    el('pre', 'crane-sent-raw', call.raw || '(nothing arrived)')
  );
  return box;
}
