#!/usr/bin/env python3
# disasm_test.py — reads objdump -dr of the kernel library and proves each kernel's instructions.
# No ISA: static check of the objects, so it also covers rows this CPU cannot run (AVX-512 etc.).
# Why: GCC may turn a fill loop into a memset call or vectorise a scalar row; names must not lie.
"""Usage: disasm_test.py [--objdump PATH] STOREBENCH libstorebench_kernels.a stores|loads

The rows come from the binary (`storebench list --tsv`, `storebench list --loads --tsv`): the
store kernels store_<name>, or the read side of rw mixes, load_<name>."""
import re
import subprocess
import sys

VREG = {16: 'xmm', 32: 'ymm', 64: 'zmm'}
VREG_WIDTH = {v: k for k, v in VREG.items()}
WIDER = {16: ('ymm', 'zmm'), 32: ('zmm',), 64: ()}
# Stores whose alignment the instruction itself demands: the aligned body, not head or tail.
ALIGNED_STORES = {'movaps', 'movdqa', 'vmovaps', 'vmovdqa', 'vmovdqa32', 'vmovdqa64',
                  'movntdq', 'vmovntdq', 'movntps', 'vmovntps'}
NT_STORES = {'movnti', 'movntdq', 'vmovntdq', 'movntps', 'vmovntps', 'movntpd', 'vmovntpd',
             'clzero', 'movdir64b'}


def read_table(storebench, which):
    """{name: row} of the binary's kernel table: stores or loads, with the columns this check
    reads (isa as the set of its extensions, width and unroll as numbers)."""
    args = [storebench, "list", "--tsv"] + (["--loads"] if which == "loads" else [])
    lines = subprocess.run(args, check=True, capture_output=True, text=True).stdout.splitlines()
    head = lines[0].split("\t")
    rows = {}
    for line in lines[1:]:
        r = dict(zip(head, line.split("\t")))
        name = r["name"][len("load_"):] if which == "loads" else r["name"]
        rows[name] = {"isa": set(r["isa"].split()), "kind": r.get("kind"),
                      "width": int(r["width_bytes"]), "unroll": int(r["unroll"])}
    return rows


def disassemble(objdump, lib):
    """{function: (object, [(address, raw_bytes, mnemonic, operands)], [reloc targets])}."""
    out = subprocess.run([objdump, '-dr', '-w', lib], check=True, capture_output=True,
                         text=True).stdout
    funcs, obj, cur = {}, None, None
    for line in out.splitlines():
        m = re.match(r'^(?:In archive .*?:\s*)?(\S+\.o):\s+file format', line)
        if m:
            obj = m.group(1)
            continue
        m = re.match(r'^[0-9a-f]+ <([^>]+)>:$', line)
        if m:
            cur = funcs.setdefault(m.group(1), (obj, [], []))
            continue
        if cur is None:
            continue
        # -w puts a relocation on its instruction's line: "<tab>1: R_X86_64_PLT32<tab>memset-0x4"
        for sym in re.findall(r'\s[0-9a-f]+: R_X86_64_\w+\s+([^\s+-]+)', line):
            cur[2].append(sym)
        line = re.sub(r'\s+[0-9a-f]+: R_X86_64_.*$', '', line)
        m = re.match(r'^\s+([0-9a-f]+):\t([0-9a-f ]+)\t(\S+)\s*(.*)$', line)
        if m:
            cur[1].append((int(m.group(1), 16), m.group(2).split(), m.group(3), m.group(4)))
    return funcs


def with_helpers(funcs, name, seen=None):
    """The function's instructions plus those of local helpers it calls directly (not inlined)."""
    seen = seen if seen is not None else set()
    seen.add(name)
    obj, insns, relocs = funcs[name]
    all_insns, all_relocs = list(insns), list(relocs)
    for _, _, mnem, ops in insns:
        m = re.match(r'^[0-9a-f]+ <([^>+]+)>$', ops)
        if mnem.startswith(('call', 'jmp')) and m and m.group(1) not in seen \
                and m.group(1) in funcs and funcs[m.group(1)][0] == obj:
            more_i, more_r = with_helpers(funcs, m.group(1), seen)
            all_insns += more_i
            all_relocs += more_r
    return all_insns, all_relocs


def is_store(ops):
    """AT&T: source first, memory destination last."""
    return '(' in ops.split(',')[-1] or re.search(r',\s*-?(0x[0-9a-f]+)?\(', ops) is not None


