#!/usr/bin/env python3
"""Dead defaults in an export: a constant flip of a top-level default `x = C;` of a combinational
always block, where no read of x can see the default. A read is a later line of the same block
naming x other than a full write `x = E;` (E without x); a full write is one that does not read x.
The default is dead when every read of x is dominated by a full write: scanning back from the read,
a full write at the read's nesting level or at any enclosing level (the level only decreases, so a
write inside a sibling branch never counts), before the default is reached. Also accepted: a bit
replacement `x = (x & ~(1 << (k)) | (E << (k)))` of exactly the flipped bit as the first mention.
x must not be named outside the block (besides its `reg` declaration).
Prints one line per dead default: id, line, reason. Usage: dead_defaults.py FILE.v FILE.sites NOTES...
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
    if "'" not in c:
        return int(c) if c.isdigit() else None
    m = re.fullmatch(r"(\d+)'([bhd])([0-9a-fA-F_]+)", c)
    if not m: return None
    return int(m.group(3).replace('_', ''), {'b': 2, 'h': 16, 'd': 10}[m.group(2)])
def indent(t):
    return len(t) - len(t.lstrip(' '))
def block_of(ln):
    """(first, last) line index of the always block holding line index ln."""
    a = ln
    while a > 0 and not re.match(r"    always", v[a]): a -= 1
    b = ln
    while b < len(v) and not re.match(r"    end\b", v[b]): b += 1
    return a, b
def module_of(ln):
    a = ln
    while a > 0 and not v[a].startswith('module '): a -= 1
    b = ln
    while b < len(v) and not v[b].startswith('endmodule'): b += 1
    return a, b
def full_write(t, name, pat):
    m = re.fullmatch(r"\s*([\w$]+) = (.*);", t)
    return bool(m) and m.group(1) == name and not pat.search(m.group(2))
for s in sites:
    sid, mod, line, kind, what, text = s
    if sid in noted or kind != 'constant flip':
        continue
    d = int(line) - 1
    m = re.fullmatch(r"        ([\w$]+) = (\d+'[bhd][0-9a-fA-F_]+|\d+);", v[d])
    w = re.fullmatch(r"`([^`]+)` -> `([^`]+)`", what)
    if not m or not w:
        continue
    name = m.group(1)
    va, vb = const_val(w.group(1)), const_val(w.group(2))
    if va is None or vb is None:
        continue
    pat = word(name)
    a, b = block_of(d)
    ma, mb = module_of(d)
    outside = [j for j in range(ma, mb) if (j < a or j > b) and pat.search(v[j])
               and not re.match(r"\s*reg\b", v[j])]
    if outside:
        continue
    mentions = [j for j in range(d + 1, b) if pat.search(v[j])]
    # a bit replacement of exactly the flipped bit as the first mention, at top level
    if mentions and indent(v[mentions[0]]) == 8:
        br = re.fullmatch(r"        " + re.escape(name) + r" = \(" + re.escape(name)
                          + r" & ~\(1 << \((\d+)\)\) \| \(\((.*)\) << \((\d+)\)\)\);", v[mentions[0]])
        if br and br.group(1) == br.group(3) and not pat.search(br.group(2)) \
                and va ^ vb == 1 << int(br.group(1)):
            print(f"{sid}\tline {d+1}: default `{name} = {w.group(1)}` -> {w.group(2)} sets bit "
                  f"{br.group(1)} only, which the next statement naming {name} (line "
                  f"{mentions[0]+1}, unconditional, top level of the same always block) replaces "
                  f"without reading it")
            continue
    reads = [j for j in mentions if not full_write(v[j], name, pat)]
    def dominated(r):
        level = indent(v[r])
        for j in range(r - 1, d, -1):
            t = v[j]
            if not t.strip():
                continue
            i = indent(t)
            if i < level:
                level = i
                continue
            if i == level and full_write(t, name, pat):
                return j
        return None
    doms = [dominated(r) for r in reads]
    if all(x is not None for x in doms):
        if reads:
            why = (f"every read of {name} (lines {', '.join(str(r+1) for r in reads)}) follows a "
                   f"write of it on its own path (lines {', '.join(str(x+1) for x in doms)}), so the "
                   f"default is never read")
        else:
            why = f"{name} is never read"
        print(f"{sid}\tline {d+1}: default `{name} = {w.group(1)}` -> {w.group(2)}: {why}")
