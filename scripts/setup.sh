#!/usr/bin/env bash
# Set up CRANE-LLM from a clean clone: Node packages, the labextension, the wheel, and a virtual
# environment (.venv) with the wheel installed as a user would install it.
#   scripts/setup.sh          what the quickstart needs
#   scripts/setup.sh --reuse  the same, skipping each step whose inputs have not changed since it
#                             last succeeded here (the quickstart run a second time)
#   scripts/setup.sh --test   also the test extra, Debian's chromium, and the extra environments
#                             the tests use (Python 3.9 and 3.13 kernels, the oldest JupyterLab),
#                             llama-server with a tiny model (scripts/llama-server.sh, cached),
#                             LiteLLM's proxy (scripts/litellm.sh, its own venv, cached);
#                             always from scratch, as CI needs
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TEST=0
REUSE=0
[ "${1:-}" = "--test" ] && TEST=1
[ "${1:-}" = "--reuse" ] && REUSE=1
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

# With --reuse, a step is skipped when the fingerprint of its inputs matches the one stored when
# it last succeeded (in .venv/.crane-setup/, so a new .venv starts over) and its output exists.
STAMPS=.venv/.crane-setup
fingerprint() {  # the contents of the files git knows (tracked or new, not ignored) under the paths
  git ls-files -z -co --exclude-standard -- "$@" | sort -z | xargs -0 sha1sum 2>/dev/null | sha1sum | cut -d' ' -f1
}
fresh() {  # fresh STEP FINGERPRINT OUTPUT: the step may be skipped
  [ $REUSE = 1 ] && [ -e "$3" ] && [ "$(cat "$STAMPS/$1" 2>/dev/null)" = "$2" ]
}
done_step() { mkdir -p "$STAMPS" && echo "$2" > "$STAMPS/$1"; }

step "Python environment (.venv, $($PY --version))"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
TOOLS="jupyterlab>=4.6,<5 notebook>=7.6,<8 jupyter-builder>=1.2 build"
if fresh tools "$TOOLS" .venv/bin/jupyter; then echo "unchanged: skipped"; else
  .venv/bin/python -m pip install -q --upgrade pip
  # jupyter-builder builds the labextension; JupyterLab 4 runs it.
  # shellcheck disable=SC2086
  pip_quiet .venv/bin/pip install -q $TOOLS
  done_step tools "$TOOLS"
fi
export PATH="$ROOT/.venv/bin:$PATH"

step "Node packages (npm ci)"
LOCK=$(fingerprint package-lock.json package.json)
if fresh npm "$LOCK" node_modules; then echo "package-lock.json unchanged: skipped"; else
  npm ci --no-audit --no-fund --loglevel=error
  done_step npm "$LOCK"
fi

step "Build the libraries and the labextension"
SOURCES=$(fingerprint libs apps package-lock.json tsconfig.base.json nx.json)
if fresh build "$SOURCES" python/crane_llm/labextension/package.json; then echo "sources unchanged: skipped"; else
  # Built from scratch: a cache replay from another checkout would be a build nobody ran here.
  npx nx run-many -t build --outputStyle=static --skip-nx-cache
  done_step build "$SOURCES"
fi

step "Build and install the wheel"
PACKAGE=$( (fingerprint python; echo "$SOURCES") | sha1sum | cut -d' ' -f1)
if fresh wheel "$PACKAGE" "$(ls dist/crane_llm-*.whl 2>/dev/null | head -1)"; then echo "sources unchanged: skipped"; else
  rm -rf dist && .venv/bin/python -m build --wheel --outdir dist python >/dev/null
  WHEEL=$(ls dist/crane_llm-*.whl)
  if [ $TEST = 1 ]; then
    pip_quiet .venv/bin/pip install -q "$WHEEL[lab,test]"
  else
    pip_quiet .venv/bin/pip install -q "$WHEEL[lab]" pandas numpy scikit-learn
  fi
  # The version number stays 0.1.0 while the sources change: without this pip keeps the old files.
  pip_quiet .venv/bin/pip install -q --force-reinstall --no-deps "$WHEEL"
  done_step wheel "$PACKAGE"
fi
WHEEL=$(ls dist/crane_llm-*.whl)
# Checked when the wheel was installed; an unchanged install was checked then.
if [ "$(cat "$STAMPS/checked" 2>/dev/null)" != "$PACKAGE" ] || [ $REUSE = 0 ]; then
  # Read the whole listing first: `grep -q` would close the pipe early and pipefail would report it.
  listing=$(jupyter labextension list 2>&1; jupyter server extension list 2>&1)
  grep -q "crane-llm-jlab.*enabled.*OK" <<<"$listing" || { echo "labextension not registered" >&2; exit 1; }
  grep -q "crane_llm.*enabled" <<<"$listing" || { echo "server extension not enabled" >&2; exit 1; }
  done_step checked "$PACKAGE"
fi

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

  # LiteLLM's proxy, in front of llama-server for the Responses API tests: in its own virtual
  # environment (its dependencies would disturb .venv), cached in ~/.cache/crane-llm.
  step "LiteLLM proxy (litellm[proxy]==1.108.7, own venv, cached)"
  CRANE_PY="$PY" bash scripts/litellm.sh \
    || echo "LiteLLM is unavailable: the real_model tests through it will fail with the reason above." >&2

  # The oldest JupyterLab 4 the labextension declares (>=4.2): the e2e runs against it too.
  step "Oldest supported JupyterLab (.venv-lab-oldest)"
  [ -x .venv-lab-oldest/bin/python ] || "$PY" -m venv .venv-lab-oldest
  .venv-lab-oldest/bin/python -m pip install -q --upgrade pip
  pip_quiet .venv-lab-oldest/bin/pip install -q "jupyterlab==4.2.0" "notebook==7.2.0" "$WHEEL" pandas numpy scikit-learn
fi
step "Set up."
