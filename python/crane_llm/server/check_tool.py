"""`check_cell`: the crash check as a tool for AI agents, served over MCP by jupyter-server-mcp.

Agents that edit and run notebooks run a cell, watch it crash, then fix it. This tool lets them
ask first. It checks a cell of a notebook that has a live kernel session in this Jupyter server,
with the same silent request the JupyterLab button sends, and answers in the shape of
`schema/check-answer.json` (the one `crane-llm check --json` and the JupyterLab command
`crane-llm:check` give). Every problem is an answer with `problem` set, never an exception: an
agent reads the message and acts on it. The model, when asked for, is called from this server
process with the server's settings, so the key never leaves it.

jupyter-server-mcp finds the tool through the `jupyter_server_mcp.tools` entry point; the
server extension (`crane_llm.server`) hands it the running server at load time.
"""

import asyncio
import time
from typing import Any, Dict, List, Optional

from jupyter_core.utils import ensure_async

from ..cli.model import ask_model, make_prompt, settings_problem
from ..kernel.request import check_expression, read_reply, silent_execute_content
from ..lineage.origin import origin
from ..present import certain_crash_verdict_of, nothing_certain_verdict
from ..problem import Problem
from ..prompt.from_check import executed_cells
from ..settings import resolve_settings

# Long enough for a huge DataFrame's runtime information; the kernel bounds its own work.
FACTS_TIMEOUT_SECONDS = 60.0

_server: Dict[str, Any] = {"app": None}

TOOLS = ["crane_llm.server.check_tool:check_cell"]


def attach(serverapp: Any) -> None:
    """Called by the server extension when it loads: the tool runs inside that server."""
    _server["app"] = serverapp


async def check_cell(
    notebook_path: str,
    cell_id: Optional[str] = None,
    cell_index: Optional[int] = None,
    use_llm: bool = False,
) -> Dict[str, Any]:
    """Predict whether a notebook cell will crash, before running it, from the live kernel state.

    notebook_path: the notebook's path relative to the Jupyter server's root, e.g. "work/eda.ipynb".
    The notebook must be saved and have a running kernel session (open in JupyterLab, or started
    through the sessions API), with the earlier cells already run.
    cell_id: the nbformat id of the cell to check; or cell_index: its 0-based position among all
    cells. use_llm: false (default) runs only CRANE-LLM's built-in checks, which report crashes
    that are certain (kind "certain-crash") and otherwise say "nothing-certain" (not a promise that
    the cell is fine); true also asks the configured model when the checks find nothing certain.

    Returns {"notebook", "cellId", "cellIndex", "verdict", "origin", "problem"}: verdict.kind,
    verdict.exception, verdict.line (1-based in the cell) and verdict.explanation say what will
    fail and why; origin lists the cells that gave the involved variables their state. The cell is
    never executed.
    """
    answer: Dict[str, Any] = {"notebook": notebook_path, "cellId": cell_id, "cellIndex": cell_index,
                              "verdict": None, "origin": [], "problem": None}
    try:
        await _check(answer, notebook_path, cell_id, cell_index, bool(use_llm))
    except Problem as problem:
        answer["problem"] = {"kind": problem.kind, "message": problem.message}
    except Exception as exc:  # an agent gets a sentence, the server keeps running
        answer["problem"] = {"kind": "internal", "message": "The check could not finish: %s: %s" % (type(exc).__name__, exc)}
    return answer


async def _check(answer: Dict[str, Any], path: str, cell_id: Optional[str], cell_index: Optional[int], use_llm: bool) -> None:
    app = _server["app"]
    if app is None:
        raise Problem("not-loaded", "The CRANE-LLM server extension is not loaded in this Jupyter server.")
    path = (path or "").strip().lstrip("/")
    cells = await _notebook_cells(app, path)
    target = _target(cells, cell_id, cell_index)
    answer["notebook"], answer["cellId"], answer["cellIndex"] = path, target["cellId"], target["index"]
    kernel = await _session_kernel(app, path)
    request = {"protocol": 1, "source": target["source"], "cellId": target["cellId"], "useLlm": use_llm,
               "includeRuntimeInfo": True}
    facts = await _ask_kernel(kernel, check_expression(request))
    if facts.get("problem"):
        raise Problem("kernel-side", facts["problem"]["message"])
    answer["verdict"] = await _verdict(facts, target["source"], use_llm, app.web_app.settings.get("crane_llm_start_dir"))
    if answer["verdict"]["kind"] in ("certain-crash", "predicted-crash"):
        answer["origin"] = _origin(facts, answer["verdict"], cells, target["cellId"])


