#!/usr/bin/env bash
# The public API against its baseline (Tests/API/baseline.txt), the symbol budget and the
# documentation of every public symbol; see api.py. Run after a build (it reuses .build).
#   Tests/API/check.sh            check
#   Tests/API/check.sh --count    public symbols per module
#   Tests/API/check.sh --update   accept the current API as the new baseline (a deliberate change)
set -euo pipefail
cd "$(dirname "$0")/../.."
swift package dump-symbol-graph --minimum-access-level public >/dev/null
graphs=$(swift build --show-bin-path)/../symbolgraph
case "${1:-}" in
    --count) exec python3 Tests/API/api.py count "$graphs" ;;
    --update) exec python3 Tests/API/api.py update "$graphs" Tests/API/baseline.txt ;;
    *) exec python3 Tests/API/api.py check "$graphs" Tests/API/baseline.txt ;;
esac
