#!/usr/bin/env python3
"""skyisles code rules that a compiler does not check, run by make test:
  functions  no function in src/ or platform/ longer than MAX_LINES lines
  calls      no call circle between the files of one module: from the object files, file A
             "calls" file B when A uses a symbol B defines; every module's graph must be acyclic
  play       no Play field written outside src/game/play.c (the one writer; the game asks for
             its named transitions): an assignment, a compound assignment, ++/--, a copy into it
             (memcpy, snprintf...) or its address handed to a parameter that is not const
usage: tools/lint/lint.py functions [MAX_LINES]
       tools/lint/lint.py calls BUILD_DIR
       tools/lint/lint.py play
Prints one line per finding and 'lint RULE: N checked, N over' at the end; exits 1 on any."""
import os
import re
import subprocess
import sys

MAX_LINES = 100


def strip_c(text):
    """Comments and string/char literals blanked (newlines kept), so braces in them do not count."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + re.sub(r'[^\n]', ' ', text[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def functions(path):
    """(name, first line, line count) of each function definition at file level."""
    lines = strip_c(open(path, encoding='utf-8', errors='replace').read()).split('\n')
    depth, start, head, found = 0, None, '', []
    for no, line in enumerate(lines, 1):
        if depth == 0 and start is None:
            head = (head + ' ' + line).strip()[-400:] if line.strip() else ''
            if '{' in line:
                sig = head[:head.index('{')] if '{' in head else head
                sig = re.sub(r'__attribute__\s*\(\(.*?\)\)', ' ', sig)
                m = re.search(r'([A-Za-z_]\w*)\s*\([^;]*\)\s*$', sig)
                if m and not re.search(r'\b(struct|enum|union|typedef)\b[^(]*$', sig.split('(')[0]) and '=' not in sig.split('(')[0]:
                    start = (m.group(1), no)
        depth += line.count('{') - line.count('}')
        if start is not None and depth == 0:
            first = start[1]
            # the definition starts at the line holding the name
            for k in range(no - 1, -1, -1):
                if re.search(r'\b' + re.escape(start[0]) + r'\s*\(', lines[k]):
                    first = k + 1
                    break
            found.append((start[0], first, no - first + 1))
            start, head = None, ''
        if depth == 0 and start is None and line.rstrip().endswith((';', '}')):
            head = ''
    return found


def check_functions(limit):
    checked, over = 0, []
    for root in ('src', 'platform'):
        for dirpath, _, names in os.walk(root):
            for f in sorted(names):
                if not f.endswith('.c'):
                    continue
                path = os.path.join(dirpath, f)
                for name, first, count in functions(path):
                    checked += 1
                    if count > limit:
                        over.append((path, first, name, count))
    for path, first, name, count in over:
        print(f'{path}:{first}: {name} is {count} lines (at most {limit}): split it into named steps')
    print(f'lint functions: {checked} checked, {len(over)} over {limit} lines')
    return not over


def symbols(obj):
    out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
    defs, uses = set(), set()
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in 'TDBRWV':
            defs.add(p[2])
        elif len(p) == 2 and p[0] in 'Uw':
            uses.add(p[1])
    return defs, uses


def cycles(graph):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return comps


def check_calls(build):
    objroot = os.path.join(build, 'obj')
    modules = [os.path.join('src', m) for m in sorted(os.listdir('src')) if os.path.isdir(os.path.join('src', m))]
    modules.append('platform')
    bad, checked = [], 0
    for mod in modules:
        objdir = os.path.join(objroot, mod)
        srcs = sorted(f[:-2] for f in os.listdir(mod) if f.endswith('.c'))
        objs = {s: os.path.join(objdir, s + '.o') for s in srcs}
        missing = [o for o in objs.values() if not os.path.exists(o)]
        if missing:
            print(f'{missing[0]}: not built (build first: make all)')
            return False
        syms = {s: symbols(o) for s, o in objs.items()}
        owner = {}
        for s, (defs, _) in syms.items():
            for d in defs:
                owner[d] = s
        graph = {s: {owner[u] for u in uses if u in owner and owner[u] != s} for s, (_, uses) in syms.items()}
        checked += 1
        for comp in cycles(graph):
            edges = ', '.join(f'{a} -> {b}' for a in comp for b in sorted(graph[a]) if b in comp)
            bad.append(f'{mod}: call circle between {", ".join(c + ".c" for c in comp)} ({edges}): '
                       'give the shared part its own file, or let one side hand back what the other must do')
    for line in bad:
        print(line)
    print(f'lint calls: {checked} modules checked, {len(bad)} with a call circle')
    return not bad


PLAY_WRITER = os.path.join('src', 'game', 'play.c')
WRITE_OP = re.compile(r'\s*(?:<<=|>>=|[-+*/%&|^]?=(?!=)|\+\+|--)')
DEST_CALLS = {'memcpy', 'memmove', 'memset', 'strcpy', 'strncpy', 'strcat', 'snprintf', 'vsnprintf', 'sprintf'}


def top_level_chunks(text):
    """(first line, text) of each stretch between top-level closing braces: a function, with the
    declarations before it, so a name declared in one function is not taken for another's."""
    chunks, depth, start, line = [], 0, 0, 1
    for i, c in enumerate(text):
        if c == '{':
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                chunks.append((line, text[start:i + 1]))
                start = i + 1
                line = text.count('\n', 0, start) + 1
    chunks.append((line, text[start:]))
    return chunks


