#!/usr/bin/env python3
"""Lists the longest functions (func, init, deinit, subscript, closures excluded) in the given
Swift source folders, longest first: lines from the declaration to its closing brace.
Usage: Tests/API/longest-functions.py [--top N] [--max LINES] DIR...
With --max, exits 1 when a function is longer than LINES (the UI core's budget)."""
import argparse, pathlib, re, sys

DECL = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|open|static|class|final|override|mutating|nonisolated|convenience|required|@inlinable|@discardableResult)\s+)*(func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<])')

def strip(line, state):
    """The line without strings and comments; state carries an open /* comment across lines."""
    out, i = [], 0
    while i < len(line):
        if state['block']:
            end = line.find('*/', i)
            if end < 0: return ''.join(out)
            state['block'], i = False, end + 2
        elif line.startswith('//', i): break
        elif line.startswith('/*', i): state['block'], i = True, i + 2
        elif line[i] == '"':
            j = i + 1
            while j < len(line) and line[j] != '"':
                j += 2 if line[j] == '\\' else 1
            i = j + 1
        else:
            out.append(line[i]); i += 1
    return ''.join(out)

def functions(path):
    lines = path.read_text().split('\n')
    state = {'block': False}
    code = [strip(l, state) for l in lines]
    for n, line in enumerate(code):
        m = DECL.match(line)
        if not m: continue
        depth, opened = 0, False
        for k in range(n, len(code)):
            for ch in code[k]:
                if ch == '{': depth += 1; opened = True
                elif ch == '}': depth -= 1
            if opened and depth <= 0:
                yield k - n + 1, f'{path}:{n + 1}', m.group(1).strip(' (<')
                break
            if not opened and k > n and (code[k].strip() == '' or DECL.match(code[k])):
                break   # a requirement without a body

ap = argparse.ArgumentParser()
ap.add_argument('--top', type=int, default=10)
ap.add_argument('--max', type=int)
ap.add_argument('dirs', nargs='+')
args = ap.parse_args()
found = sorted((f for d in args.dirs for p in sorted(pathlib.Path(d).rglob('*.swift')) for f in functions(p)), reverse=True)
for length, where, name in found[:args.top]:
    print(f'{length:4d}  {name:32s} {where}')
if args.max is not None:
    over = [f for f in found if f[0] > args.max]
    if over:
        print(f'{len(over)} function(s) longer than {args.max} lines', file=sys.stderr)
        sys.exit(1)
