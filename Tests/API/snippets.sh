#!/usr/bin/env bash
# Compiles every ```swift block of README.md and Sources/GlideKit/GlideKit.docc/*.md against
# GlideKit's public API, as another package would (the way Tests/Outside/check.sh does it: a
# package next to the checkout, depending on it by path, so `package` declarations are out of
# reach). One package, one file per block, compiled without linking (`swift build --target`):
#   - a block that starts with `import GlideKit` is a whole main.swift: an executable target of
#     its own with the block as its main.swift, so top-level code and Swift 6's main-actor rules
#     apply as in an app (the README's three examples are left to Tests/Outside/check.sh, which
#     builds and runs them and checks that the README shows them as they are);
#   - a block that starts with `override `, `init(`, `func ` or `private ` is members of a View
#     subclass: wrapped in `final class SnippetN: SnippetView`, whose base gives it the knob's
#     `angle` and `spin`;
#   - any other block is statements: wrapped in a `@MainActor` function (main.swift's and the
#     builder's isolation), in an enum of its own; names the text leaves to the reader (`window`,
#     `launch`, `rows`, the app's own functions) come from Prelude.swift below;
#   - a block with `import PackageDescription` is a manifest: `swift package dump-package`.
# Code that is not meant to compile (shell, JSON, output, a counter-example) is fenced as
# ```sh, ```json, ```text or plain ``` instead. Errors point at the Markdown file and line.
# Usage: Tests/API/snippets.sh   (after Tests/Outside/check.sh, whose build it reuses when it
# finds it: OUTSIDE_WORK, else the newest /tmp/glide-outside.* made from this checkout)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd -P)
start=$SECONDS

# The outside package's folder and build, when Tests/Outside/check.sh left them: this package then
# sits beside its MyKiosk, depends on the checkout by the same path (check.sh says why) and builds
# in MyKiosk's .build (--scratch-path; OUTSIDE_SCRATCH when check.sh was given one), where Glide's
# modules are already compiled: only the snippets are compiled.
outside=${OUTSIDE_WORK:-}
if [ -z "$outside" ]; then
    for d in $(ls -dt /tmp/glide-outside.* 2>/dev/null); do
        if [ -d "$d/MyKiosk/.build" ] && grep -qF "path: \"$root\")" "$d/MyKiosk/Package.swift"; then
            outside=$d; break
        fi
    done
fi
if [ -n "$outside" ] && [ -d "${OUTSIDE_SCRATCH:-$outside/MyKiosk/.build}" ]; then
    work=$outside
    scratch=${OUTSIDE_SCRATCH:-$outside/MyKiosk/.build}
else
    work=${SNIPPETS_WORK:-$(mktemp -d /tmp/glide-snippets.XXXXXX)}
    scratch=$work/Snippets/.build
fi
pkg=$work/Snippets
read -r -a shared <<< "${SHARED_BUILD_FLAGS:-}"   # the flags of the build there (CI: the board build's)
rm -rf "$pkg/Sources" "$pkg/Manifests"
mkdir -p "$pkg/Sources"
[ -f "$work/MyKiosk/Package.resolved" ] && cp "$work/MyKiosk/Package.resolved" "$pkg/"

python3 - "$root" "$pkg" <<'PY'
import glob, os, re, sys
root, pkg = sys.argv[1], sys.argv[2]
files = ["README.md"] + sorted(os.path.relpath(p, root) for p in glob.glob(f"{root}/Sources/GlideKit/GlideKit.docc/*.md"))

def blocks(path):
    """(first line number of the code, its lines) for each ```swift fence, indentation removed."""
    lines = open(os.path.join(root, path), encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)```swift\s*$", lines[i])
        if not m:
            i += 1
            continue
        indent, body, i = len(m.group(1)), [], i + 1
        start = i + 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
            i += 1
        if i == len(lines):
            sys.exit(f"{path}:{start - 1}: a ```swift fence that never closes")
        yield start, body
        i += 1

def first_code_line(body):
    for line in body:
        s = line.strip()
        if s and not s.startswith("//"):
            return s
    return ""

header = "import GlideKit\n#if canImport(Glibc)\nimport Glibc\n#endif\n"
examples = {open(f"{root}/Sources/{e}/main.swift", encoding="utf-8").read().split("\n", 1)[1].strip()
            for e in ("ListExample", "ClockExample", "CustomViewExample")}
