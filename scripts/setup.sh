#!/usr/bin/env bash
# Set up CRANE-LLM from a clean clone: Node packages, the labextension, the wheel, and a virtual
# environment (.venv) with the wheel installed as a user would install it.
#   scripts/setup.sh          what the quickstart needs
#   scripts/setup.sh --test   also the test extra, Debian's chromium, the extra environments
#                             the tests use (Python 3.9 and 3.13 kernels, the oldest JupyterLab),
#                             and llama-server with a tiny model (scripts/llama-server.sh, cached)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TEST=0
[ "${1:-}" = "--test" ] && TEST=1
PY=${CRANE_PY311:-python3.11}
"$PY" -c 'import sys' >/dev/null 2>&1 || PY=python3
# This machine's pip.conf names local indexes that may be absent; keep their warnings out of the log.
pip_quiet() { "$@" 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2); }
step() { printf '\n== %s\n' "$*"; }
# A pyenv shim can exist without a runnable interpreter behind it: try each candidate.
find_python() {
  local c
  for c in "python$1" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$1".*/bin/python; do
    if "$c" -c 'import sys' >/dev/null 2>&1; then echo "$c"; return 0; fi
  done
  return 0
}

step "Python environment (.venv, $($PY --version))"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
# jupyter-builder builds the labextension; JupyterLab 4 runs it.
pip_quiet .venv/bin/pip install -q "jupyterlab>=4.6,<5" "notebook>=7.6,<8" "jupyter-builder>=1.2" build
export PATH="$ROOT/.venv/bin:$PATH"

step "Node packages (npm ci)"
npm ci --no-audit --no-fund --loglevel=error

step "Build the libraries and the labextension"
# Built from scratch: a cache replay from another checkout would be a build nobody ran here.
npx nx run-many -t build --outputStyle=static --skip-nx-cache

step "Build and install the wheel"
rm -rf dist && .venv/bin/python -m build --wheel --outdir dist python >/dev/null
WHEEL=$(ls dist/crane_llm-*.whl)
if [ $TEST = 1 ]; then
  pip_quiet .venv/bin/pip install -q "$WHEEL[lab,test]"
else
  pip_quiet .venv/bin/pip install -q "$WHEEL[lab]" pandas numpy scikit-learn
fi
# Read the whole listing first: `grep -q` would close the pipe early and pipefail would report it.
listing=$(jupyter labextension list 2>&1; jupyter server extension list 2>&1)
grep -q "crane-llm-jlab.*enabled.*OK" <<<"$listing" || { echo "labextension not registered" >&2; exit 1; }
grep -q "crane_llm.*enabled" <<<"$listing" || { echo "server extension not enabled" >&2; exit 1; }

if [ $TEST = 1 ]; then
  step "Debian's chromium for the browser tests"
  if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ]; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
      echo "Install chromium (sudo apt-get install chromium) and run again." >&2; exit 1
    fi
  fi

  # Kernel-side code promises Python 3.9+; its tests also run on 3.9 and 3.13.
  for v in 3.9 3.13; do
    py=$(find_python "$v")
    if [ -z "$py" ]; then echo "python$v not found: skipping its environment" >&2; continue; fi
    step "Kernel-side environment on Python $v (.venv-py$v)"
    [ -x ".venv-py$v/bin/python" ] || "$py" -m venv ".venv-py$v"
    ".venv-py$v/bin/python" -m pip install -q --upgrade pip
    pip_quiet ".venv-py$v/bin/pip" install -q "$WHEEL[test]"
  done

  # A real OpenAI-compatible server and model for the real-model tests, built once per machine and
  # cached in ~/.cache/crane-llm (about 7 minutes on 2 cores the first time). A failure is not
  # hidden: those tests then fail with the reason.
  step "Real model server (llama-server + SmolLM2-135M-Instruct, cached)"
  PATH="$ROOT/.venv/bin:$PATH" CRANE_PY="$ROOT/.venv/bin/python" bash scripts/llama-server.sh \
    || echo "llama-server is unavailable: the real_model tests will fail with the reason above." >&2

  # The oldest JupyterLab 4 the labextension declares (>=4.2): the e2e runs against it too.
  step "Oldest supported JupyterLab (.venv-lab-oldest)"
  [ -x .venv-lab-oldest/bin/python ] || "$PY" -m venv .venv-lab-oldest
  .venv-lab-oldest/bin/python -m pip install -q --upgrade pip
  pip_quiet .venv-lab-oldest/bin/pip install -q "jupyterlab==4.2.0" "notebook==7.2.0" "$WHEEL" pandas numpy scikit-learn
fi
step "Set up."
