import type { Kernel, KernelMessage } from '@jupyterlab/services';

/**
 * Whether code runs in a kernel, read from its iopub status messages, each of which names the
 * request it is about. JupyterLab's `kernel.status` is whatever the last of them said, whatever the
 * request: with kernel subshells (JupyterLab 4.6, ipykernel 7) each comm is wrapped in a subshell
 * created and deleted on the control channel, whose busy/idle pairs make the kernel read busy for
 * a moment after every CRANE-LLM request, and a check asked for just then was refused. What a
 * check must wait for is code running: cells, a widget's callback, another extension's request.
 */

/** Requests the kernel answers without running any of the notebook's code. */
const RUN_NO_CODE = new Set([
  'create_subshell_request',
  'delete_subshell_request',
  'list_subshell_request',
  'kernel_info_request',
  'comm_info_request',
  'is_complete_request',
  'history_request',
  'usage_request'
]);

interface Tracker {
  /** msg_id -> msg_type of each request the kernel said busy for and not yet idle. */
  busy: Map<string, string>;
  /** Busy before anyone listened: with what, nothing says, until the kernel reads idle. */
  busyUnseen: boolean;
  listeners: Set<() => void>;
}

const trackers = new WeakMap<Kernel.IKernelConnection, Tracker>();

/** Start following a kernel's requests (at once when a notebook connects; safe to call again). */
export function followRequests(kernel: Kernel.IKernelConnection): void {
  if (trackers.has(kernel)) return;
  const tracker: Tracker = { busy: new Map(), busyUnseen: kernel.status !== 'idle', listeners: new Set() };
  trackers.set(kernel, tracker);
  const changed = (): void => {
    if (kernel.status === 'idle' && tracker.busy.size === 0) tracker.busyUnseen = false;
    for (const listener of [...tracker.listeners]) listener();
  };
  kernel.iopubMessage.connect((_: Kernel.IKernelConnection, msg: KernelMessage.IIOPubMessage) => {
    if (msg.header.msg_type !== 'status') return;
    const parent = msg.parent_header as Partial<KernelMessage.IHeader>;
    const state = (msg.content as { execution_state?: string }).execution_state;
    if (!parent?.msg_id) return;
    if (state === 'busy') tracker.busy.set(parent.msg_id, parent.msg_type ?? '');
    else if (state === 'idle') tracker.busy.delete(parent.msg_id);
    changed();
  });
  kernel.statusChanged.connect((_: Kernel.IKernelConnection, status: Kernel.Status) => {
    // (a restart answers no pending request: their idle never comes)
    if (status === 'restarting' || status === 'autorestarting' || status === 'starting' || status === 'dead') {
      tracker.busy.clear();
    }
    changed();
  });
  kernel.connectionStatusChanged.connect((_: Kernel.IKernelConnection, connection: Kernel.ConnectionStatus) => {
    // (status messages sent while the socket was down may be lost: start over from what it says now)
    if (connection !== 'connected') return;
    tracker.busy.clear();
    tracker.busyUnseen = kernel.status !== 'idle';
    changed();
  });
}

/** Code runs in the kernel, or may: it is starting, restarting or dead, or busy with a request that runs code. */
export function codeRuns(kernel: Kernel.IKernelConnection): boolean {
  followRequests(kernel);
  const tracker = trackers.get(kernel)!;
  if (kernel.status !== 'idle' && kernel.status !== 'busy') return true;
  if (tracker.busyUnseen) return true;
  for (const type of tracker.busy.values()) if (!RUN_NO_CODE.has(type)) return true;
  return false;
}

/**
 * Resolves once no code runs in the kernel (at once when none does), or after `ms`: the kernel
 * reports idle a moment after it answers a request, and whoever checks again as soon as an answer
 * arrives would otherwise find it busy with CRANE-LLM's own request.
 */
export function untilNoCodeRuns(kernel: Kernel.IKernelConnection | null | undefined, ms = 2000): Promise<void> {
  if (!kernel || !codeRuns(kernel)) return Promise.resolve();
  const tracker = trackers.get(kernel)!;
  return new Promise(resolve => {
    const finish = (): void => {
      clearTimeout(timer);
      tracker.listeners.delete(check);
      resolve();
    };
    const check = (): void => {
      if (!codeRuns(kernel)) finish();
    };
    const timer = setTimeout(finish, ms);
    tracker.listeners.add(check);
  });
}