def aligned_store(reg):
    """Predicate: an alignment-checking store from a register of this width (the body's store)."""
    return lambda mn, ops: mn in ALIGNED_STORES and ops.startswith('%' + reg) and is_store(ops)


def temporal_store(mn, ops):
    """Any ordinary (cached) store: a mov of any width to memory that is not a streaming one."""
    return re.match(r'v?mov', mn) is not None and mn not in NT_STORES and is_store(ops)


def gpr64_store(mn, ops):
    return mn == 'mov' and re.match(r'%r\w+,', ops) is not None and is_store(ops)


def most_per_loop(insns, pred):
    """Most instructions matching pred in one straight-line loop: a backward branch whose range
    holds no ret or jmp (so a jump back to a shared epilogue does not count as a loop)."""
    best = 0
    for addr, _, mn, ops in insns:
        m = re.match(r'^([0-9a-f]+) <', ops)
        if not (mn.startswith('j') and m and int(m.group(1), 16) <= addr):
            continue
        body = [(mn2, ops2) for a, _, mn2, ops2 in insns if int(m.group(1), 16) <= a < addr]
        if any(mn2.startswith(('ret', 'jmp')) for mn2, _ in body):
            continue
        best = max(best, sum(1 for mn2, ops2 in body if pred(mn2, ops2)))
    return best


def is_evex(raw):
    """EVEX is the 0x62 escape (invalid as BOUND in 64-bit mode), after an optional 0x67."""
    i = 1 if raw and raw[0] == '67' else 0
    return len(raw) > i and raw[i] == '62'


def check_compiled(name, reg, unroll, insns, text, need):
    """A cc_<level> row is what GCC made of store_cc.c at that -march level, stated here so a
    compiler that emits anything else fails: a main loop of exactly `unroll` unaligned stores from
    a %<reg> register (x86-64 and v2: movups xmm; v3: vmovdqu ymm; v4: vmovdqu8 zmm), no wider
    register, no rep stos and no memset call (-fno-tree-loop-distribute-patterns), and a byte loop
    for the last bytes (calls shorter than one vector are stored a byte at a time)."""
    def vec_store(mn, ops):
        return re.match(r'v?mov(ups|dqu(8|16|32|64)?)$', mn) is not None \
            and ops.startswith('%' + reg) and is_store(ops)

    got = most_per_loop(insns, vec_store)
    need(got == unroll, f'{got} {reg} stores in its busiest loop, want {unroll}: kernels.def\'s '
         'width and unroll, what the compiler emitted when the row was written')
    wider = [w for w in WIDER[VREG_WIDTH[reg]] if '%' + w in text]
    need(not wider, f'uses {wider}: wider than its level\'s {reg}')
    need(not re.search(r'^rep stos', text, re.M), 'holds rep stos')
    need(most_per_loop(insns, lambda mn, ops: mn == 'mov' and ops.startswith('%') and
                       re.match(r'%(dil|sil|[a-d]l|r\d+b)\b', ops) is not None and is_store(ops)) == 1,
         'no byte loop for the tail')


def store_bytes(mn, ops):
    """Bytes one store instruction writes, from its source register (or its suffix for an
    immediate); 0 for an instruction that stores nothing."""
    if not is_store(ops) or not re.match(r'v?mov', mn) or mn.startswith(('movz', 'movs')):
        return 0
    src = operands(ops)[0]
    for reg, n in (('%zmm', 64), ('%ymm', 32), ('%xmm', 16)):
        if src.startswith(reg):
            return 8 if mn in ('movq', 'vmovq') else 4 if mn in ('movd', 'vmovd') else n
    if src.startswith('$'):
        return {'q': 8, 'l': 4, 'w': 2, 'b': 1}.get(mn[-1], 0)
    if re.match(r'%(r[a-ds][xip]|r[sd]i|r\d+)$', src):
        return 8
    if re.match(r'%(e\w\w|r\d+d)$', src):
        return 4
    if re.match(r'%([a-d]x|[sd]i|[sb]p|r\d+w)$', src):
        return 2
    return 1 if re.match(r'%([a-d]l|[sd]il|r\d+b)$', src) else 0


