#!/usr/bin/env bash
# Create the virtualenv and install Engram with its test dependencies.
# Usage: scripts/bootstrap.sh [python] [venv-dir]
set -euo pipefail
PY="${1:-python3}"
VENV="${2:-.venv}"
cd "$(dirname "$0")/.."

if ! command -v "$PY" >/dev/null; then
  echo "error: $PY not found; Engram needs Python >= 3.11" >&2; exit 1
fi
"$PY" - <<'PYEOF' || { echo "error: Engram needs Python >= 3.11" >&2; exit 1; }
import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)
PYEOF

if [ ! -x "$VENV/bin/python" ]; then
  echo "==> creating virtualenv $VENV"
  "$PY" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --upgrade pip setuptools wheel

# A CPU-only torch wheel dropped in /opt/wheels (or $ENGRAM_WHEELS) is much smaller than the
# default one from PyPI; use it when present.
WHEELS="${ENGRAM_WHEELS:-/opt/wheels}"
if ls "$WHEELS"/torch-*.whl >/dev/null 2>&1; then
  echo "==> installing torch from $WHEELS"
  "$VENV/bin/python" -m pip install -q --find-links "$WHEELS" torch
fi

echo "==> installing Engram and its dependencies (first time: a few minutes, torch is large)"
"$VENV/bin/python" -m pip install -q -e '.[dev]'
echo "==> ready: $VENV/bin/engram"
