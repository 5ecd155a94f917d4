#!/usr/bin/env python3
"""The style rules the test command checks (the rest is `.swift-format`, run by hand): no Swift line over
150 characters, except where a string literal (JSON in a test, an expected message) or a link is what makes it
long: with each literal's contents left out, the line must fit. Wrap offenders with Scripts/wrap-long-lines.py."""
import re, subprocess, sys

LIMIT = 150
# Raw strings (`#"…"#`, which hold unescaped quotes), plain string literals, and links (a URL cannot wrap).
LITERAL = re.compile(r'(#+)".*?"\1|"(?:\\.|[^"\\])*"|https?://\S+')

files = subprocess.run(['git', 'ls-files', '--cached', '--others', '--exclude-standard', '*.swift'],
                       capture_output=True, text=True, check=True).stdout.split()
offenders = []
for path in files:
    for number, line in enumerate(open(path, encoding='utf-8'), 1):
        line = line.rstrip('\n')
        if len(line) > LIMIT and len(LITERAL.sub('""', line)) > LIMIT:
            offenders.append(f'{path}:{number}: {len(line)} characters')
for place in offenders:
    print(place, file=sys.stderr)
if offenders:
    print(f'check-style.py: {len(offenders)} lines over {LIMIT} characters (Scripts/wrap-long-lines.py wraps most)', file=sys.stderr)
    sys.exit(1)