def check_const(rows, funcs):
    """The compile-time-size functions of memset_const, as GCC 12 -O2 builds memset(d, c, N):
    straight-line stores adding up to exactly N bytes up to 256 (no loop, no rep stos), rep stosq
    (with a store at each end) from 512; never a memset call, which would measure libc again."""
    errors = []
    sizes = sorted(int(f[len('store_memset_const_'):]) for f in funcs
                   if re.match(r'store_memset_const_\d+$', f))
    if 'memset_const' in rows and not sizes:
        errors.append('memset_const: no store_memset_const_<n> function in the library')
    for n in sizes:
        fn = 'store_memset_const_%d' % n
        insns, relocs = with_helpers(funcs, fn)
        text = '\n'.join(f'{mn} {ops}' for _, _, mn, ops in insns)
        if 'memset' in relocs or 'memset@PLT' in relocs or re.search(r'call', text):
            errors.append(f'{fn}: calls a function: the constant size was not inlined')
        rep = re.search(r'^rep stos', text, re.M) is not None
        loop = any(mn.startswith('j') for _, _, mn, _ in insns)
        if n <= 256:
            stored = sum(store_bytes(mn, ops) for _, _, mn, ops in insns)
            if rep or loop or stored != n:
                errors.append(f'{fn}: {stored} bytes in straight-line stores (rep stos {rep}, '
                              f'a branch {loop}), want exactly {n} and neither')
        elif not rep or loop:
            errors.append(f'{fn}: want rep stos and no branch from 512 bytes (rep stos {rep}, '
                          f'a branch {loop})')
    return errors


def check_stores(rows, funcs):
    errors = []
    # The AVX-512 units: the objects holding AVX-512F rows, and by the one-file-per-ISA naming
    # rule any other <role>_avx512.c (the load kernels of rw mixes); only they get -mavx512f.
    evex_objects = {funcs['store_' + n][0] for n, r in rows.items()
                    if 'avx512f' in r['isa'] and 'store_' + n in funcs}
    evex_objects |= {obj for obj, _, _ in funcs.values() if obj and obj.endswith('_avx512.c.o')}
    # the cc_ rows share one source (four objects of one name): the v4 function alone may use EVEX
    evex_funcs = {'store_' + n for n, r in rows.items() if 'x86-64-v4' in r['isa']}
    for name, r in rows.items():
        fn = 'store_' + name
        if fn not in funcs:
            errors.append(f'{name}: {fn} not found in the library')
            continue
        insns, relocs = with_helpers(funcs, fn)
        mnems = [mn for _, _, mn, _ in insns]
        text = '\n'.join(f'{mn} {ops}' for _, _, mn, ops in insns)
        kind, width, unroll = r['kind'], r['width'], r['unroll']
        reg = VREG.get(width)

        def need(cond, what):
            if not cond:
                errors.append(f'{name}: {what}')

        def per_loop(pred, what, least):
            got = most_per_loop(insns, pred)
            need(got >= least, f'{got} {what} in its busiest loop, want at least {least}')

        calls_memset = 'memset' in relocs or 'memset@PLT' in relocs
        if kind == 'libc' and name.startswith('libc_'):
            # a glibc variant row (loop glibc_impl): one tail jump through the pointer glibc's
            # list gave, so the call costs what memset's PLT jump costs and nothing is stored
            body = [mn for mn in mnems if not mn.startswith('nop') and mn not in ('cs', 'ds')]
            need(body == ['jmp'] and re.match(r'jmp \*', text) and not calls_memset,
                 'a glibc variant row is one indirect tail jump, got: %s' % text.replace('\n', '; '))
        elif kind == 'libc':
            need(calls_memset, 'the libc row does not call memset')
        else:
            need(not calls_memset, 'calls memset (loop rewritten by the compiler?)')
            external = sorted({t for t in relocs if t not in funcs and not t.startswith('.')})
            need(not external, f'references external symbols {external}')
        if kind in ('nt', 'flush'):
            need('sfence' in mnems, 'no sfence before return')
        if kind == 't':
            need('sfence' not in mnems and not set(mnems) & NT_STORES,
                 'a temporal row holds a streaming store or fence')
        if kind == 'rep':
            acc = {1: '%al', 8: '%rax'}[width]
            need(re.search(r'^rep stos ' + acc + ',', text, re.M), f'no rep stos of {acc}')
        if kind in ('t', 'nt') and width == 8:
            need(not re.search(r'%[xyz]mm', text), 'a 64-bit scalar row uses vector registers')
        if kind == 't' and width == 8:
            per_loop(gpr64_store, '64-bit stores', unroll)
        if kind == 't' and name.startswith('cc_'):
            check_compiled(name, reg, unroll, insns, text, need)
        elif kind == 't' and reg:
            per_loop(aligned_store(reg), f'aligned {reg} stores', unroll)
        if kind == 'nt' and re.search(r'_nt_u\d+$', name):
            if width == 8:
                per_loop(lambda mn, ops: mn == 'movnti', 'movnti', unroll)
            else:
                per_loop(lambda mn, ops: mn in ('movntdq', 'vmovntdq')
                         and ops.startswith('%' + reg), f'(v)movntdq {reg}', unroll)
        elif kind == 'nt':
            per_loop(lambda mn, ops: mn == name, name, unroll)
        if kind == 'nt':
            # Whole lines are streamed only and partial lines (under 64 bytes) written by
            # straight-line edge code: a loop holding a cached store, or a 64-byte cached
            # store anywhere, would write some whole line temporally.
            got = most_per_loop(insns, temporal_store)
            need(got == 0, f'{got} cached stores in a loop: whole lines must only be streamed')
            wide = [f'{mn} {ops}' for _, _, mn, ops in insns
                    if temporal_store(mn, ops) and ops.startswith('%zmm')]
            need(not wide, f'a 64-byte cached store ({wide[0] if wide else ""}) writes a whole '
                 'line or straddles a streamed one')
        if kind == 'flush':
            need(not set(mnems) & NT_STORES, 'a flush row holds a streaming store')
            insn = name.split('_', 1)[1]
            per_loop(lambda mn, ops: mn == insn, insn, 1)
            per_loop(aligned_store(reg), f'aligned {reg} stores', unroll)
    for fn, (obj, insns, _) in sorted(funcs.items()):
        if obj in evex_objects or fn in evex_funcs:
            continue
        for _, raw, mn, ops in insns:
            if is_evex(raw) or re.search(r'%zmm|%k[0-7]\b|\{|%[xy]mm(1[6-9]|2\d|3[01])\b', ops):
                errors.append(f'{obj}: {fn}: EVEX/AVX-512 instruction outside the AVX-512 unit: '
                              f'{mn} {ops}')
                break
    return errors


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


