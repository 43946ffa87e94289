"""Start a throw-away Jupyter server for the e2e tests.

Fresh root, settings and workspace directories every run (JupyterLab otherwise reopens the
previous workspace), no token, no news toast, no browser.
"""

import argparse
import json
import os
import tempfile
from pathlib import Path


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
    ]
    os.execvp(cmd[0], cmd)


if __name__ == "__main__":
    main()
