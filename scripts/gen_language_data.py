#!/usr/bin/env python3
"""Generates src/extract/language/data.rs from whatlang 0.18's source.

The fast language detector (src/extract/language.rs) mirrors whatlang's
"combined" method exactly, so it needs whatlang's own tables: the trigram
profiles (300 trigrams per language, in rank order) and the alphabets of
the Latin and Cyrillic languages. They are private in the crate, so this
script reads them from the crate's source in the cargo registry and writes
them out as Rust constants. Run it again only when the whatlang version in
Cargo.toml changes (and re-run the agreement tests).

Usage: python3 scripts/gen_language_data.py [path/to/whatlang-0.18.x]
"""

import glob
import os
import re
import sys

VERSION_GLOB = "whatlang-0.18.*"
OUT = os.path.join(os.path.dirname(__file__), "..", "src", "extract", "language", "data.rs")

# whatlang's licence (MIT), reproduced because the generated tables are
# derived from its source.
LICENSE = """\
(The MIT License)

Copyright (c) 2017 Sergey Potapov <blake131313@gmail.com>
Copyright (c) 2014 Titus Wormer <tituswormer@gmail.com>
Copyright (c) 2008 Kent S Johnson
Copyright (c) 2006 Jacob R Rideout <kde@jacobrideout.net>
Copyright (c) 2004 Maciej Ceglowski

Permission is hereby granted, free of charge, to any person obtaining
a copy of this software and associated documentation files (the
'Software'), to deal in the Software without restriction, including
without limitation the rights to use, copy, modify, merge, publish,
distribute, sublicense, and/or sell copies of the Software, and to
permit persons to whom the Software is furnished to do so, subject to
the following conditions:

The above copyright notice and this permission notice shall be
included in all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED 'AS IS', WITHOUT WARRANTY OF ANY KIND,
EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.
IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY
CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT,
TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE
SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE."""

# (profile list in trigrams/profiles.rs, script in lang_mapping.rs, alphabet file or None)
SCRIPTS = [
    ("LATIN_LANGS", "LATIN_LANGS", "latin.rs", "LATIN_ALPHABETS"),
    ("CYRILLIC_LANGS", "CYRILLIC_LANGS", "cyrillic.rs", "CYRILLIC_ALPHABETS"),
    ("ARABIC_LANGS", "ARABIC_LANGS", None, None),
    ("DEVANAGARI_LANGS", "DEVANAGARI_LANGS", None, None),
    ("HEBREW_LANGS", "HEBREW_LANGS", None, None),
]


def fail(msg):
    sys.exit(f"gen_language_data: {msg}")


def rust_char_literal_value(lit):
    """The char a Rust char literal body (between the quotes) stands for."""
    if lit.startswith("\\u{"):
        return chr(int(lit[3:-1], 16))
    simple = {"\\'": "'", '\\"': '"', "\\\\": "\\", "\\n": "\n", "\\t": "\t", "\\r": "\r", "\\0": "\0"}
    if lit in simple:
        return simple[lit]
    if len(lit) != 1:
        fail(f"unexpected char literal {lit!r}")
    return lit


def rust_str(s):
    out = []
    for c in s:
        if c == "\\":
            out.append("\\\\")
        elif c == '"':
            out.append('\\"')
        elif c.isprintable() and not (0x300 <= ord(c) <= 0x36F):
            out.append(c)
        else:
            out.append("\\u{%x}" % ord(c))
    return '"' + "".join(out) + '"'


def rust_char(c):
    if c == "\\":
        return "'\\\\'"
    if c == "'":
        return "'\\''"
    if c.isprintable() and not (0x300 <= ord(c) <= 0x36F):
        return f"'{c}'"
    return "'\\u{%x}'" % ord(c)


def parse_profiles(src):
    lists = {}
    for m in re.finditer(r"pub static (\w+): LangProfileList = &\[(.*?)\n\];", src, re.S):
        langs = []
        for lm in re.finditer(r"\(\s*Lang::(\w+),\s*&\[(.*?)\]\s*,?\s*\)", m.group(2), re.S):
            tris = re.findall(r"Trigram\('((?:\\.|[^'\\])[^']*)', '((?:\\.|[^'\\])[^']*)', '((?:\\.|[^'\\])[^']*)'\)", lm.group(2))
            if len(tris) != lm.group(2).count("Trigram("):
                fail(f"could not parse every trigram of {lm.group(1)}")
            langs.append((lm.group(1), ["".join(rust_char_literal_value(c) for c in t) for t in tris]))
        lists[m.group(1)] = langs
    return lists


def parse_script_langs(src):
    out = {}
    for m in re.finditer(r"const (\w+): \[Lang; (\d+)\] = \[(.*?)\];", src, re.S):
        langs = re.findall(r"Lang::(\w+)", m.group(3))
        if len(langs) != int(m.group(2)):
            fail(f"{m.group(1)} length")
        out[m.group(1)] = langs
    return out


