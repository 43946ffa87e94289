"""Start a throw-away Jupyter server for the e2e tests.

Fresh root, settings and workspace directories every run (JupyterLab otherwise reopens the
previous workspace), no token, no news toast, no browser.

For the model path it also starts the local OpenAI-compatible server
(python/crane_llm_testing/fake_openai.py) and points CRANE-LLM at it through a config.json in a
scratch HOME, which tests rewrite to change provider settings (e.g. to remove the key): the
server extension reads that file on every request. Where things are, for the tests:

    <root>-e2e.json   {"fakeOpenai": "http://127.0.0.1:<n>", "home": "<scratch HOME>"}

It also adds two kernelspecs: `crane-e2e-other` (language "r", for the non-Python flow) and
`crane-e2e-bare` (Python where `import crane_llm` fails, for the "not installed" flow).
The e2e server starts with "Use the LLM" off, as the foundation tests expect; tests that need
the model turn it on.
"""

import argparse
import ctypes
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_PYTHON = Path(__file__).resolve().parent.parent / "python"


def _die_with_parent() -> None:
    # Linux: the fake provider stops when the Jupyter server (this process, after exec) stops.
    try:
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def start_fake_openai() -> str:
    env = dict(os.environ, PYTHONPATH=str(REPO_PYTHON), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "crane_llm_testing.fake_openai", "--port", "0"],
        stdout=subprocess.PIPE,
        env=env,
        preexec_fn=_die_with_parent,
    )
    line = proc.stdout.readline().decode().strip()
    if not line.startswith("PORT "):
        raise SystemExit("the fake OpenAI server did not start: %r" % line)
    return "http://127.0.0.1:%s" % line.split()[1]


def write_kernelspecs(data_dir: Path) -> None:
    launch = "from ipykernel.kernelapp import launch_new_instance; launch_new_instance()"
    specs = {
        "crane-e2e-other": {
            "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "Other language (e2e)",
            "language": "r",
        },
        "crane-e2e-bare": {
            "argv": [sys.executable, "-c", "import sys; sys.modules['crane_llm'] = None; " + launch, "-f", "{connection_file}"],
            "display_name": "Python without crane_llm (e2e)",
            "language": "python",
        },
    }
    for name, spec in specs.items():
        folder = data_dir / "kernels" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "kernel.json").write_text(json.dumps(spec))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jupyter", default="jupyter")
    parser.add_argument("--port", type=int, default=8899)
    parser.add_argument("--base-url", default="/")
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="crane-e2e-"))
    root = Path(os.environ.get("CRANE_E2E_ROOT", scratch / "notebooks"))
    settings = scratch / "settings" / "@jupyterlab" / "apputils-extension"
    root.mkdir(parents=True, exist_ok=True)
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    crane_settings = scratch / "settings" / "crane-llm-jlab"
    crane_settings.mkdir(parents=True)
    (crane_settings / "plugin.jupyterlab-settings").write_text(json.dumps({"useLlm": False}))

    home = scratch / "home"
    (home / ".crane_llm").mkdir(parents=True)
    fake = start_fake_openai()
    (home / ".crane_llm" / "config.json").write_text(
        json.dumps({"base_url": fake + "/v1", "model": "fake-model", "api_key": "sk-e2e-not-a-real-key"})
    )
    (root.parent / (root.name + "-e2e.json")).write_text(json.dumps({"fakeOpenai": fake, "home": str(home)}))
    data_dir = scratch / "data"
    write_kernelspecs(data_dir)
    os.environ["HOME"] = str(home)
    os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(data_dir), os.environ.get("JUPYTER_PATH")]))
    for name in ("CRANE_LLM_API_KEY", "CRANE_LLM_MODEL", "CRANE_LLM_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        os.environ.pop(name, None)
    cmd = [
        args.jupyter,
        "lab",
        f"--port={args.port}",
        "--ip=127.0.0.1",
        "--no-browser",
        "--allow-root",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        f"--ServerApp.base_url={args.base_url}",
        f"--ServerApp.root_dir={root}",
        f"--LabApp.user_settings_dir={scratch / 'settings'}",
        f"--LabApp.workspaces_dir={scratch / 'workspaces'}",
        # galata-style: tests drive the app through window.jupyterapp.
        "--LabApp.expose_app_in_browser=True",
        "--JupyterNotebookApp.expose_app_in_browser=True",
        # jupyter-server-mcp (the test extra) serves the check_cell tool: any free port, never 3001.
        "--MCPExtensionApp.mcp_port=0",
    ]
    os.execvp(cmd[0], cmd)


if __name__ == "__main__":
    main()