async def _notebook_cells(app: Any, path: str) -> List[Dict[str, Any]]:
    if not path.endswith(".ipynb"):
        raise Problem("no-notebook", "%r is not a notebook path (it should end in .ipynb)." % path)
    try:
        model = await ensure_async(app.contents_manager.get(path, content=True, type="notebook"))
    except Exception:
        raise Problem("no-notebook", "No notebook at %r under the Jupyter server's root." % path)
    cells = []
    for index, cell in enumerate(model["content"].get("cells", [])):
        source = cell.get("source", "")
        cells.append({"cellId": cell.get("id"), "index": index, "type": cell.get("cell_type"),
                      "source": "".join(source) if isinstance(source, list) else source})
    return cells


def _target(cells: List[Dict[str, Any]], cell_id: Optional[str], cell_index: Optional[int]) -> Dict[str, Any]:
    if cell_id:
        found = [c for c in cells if c["cellId"] == cell_id]
        if not found:
            raise Problem("no-cell", "The notebook has no cell with id %r (save it if the cell is new)." % cell_id)
        cell = found[0]
    elif cell_index is not None:
        if not 0 <= cell_index < len(cells):
            raise Problem("no-cell", "cell_index %d is out of range: the notebook has %d cells (0-based)." % (cell_index, len(cells)))
        cell = cells[cell_index]
    else:
        raise Problem("usage", "Give cell_id or cell_index.")
    if cell["type"] != "code":
        raise Problem("not-code", "Cell %d is a %s cell; only code cells can be checked." % (cell["index"], cell["type"]))
    return cell


async def _session_kernel(app: Any, path: str) -> Any:
    sessions = await ensure_async(app.session_manager.list_sessions())
    kernel_id = next((s["kernel"]["id"] for s in sessions if (s.get("path") or "").lstrip("/") == path and s.get("kernel")), None)
    if kernel_id is None:
        raise Problem("no-session", "No kernel session for %s: open it in JupyterLab (or start a session) and run its "
                                     "earlier cells first." % path)
    kernel = app.kernel_manager.get_kernel(kernel_id)
    language = getattr(getattr(kernel, "kernel_spec", None), "language", "python") or "python"
    if language.lower() != "python":
        raise Problem("not-python", "The notebook's kernel runs %s; CRANE-LLM checks Python cells." % language)
    state = getattr(kernel, "execution_state", "idle")
    if state != "idle":
        raise Problem("busy", "The notebook's kernel is %s: wait until its cells have finished, then check again "
                               "(the answer would describe a later state)." % state)
    return kernel


async def _ask_kernel(kernel: Any, expression: str) -> Dict[str, Any]:
    client = kernel.client()
    client.start_channels()
    try:
        msg = client.session.msg("execute_request", silent_execute_content(expression))
        client.shell_channel.send(msg)
        deadline = time.monotonic() + FACTS_TIMEOUT_SECONDS
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Problem("timeout", "The kernel did not answer within %d s." % FACTS_TIMEOUT_SECONDS)
            try:
                reply = await client.get_shell_msg(timeout=left)
            except (asyncio.TimeoutError, TimeoutError):
                continue
            if reply.get("parent_header", {}).get("msg_id") == msg["header"]["msg_id"]:
                break
        return read_reply(reply["content"])
    finally:
        client.stop_channels()


async def _verdict(facts: Dict[str, Any], source: str, use_llm: bool, start_dir: Optional[str]) -> Dict[str, Any]:
    crash = facts["checks"].get("crash")
    if crash:
        return certain_crash_verdict_of(facts)
    if not use_llm:
        return nothing_certain_verdict()
    # The model call blocks for seconds: off the server's event loop.
    return await asyncio.get_running_loop().run_in_executor(None, _ask_model, facts, source, start_dir)


def _ask_model(facts: Dict[str, Any], source: str, start_dir: Optional[str]) -> Dict[str, Any]:
    # The server's own settings, resolved as its proxy resolves them: the key stays in this process.
    settings = resolve_settings(cwd=start_dir)
    problem = settings_problem(settings)
    if problem:
        raise Problem("settings", problem.replace("--no-llm", "use_llm=false").replace("Pass --model NAME, set", "Set"))
    prompt = make_prompt(executed_cells(facts), facts.get("runtimeInfo"), source, True)
    answer = ask_model(prompt, settings, checker_ran_first=bool(facts["checks"].get("ran")))
    if answer["problem"]:
        raise Problem("provider", answer["problem"]["message"])
    return answer["verdict"]


def _origin(facts: Dict[str, Any], verdict: Dict[str, Any], cells: List[Dict[str, Any]], target_id: Optional[str]) -> List[Dict[str, Any]]:
    log = facts.get("log")
    if not log or not verdict.get("variables"):
        return []
    # All cells, as the JupyterLab button passes them, so both hosts give the same origin.
    notebook = [{"cellId": c["cellId"], "index": c["index"], "source": c["source"]} for c in cells]
    return origin(log, verdict["variables"], facts.get("usedNames"), notebook, target_id)