programs, counts = [], {"program": 0, "members": 0, "statements": 0, "manifest": 0, "outside": 0}
for path in files:
    for n, (line, body) in enumerate(blocks(path)):
        name = f"{re.sub(r'[^A-Za-z0-9]', '', os.path.splitext(os.path.basename(path))[0])}{n + 1}"
        code = "\n".join(body)
        where = f'#sourceLocation(file: "{path}", line: {line})\n'
        first = first_code_line(body)
        if "import PackageDescription" in code:
            os.makedirs(f"{pkg}/Manifests/{name}")
            open(f"{pkg}/Manifests/{name}/Package.swift", "w").write(code + "\n")
            open(f"{pkg}/Manifests/{name}/where", "w").write(f"{path}:{line}")
            counts["manifest"] += 1
        elif first.startswith("import GlideKit") and code.strip() in examples:
            counts["outside"] += 1
        elif first.startswith("import GlideKit"):
            os.makedirs(f"{pkg}/Sources/Program{name}")
            open(f"{pkg}/Sources/Program{name}/main.swift", "w").write(where + code + "\n#sourceLocation()\n")
            programs.append(f"Program{name}")
            counts["program"] += 1
        elif re.match(r"(override |init\(|func |private |fileprivate )", first):
            os.makedirs(f"{pkg}/Sources/Snippets", exist_ok=True)
            open(f"{pkg}/Sources/Snippets/{name}.swift", "w").write(
                header + f"final class Snippet{name}: SnippetView {{\n" + where + code + "\n#sourceLocation()\n}\n")
            counts["members"] += 1
        else:
            os.makedirs(f"{pkg}/Sources/Snippets", exist_ok=True)
            open(f"{pkg}/Sources/Snippets/{name}.swift", "w").write(
                header + f"enum Snippet{name} {{\n@MainActor static func run() async throws {{\n" + where + code
                + "\n#sourceLocation()\n}\n}\n")
            counts["statements"] += 1

# What the articles' fragments take as given: the app's window, launch and views they name, and
# the app's own functions. Never run; only their types matter.
os.makedirs(f"{pkg}/Sources/Snippets", exist_ok=True)
open(f"{pkg}/Sources/Snippets/Prelude.swift", "w").write(header + '''
func given<T>() -> T { fatalError("snippets are compiled, never run") }
var window: Window { given() }
var launch: Launch { given() }
var rows: LazyStack { given() }
var content: View { given() }
var header: View { given() }
var list: ScrollView { given() }
var detail: View { given() }
var closeButton: View { given() }
var logo: ImageView { given() }
var debugLabel: Label { given() }
var price: Label { given() }
var departureIDs: [String] { given() }
func row(for id: String) -> View { given() }
func exhibitRow(_ i: Int, onTap: @escaping (Int) -> Void) -> View { given() }
func exhibitPage(_ i: Int) -> View { given() }
func title(_ i: Int) -> String { given() }
func filterResults(_ query: String) {}
final class SnippetOrder { var takeaway = false; var quantity = 1 }
var order: SnippetOrder { given() }
func pay() {}
func showDepartures(for query: String) {}

/// The base of members-only snippets: the knob's state (CustomViews.md).
class SnippetView: View {
    var angle = 0.0
    var spin = (speed: 0.0, from: 0.0, since: 0.0)
}
''')

targets = "".join(f'        .executableTarget(name: "{p}", dependencies: [glide], path: "Sources/{p}"),\n' for p in programs)
open(f"{pkg}/targets", "w").write("".join(p + "\n" for p in ["Snippets"] + programs))
open(f"{pkg}/Package.swift", "w").write(f'''// swift-tools-version:6.1
// Generated by Tests/API/snippets.sh: the code blocks of Glide's README and articles.
import PackageDescription

let glide: Target.Dependency = .product(name: "Glide", package: "Glide")
let package = Package(
    name: "GlideSnippets",
    dependencies: [.package(name: "Glide", path: "{root}")],
    targets: [
{targets}        .target(name: "Snippets", dependencies: [glide], path: "Sources/Snippets"),
    ]
)
''')
total = sum(counts.values())
print(f"snippets: {total} swift blocks in {len(files)} files: {counts['program']} whole programs, "
      f"{counts['statements']} fragments of statements, {counts['members']} of members, {counts['manifest']} manifests, "
      f"{counts['outside']} examples built by Tests/Outside/check.sh")
PY

for m in "$pkg"/Manifests/*/; do
    [ -d "$m" ] || continue
    swift package --package-path "$m" dump-package >/dev/null 2>"$m/err" ||
        { echo "$(cat "$m/where"): this Package.swift does not load:" >&2; cat "$m/err" >&2; exit 1; }
done
rm -rf "$pkg/Manifests"
# One target at a time: `--target` compiles without linking, where a product would link each
# program (some 75 MB apiece in a debug build).
while read -r target; do
    if ! out=$(swift build --package-path "$pkg" --scratch-path "$scratch" "${shared[@]}" --target "$target" 2>&1); then
        echo "$out" | grep -E "error|^\s+[0-9]+ \|" >&2 || echo "$out" >&2
        echo "snippets: a code block of the README or an article does not compile against GlideKit's public API" >&2
        exit 1
    fi
done < "$pkg/targets"
echo "snippets: all compile against GlideKit's public API ($((SECONDS - start)) s, built in $scratch)"
