#!/usr/bin/env python3
"""Wraps Swift lines longer than the project's limit (150 characters) the way the code is written by
hand: code breaks after the last `, ` that fits, the continuation aligned one column after the open
bracket it belongs to; comments break between words under the same `//` prefix. Prints what it could
not wrap (a long string literal, say) so a person does it. Usage: wrap-long-lines.py FILE..."""
import re, sys

LIMIT = 150

def code_break(line):
    """The index after which to break and the continuation's indent, or None."""
    stack, in_string, best = [], False, None
    i = 0
    while i < len(line):
        c = line[i]
        if in_string:
            if c == '\\': i += 2; continue
            if c == '"': in_string = False
        elif c == '"': in_string = True
        elif line.startswith('//', i): break
        elif c in '([': stack.append(i)
        elif c in ')]' and stack: stack.pop()
        elif c == ',' and stack and i + 1 < len(line) and line[i + 1] == ' ' and i + 1 <= LIMIT:
            best = (i + 1, stack[-1] + 1)
        i += 1
    return best

def wrap(line):
    stripped = line.lstrip()
    indent = line[:len(line) - len(stripped)]
    m = re.match(r'(///?\s?)', stripped)
    if m:  # a comment: words under the same prefix
        prefix, words, out, current = indent + m.group(1), stripped[len(m.group(1)):].split(' '), [], ''
        for word in words:
            if current and len(prefix) + len(current) + 1 + len(word) > LIMIT:
                out.append(prefix + current); current = word
            else:
                current = word if not current else current + ' ' + word
        out.append(prefix + current)
        return out if all(len(l) <= LIMIT for l in out) else None
    out = []
    while len(line) > LIMIT:
        found = code_break(line)
        if not found or found[1] >= found[0]: return None
        cut, column = found
        head, tail = line[:cut].rstrip(), line[cut:].lstrip()
        if column > 100: column = len(indent) + 4  # too deep: a plain hanging indent
        out.append(head); line = ' ' * column + tail
    out.append(line)
    return out

failed = []
for path in sys.argv[1:]:
    lines = open(path, encoding='utf-8').read().split('\n')
    result = []
    for number, line in enumerate(lines, 1):
        if len(line) <= LIMIT: result.append(line); continue
        wrapped = wrap(line)
        if wrapped is None: failed.append(f'{path}:{number}'); result.append(line)
        else: result.extend(wrapped)
    open(path, 'w', encoding='utf-8').write('\n'.join(result))
for place in failed: print('not wrapped:', place)
