import { describe, expect, it } from 'vitest';
import type { Kernel } from '@jupyterlab/services';
import { codeRuns, followRequests, untilNoCodeRuns } from './running-code';

/**
 * A kernel connection as far as running-code.ts reads it: its status, its status signal, and its
 * iopub status messages, each naming the request it is about. `emit` behaves as JupyterLab does:
 * the connection's status becomes whatever the last status message said.
 */
function fakeKernel(status: Kernel.Status) {
  type Slot = (sender: unknown, value: unknown) => void;
  const signal = () => {
    const slots = new Set<Slot>();
    return { slots, connect: (s: Slot) => slots.add(s), disconnect: (s: Slot) => slots.delete(s) };
  };
  const statusChanged = signal();
  const iopubMessage = signal();
  const connectionStatusChanged = signal();
  const kernel = { status, statusChanged, iopubMessage, connectionStatusChanged };
  let n = 0;
  const status_ = (state: 'busy' | 'idle', parentType: string, parentId: string): void => {
    const msg = { header: { msg_type: 'status', msg_id: `m${n++}` }, parent_header: { msg_type: parentType, msg_id: parentId }, content: { execution_state: state } };
    for (const s of [...iopubMessage.slots]) s(kernel, msg);
    kernel.status = state;
    for (const s of [...statusChanged.slots]) s(kernel, state);
  };
  const restart = (): void => {
    kernel.status = 'restarting';
    for (const s of [...statusChanged.slots]) s(kernel, 'restarting');
  };
  const reconnect = (): void => {
    for (const s of [...connectionStatusChanged.slots]) s(kernel, 'connected');
  };
  return { kernel: kernel as unknown as Kernel.IKernelConnection, status: status_, restart, reconnect };
}

const settledWithin = async (p: Promise<void>, ms: number): Promise<boolean> =>
  Promise.race([p.then(() => true), new Promise<boolean>(r => setTimeout(() => r(false), ms))]);

describe('codeRuns', () => {
  it('is false for an idle kernel and true while a cell executes', () => {
    const k = fakeKernel('idle');
    followRequests(k.kernel);
    expect(codeRuns(k.kernel)).toBe(false);
    k.status('busy', 'execute_request', 'e1');
    expect(codeRuns(k.kernel)).toBe(true);
    k.status('idle', 'execute_request', 'e1');
    expect(codeRuns(k.kernel)).toBe(false);
  });

  it('ignores the subshell requests JupyterLab wraps each comm in, but not a cell running meanwhile', () => {
    const k = fakeKernel('idle');
    followRequests(k.kernel);
    k.status('busy', 'delete_subshell_request', 'd1');
    expect(k.kernel.status).toBe('busy');
    expect(codeRuns(k.kernel)).toBe(false);
    k.status('busy', 'execute_request', 'e1');
    k.status('idle', 'delete_subshell_request', 'd1');
    // (the connection reads idle now, from the subshell's message, while the cell still runs)
    expect(k.kernel.status).toBe('idle');
    expect(codeRuns(k.kernel)).toBe(true);
    k.status('idle', 'execute_request', 'e1');
    expect(codeRuns(k.kernel)).toBe(false);
  });

  it('counts a comm message as code (a widget callback), and a kernel busy before anyone listened as busy', () => {
    const k = fakeKernel('busy');
    expect(codeRuns(k.kernel)).toBe(true);
    k.status('busy', 'comm_msg', 'c1');
    k.status('idle', 'comm_msg', 'c1');
    expect(codeRuns(k.kernel)).toBe(false);
    k.status('busy', 'comm_open', 'c2');
    expect(codeRuns(k.kernel)).toBe(true);
  });

  it('forgets the requests a restart ended', () => {
    const k = fakeKernel('idle');
    followRequests(k.kernel);
    k.status('busy', 'execute_request', 'e1');
    k.restart();
    expect(codeRuns(k.kernel)).toBe(true); // (restarting)
    k.status('idle', 'kernel_info_request', 'k1');
    expect(codeRuns(k.kernel)).toBe(false);
  });

  it('starts over from the status of the moment when the socket connects again (an idle may have been lost)', () => {
    const k = fakeKernel('idle');
    followRequests(k.kernel);
    k.status('busy', 'execute_request', 'e1');
    (k.kernel as unknown as { status: string }).status = 'idle';
    k.reconnect();
    expect(codeRuns(k.kernel)).toBe(false);
    k.status('busy', 'execute_request', 'e2');
    k.reconnect();
    expect(codeRuns(k.kernel)).toBe(true);
  });
});

describe('untilNoCodeRuns', () => {
  it('resolves at once when no code runs, or there is no kernel', async () => {
    expect(await settledWithin(untilNoCodeRuns(fakeKernel('idle').kernel), 5)).toBe(true);
    expect(await settledWithin(untilNoCodeRuns(null), 5)).toBe(true);
  });

  it('waits for the request that runs code, not for the first idle', async () => {
    const k = fakeKernel('idle');
    followRequests(k.kernel);
    k.status('busy', 'comm_open', 'c1');
    const waiting = untilNoCodeRuns(k.kernel, 5000);
    k.status('busy', 'create_subshell_request', 's1');
    k.status('idle', 'create_subshell_request', 's1');
    expect(await settledWithin(waiting, 30)).toBe(false);
    k.status('idle', 'comm_open', 'c1');
    expect(await settledWithin(waiting, 30)).toBe(true);
  });

  it('gives up after its bound while cells keep running', async () => {
    const k = fakeKernel('idle');
    followRequests(k.kernel);
    k.status('busy', 'execute_request', 'e1');
    expect(await settledWithin(untilNoCodeRuns(k.kernel, 40), 20)).toBe(false);
    expect(await settledWithin(untilNoCodeRuns(k.kernel, 40), 200)).toBe(true);
  });
});
