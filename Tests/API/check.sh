#!/usr/bin/env bash
# The public API against its baseline (Tests/API/baseline.txt), the symbol budget and the
# documentation of every public symbol; see api.py. Reads the debug build's modules (built here
# when out of date), or GLIDE_BIN_PATH's (CI: the board build's), through symbols.sh.
#   Tests/API/check.sh            check
#   Tests/API/check.sh --count    public symbols per module
#   Tests/API/check.sh --update   accept the current API as the new baseline (a deliberate change)
set -euo pipefail
cd "$(dirname "$0")/../.."
graphs=$(mktemp -d /tmp/glide-api.XXXXXX)
trap 'rm -rf "$graphs"' EXIT
Tests/API/symbols.sh "$graphs"
case "${1:-}" in
    --count) python3 Tests/API/api.py count "$graphs" ;;
    --update) python3 Tests/API/api.py update "$graphs" Tests/API/baseline.txt ;;
    *) python3 Tests/API/api.py check "$graphs" Tests/API/baseline.txt ;;
esac
