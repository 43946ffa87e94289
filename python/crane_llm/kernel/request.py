"""How a host outside the browser asks a kernel for the facts of a cell: one silent request.

The JupyterLab extension builds the same expression in TypeScript (apps/jlab kernel-bridge.ts).
The command line (nbclient) and the MCP tool (the Jupyter server's own kernel client) share this
module, so both read the kernel's answer, and its failures, the same way.
"""

import json
from typing import Any, Dict

from ..problem import Problem

ENTRY = "__import__('crane_llm.kernel.entry', fromlist=['check'])"


def check_expression(request: Dict[str, Any]) -> str:
    """The `user_expressions` entry that runs the check in the kernel without executing the cell."""
    return "%s.check(%r)" % (ENTRY, json.dumps(request))


def silent_execute_content(expression: str) -> Dict[str, Any]:
    """An execute_request that leaves no trace: no execution count, no history, no output."""
    return {"code": "", "silent": True, "store_history": False, "user_expressions": {"r": expression},
            "allow_stdin": False, "stop_on_error": False}


def read_reply(content: Dict[str, Any]) -> Any:
    """The JSON value of the expression from an execute_reply's content; a Problem ("not-installed"
    or "kernel") when the kernel could not answer."""
    result = (content.get("user_expressions") or {}).get("r") or {}
    if result.get("status") != "ok":
        ename, evalue = result.get("ename", "Error"), result.get("evalue", "")
        if ename in ("ModuleNotFoundError", "ImportError") and "crane_llm" in evalue:
            raise Problem(
                "not-installed",
                "crane_llm is not installed in this notebook's kernel: run `%pip install crane-llm` in a cell "
                "and restart the kernel.")
        raise Problem("kernel", "%s: %s" % (ename, evalue) if evalue else ename)
    data = result.get("data") or {}
    if "application/json" in data:
        return data["application/json"]
    return json.loads(data.get("text/plain", "null"))
