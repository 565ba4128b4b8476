#!/usr/bin/env python3
"""skyisles link rule, run by make test through tests/lint/test_lint.sh:
  links  every relative markdown link in README.md and docs/*.md names a file that exists, and
         every #anchor names a heading of its target page (GitHub's heading slugs, numbered -1,
         -2... when a heading repeats). Links inside code (fenced blocks, `spans`) are text, not
         links; links with a scheme (https:, mailto:) are not followed.
usage: tools/lint/links.py [ROOT]   (ROOT defaults to the current directory)
Prints one line per broken link and 'lint links: N checked, N broken' at the end; exits 1 on any."""
import glob
import os
import re
import sys

LINK = re.compile(r'!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')


def prose(text, spans=True):
    """The page with fenced code blocks (and inline code spans if spans) blanked, newlines kept,
    so a link written as an example is not checked and line numbers stay right."""
    out, fence = [], None
    for line in text.split('\n'):
        m = re.match(r'^\s*(```+|~~~+)', line)
        if fence is None and m:
            fence = m.group(1)[0] * 3
            out.append('')
            continue
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            out.append('')
            continue
        out.append(re.sub(r'(`+)(.+?)\1', lambda s: ' ' * len(s.group(0)), line) if spans else line)
    return '\n'.join(out)


def slug(heading):
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped except - and _,
    spaces become dashes."""
    h = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', heading.strip())   # a link in a heading: its text
    h = h.lower().replace('`', '')
    h = re.sub(r'[^\w\- ]', '', h)
    return h.replace(' ', '-')


_anchors = {}


def anchors(path):
    if path not in _anchors:
        found, seen = set(), {}
        for line in prose(open(path, encoding='utf-8').read(), spans=False).split('\n'):
            m = re.match(r'^(#{1,6})\s+(.*?)\s*#*\s*$', line)
            if m:
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f'{base}-{n}')
        _anchors[path] = found
    return _anchors[path]


def broken_links(page):
    """(line, target, why) for each link of one page that leads nowhere."""
    text = prose(open(page, encoding='utf-8').read())
    bad, checked = [], 0
    for m in LINK.finditer(text):
        target = m.group(1)
        if re.match(r'^[A-Za-z][A-Za-z0-9+.-]*:', target):
            continue
        checked += 1
        line = text.count('\n', 0, m.start()) + 1
        path, _, anchor = target.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if not os.path.exists(dest):
            bad.append((line, target, 'no such file'))
        elif anchor and dest.endswith('.md') and anchor not in anchors(dest):
            bad.append((line, target, f'no heading #{anchor} in {os.path.basename(dest)}'))
    return checked, bad


def check_links(root):
    pages = [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md')))
    checked, broken = 0, 0
    for page in pages:
        if not os.path.exists(page):
            continue
        n, bad = broken_links(page)
        checked += n
        for line, target, why in bad:
            print(f'{os.path.relpath(page, root)}:{line}: link ({target}): {why}')
        broken += len(bad)
    print(f'lint links: {checked} links checked, {broken} broken')
    return broken == 0


if __name__ == '__main__':
    if len(sys.argv) > 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(0 if check_links(sys.argv[1] if len(sys.argv) == 2 else '.') else 1)
