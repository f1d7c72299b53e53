#!/usr/bin/env python3
"""GlideKit's public API, read from SwiftPM's public symbol graphs (`swift package
dump-symbol-graph --minimum-access-level public`).

  api.py count GRAPHS             public symbols per module, and the total
  api.py check GRAPHS BASELINE    fails on a break against BASELINE, on more than the budget of
                                  symbols, and on a public symbol without documentation
  api.py update GRAPHS BASELINE   rewrites BASELINE from GRAPHS at a release (its version is
                                  Glide's, from Sources/AppContract/Version.swift)

The modules counted are every module of the package but the test support (TestSupport,
FuzzTargets and the test targets): the demo's and the devices' too, so nothing public hides
there. A break is a baseline line (one declaration: module, path, access, declaration) that is
gone or changed, or a new requirement of a protocol the baseline has: code built against the
baseline would no longer compile. New declarations are additions and pass. A break passes only
when the version has moved past the baseline's release by its major part (below 1.0, by its
minor part, as Semantic Versioning has it), and CHANGELOG.md must have a section for the version."""
import glob, json, os, re, sys

# 600 was the curated API's budget with text entry and accessibility (issue 31); the world's
# scripts add 21 symbols an app needs (layout direction, weights and italic on labels, fields
# and drawn text, a view's speech language, a field's keyboard layout), so it was 625; the
# toolkit's controls (Button, Toggle, Slider, Stepper, Picker, ProgressView, Divider, Icon),
# Binding, follow(_:) and the row-layout modifiers add 94, most of them each control's
# initialiser, value and the view overrides every public view has, so it was 720; the lazy
# grids and the modal views (alert, confirmationDialog, sheet, AlertButton) made it 760; sections
# (LazyVStack and LazyVGrid in sections, reloadData(sections:)), TabView.isBarHidden,
# ViewThatFits, the idle reset's warning and the audit (AccessibilityFinding, Kiosk.audit) make it 780.
# Issue 45's look and motion (Theme and its roles as Color.accent and the others, ColorScheme,
# ColorSchedule, Animation, Transition, withAnimation, Icon by name, opacity, offset,
# scaleEffect, transition and shadow on every view) make it 860; the theme's type scale
# (TextStyle's eleven styles, TypeScale, Label.font and textStyle), its corner radii and
# Binding.animation add 36, so it was 900. Issue 59 makes every colour a built-in view draws a
# public role, so that an app can theme all of them (a switch's track, a field's border, the
# keyboard's keys, the dimmed screen behind an alert, a page control's dots): 23 roles, each a
# property of Theme and a Color static, add 45, so it was 940. Issue 60's languages add the
# string catalog (StringCatalog, its error, LocalizedStringKey and its interpolation), the
# formats of numbers, money, times and dates (LocaleFormats and its digits), the window's
# catalog, digits and direction-following, and a catalog-key initialiser beside the String one
# of each titled view (Label, Button, Toggle, Picker, Stepper, ProgressView, Tab, AlertButton, alert
# and dialog): 990. The navigation stack's titles as keys make it 994: its initialiser and push
# each come without a title, with a key and with a String (a key that may be nil beside a
# String generic lost to the generic when the screen was a label made from a literal).
# Issue 62's display schedule adds Window.onDisplayPower, so that an app is told when the
# panel goes off outside opening hours (or idle) and on again: 995. Issue 63's video adds
# VideoView: the view, its initialiser, its clip, fit, loop and end hook, play, pause, seek,
# position, duration, state and failure, its four states, and the overrides and AnimatedView
# witnesses a view of its own needs: 1022. Its sound when asked (`isMuted`) makes it 1023.
BUDGET = 1023
SKIP = ("GlidePackageTests", "GlidePackageDiscoveredTests", "FuzzTargets", "TestSupport")

def load(graphs):
    symbols, relations = [], []
    for path in sorted(glob.glob(os.path.join(graphs, "*.symbols.json"))):
        module = os.path.basename(path).split(".symbols.json")[0]
        if module.split("@")[0] in SKIP: continue
        graph = json.load(open(path))
        for s in graph["symbols"]:
            s["module"] = module.split("@")[0]
            symbols.append(s)
        relations += graph.get("relationships", [])
    return symbols, relations

def line(s):
    declaration = "".join(f["spelling"] for f in s.get("declarationFragments", []))
    return f'{s["module"]} {".".join(s["pathComponents"])} {s["accessLevel"]}: {" ".join(declaration.split())}'