def parameters(texts):
    """function name -> its parameter list (from every prototype and definition seen)."""
    params = {}
    for text in texts:
        # a type word before the name (a call statement has none), and parameters, not expressions
        for m in re.finditer(r'\b([A-Za-z_]\w*)[\s*]+([A-Za-z_]\w*)\s*\(([^;{}()]*(?:\([^()]*\)[^;{}()]*)*)\)\s*[;{]',
                             text):
            if m.group(1) not in ('return', 'else', 'case', 'goto', 'sizeof') and not re.search(r'[&.>"]|->', m.group(3)):
                params.setdefault(m.group(2), [p.strip() for p in m.group(3).split(',')])
    return params


def call_of(text, at):
    """(name, argument index) of the call whose parentheses hold text[at], or (None, 0)."""
    depth, arg = 0, 0
    for i in range(at - 1, -1, -1):
        c = text[i]
        if c in ')]':
            depth += 1
        elif c in '([':
            if depth == 0:
                if c == '[':
                    return None, 0
                m = re.search(r'([A-Za-z_]\w*)\s*$', text[:i])
                return (m.group(1) if m else None), arg
            depth -= 1
        elif c == ',' and depth == 0:
            arg += 1
        elif c in ';{}' and depth == 0:
            return None, 0
    return None, 0


def play_finding(text, m, params):
    """Why the Play lvalue matched at m is written, or None when it is only read."""
    end = m.end()
    while True:   # the rest of the lvalue: indexes, members
        k = re.match(r'\s*(?:\[[^\]]*\]|(?:\.|->)\s*[A-Za-z_]\w*)', text[end:])
        if not k:
            break
        end += k.end()
    op = WRITE_OP.match(text[end:])
    if op:
        return 'stepped' if op.group().strip() in ('++', '--') else 'assigned'
    # where the lvalue begins: `g->ghost.play` from its `g`
    base = re.search(r'(?:[A-Za-z_]\w*\s*(?:\[[^\]]*\]\s*)*(?:\.|->)\s*)*[A-Za-z_]\w*\s*(?:\[[^\]]*\]\s*)*$',
                     text[:m.start()])
    start = base.start() if base else m.start()
    if re.search(r'(?:\+\+|--)\s*$', text[:start]):
        return 'stepped'
    amp = re.search(r'(?<!&)&\s*$', text[:start])
    name, arg = call_of(text, start)
    if name in DEST_CALLS and arg == 0:
        return f'written by {name}'
    if not amp:
        return None
    if name is None:
        stmt = text[:start].rsplit(';', 1)[-1].rsplit('{', 1)[-1].rsplit('}', 1)[-1]
        return None if re.match(r'\s*(?:static\s+)?const\b|\s*Play\s*\*', stmt) else 'its address kept'
    if name.startswith('play_'):
        return None
    ps = params.get(name)
    if ps is None or arg >= len(ps):
        return None   # a function not seen: cannot tell
    return None if re.match(r'const\b', ps[arg]) else f'its address passed to {name}'


def play_writes(path, text, params):
    found = []
    for first, chunk in top_level_chunks(text):
        # names bound to a Play that can be written: `Play *p`, `Play p` (a const Play * only reads)
        names = {m.group(2) for m in re.finditer(r'(?<!const )\bPlay\s*(\*?)\s*([A-Za-z_]\w*)\s*(?=[=;,)\[])', chunk)}
        alts = [r'(?:\.|->)\s*play\b'] + [r'(?<![\w.>])' + re.escape(n) + r'\b(?!\s*\()' for n in sorted(names)]
        for m in re.finditer('|'.join(alts), chunk):
            if re.match(r'\s*[A-Za-z_]', chunk[m.end():]) is None and re.match(r'\s*\*?\s*$', chunk[:m.start()][-1:]) \
                    and re.search(r'\bPlay\s*\*?\s*$', chunk[:m.start()]):
                continue   # the declaration itself
            why = play_finding(chunk, m, params)
            if why:
                line = first + chunk.count('\n', 0, m.start())
                found.append(f'{path}:{line}: a Play field {why} outside {PLAY_WRITER}: ask play.c for a named '
                             'transition (play.h) instead')
    return found


def check_play():
    files = []
    for dirpath, _, names in os.walk('src'):
        for f in sorted(names):
            if f.endswith(('.c', '.h')):
                path = os.path.join(dirpath, f)
                files.append((path, strip_c(open(path, encoding='utf-8', errors='replace').read())))
    params = parameters(t for _, t in files)
    checked, found = 0, []
    for path, text in sorted(files):
        if path == PLAY_WRITER or not path.endswith('.c'):
            continue
        checked += 1
        found += play_writes(path, text, params)
    for line in found:
        print(line)
    print(f'lint play: {checked} files checked, {len(found)} writes of Play outside {PLAY_WRITER}')
    return not found


def main(argv):
    if len(argv) >= 2 and argv[1] == 'functions':
        return 0 if check_functions(int(argv[2]) if len(argv) > 2 else MAX_LINES) else 1
    if len(argv) == 3 and argv[1] == 'calls':
        return 0 if check_calls(argv[2]) else 1
    if len(argv) == 2 and argv[1] == 'play':
        return 0 if check_play() else 1
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
