"""The channel the front end asks through once the extension is loaded: a comm target.

A `user_expressions` request is evaluated in the notebook's namespace, so its bare names
(`__import__`, `get_ipython`) resolve through the notebook's own variables first: a notebook that
defines `__import__` would have its function called by every check. A comm message names no
Python at all: the kernel hands it to the target registered here, which calls the same entry
points (`entry.check`, `entry.history`) and answers with one message, then closes the comm.

Requests: `{"op": "check", "request": "<CheckRequest JSON>"}`, `{"op": "history", "runs": n}`,
`{"op": "ping"}`. The answer: `{"reply": <the same JSON the entry point returns>}`.
"""

import threading
from typing import Any, Dict

from . import entry  # (at install, not at the first request: an import runs the import machinery)

TARGET = "crane_llm"
_INSTALLED: Dict[int, Any] = {}  # id(comm manager) -> the manager, so registering is idempotent
_SHELL: Dict[str, Any] = {}  # the shell the target was registered for


def _comm_manager(ipython: Any) -> Any:
    """The kernel's comm manager, or None outside a kernel (a terminal IPython has none)."""
    if getattr(ipython, "kernel", None) is None:
        return None
    try:
        from comm import get_comm_manager
    except ImportError:  # (ipykernel before 6.22 keeps its own; the front end falls back)
        return getattr(ipython.kernel, "comm_manager", None)
    try:
        return get_comm_manager()
    except Exception:
        return None


def install(ipython: Any) -> bool:
    """Register the target in this kernel; True when it is registered (now or before)."""
    manager = _comm_manager(ipython)
    if manager is None or not hasattr(manager, "register_target"):
        return False
    _SHELL["shell"] = ipython
    if _INSTALLED.get(id(manager)) is manager:
        return True
    manager.register_target(TARGET, _opened)
    _INSTALLED[id(manager)] = manager
    return True


def answer(data: Any) -> Dict[str, Any]:
    """The reply to one request (a problem reply for anything malformed, never an exception)."""
    op = data.get("op") if isinstance(data, dict) else None
    shell = _SHELL.get("shell")
    if op == "check" and isinstance(data.get("request"), str):
        return entry.check(data["request"], shell).payload
    if op == "history" and type(data.get("runs")) is int:
        return entry.history(data["runs"], shell).payload
    if op == "ping":
        return {"protocol": 1, "ready": True}
    return entry.problem_reply("internal", "CRANE-LLM's kernel channel got a request it does not know.")


def _opened(comm: Any, msg: Dict[str, Any]) -> None:
    try:
        if threading.current_thread() is not threading.main_thread():
            # A kernel subshell runs beside the cells (ipykernel 7): the state could change under
            # the check, and its time limit (SIGALRM) works on the main thread only.
            reply = entry.problem_reply("internal", "CRANE-LLM was asked on a kernel subshell; it checks on the kernel's "
                                                    "main shell only.")
        else:
            reply = answer((msg.get("content") or {}).get("data"))
    except Exception as exc:  # (answer() catches its own: this is the last guard)
        reply = entry.problem_reply("internal", f"The kernel side of CRANE-LLM failed: {type(exc).__name__}: {exc}")
    try:
        comm.send({"reply": reply})
    finally:
        comm.close()


__all__ = ["TARGET", "install", "answer"]
