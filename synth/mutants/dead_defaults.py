#!/usr/bin/env python3
"""Dead defaults: a constant flip of a top-level default `x = C;` in a combinational always
block whose next mention of x (same block) is an unconditional top-level write that does not
read x, or a bit replacement `x = (x & ~(1 << (k)) | (E << (k)))` of exactly the flipped bits.
Prints: id, line, reason. Usage: dead_defaults.py FILE.v FILE.sites NOTES...
FILE.v: `synth export` renamed to `top` / `top$`; FILE.sites: `list_sites UNIT FILE.v` (synth/examples)."""
import re, sys
v = open(sys.argv[1]).read().split('\n')
sites = [l.split('\t') for l in open(sys.argv[2]).read().splitlines()]
noted = set()
for n in sys.argv[3:]:
    for l in open(n):
        if l.strip() and not l.startswith('#'):
            noted.add(l.split()[0])
def word(name):
    return re.compile(r'(?<![\w$])' + re.escape(name) + r'(?![\w$])')
def const_val(c):
    m = re.fullmatch(r"(\d+)'([bhd])([0-9a-fA-F_]+)", c)
    if not m: return None
    base = {'b': 2, 'h': 16, 'd': 10}[m.group(2)]
    return int(m.group(3).replace('_', ''), base)
for s in sites:
    sid, mod, line, kind, what, text = s
    if sid in noted or kind != 'constant flip':
        continue
    ln = int(line)
    raw = v[ln - 1]
    m = re.fullmatch(r"        ([\w$]+) = (\d+'[bhd][0-9a-fA-F_]+|\d+);", raw)
    if not m:
        continue
    name, c = m.group(1), m.group(2)
    w = re.fullmatch(r"`([^`]+)` -> `([^`]+)`", what)
    if not w: continue
    a, b = w.group(1), w.group(2)
    va = const_val(a) if "'" in a else int(a)
    vb = const_val(b) if "'" in b else int(b)
    if va is None or vb is None: continue
    flipped = va ^ vb
    pat = word(name)
    for j in range(ln, len(v)):
        t = v[j]
        if re.match(r"    (always|end\b|assign|initial)", t) or t.startswith('endmodule'):
            break
        if not pat.search(t):
            continue
        if not t.startswith('        ') or t.startswith('         '):
            break  # first mention is nested (conditional) or odd indent: not judged
        rhs = re.fullmatch(r"        ([\w$]+) = (.*);", t)
        if not rhs or rhs.group(1) != name:
            break  # first mention is a read
        e = rhs.group(2)
        if not pat.search(e):
            print(f"{sid}\tline {ln}: default `{name} = {a}` -> {b}: the next statement naming {name} (line {j+1}, unconditional, top level of the same always block) overwrites it without reading it")
            break
        br = re.fullmatch(r"\(" + re.escape(name) + r" & ~\(1 << \((\d+)\)\) \| \(\((.*)\) << \((\d+)\)\)\)", e)
        if br and br.group(1) == br.group(3) and not pat.search(br.group(2)) and flipped == (1 << int(br.group(1))):
            print(f"{sid}\tline {ln}: default `{name} = {a}` -> {b} sets bit {br.group(1)} only, which the next statement naming {name} (line {j+1}, unconditional, top level of the same always block) replaces without reading it")
        break
