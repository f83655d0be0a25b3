#!/usr/bin/env bash
# The interoperability suite's Python environment: .venv-interop/ with tests/interop/requirements.txt,
# from the machine's configured package index. Does nothing when it is already there and up to date.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.venv-interop
requirements=tests/interop/requirements.txt
stamp="$venv/.requirements.sha256"
want=$(sha256sum "$requirements" | cut -d' ' -f1)
if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  exit 0
fi
echo "› Python environment for the interoperability suite ($venv)"
rm -rf "$venv"
python3 -m venv "$venv"
# --retries 0: an index that does not answer (no network) fails over to the next configured one at
# once instead of after five backed-off retries per package (9 minutes here instead of 45 s).
"$venv/bin/pip" install --quiet --disable-pip-version-check --retries 0 --timeout 15 -r "$requirements" 2>&1 \
  | { grep -v -e '^WARNING: Retrying' -e '^WARNING: Location .* is ignored' || true; }
"$venv/bin/python" -c "import mcp, fastmcp"
echo "$want" > "$stamp"
