"""A real kernel for the command line: run the earlier cells with nbclient, then ask for the facts.

The kernel is this interpreter's own ipykernel (a kernelspec written to a temporary directory),
so it imports the same crane_llm as the command, whichever kernelspecs the machine has. The
facts come from `crane_llm.kernel.entry.check` through a silent `user_expressions` request,
exactly as the JupyterLab extension asks: the target cell is never executed and nothing is added
to the kernel's history.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import tempfile
from pathlib import Path
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional

from ipykernel.kernelspec import write_kernel_spec

from ..kernel.request import check_expression, read_reply
from ..problem import Problem

KERNEL_NAME = "crane-llm-cli"
FACTS_TIMEOUT_SECONDS = 120


@dataclass
class CellFailure:
    """An earlier cell that raised: which one, and the error it raised."""

    number: int
    ename: str
    evalue: str

    def describe(self) -> str:
        text = "%s: %s" % (self.ename, self.evalue) if self.evalue else self.ename
        return "cell %d raised %s" % (self.number, text)

    def to_json(self) -> Dict[str, Any]:
        return {"cell": self.number, "ename": self.ename, "evalue": self.evalue}


def _package_root() -> str:
    import crane_llm

    return str(Path(crane_llm.__file__).resolve().parents[1])


def _kernel_spec_dir(root: str) -> str:
    # ipykernel's own spec for this interpreter (sys.executable -m ipykernel_launcher), renamed.
    write_kernel_spec(os.path.join(root, KERNEL_NAME), overrides={"display_name": "CRANE-LLM (this Python)"})
    return root


def _kernel_env() -> Dict[str, str]:
    env = dict(os.environ)
    # The kernel must import the same crane_llm as this command, installed or from a source tree.
    root = _package_root()
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    # A headless kernel must not try to open plot windows.
    env.setdefault("MPLBACKEND", "Agg")
    return env


def _quiet_log() -> logging.Logger:
    # nbclient logs a dying kernel itself; the command says so once, in its own words.
    log = logging.getLogger("crane_llm.cli.nbclient")
    log.propagate = False
    if not log.handlers:
        log.addHandler(logging.NullHandler())
    return log


class NotebookKernel:
    """One kernel for one check: runs the chosen cells, then asks for the facts of the target."""

    def __init__(self, nb: Any, cwd: str, timeout: Optional[int] = None):
        from jupyter_client.kernelspec import KernelSpecManager
        from jupyter_client.manager import AsyncKernelManager
        from nbclient import NotebookClient

        self._tmp = tempfile.TemporaryDirectory(prefix="crane-llm-kernel-")
        ksm = KernelSpecManager(kernel_dirs=[_kernel_spec_dir(self._tmp.name)], ensure_native_kernel=False)
        km = AsyncKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=ksm)
        self.client = NotebookClient(
            nb,
            km=km,
            log=_quiet_log(),
            timeout=timeout,
            allow_errors=True,  # a failing cell is reported by us, with its number, not as a traceback
            resources={"metadata": {"path": cwd}},
        )
        self.cwd = cwd
        self.log_path = os.path.join(self._tmp.name, "kernel.log")
        self.interrupted = False

    async def _ask(self, expression: str) -> Any:
        kc = self.client.kc
        msg_id = kc.execute("", silent=True, store_history=False, user_expressions={"r": expression})
        reply = await self.client.async_wait_for_reply(msg_id)
        if reply is None:
            raise RuntimeError("the kernel did not answer the check request")
        try:
            return read_reply(reply["content"])
        except Problem as exc:
            raise RuntimeError(exc.message)

    async def run(
        self,
        cells: List[Any],
        request: Dict[str, Any],
        on_cell: Callable[[int, int, Any], None],
        stop_on_error: bool,
    ) -> Dict[str, Any]:
        """Run `cells` (CodeCell) in order, then ask for the facts of `request['source']`.

        Returns {"facts": dict or None, "failures": [CellFailure], "stoppedAfter": number or None}.
        """
        failures: List[CellFailure] = []
        # The kernel's own stdout/stderr (start-up warnings, C libraries' logging) go to a file,
        # not into the command's output; the cells' outputs come over the protocol as usual.
        log = open(self.log_path, "w")
        try:
            return await self._run(cells, request, on_cell, stop_on_error, failures, log)
        finally:
            km = self.client.km
            try:
                if km is not None and km.has_kernel:
                    # After Ctrl-C nobody waits for the cell: the kernel goes at once.
                    await km.shutdown_kernel(now=self.interrupted)
            finally:
                log.close()

    async def run_interruptible(self, *args: Any) -> Dict[str, Any]:
        """`run`, where Ctrl-C cancels the run, shuts the kernel down and ends in KeyboardInterrupt,
        whatever the cancelled libraries raise on their way out (nbclient's own SIGINT handler kills
        the kernel, and the cell then fails with DeadKernelError, which would read as a kernel failure)."""
        self._catch_sigint()
        try:
            result = await self.run(*args)
            if self.interrupted:  # (a Ctrl-C while the kernel started: the start-up swallowed the cancel)
                raise KeyboardInterrupt
            return result
        except BaseException:
            if self.interrupted:
                raise KeyboardInterrupt from None
            raise
        finally:
            try:
                asyncio.get_running_loop().remove_signal_handler(signal.SIGINT)
            except (NotImplementedError, RuntimeError, ValueError):
                pass

    def _catch_sigint(self) -> None:
        """Ctrl-C: remember it and cancel the run. Installed again once nbclient has installed its own."""
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()

        def quiet_after_ctrl_c(loop: Any, context: Dict[str, Any]) -> None:
            # nbclient's own Ctrl-C handler (in place while the kernel starts) runs a clean-up task
            # that may fail on its way out of the cancelled start: no news for the user, the kernel
            # is shut down regardless.
            coro = getattr(context.get("future"), "get_coro", lambda: None)()
            if not self.interrupted and getattr(coro, "__qualname__", "") != "NotebookClient._async_cleanup_kernel":
                loop.default_exception_handler(context)

        loop.set_exception_handler(quiet_after_ctrl_c)

        def on_sigint() -> None:
            self.interrupted = True
            if task is not None:
                task.cancel()

        try:
            asyncio.get_running_loop().add_signal_handler(signal.SIGINT, on_sigint)
        except (NotImplementedError, RuntimeError, ValueError):  # Windows, or not the main thread
            pass

    async def _run(self, cells, request, on_cell, stop_on_error, failures, log) -> Dict[str, Any]:
        async with self.client.async_setup_kernel(env=_kernel_env(), cwd=self.cwd, stdout=log, stderr=log):
            self._catch_sigint()
            # What JupyterLab does at kernel start: the execution recorder, so `executed` and the
            # origin of the crash know the order cells ran in and what each did.
            try:
                await self._ask("__import__('crane_llm').load_ipython_extension(get_ipython()) or 1")
            except RuntimeError as exc:
                raise RuntimeError("the kernel (%s) could not load crane_llm: %s" % (sys.executable, exc))
            for position, cell in enumerate(cells, start=1):
                self._go_on()
                on_cell(position, len(cells), cell)
                node = await self.client.async_execute_cell(cell.node, self._index(cell))
                failure = _failure_of(cell.number, node)
                if failure is not None:
                    failures.append(failure)
                    if stop_on_error:
                        return {"facts": None, "failures": failures, "stoppedAfter": cell.number}
            self._go_on()
            facts = await asyncio.wait_for(self._ask(check_expression(request)), FACTS_TIMEOUT_SECONDS)
        return {"facts": facts, "failures": failures, "stoppedAfter": None}

    def _go_on(self) -> None:
        """Stop here after a Ctrl-C whose cancel something on the way swallowed (the kernel's start)."""
        if self.interrupted:
            raise asyncio.CancelledError

    def _index(self, cell: Any) -> int:
        for i, node in enumerate(self.client.nb.cells):
            if node is cell.node:
                return i
        return 0

    def log_tail(self, lines: int = 15) -> str:
        try:
            with open(self.log_path, errors="replace") as fh:
                text = fh.read()
        except OSError:
            return ""
        # Start-up chatter (TCP without encryption, parent exited) says nothing about a failure.
        kept = [line for line in text.splitlines() if line.strip() and "WARNING | " not in line]
        return "\n".join(kept[-lines:])

    def close(self) -> None:
        self._tmp.cleanup()


def _failure_of(number: int, node: Any) -> Optional[CellFailure]:
    for output in node.get("outputs", []):
        if output.get("output_type") == "error":
            return CellFailure(number, output.get("ename", "Error"), output.get("evalue", ""))
    return None


def run_and_gather(nb: Any, cwd: str, cells: List[Any], request: Dict[str, Any],
                   on_cell: Callable[[int, int, Any], None], stop_on_error: bool,
                   timeout: Optional[int] = None) -> Dict[str, Any]:
    kernel = NotebookKernel(nb, cwd, timeout)
    try:
        return asyncio.run(kernel.run_interruptible(cells, request, on_cell, stop_on_error))
    except asyncio.CancelledError:
        # Only a Ctrl-C cancels the run; one that came before our handler was in place is asyncio's
        # own, which hands back the cancel rather than KeyboardInterrupt when the cancel was caught.
        raise KeyboardInterrupt from None
    except Exception as exc:
        tail = kernel.log_tail()
        raise RuntimeError("%s: %s%s" % (type(exc).__name__, exc, "\nThe kernel's own output ended with:\n" + tail if tail else ""))
    finally:
        kernel.close()