def parse_alphabets(src, table):
    consts = {}
    for m in re.finditer(r'const (\w+): &str =\s*"([^"]*)";', src):
        consts[m.group(1)] = m.group(2)
    m = re.search(r"const %s: &\[\(Lang, &str\)\] = &\[(.*?)\];" % table, src, re.S)
    if not m:
        fail(f"no {table}")
    pairs = re.findall(r"\(Lang::(\w+), (\w+)\)", m.group(1))
    out = []
    for lang, const in pairs:
        alphabet = consts[const]
        if "\\" in alphabet:
            fail(f"escape in alphabet {const}")
        if len(set(alphabet)) != len(alphabet):
            # whatlang would count a repeated char twice for the language;
            # the detector's bitmask cannot say that.
            fail(f"repeated char in alphabet {const}")
        out.append((lang, alphabet))
    return out


def main():
    if len(sys.argv) > 1:
        root = sys.argv[1]
    else:
        found = sorted(glob.glob(os.path.expanduser(f"~/.cargo/registry/src/*/{VERSION_GLOB}")))
        if not found:
            fail("whatlang 0.18 source not found in the cargo registry (cargo fetch first)")
        root = found[-1]
    src = os.path.join(root, "src")
    version = os.path.basename(os.path.normpath(root))
    profiles = parse_profiles(open(os.path.join(src, "trigrams", "profiles.rs"), encoding="utf-8").read())
    script_langs = parse_script_langs(open(os.path.join(src, "scripts", "lang_mapping.rs"), encoding="utf-8").read())

    langs = []  # global order
    groups = []  # (name, start, len)
    alphabets = {}  # name -> sorted [(char, mask)]
    for plist, slist, afile, atable in SCRIPTS:
        entries = profiles.get(plist) or fail(f"no profile list {plist}")
        names = [l for l, _ in entries]
        if sorted(names) != sorted(script_langs[slist]) or len(set(names)) != len(names):
            # whatlang's combined method scores the union of both lists;
            # the detector relies on them being the same set.
            fail(f"{plist}: profile languages differ from the script's languages")
        for lang, tris in entries:
            if len(tris) != 300:
                # The distance formula's correction term assumes 300.
                fail(f"{lang}: profile has {len(tris)} trigrams, not 300")
            if len(set(tris)) != len(tris):
                fail(f"{lang}: repeated trigram in profile")
        name = plist[: -len("_LANGS")]
        groups.append((name, len(langs), len(entries)))
        langs.extend(entries)
        if afile:
            alpha = parse_alphabets(open(os.path.join(src, "alphabets", afile), encoding="utf-8").read(), atable)
            if sorted(l for l, _ in alpha) != sorted(names):
                fail(f"{atable}: alphabet languages differ from the script's languages")
            if len(names) > 64:
                fail("more than 64 languages in a script")
            masks = {}
            for lang, alphabet in alpha:
                bit = names.index(lang)
                for c in alphabet:
                    masks[c] = masks.get(c, 0) | (1 << bit)
            alphabets[name] = sorted(masks.items())

    out = []
    w = out.append
    w(f"// GENERATED by scripts/gen_language_data.py from {version}; do not edit.")
    w("//")
    w("// The tables below are whatlang's trigram profiles and alphabets, copied so")
    w("// that `language.rs` can index them; whatlang keeps them private. whatlang")
    w("// is distributed under the following licence:")
    w("//")
    for line in LICENSE.splitlines():
        w(("// " + line).rstrip())
    w("")
    w("//! whatlang's tables, generated; see the header for where they come from.")
    w("")
    w("use whatlang::Lang;")
    w("")
    w("/// Trigrams in each profile (whatlang's `MAX_TRIGRAM_DISTANCE` profiles).")
    w("pub(super) const PROFILE_LEN: usize = 300;")
    w("")
    w("/// Every language that has a trigram profile, grouped by script (see the")
    w("/// ranges below), in whatlang's order within a script.")
    w(f"pub(super) const LANGS: [Lang; {len(langs)}] = [")
    for lang, _ in langs:
        w(f"    Lang::{lang},")
    w("];")
    w("")
    for name, start, n in groups:
        w(f"/// `LANGS[{start}..{start + n}]` are the {name.title()} script's languages.")
        w(f"pub(super) const {name}: core::ops::Range<usize> = {start}..{start + n};")
    w("")
    w("/// Each language's profile (same order as `LANGS`): its 300 trigrams in")
    w("/// rank order, concatenated (3 chars each; `' '` stands for any stop char).")
    w(f"pub(super) const PROFILES: [&str; {len(langs)}] = [")
    for lang, tris in langs:
        w(f"    // {lang}")
        w("    concat!(")
        for i in range(0, 300, 20):
            w(f"        {rust_str(''.join(tris[i : i + 20]))},")
        w("    ),")
    w("];")
    w("")
    for name, chars in alphabets.items():
        w(f"/// Letters of the {name.title()} languages' alphabets, sorted, each with the")
        w(f"/// set of languages (bit i: `LANGS[{name}][i]`) whose alphabet has it.")
        w(f"pub(super) const {name}_ALPHABET: [(char, u64); {len(chars)}] = [")
        for c, mask in chars:
            w(f"    ({rust_char(c)}, 0x{mask:x}),")
        w("];")
        w("")
    text = "\n".join(out)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {os.path.normpath(OUT)}: {len(langs)} languages, {sum(len(t) for _, t in langs)} trigrams")


if __name__ == "__main__":
    main()
