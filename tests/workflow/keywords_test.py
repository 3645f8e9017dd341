#!/usr/bin/env python3
"""docs/language.md's keyword lists are the lexer's.

    keywords_test.py SOURCE_DIR

The reserved words are the `keywords[]` table of compiler/lexer.re and the
words that are keywords only in place its `context_words[]`; language.md
lists the first after "**Keywords** (cannot be used as names):" and names
the second in the sentence after it.  A keyword missing from the document
makes `param friction = 1` fail unexplained; one listed but not reserved
sends users away from a valid name.  The man page nsm.5 lists them too.
"""
import os
import re
import sys

PAIR = re.compile(r'\{"([a-z_]+)",\s*TK_[A-Z_]+\}')


def table(text, name):
    """The words of the C table `name[] = { ... };` in lexer.re."""
    m = re.search(r"\b%s\[\]\s*=\s*\{(.*?)\n\};" % name, text, re.S)
    if not m:
        sys.exit("FAIL: no table %s[] in compiler/lexer.re" % name)
    return set(PAIR.findall(m.group(1)))


def main():
    src = sys.argv[1]
    lexer = open(os.path.join(src, "compiler", "lexer.re"), encoding="utf-8").read()
    reserved, context = table(lexer, "keywords"), table(lexer, "context_words")
    fails = []
    doc = open(os.path.join(src, "docs", "language.md"), encoding="utf-8").read()
    m = re.search(r"\*\*Keywords\*\* \(cannot be used as names\): `([^`]*)`\.(.*?)\n-", doc, re.S)
    if not m:
        sys.exit("FAIL: language.md has no '**Keywords** (cannot be used as names): `...`' list")
    listed = set(m.group(1).split())
    for w in sorted(reserved - listed):
        fails.append("language.md does not list the keyword '%s'" % w)
    for w in sorted(listed - reserved):
        fails.append("language.md lists '%s', which the lexer does not reserve" % w)
    after = set(re.findall(r"`([a-z_]+)`", m.group(2)))
    for w in sorted(context - after):
        fails.append("language.md does not name the context keyword '%s'" % w)
    man = open(os.path.join(src, "docs", "man", "nsm.5"), encoding="utf-8").read()
    for w in sorted(reserved | context):
        if not re.search(r"\b%s\b" % w, man):
            fails.append("nsm.5 does not mention the keyword '%s'" % w)
    for f in fails:
        print("FAIL: " + f)
    if not fails:
        print("ok: %d keywords and %d context keywords documented"
              % (len(reserved), len(context)))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
