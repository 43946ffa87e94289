"""A real ipykernel, spoken to over ZMQ as JupyterLab does: cell ids arrive, checks are not recorded."""

import ast
import json
import sys

import pytest
from kernels import running_kernel

jupyter_client = pytest.importorskip("jupyter_client")

INSTALL = "import crane_llm.kernel.session as _s; _s.install(get_ipython()); del _s"
READ_LOG = ("__import__('json').dumps(__import__('crane_llm.lineage.recorder', fromlist=['current'])"
            ".current(get_ipython()).to_json())")


@pytest.fixture(scope="module")
def kernel():
    with running_kernel() as (_, kc):
        yield kc


def execute(kc, code, cell_id=None, silent=False, user_expressions=None):
    """Send an execute_request the way JupyterLab does, with the cell id in the metadata."""
    content = {"code": code, "silent": silent, "store_history": not silent,
               "user_expressions": user_expressions or {}, "allow_stdin": False, "stop_on_error": False}
    metadata = {"cellId": cell_id} if cell_id else {}
    msg = kc.session.msg("execute_request", content, metadata=metadata)
    kc.shell_channel.send(msg)
    while True:
        reply = kc.get_shell_msg(timeout=30)
        if reply["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
            return reply["content"]


def read_log(kc):
    reply = execute(kc, "", silent=True, user_expressions={"log": READ_LOG})
    data = reply["user_expressions"]["log"]
    assert data["status"] == "ok", data
    return json.loads(ast.literal_eval(data["data"]["text/plain"]))  # the repr of a JSON string


def test_cell_ids_from_execute_request_metadata_reach_the_log(kernel):
    reply = execute(kernel, INSTALL, silent=True)  # the front end's silent start-up
    assert reply["status"] == "ok", reply
    assert execute(kernel, "import sys\nfrom pathlib import Path\nx = [1, 2]", cell_id="cell-aaa")["status"] == "ok"
    assert execute(kernel, "x.append(3)\ny = x[10]\nz = 1", cell_id="cell-bbb")["status"] == "error"
    # the checks' own silent requests are not recorded
    execute(kernel, "w = 99", silent=True)
    assert execute(kernel, "x.append(4)", cell_id="cell-aaa")["status"] == "ok"
    execute(kernel, INSTALL, silent=True)  # installing again (e.g. a reconnect) keeps one log
    runs = read_log(kernel)["runs"]
    assert [(r["cellId"], r["executionCount"]) for r in runs] == [("cell-aaa", 1), ("cell-bbb", 2), ("cell-aaa", 3)]
    assert runs[1]["raised"] == {"exception": "IndexError", "line": 2, "beforeExecution": False}
    statuses = [(e["name"], e["status"]) for e in runs[1]["effects"]]
    assert statuses == [("x", "done"), ("y", "skipped"), ("z", "skipped")]


def test_check_entry_point_returns_the_log(kernel):
    request = json.dumps({"protocol": 1, "source": "x['a']", "cellId": "cell-ccc", "useLlm": False,
                          "includeRuntimeInfo": True})
    expr = "__import__('crane_llm.kernel.entry', fromlist=['check']).check(%r)" % request
    reply = execute(kernel, "", silent=True, user_expressions={"r": expr})
    data = reply["user_expressions"]["r"]
    assert data["status"] == "ok", data
    result = data["data"]["application/json"]
    assert result["problem"] is None
    assert [r["cellId"] for r in result["log"]["runs"]] == ["cell-aaa", "cell-bbb", "cell-aaa"]
    assert sys.version_info >= (3, 9)
