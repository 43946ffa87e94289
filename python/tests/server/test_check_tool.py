"""The MCP tool `check_cell` through a real Jupyter server, jupyter-server-mcp and the official MCP client.

A real kernel session runs a notebook's earlier cells the way JupyterLab sends them (with the
cell id in the request's metadata, so the recorder knows which cell ran), then an MCP client
calls the tool over streamable HTTP, as Claude Code or Codex would.
"""

import asyncio
import json
import os
import sys
from pathlib import Path

import jsonschema
import nbformat
import pytest

pytest.importorskip("jupyter_server_mcp")
mcp_client = pytest.importorskip("mcp.client.streamable_http")
from mcp import ClientSession  # noqa: E402

from crane_llm.server import check_tool  # noqa: E402

SCHEMA = json.loads((Path(check_tool.__file__).resolve().parents[1] / "schema" / "check-answer.json").read_text())
PYTHON_DIR = str(Path(__file__).resolve().parents[2])

CELLS = [
    ("setup", "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})"),
    ("drop", "df.drop(columns=['b'], inplace=True)"),
    ("target", "total = df['b'].sum()"),
    ("notes", "# a markdown-like comment cell"),
]


@pytest.fixture
def jp_server_config():
    return {
        "ServerApp": {"jpserver_extensions": {"crane_llm": True, "jupyter_server_mcp": True}},
        # Port 0: the OS picks a free one, so parallel servers never collide on 3001.
        "MCPExtensionApp": {"mcp_port": 0, "use_tool_discovery": False, "mcp_tools": check_tool.TOOLS},
    }


@pytest.fixture
def kernel_env(monkeypatch, tmp_path):
    # The session's kernel is started by the server: it must import crane_llm from this tree.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [PYTHON_DIR, os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("MPLBACKEND", "Agg")


def write_notebook(root: Path, name: str, cells=CELLS, markdown_at=None) -> str:
    nb = nbformat.v4.new_notebook()
    for cell_id, source in cells:
        nb.cells.append(nbformat.v4.new_code_cell(source, id=cell_id))
    if markdown_at is not None:
        nb.cells.insert(markdown_at, nbformat.v4.new_markdown_cell("# Title", id="title"))
    nbformat.write(nb, str(root / name))
    return name


async def start_session(jp_fetch, path: str, kernel: str = "python3") -> str:
    body = {"path": path, "type": "notebook", "name": path, "kernel": {"name": kernel}}
    res = await jp_fetch("api", "sessions", method="POST", body=json.dumps(body))
    return json.loads(res.body)["kernel"]["id"]


