#!/usr/bin/env python3
"""Decisions by concrete type outside the example apps: a cast or test (`as?`, `as!`, `is`,
`case let x as`) against a view class, an app (a `Window`) or an example app's class, in any
Swift file of Sources but the example apps' own. Code outside the apps decides through role
protocols (Sources/ViewCore/ViewRoles.swift) and view properties, so that an app's own view
takes part the way a built-in one does. At most --max may remain, each with a comment on its
line or just above it saying why; exit status 1 otherwise.

    python3 Tests/API/concrete-types.py [--max 3] [--root .]
"""

import argparse
import pathlib
import re
import sys

# The example apps: their own code may know their own classes.
APPS = {"Catalog", "ClockExample", "CustomViewExample", "ListExample", "PhotoListExample"}

CLASS = re.compile(r"\bclass\s+([A-Z]\w*)\s*(?:<[^>{]*>)?\s*(?::\s*([^{]*))?\{")


def strip(source):
    """The code without comments and string literals (kept as empty quotes), line by line, so
    words in messages and documentation are not read as code; a line's comment is kept apart."""
    code, comments = [], []
    in_block, in_multi = False, False
    for line in source.split("\n"):
        out, comment, i = [], "", 0
        while i < len(line):
            if in_block:
                end = line.find("*/", i)
                if end < 0:
                    comment += line[i:]
                    i = len(line)
                else:
                    comment += line[i:end]
                    i, in_block = end + 2, False
            elif in_multi:
                end = line.find('"""', i)
                if end < 0:
                    i = len(line)
                else:
                    i, in_multi = end + 3, False
                    out.append('""')
            elif line.startswith("///", i):
                # Documentation says what a declaration is, not why a cast stays.
                break
            elif line.startswith("//", i):
                comment += line[i + 2:]
                break
            elif line.startswith("/*", i):
                in_block, i = True, i + 2
            elif line.startswith('"""', i):
                in_multi, i = True, i + 3
            elif line[i] == '"':
                j = i + 1
                while j < len(line) and line[j] != '"':
                    j += 2 if line[j] == "\\" else 1
                out.append('""')
                i = j + 1
            else:
                out.append(line[i])
                i += 1
        code.append("".join(out))
        comments.append(comment.strip())
    return code, comments


def concrete_classes(files):
    """View classes (those that descend from View), apps (classes that conform to App) and the
    example apps' classes."""
    parents, apps = {}, set()
    for path, text in files:
        code = "\n".join(strip(text)[0])
        for name, supers in CLASS.findall(code):
            names = [s.strip().split("<")[0].split(".")[-1] for s in supers.split(",") if s.strip()]
            parents[name] = names
            if path.parts[1] in APPS or "App" in names:
                apps.add(name)

    def is_view(name, seen=()):
        if name == "View":
            return True
        return any(p not in seen and is_view(p, seen + (name,)) for p in parents.get(name, [])[:1])

    return {n for n in parents if n != "View" and is_view(n)} | {"View"} | apps


def decisions(root):
    files = [(p.relative_to(root), p.read_text()) for p in sorted((root / "Sources").rglob("*.swift"))]
    classes = concrete_classes(files)
    names = "|".join(sorted(classes, key=len, reverse=True))
    pattern = re.compile(rf"(?:\bas[?!]\s*|\bis\s+|\bcase\s+let\s+\w+\s+as\s+|\bcase\s+is\s+)\(?\s*({names})\b(?!\s*\.)")
    found = []
    for path, text in files:
        if path.parts[1] in APPS:
            continue
        code, comments = strip(text)
        for n, line in enumerate(code):
            for match in pattern.finditer(line):
                # Why it stays: a comment on its line, or the comment lines just above it.
                why, k = comments[n], n - 1
                while not why and k >= 0 and not code[k].strip() and comments[k]:
                    why, k = comments[k], k - 1
                found.append((f"{path}:{n + 1}", match.group(1), line.strip(), why))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max", type=int, default=3)
    parser.add_argument("--root", default=str(pathlib.Path(__file__).resolve().parents[2]))
    args = parser.parse_args()
    found = decisions(pathlib.Path(args.root))
    for place, name, line, why in found:
        print(f"{place}: {name}: {line}" + ("" if why else "   <- no comment says why"))
    unexplained = [f for f in found if not f[3]]
    print(f"{len(found)} decision(s) by concrete type outside the example apps (at most {args.max}, each with a comment)")
    return 1 if len(found) > args.max or unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