def check_loads(rows, funcs):
    """Each load_<name> must hold at least `unroll` loads of `width` bytes in its busiest loop (a
    memory source into a register of that width: movdqa/vmovdqa64, or the OR GCC folds the load
    into), write no memory (a spilled accumulator would be measured as stores), call or reference
    nothing (no memcpy or memcmp a compiler could substitute), and use no register wider than its
    row (the AVX2 row must run on a CPU without AVX-512)."""
    errors = []
    for name, row in rows.items():
        fn = 'load_' + name
        if fn not in funcs:
            errors.append(f'{fn}: not in the library')
            continue
        _, insns, relocs = funcs[fn]
        reg = VREG[row['width']]
        mine = [f'{fn}: reloc {sym}: a load kernel references no other symbol' for sym in relocs]
        for _, _, mnem, ops in insns:
            ops_l = operands(ops)
            mem = [o for o in ops_l if '(' in o]
            if mnem.startswith('call'):
                mine.append(f'{fn}: {mnem} {ops}: a load kernel references no other symbol')
                continue
            if mem and '(' in ops_l[-1] and 'nop' not in mnem + ops and not mnem.startswith('lea'):
                mine.append(f'{fn}: {mnem} {ops}: writes memory')
            for wide in WIDER[row['width']]:
                if '%' + wide in ops:
                    mine.append(f'{fn}: {mnem} {ops}: {wide} register in a '
                                f'{row["width"]}-byte kernel')

        def is_load(mn, ops):
            ops_l = operands(ops)
            return (not mn.startswith('lea') and any('(' in o for o in ops_l[:-1])
                    and '%' + reg in ops_l[-1])

        loads = most_per_loop(insns, is_load)
        if loads < row['unroll']:
            mine.append(f'{fn}: {loads} loads into %{reg} registers in its busiest loop, '
                        f'want at least {row["unroll"]}')
        if not mine:
            print(f'ok {fn}: {row["width"]}-byte loads, no stores, no calls, nothing wider')
        errors += mine
    return errors


def main(argv):
    objdump = 'objdump'
    if len(argv) > 1 and argv[1] == '--objdump':
        objdump = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) != 4 or argv[3] not in ("stores", "loads"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    which, rows = argv[3], read_table(argv[1], argv[3])
    if not rows:
        print(f'disasm_test: {argv[1]} lists no {which}', file=sys.stderr)
        return 2
    funcs = disassemble(objdump, argv[2])
    errors = (check_stores(rows, funcs) + check_const(rows, funcs) if which == 'stores'
              else check_loads(rows, funcs))
    for e in errors:
        print('FAIL ' + e)
    if errors:
        return 1
    if which == 'stores':
        print(f'ok: {len(rows)} kernels hold the instructions their names claim')
    return 0

if __name__ == '__main__':
    sys.exit(main(sys.argv))