async def run_cell(serverapp, kernel_id: str, source: str, cell_id=None, wait=True) -> dict:
    """Execute like JupyterLab does: a normal request whose metadata names the cell."""
    client = serverapp.kernel_manager.get_kernel(kernel_id).client()
    client.start_channels()
    try:
        content = {"code": source, "silent": False, "store_history": True, "user_expressions": {},
                   "allow_stdin": False, "stop_on_error": True}
        msg = client.session.msg("execute_request", content, metadata={"cellId": cell_id} if cell_id else {})
        client.shell_channel.send(msg)
        if not wait:
            await asyncio.sleep(0.3)
            return {}
        while True:
            reply = await client.get_shell_msg(timeout=60)
            if reply["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
                return reply["content"]
    finally:
        client.stop_channels()


async def wait_idle(serverapp, kernel_id: str) -> None:
    kernel = serverapp.kernel_manager.get_kernel(kernel_id)
    for step in range(1200):  # a minute: a kernel started on a loaded machine can take a while to say it is idle
        if kernel.execution_state == "idle":
            return
        if step % 100 == 99:
            # The server learns the state from iopub status messages; one missed (its subscription
            # joins late on a loaded machine) leaves it "busy" for good. An empty execution sends
            # a fresh busy/idle pair.
            await run_cell(serverapp, kernel_id, "")
        await asyncio.sleep(0.05)
    raise AssertionError("kernel never became idle")


async def call_tool(serverapp, **arguments) -> dict:
    [mcp_app] = list(serverapp.extension_manager.extension_apps["jupyter_server_mcp"])
    if mcp_app.mcp_server_instance is None:  # `jupyter lab` starts extensions; the test server does not
        await serverapp.extension_manager.start_extension("jupyter_server_mcp")
    url = "http://localhost:%d/mcp" % mcp_app.mcp_server_instance.port
    async with mcp_client.streamable_http_client(url) as (read, write, *_):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            assert "check_cell" in [t.name for t in tools.tools]
            result = await session.call_tool("check_cell", arguments)
    assert not result.is_error
    answer = result.structured_content
    if answer is None or "verdict" not in answer:
        answer = json.loads(result.content[0].text)
    answer = answer.get("result", answer)
    jsonschema.validate(answer, SCHEMA)
    return answer


async def prepared(jp_fetch, jp_serverapp, jp_root_dir, name="work.ipynb", upto=2):
    path = write_notebook(jp_root_dir, name, markdown_at=0)
    kernel_id = await start_session(jp_fetch, path)
    await run_cell(jp_serverapp, kernel_id, "__import__('crane_llm').load_ipython_extension(get_ipython())")
    for cell_id, source in CELLS[:upto]:
        reply = await run_cell(jp_serverapp, kernel_id, source, cell_id)
        assert reply["status"] == "ok", reply
    await wait_idle(jp_serverapp, kernel_id)
    return path, kernel_id


async def test_certain_key_error_with_its_origin(kernel_env, jp_fetch, jp_serverapp, jp_root_dir):
    path, kernel_id = await prepared(jp_fetch, jp_serverapp, jp_root_dir)
    answer = await call_tool(jp_serverapp, notebook_path=path, cell_id="target")
    assert answer["problem"] is None
    verdict = answer["verdict"]
    assert verdict["kind"] == "certain-crash" and verdict["exception"] == "KeyError" and verdict["line"] == 1
    assert answer["cellIndex"] == 3  # the markdown title sits at 0
    drop = [e for e in answer["origin"] if e["cellId"] == "drop"]
    assert drop and drop[0]["kind"] == "modified" and "dropped columns" in drop[0]["sentence"]
    assert any(e["cellId"] == "setup" and e["kind"] == "assigned" for e in answer["origin"])
    # The claim is true: running the cell raises exactly that.
    reply = await run_cell(jp_serverapp, kernel_id, CELLS[2][1], "target")
    assert reply["status"] == "error" and reply["ename"] == "KeyError"


async def test_by_index_and_nothing_certain_on_a_fine_cell(kernel_env, jp_fetch, jp_serverapp, jp_root_dir):
    path, kernel_id = await prepared(jp_fetch, jp_serverapp, jp_root_dir, upto=1)
    answer = await call_tool(jp_serverapp, notebook_path=path, cell_index=3)
    assert answer["problem"] is None and answer["cellId"] == "target"
    assert answer["verdict"]["kind"] == "nothing-certain" and answer["origin"] == []
    reply = await run_cell(jp_serverapp, kernel_id, CELLS[2][1], "target")
    assert reply["status"] == "ok"


async def test_problems_are_answers_never_exceptions(kernel_env, jp_fetch, jp_serverapp, jp_root_dir):
    path, kernel_id = await prepared(jp_fetch, jp_serverapp, jp_root_dir, upto=1)
    write_notebook(jp_root_dir, "lonely.ipynb")

    async def problem(**arguments):
        answer = await call_tool(jp_serverapp, **arguments)
        assert answer["verdict"] is None
        return answer["problem"]

    assert (await problem(notebook_path="lonely.ipynb", cell_index=0))["kind"] == "no-session"
    assert (await problem(notebook_path="missing.ipynb", cell_index=0))["kind"] == "no-notebook"
    assert (await problem(notebook_path=path, cell_id="nope"))["kind"] == "no-cell"
    assert (await problem(notebook_path=path, cell_index=99))["kind"] == "no-cell"
    assert (await problem(notebook_path=path, cell_index=0))["kind"] == "not-code"
    assert (await problem(notebook_path=path))["kind"] == "usage"
    # A busy kernel: a cell still running means the state would be a later one.
    await run_cell(jp_serverapp, kernel_id, "import time; time.sleep(3)", wait=False)
    busy = await problem(notebook_path=path, cell_id="target")
    assert busy["kind"] == "busy" and "wait" in busy["message"]
    await wait_idle(jp_serverapp, kernel_id)


async def test_a_kernel_without_crane_llm(kernel_env, jp_fetch, jp_serverapp, jp_root_dir, jp_data_dir):
    spec = jp_data_dir / "kernels" / "bare"
    spec.mkdir(parents=True)
    launch = "import sys; sys.modules['crane_llm'] = None; from ipykernel.kernelapp import launch_new_instance; launch_new_instance()"
    spec.joinpath("kernel.json").write_text(json.dumps(
        {"argv": [sys.executable, "-c", launch, "-f", "{connection_file}"], "display_name": "bare", "language": "python"}))
    path = write_notebook(jp_root_dir, "bare.ipynb")
    kernel_id = await start_session(jp_fetch, path, kernel="bare")
    await run_cell(jp_serverapp, kernel_id, "x = 1")
    await wait_idle(jp_serverapp, kernel_id)
    answer = await call_tool(jp_serverapp, notebook_path=path, cell_id="target")
    assert answer["problem"]["kind"] == "not-installed" and "%pip install crane-llm" in answer["problem"]["message"]


def test_the_package_declares_the_tool_for_discovery():
    text = (Path(PYTHON_DIR) / "pyproject.toml").read_text()
    assert '[project.entry-points."jupyter_server_mcp.tools"]' in text
    assert 'crane_llm = "crane_llm.server.check_tool:TOOLS"' in text
    assert check_tool.TOOLS == ["crane_llm.server.check_tool:check_cell"]


async def test_use_llm_asks_the_servers_model_and_keeps_the_key_there(kernel_env, fake_openai, monkeypatch, jp_fetch, jp_serverapp, jp_root_dir):
    from crane_llm_testing.fake_openai import verdict_text

    key = "sk-server-only-0123456789"
    monkeypatch.setenv("CRANE_LLM_API_KEY", key)
    monkeypatch.setenv("CRANE_LLM_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("CRANE_LLM_MODEL", "fake-model")
    fake_openai.script({"text": verdict_text(True, "the sum overflows nothing but says so", "TypeError", 1, ["df"])})
    path, _ = await prepared(jp_fetch, jp_serverapp, jp_root_dir, upto=1)
    answer = await call_tool(jp_serverapp, notebook_path=path, cell_id="target", use_llm=True)
    assert answer["problem"] is None
    assert answer["verdict"]["kind"] == "predicted-crash" and answer["verdict"]["source"] == {"type": "llm", "model": "fake-model"}
    assert answer["verdict"]["checkerRanFirst"] is True
    [request] = fake_openai.requests()
    assert request["headers"]["authorization"] == "Bearer " + key
    assert "total = df['b'].sum()" in json.dumps(request["body"])
    assert key not in json.dumps(answer)
