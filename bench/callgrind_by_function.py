#!/usr/bin/env python3
"""Instructions of one C file by the function whose body holds each line, inlined or not.

callgrind attributes an inlined helper's instructions to its caller's symbol (router=iq's
cycle is one symbol, rs__iq_step, with two dozen helpers inlined into it); its line-level
annotation still names the helper's source lines. This script sums those lines per
enclosing function definition of SOURCE (found by a top-level definition pattern) and
prints each function's instructions, share, and instructions per UNIT when --per is given
(e.g. the run's flit_hops).

usage: callgrind_by_function.py CALLGRIND_OUT SOURCE.c [--per N]
"""
import os
import re
import subprocess
import sys


def definitions(path):
    """(first line, name) of each top-level function definition, in order."""
    out = []
    pat = re.compile(r'^(?:[A-Za-z_][\w ]*\s[\*\s]*)?([A-Za-z_]\w*)\s*\(')
    with open(path) as fh:
        for i, line in enumerate(fh, 1):
            if line[:1].isspace() or line.startswith(('#', '/', '}', '{')):
                continue
            m = pat.match(line)
            if m and not line.rstrip().endswith(';'):
                out.append((i, m.group(1)))
    return out


def line_costs(cg_out, path):
    """{line: instructions} of path's annotated source in cg_out."""
    path = os.path.abspath(path)
    # the debug information may name the file relative to a build directory: let
    # callgrind_annotate look in every directory above it
    incs, d = [], os.path.dirname(path)
    while d and d != os.path.dirname(d):
        incs.append('--include=' + d)
        d = os.path.dirname(d)
    text = subprocess.run(['callgrind_annotate', '--auto=yes', '--show-percs=no'] + incs +
                          [cg_out], capture_output=True, text=True, check=True).stdout.split('\n')
    cost, inside, ln = {}, False, None
    for l in text:
        if '-annotated source:' in l:  # Auto- or User-annotated: a new file's block
            name = l.split('-annotated source:', 1)[1].strip()
            inside = name == path or path.endswith('/' + name)
            ln = None
            continue
        if not inside:
            continue
        m = re.match(r'\s*-- line (\d+) -+', l)
        if m:
            ln = int(m.group(1)) - 1
            continue
        if ln is None or '=>' in l:
            continue
        m = re.match(r'\s*([\d,]+|\.)\s', l)
        if not m:
            continue
        ln += 1
        if m.group(1) != '.':
            cost[ln] = cost.get(ln, 0) + int(m.group(1).replace(',', ''))
    return cost


def main():
    args = sys.argv[1:]
    per = None
    if '--per' in args:
        i = args.index('--per')
        per = float(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    cg_out, src = args
    defs = definitions(src)
    agg = {}
    for ln, c in line_costs(cg_out, src).items():
        name = '(before the first function)'
        for start, fn in defs:
            if ln >= start:
                name = fn
        agg[name] = agg.get(name, 0) + c
    total = sum(agg.values())
    for name, c in sorted(agg.items(), key=lambda x: -x[1]):
        extra = f' {c / per:9.1f}' if per else ''
        print(f'{name:32s} {c:>14,d} {100 * c / total:6.1f}%{extra}')
    extra = f' {total / per:9.1f}' if per else ''
    print(f'{"total":32s} {total:>14,d} {100.0:6.1f}%{extra}')


if __name__ == '__main__':
    main()