def requirements(symbols, relations):
    """Lines of protocol requirements (not optional ones), by protocol line."""
    by_id = {s["identifier"]["precise"]: s for s in symbols}
    out = {}
    for r in relations:
        if r["kind"] == "requirementOf" and r["source"] in by_id and r["target"] in by_id:
            out.setdefault(line(by_id[r["target"]]), set()).add(line(by_id[r["source"]]))
    return out

def documented(s, inherits):
    return bool(s.get("docComment", {}).get("lines")) or s["identifier"]["precise"] in inherits

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

def glide_version():
    text = open(os.path.join(ROOT, "Sources/AppContract/Version.swift")).read()
    return re.search(r'static let version = "([0-9]+\.[0-9]+\.[0-9]+)"', text).group(1)

def breaking_part(version):
    """The part of a version whose change may break the API: the major, or below 1.0 the minor."""
    major, minor, _ = (int(p) for p in version.split("."))
    return (major, minor) if major == 0 else (major,)

def main():
    command, graphs = sys.argv[1], sys.argv[2]
    symbols, relations = load(graphs)
    counts = {}
    for s in symbols: counts[s["module"]] = counts.get(s["module"], 0) + 1
    total = len(symbols)
    if command == "count":
        for module, n in sorted(counts.items(), key=lambda kv: -kv[1]): print(f"{n:5d} {module}")
        print(f"{total:5d} public symbols in all")
        return 0
    current = sorted({line(s) for s in symbols})
    reqs = requirements(symbols, relations)
    baseline_path = sys.argv[3]
    if command == "update":
        with open(baseline_path, "w") as f:
            f.write("# GlideKit's public API: one declaration a line (Tests/API/api.py update). Do not edit.\n")
            f.write(f"# release {glide_version()}\n")
            for l in current: f.write(l + "\n")
            for protocol in sorted(reqs):
                for r in sorted(reqs[protocol]): f.write(f"requirement of {protocol} = {r}\n")
        print(f"wrote {baseline_path}: {len(current)} declarations")
        return 0
    lines = [l.rstrip("\n") for l in open(baseline_path)]
    release = next((l.split()[2] for l in lines if l.startswith("# release ")), "0.0.0")
    version = glide_version()
    old = [l for l in lines if l.strip() and not l.startswith("#")]
    old_decls = {l for l in old if not l.startswith("requirement of ")}
    old_reqs = {l for l in old if l.startswith("requirement of ")}
    now = set(current)
    failures = []
    gone = sorted(old_decls - now)
    if gone:
        failures.append(f"{len(gone)} declaration(s) of the baseline removed or changed:\n" + "\n".join("  - " + l for l in gone))
    new_reqs = sorted(f"requirement of {p} = {r}" for p, rs in reqs.items() if p in old_decls for r in rs
                      if f"requirement of {p} = {r}" not in old_reqs)
    if new_reqs:
        failures.append(f"{len(new_reqs)} new requirement(s) of existing protocols (conforming apps would break):\n" +
                        "\n".join("  - " + l for l in new_reqs))
    if failures and breaking_part(version) != breaking_part(release):
        print(f"Glide {version} may break {release}'s API (" + "; ".join(f.split(":")[0] for f in failures) + ")")
        failures = []
    changelog = open(os.path.join(ROOT, "CHANGELOG.md")).read()
    if not re.search(r"^## \[" + re.escape(version) + r"\]", changelog, re.M):
        failures.append(f"CHANGELOG.md has no section '## [{version}]' for the version in Version.swift")
    if total > BUDGET:
        failures.append(f"{total} public symbols: the budget is {BUDGET}")
    # Overrides and protocol witnesses show the documentation of what they implement.
    inherits = {r["source"] for r in relations if r["kind"] in ("overrides", "defaultImplementationOf")}
    inherits |= {s["identifier"]["precise"] for s in symbols if "::SYNTHESIZED::" in s["identifier"]["precise"]}
    undocumented = sorted(line(s) for s in symbols if not documented(s, inherits))
    if undocumented:
        failures.append(f"{len(undocumented)} public symbol(s) without documentation:\n" + "\n".join("  - " + l for l in undocumented))
    added = sorted(now - old_decls)
    print(f"{total} public symbols (budget {BUDGET}); {len(added)} declaration(s) added since the baseline")
    for l in added: print("  + " + l)
    if failures:
        print("\n".join(failures), file=sys.stderr)
        print(f"A break of {release}'s API needs the next version whose {'minor' if version.startswith('0.') else 'major'} part moved "
              "(Sources/AppContract/Version.swift and CHANGELOG.md); at a release, Tests/API/check.sh --update.", file=sys.stderr)
        return 1
    return 0

sys.exit(main())
