#!/usr/bin/env bash
# The code's format: `swift format lint --strict` with the repository's .swift-format (4-space
# indentation, lines up to 140 columns, the rules that would rewrite the code's deliberate habits
# turned off) over the Swift files of Sources, Tests and Examples, failing on any finding.
# Files are what git knows or would add (tracked, or new and not ignored): no .build folders, no
# fuzz corpus or findings.
#   Tests/API/format.sh                 check everything
#   Tests/API/format.sh PATH...         check only these files or folders
#   Tests/API/format.sh --fix [PATH...] format them in place (swift format format -i), then check
set -euo pipefail
cd "$(dirname "$0")/../.."
fix=0
if [[ ${1:-} == --fix ]]; then fix=1; shift; fi
paths=("$@")
(( ${#paths[@]} )) || paths=(Sources Tests Examples)
files=()
while IFS= read -r f; do
    [[ -f $f ]] && files+=("$f")
done < <(git ls-files --cached --others --exclude-standard -- "${paths[@]}" | grep '\.swift$' |
         grep -Ev '^Tests/Fuzz/(Corpus|Findings)/' | sort -u)
(( ${#files[@]} )) || { echo "format: no Swift files under ${paths[*]}" >&2; exit 1; }
if (( fix )); then
    swift format format --in-place --parallel --configuration .swift-format "${files[@]}"
fi
if ! swift format lint --strict --parallel --configuration .swift-format "${files[@]}"; then
    echo "format: swift format lint found the above; Tests/API/format.sh --fix ${paths[*]} formats them" >&2
    exit 1
fi
echo "format: ${#files[@]} files as .swift-format says"
