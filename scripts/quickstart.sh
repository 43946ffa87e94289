#!/usr/bin/env bash
# Set CRANE-LLM up from a clean clone and open JupyterLab on the example notebook.
# No API key is needed: the built-in checks answer on their own.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/jupyter lab examples/quickstart.ipynb "$@"
