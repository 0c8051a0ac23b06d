#!/usr/bin/env python3
# check_load_disasm.py — reads objdump -dr of the kernel library, proves each load kernel's instructions.
# No ISA: a static check of the objects, so it also covers rows this CPU cannot run (AVX-512 etc.).
# Why: the read side must be the loads its name claims, only loads, and no wider than its ISA allows.
"""Usage: check_load_disasm.py [--objdump PATH] load.def libstorebench_kernels.a

For every load.def row, the function load_<name> must
  - hold at least `unroll` loads of `width` bytes (a memory source operand into a register of that
    width: movdqa/vmovdqa64, or the OR itself with a memory operand, which GCC folds loads into),
  - write no memory (the accumulators stay in registers; a spill would be measured as stores),
  - call or reference nothing (no memcpy/memcmp a compiler could substitute),
  - use no register wider than its row (the AVX2 row must run on a CPU without AVX-512).
"""
import re
import subprocess
import sys

ROW = re.compile(r'^LOAD\(\s*(\w+)\s*,\s*([^,]+?)\s*,\s*(\d+)\s*,\s*(\d+)\s*,')
VREG = {16: 'xmm', 32: 'ymm', 64: 'zmm'}
WIDER = {16: ('ymm', 'zmm'), 32: ('zmm',), 64: ()}


def read_def(path):
    rows = {}
    with open(path) as f:
        for line in f:
            m = ROW.match(line)
            if m:
                rows[m.group(1)] = dict(width=int(m.group(3)), unroll=int(m.group(4)))
    return rows


def disassemble(objdump, lib):
    """{function: [(mnemonic, operands)]}; a relocation becomes the pseudo-instruction 'reloc'."""
    out = subprocess.run([objdump, '-dr', '-w', '--no-show-raw-insn', lib], check=True,
                         capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r'^[0-9a-f]+ <([^>]+)>:$', line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        if cur is None:
            continue
        for sym in re.findall(r'R_X86_64_\w+\s+(\S+)', line):
            cur.append(('reloc', sym))
        line = re.sub(r'\s+[0-9a-f]+: R_X86_64_.*$', '', line)
        m = re.match(r'^\s+[0-9a-f]+:\t(\S+)\s*(.*)$', line)
        if m and not m.group(1).startswith('R_X86_64_'):
            cur.append((m.group(1), m.group(2)))
    return funcs


def operands(ops):
    """AT&T operands split at top-level commas (commas inside (...) belong to one operand)."""
    parts, depth, cur = [], 0, ''
    for ch in ops.split('#')[0].strip():
        depth += ch == '('
        depth -= ch == ')'
        if ch == ',' and depth == 0:
            parts.append(cur.strip())
            cur = ''
        else:
            cur += ch
    return parts + [cur.strip()] if cur.strip() else parts


def check(name, row, insns):
    errors = []
    reg = VREG[row['width']]
    loads = 0
    for mnem, ops in insns:
        ops_l = operands(ops)
        mem = [o for o in ops_l if '(' in o]
        if mnem == 'reloc' or mnem.startswith('call'):
            errors.append(f'{mnem} {ops}: a load kernel references no other symbol')
            continue
        if mem and '(' in ops_l[-1] and 'nop' not in mnem + ops and not mnem.startswith('lea'):
            errors.append(f'{mnem} {ops}: writes memory')
        for wide in WIDER[row['width']]:
            if '%' + wide in ops:
                errors.append(f'{mnem} {ops}: {wide} register in a {row["width"]}-byte kernel')
        if mem and not mnem.startswith('lea') and '%' + reg in ops_l[-1]:
            loads += 1
    if loads < row['unroll']:
        errors.append(f'{loads} loads into %{reg} registers, want at least {row["unroll"]}')
    return errors


def main(argv):
    objdump = 'objdump'
    if len(argv) > 1 and argv[1] == '--objdump':
        objdump = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) != 3:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    rows = read_def(argv[1])
    funcs = disassemble(objdump, argv[2])
    if not rows:
        print(f'FAIL: no LOAD rows in {argv[1]}', file=sys.stderr)
        return 1
    bad = 0
    for name, row in rows.items():
        fn = 'load_' + name
        if fn not in funcs:
            print(f'FAIL {fn}: not in {argv[2]}', file=sys.stderr)
            bad += 1
            continue
        errors = check(fn, row, funcs[fn])
        for e in errors:
            print(f'FAIL {fn}: {e}', file=sys.stderr)
        bad += bool(errors)
        if not errors:
            print(f'ok {fn}: {row["width"]}-byte loads, no stores, no calls, nothing wider')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
