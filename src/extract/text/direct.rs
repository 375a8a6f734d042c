//! The markup most selected lines are made of, tokenized here directly:
//! text, start and end tags, comments, doctypes, the raw text of scripts
//! and styles, and the common character references. The renderer hears
//! the events html5gum would report (`events`), in the same order, with
//! text perhaps cut into other pieces (which the renderer does not see).
//!
//! Why by hand: html5gum reads every byte through the WHATWG state
//! machine, attributes and all, and was a fifth of the core's time (over
//! the selected lines, a tenth of the pages' bytes). The renderer needs
//! only tag names and text, so a tag `<name attributes...>` is found with
//! the tokenizer's own rules for where it ends (quotes hide `>` only in
//! attribute values) and reported by its name, and text between tags is
//! handed over as it lies in the page, uncopied.
//!
//! What it does not follow it leaves to html5gum, which stays the
//! reference: a text run with a character reference outside the small
//! table here (or a NUL) goes to html5gum alone (a run holds no `<`, so
//! it tokenizes the same out of context); and where the markup itself is
//! beyond it (a tag or comment cut off by the end of the input, a script
//! holding `<!--`, raw text the renderer reads, `<plaintext>`), it stops
//! at that `<`, in the data state, and html5gum takes the rest.
//!
//! It does not interpret tags: what a tag means is the renderer's business
//! (`tests`: the same events and text as html5gum on tricky markup and in
//! proptests).

// The scanner reads tags and raw-text end tags by the tokenizer's rules
// (its whitespace is the tokenizer's in tags, which reads `\r` as `\n`).
use super::super::blocks::Block;
use super::super::scan::closes_raw;
use super::super::tags::{self, KEY_NAME_MAX, Tag};
use super::super::text_count::{find, is_space};
use super::events::{Events, NAME_CAP, Sink};

/// Reports the events of `html` to `sink` as far as it can follow them,
/// and returns where it stopped: `html.len()`, or the `<` where html5gum
/// must take over (see the module doc). `chars` is a buffer for html5gum's
/// text runs.
pub(super) fn run<S: Sink>(html: &str, sink: &mut S, chars: &mut Vec<u8>) -> usize {
    let bytes = html.as_bytes();
    let mut at = 0;
    loop {
        let (lt, special, ascii) = text_end(bytes, at);
        // `<` is ASCII: every cut is at a char boundary.
        let run = html.get(at..lt).unwrap_or("");
        if special {
            text(run, sink, chars);
        } else if !run.is_empty() {
            sink.text_known(run, ascii);
        }
        if lt == bytes.len() {
            return lt;
        }
        match markup(bytes, lt) {
            None => return lt,
            Some(Step::Less) => {
                sink.text("<");
                at = lt + 1;
            }
            Some(Step::Ignored(end)) => at = end,
            Some(Step::Cut) => return bytes.len(),
            Some(Step::EndTag { name_end, end }) => {
                if !with_name(bytes, lt + 2, name_end, |name, tag| {
                    sink.end_tag_known(name, tag);
                }) {
                    return lt;
                }
                at = end;
            }
            Some(Step::Tag { name_end, end, raw }) => {
                let after = match raw {
                    Raw::No => end,
                    // The text the renderer leaves out goes unread; the
                    // end tag is the next markup.
                    Raw::Until(name) if unread(name) => match raw_end(bytes, end, name) {
                        Some(close) => close,
                        None => return lt,
                    },
                    Raw::Until(_) | Raw::Rest => return lt,
                };
                if !with_name(bytes, lt + 1, name_end, |name, tag| {
                    sink.start_tag_known(name, tag);
                }) {
                    return lt;
                }
                if sink.wants_attributes() {
                    attributes(&bytes[name_end..end - 1], sink);
                }
                at = after;
            }
        }
    }
}

/// The end of the text run at `from`: the first `<` at or after it (or
/// `bytes.len()`), whether the run holds a byte [`text`] must look at
/// (`&`, `\r`, NUL), and whether it is all ASCII. One pass a block at a
/// time for what took a memchr for the `<`, a memchr3 over the run and the
/// renderer's own ASCII test: most runs are the few bytes between two
/// tags, shorter than either call costs, and most hold none of the three,
/// so go to the sink whole.
fn text_end(bytes: &[u8], from: usize) -> (usize, bool, bool) {
    let mut at = from;
    let (mut special, mut high) = (false, false);
    while at < bytes.len() {
        let block = Block::at(bytes, at);
        let lt = block.eq(b'<') & block.present;
        let odd = (block.eq(b'&') | block.eq(b'\r') | block.eq(0)) & block.present;
        // The padding's zeros have no high bit.
        let top = block.v.to_bitmask();
        if lt != 0 {
            let before = (lt & lt.wrapping_neg()) - 1;
            return (
                at + lt.trailing_zeros() as usize,
                special || odd & before != 0,
                !(high || top & before != 0),
            );
        }
        special |= odd != 0;
        high |= top != 0;
        at += 16;
    }
    (bytes.len(), special, !high)
}

/// Tokenizes `html` with html5gum alone, from the data state.
pub(super) fn tokenize<S: Sink>(html: &str, sink: &mut S, chars: &mut Vec<u8>) {
    for _ in html5gum::Tokenizer::new_with_emitter(html, Events::new(sink, chars)) {}
}

/// Calls `report` with the name `bytes[from..end]` of a tag as the
/// tokenizer reports it (ASCII lowercased, cut to `NAME_CAP` bytes as
/// `events` cuts it) and its [`Tag`]. False (and no call) for a name
/// holding NUL, which the tokenizer replaces.
fn with_name(bytes: &[u8], from: usize, end: usize, report: impl FnOnce(&[u8], Tag)) -> bool {
    let n = end - from;
    // Most names are short: eight bytes read at once give the lowercased
    // name and its key for `Tag::by_key`, where a byte loop lowercased a
    // copy and `Tag::classify` read it again for the key.
    let eight = match (1..=KEY_NAME_MAX).contains(&n) {
        true => bytes.get(from..).and_then(<[u8]>::first_chunk::<8>),
        false => None,
    };
    if let Some(&word) = eight {
        let Some(lower) = lowercase_name(u64::from_le_bytes(word), n) else {
            return false;
        };
        let tag = Tag::by_key(tags::word_key(lower, n));
        report(&lower.to_le_bytes()[..n], tag);
        return true;
    }
    let name = &bytes[from..end];
    let mut lower = [0u8; NAME_CAP];
    let n = name.len().min(NAME_CAP);
    // The NUL test rides on the copy: a separate `contains` was a library
    // call per tag.
    let mut nul = false;
    for (to, &from) in lower.iter_mut().zip(&name[..n]) {
        nul |= from == 0;
        *to = from.to_ascii_lowercase();
    }
    if nul || (name.len() > NAME_CAP && name[NAME_CAP..].contains(&0)) {
        return false;
    }
    report(&lower[..n], Tag::classify(&lower[..n]));
    true
}

/// The first `n` bytes (1 to 7) of `word` (little-endian), ASCII
/// lowercased, the others zero; `None` if one of them is NUL.
fn lowercase_name(word: u64, n: usize) -> Option<u64> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mask = (1u64 << (8 * n)) - 1;
    let name = word & mask;
    // A zero byte among the name's (the bytes past it set to 0xFF): the
    // classic test, exact on whether there is one (it may misplace which,
    // but only above a real zero).
    let padded = name | !mask;
    if padded.wrapping_sub(ONES) & !padded & HIGH != 0 {
        return None;
    }
    // Per byte, with no carry between bytes (each sum stays below 0x100):
    // the high bit of `low + (0x80 - b'A')` is set from `A` up, that of
    // `low + (0x80 - b'Z' - 1)` past `Z`; bytes that are not ASCII keep
    // their case, as `to_ascii_lowercase` keeps it.
    let low = name & !HIGH;
    let from_a = low + ONES * (0x80 - u64::from(b'A'));
    let past_z = low + ONES * (0x80 - u64::from(b'Z') - 1);
    let upper = from_a & !past_z & !name & HIGH;
    Some(name | upper >> 2)
}

/// A run of text (no `<`): its bytes as they are but for line breaks
/// (`\r\n` and `\r` read as `\n`, as the tokenizer's input stream reads
/// them) and the character references of [`reference`]; at anything else
/// (another reference, a NUL) html5gum takes the rest of the run.
fn text<S: Sink>(run: &str, sink: &mut S, chars: &mut Vec<u8>) {
    let bytes = run.as_bytes();
    let mut from = 0;
    while let Some(i) = memchr::memchr3(b'&', b'\r', 0, &bytes[from..]) {
        let at = from + i;
        // `&`, `\r` and NUL are ASCII: every cut is at a char boundary.
        if at > from {
            sink.text(run.get(from..at).unwrap_or(""));
        }
        match bytes[at] {
            b'\r' => {
                // A `\r\n` leaves its `\n` to the next piece.
                if bytes.get(at + 1) != Some(&b'\n') {
                    sink.text("\n");
                }
                from = at + 1;
            }
            b'&' => match reference(&bytes[at + 1..]) {
                Some((len, value)) => {
                    sink.text(value.encode_utf8(&mut [0; 4]));
                    from = at + 1 + len;
                }
                None => {
                    tokenize(run.get(at..).unwrap_or(""), sink, chars);
                    return;
                }
            },
            _ => {
                tokenize(run.get(at..).unwrap_or(""), sink, chars);
                return;
            }
        }
    }
    if from < bytes.len() {
        sink.text(run.get(from..).unwrap_or(""));
    }
}

/// The character reference after a `&` (`rest` starts just after it),
/// when it is one the tokenizer reads plainly: `&` before anything but a
/// letter, digit or `#` (just `&`); a decimal or hexadecimal reference
/// with its `;` to a character the tokenizer keeps; one of the [`NAMED`]
/// with its `;`. Gives the bytes taken after the `&` and the character.
/// `None` leaves the reference to html5gum.
pub(crate) fn reference(rest: &[u8]) -> Option<(usize, char)> {
    match rest.first() {
        None => Some((0, '&')),
        Some(b'#') => numeric(&rest[1..]).map(|(len, c)| (len + 1, c)),
        Some(b) if b.is_ascii_alphanumeric() => {
            let len = rest.iter().position(|b| !b.is_ascii_alphanumeric())?;
            if rest[len] != b';' {
                return None;
            }
            let (_, c) = NAMED
                .iter()
                .find(|(name, _)| name.as_bytes() == &rest[..len])?;
            Some((len + 1, *c))
        }
        Some(_) => Some((0, '&')),
    }
}

/// `123;` or `x7B;` (after `&#`): the bytes and the character, for a
/// code point the tokenizer keeps as it is (no NUL, control, surrogate,
/// noncharacter or out-of-range value, which it replaces or flags).
fn numeric(rest: &[u8]) -> Option<(usize, char)> {
    let (radix, skip) = match rest.first()? {
        b'x' | b'X' => (16, 1),
        _ => (10, 0),
    };
    let digits = rest[skip..]
        .iter()
        .position(|b| !b.is_ascii_hexdigit() || (radix == 10 && !b.is_ascii_digit()))?;
    // Seven digits hold any code point; more are left to html5gum.
    if digits == 0 || digits > 7 || rest[skip + digits] != b';' {
        return None;
    }
    let text = std::str::from_utf8(&rest[skip..skip + digits]).ok()?;
    let code = u32::from_str_radix(text, radix).ok()?;
    let kept = matches!(code, 0x09 | 0x0A | 0x20..=0x7E | 0xA0..=0xFDCF | 0xFDF0..=0x10FFFF)
        && code & 0xFFFE != 0xFFFE;
    let c = char::from_u32(code).filter(|_| kept)?;
    Some((skip + digits + 1, c))
}

/// The named references most pages use, with their `;` (checked against
/// html5gum in `tests`); any other name goes to html5gum.
const NAMED: &[(&str, char)] = &[
    ("amp", '&'),
    ("nbsp", '\u{A0}'),
    ("quot", '"'),
    ("lt", '<'),
    ("gt", '>'),
    ("apos", '\''),
    ("hellip", '\u{2026}'),
    ("mdash", '\u{2014}'),
    ("ndash", '\u{2013}'),
    ("rsquo", '\u{2019}'),
    ("lsquo", '\u{2018}'),
    ("rdquo", '\u{201D}'),
    ("ldquo", '\u{201C}'),
    ("raquo", '\u{BB}'),
    ("laquo", '\u{AB}'),
    ("middot", '\u{B7}'),
    ("bull", '\u{2022}'),
    ("copy", '\u{A9}'),
    ("reg", '\u{AE}'),
    ("trade", '\u{2122}'),
    ("euro", '\u{20AC}'),
    ("shy", '\u{AD}'),
];

/// What the markup at `lt` (a `<`) is; `None` when the tokenizer might
/// still be inside it at the end of the input.
enum Step {
    /// A start tag: its name ends at `name_end`, the tag at `end`, and its
    /// content may be raw text.
    Tag {
        name_end: usize,
        end: usize,
        raw: Raw,
    },
    /// An end tag `</name ...>`.
    EndTag { name_end: usize, end: usize },
    /// A comment, doctype or bogus comment, which reports nothing, up to
    /// `end`.
    Ignored(usize),
    /// A `<` that starts nothing: text.
    Less,
    /// A tag the input's end cuts (`<b class="x` and no `>`) after more
    /// than [`LONG_CUT_TAG`] bytes: dropped, as WHATWG's eof-in-tag drops
    /// it, and nothing more is reported. Not left to html5gum, whose
    /// attribute states recurse once per attribute on such a tag and
    /// overflow the stack after some thousands of them. A shorter one goes
    /// to html5gum as ever (which reports some of them, `<p =`).
    Cut,
}

/// What follows a start tag, as `events` switches the tokenizer's state.
enum Raw {
    /// Markup.
    No,
    /// Text up to `</name` (`name` lowercase).
    Until(&'static [u8]),
    /// Text to the end (`<plaintext>`).
    Rest,
}

/// A cut tag longer than this (bytes) is [`Step::Cut`].
const LONG_CUT_TAG: usize = 4096;

fn markup(bytes: &[u8], lt: usize) -> Option<Step> {
    let cut = || (bytes.len() - lt > LONG_CUT_TAG).then_some(Step::Cut);
    let next = bytes.get(lt + 1).copied();
    match next {
        Some(b) if b.is_ascii_alphabetic() => {
            let Some((name_end, end)) = tag_ends(bytes, lt + 1) else {
                return cut();
            };
            let raw = raw_text(&bytes[lt + 1..name_end]);
            Some(Step::Tag { name_end, end, raw })
        }
        Some(b'/') => match bytes.get(lt + 2) {
            Some(b) if b.is_ascii_alphabetic() => match tag_ends(bytes, lt + 2) {
                Some((name_end, end)) => Some(Step::EndTag { name_end, end }),
                None => cut(),
            },
            Some(_) => Some(Step::Ignored(after(b'>', bytes, lt + 2)?)),
            None => None,
        },
        Some(b'!') if bytes[lt..].starts_with(b"<!--") => {
            Some(Step::Ignored(comment_end(bytes, lt)?))
        }
        Some(b'!' | b'?') => Some(Step::Ignored(after(b'>', bytes, lt + 2)?)),
        Some(_) => Some(Step::Less),
        None => None,
    }
}

/// Where the name of a tag starting at `from` ends, and just past the
/// tag's `>`; `None` when the input ends first. Inlined: as a call of its
/// own it took `tag_end` in, +1.2 M instructions on every 15th page.
#[inline(always)]
fn tag_ends(bytes: &[u8], from: usize) -> Option<(usize, usize)> {
    let name_end = name_end(bytes, from)?;
    Some((name_end, tag_end(bytes, name_end)?))
}

/// Where a tag name starting at `from` ends: whitespace, `/` or `>`.
fn name_end(bytes: &[u8], from: usize) -> Option<usize> {
    Some(
        from + bytes[from..]
            .iter()
            .position(|&b| is(b, SPACE | SLASH | GT))?,
    )
}

/// The bytes that end a tag's parts, as bits of [`CLASS`]: the scanner's
/// whitespace (`text_count::is_space`, the tokenizer's in tags), `/`,
/// `>` and `=`.
const SPACE: u8 = 1;
const SLASH: u8 = 2;
const GT: u8 = 4;
const EQ: u8 = 8;

/// Each byte's classes. [`tag_end`] and [`name_end`] test every byte of a
/// tag's name and attributes against several of them: one load and one
/// test, where the comparisons took a range test, a bit test and up to
/// three compares a byte.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        if is_space(b as u8) {
            t[b] = SPACE;
        }
        b += 1;
    }
    t[b'/' as usize] = SLASH;
    t[b'>' as usize] = GT;
    t[b'=' as usize] = EQ;
    t
};

/// Is `b` of one of the classes `mask`?
#[inline(always)]
fn is(b: u8, mask: u8) -> bool {
    CLASS[usize::from(b)] & mask != 0
}

/// Just past the first `c` at or after `from`.
fn after(c: u8, bytes: &[u8], from: usize) -> Option<usize> {
    Some(from + find(c, bytes.get(from..)?)? + 1)
}

/// Just past the `quote` that closes an attribute value opened before
/// `from`. A block at a time, with no memchr: most values (class names,
/// short links) run to a few dozen bytes, where memchr's call and set-up
/// cost more than its search saves. Out of line: inlined into [`tag_end`],
/// its pointers made LLVM keep four induction variables in each of
/// `tag_end`'s byte loops.
#[inline(never)]
fn after_value(quote: u8, bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while at < bytes.len() {
        let block = Block::at(bytes, at);
        let hit = block.eq(quote) & block.present;
        if hit != 0 {
            return Some(at + hit.trailing_zeros() as usize + 1);
        }
        at += 16;
    }
    None
}

/// Just past the `>` that ends a tag whose name ended at `at`, by the
/// tokenizer's attribute states (before/after attribute name, attribute
/// name, before attribute value, the three value states, self-closing).
fn tag_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    let len = bytes.len();
    loop {
        // Before an attribute name (a `/` not followed by `>` goes back
        // here too).
        while at < len && is(bytes[at], SPACE | SLASH) {
            at += 1;
        }
        match bytes.get(at)? {
            b'>' => return Some(at + 1),
            // A name's first byte may be anything else, even `=`.
            _ => at += 1,
        }
        while at < len && !is(bytes[at], SPACE | SLASH | GT | EQ) {
            at += 1;
        }
        while at < len && is(bytes[at], SPACE) {
            at += 1;
        }
        if *bytes.get(at)? != b'=' {
            // `/`, `>` or the next attribute's name: the loop's start.
            continue;
        }
        at += 1;
        while at < len && is(bytes[at], SPACE) {
            at += 1;
        }
        match *bytes.get(at)? {
            quote @ (b'"' | b'\'') => at = after_value(quote, bytes, at + 1)?,
            b'>' => return Some(at + 1),
            _ => {
                while at < len && !is(bytes[at], SPACE | GT) {
                    at += 1;
                }
            }
        }
    }
}

/// Reports to `sink` the attributes of a start tag, `tag` its bytes from
/// the end of its name to its closing `>` (left out), read by the states
/// [`tag_end`] follows; names ASCII-lowercased, values as written.
/// Attributes are read only for the few tags a sink asks about, so this
/// is kept apart from `tag_end`, which runs on every tag.
fn attributes<S: Sink>(tag: &[u8], sink: &mut S) {
    let len = tag.len();
    let mut at = 0;
    loop {
        while at < len && is(tag[at], SPACE | SLASH) {
            at += 1;
        }
        if at == len {
            return;
        }
        let start = at;
        // A name's first byte may be anything else, even `=`.
        at += 1;
        while at < len && !is(tag[at], SPACE | SLASH | GT | EQ) {
            at += 1;
        }
        let name = &tag[start..at];
        while at < len && is(tag[at], SPACE) {
            at += 1;
        }
        if tag.get(at) != Some(&b'=') {
            report_attribute(name, b"", sink);
            continue;
        }
        at += 1;
        while at < len && is(tag[at], SPACE) {
            at += 1;
        }
        let value = match tag.get(at) {
            Some(&quote @ (b'"' | b'\'')) => {
                let from = at + 1;
                at = from + find(quote, &tag[from..]).unwrap_or(len - from);
                let value = &tag[from..at];
                at = (at + 1).min(len);
                value
            }
            _ => {
                let from = at;
                while at < len && !is(tag[at], SPACE | GT) {
                    at += 1;
                }
                &tag[from..at]
            }
        };
        report_attribute(name, value, sink);
    }
}

/// An attribute to `sink` as `events` reports it: name lowercased, and
/// neither name nor value past [`NAME_CAP`] bytes.
fn report_attribute<S: Sink>(name: &[u8], value: &[u8], sink: &mut S) {
    if name.len() > NAME_CAP || value.len() > NAME_CAP {
        return;
    }
    let mut lower = [0u8; NAME_CAP];
    for (to, from) in lower.iter_mut().zip(name) {
        *to = from.to_ascii_lowercase();
    }
    sink.attribute(&lower[..name.len()], value);
}

/// How the tokenizer reads what follows a start tag named `name` (html5gum's
/// `naive_next_state`, with `<noscript>` content as markup, as in `events`).
fn raw_text(name: &[u8]) -> Raw {
    const NAMES: [&[u8]; 9] = [
        b"textarea",
        b"title",
        b"script",
        b"style",
        b"iframe",
        b"xmp",
        b"noembed",
        b"noframe",
        b"plaintext",
    ];
    match NAMES.iter().find(|n| n.eq_ignore_ascii_case(name)) {
        Some(&b"plaintext") => Raw::Rest,
        Some(n) => Raw::Until(n),
        None => Raw::No,
    }
}

/// Where the renderer's text goes on after the `<` at `lt`, as [`run`]
/// reads it: just past a tag (and past the raw text it leaves out, as
/// script's), an end tag, or a comment, doctype or the like; `lt` itself
/// when the `<` is text. `None` when that is not plain: markup that runs
/// past the end, or raw text the renderer reads (its `<` and `&` as they
/// are) or leaves to html5gum.
pub(crate) fn text_after_markup(bytes: &[u8], lt: usize) -> Option<usize> {
    match markup(bytes, lt)? {
        Step::Tag { end, raw, .. } => match raw {
            Raw::No => Some(end),
            Raw::Until(name) if unread(name) => raw_end(bytes, end, name),
            Raw::Until(_) | Raw::Rest => None,
        },
        Step::EndTag { end, .. } | Step::Ignored(end) => Some(end),
        Step::Less => Some(lt),
        Step::Cut => None,
    }
}

/// Is the text of raw-text element `name` (lowercase) text the renderer
/// leaves out? (`noframe`, raw text to the tokenizer, is not one of them.)
fn unread(name: &[u8]) -> bool {
    Tag::classify(name).hides_text()
}

/// Where the raw text that starts at `from` ends: at the `<` of its end
/// tag `</name` followed by whitespace, `/` or `>`. `None` when there is
/// none, or when a script's text holds `<!--` before it (the tokenizer's
/// escaped script states, which this does not follow).
fn raw_end(bytes: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut at = from;
    loop {
        let lt = at + find(b'<', bytes.get(at..)?)?;
        if name == b"script" && bytes[lt..].starts_with(b"<!--") {
            return None;
        }
        if closes_raw(&bytes[lt..], name)? {
            return Some(lt);
        }
        at = lt + 1;
    }
}

/// Just past the end of the comment opened at `lt` (`<!--`): the first
/// `>` after `--` (counting the opening's own dashes, so `<!-->` and
/// `<!--->` end at once) or after `--!` (not the opening's).
fn comment_end(bytes: &[u8], lt: usize) -> Option<usize> {
    let mut at = lt + 2;
    loop {
        let gt = at + find(b'>', bytes.get(at..)?)?;
        let ends = |tail: &[u8], first: usize| {
            gt >= first + tail.len() && bytes[gt - tail.len()..gt] == *tail
        };
        if ends(b"--", lt + 2) || ends(b"--!", lt + 4) {
            return Some(gt + 1);
        }
        at = gt + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::events::testing::{Ev, Record, TRICKY, merged, ours, soup};
    use super::super::{render_fragment, render_original};
    use super::*;

    /// The byte classes are the scanner's whitespace and tag-name ends.
    #[test]
    fn byte_classes_are_the_scanners() {
        use super::super::super::scan::ends_tag_name;
        use super::super::super::text_count::is_space;
        for b in 0..=255u8 {
            assert_eq!(is(b, SPACE), is_space(b), "{b}");
            assert_eq!(is(b, SPACE | SLASH | GT), ends_tag_name(b), "{b}");
            assert_eq!(is(b, SPACE | SLASH), is_space(b) || b == b'/', "{b}");
            assert_eq!(is(b, GT), b == b'>', "{b}");
            assert_eq!(is(b, EQ), b == b'=', "{b}");
        }
    }

    /// The events `run` reports, then html5gum's for the rest, as
    /// [`heard`]; and where `run` stopped.
    fn direct(html: &str) -> (Vec<Ev>, usize) {
        let mut rec = Record::default();
        let mut chars = Vec::new();
        let stop = run(html, &mut rec, &mut chars);
        tokenize(&html[stop..], &mut rec, &mut chars);
        (heard(rec.0), stop)
    }

    /// html5gum's events for `html`, as [`heard`].
    fn html5gums(html: &str) -> Vec<Ev> {
        heard(ours(html))
    }

    /// [`direct`]'s events and [`html5gums`], every start tag's
    /// attributes among them.
    fn with_attributes(html: &str) -> (Vec<Ev>, Vec<Ev>) {
        let mut chars = Vec::new();
        let mut ran = Record(Vec::new(), true);
        let stop = run(html, &mut ran, &mut chars);
        tokenize(&html[stop..], &mut ran, &mut chars);
        let mut alone = Record(Vec::new(), true);
        tokenize(html, &mut alone, &mut chars);
        (heard(ran.0), heard(alone.0))
    }

    /// What the renderer makes of `events`: adjacent text joined, and the
    /// raw text of the elements it leaves out (which `run` skips) gone.
    fn heard(events: Vec<Ev>) -> Vec<Ev> {
        let mut out = merged(events);
        let mut i = 1;
        while i < out.len() {
            let tag = out[..i].iter().rfind(|e| !matches!(e, Ev::Attribute(..)));
            let skipped = matches!(tag, Some(Ev::Start(name))
                if matches!(raw_text(name), Raw::Until(n) if unread(n)));
            if skipped && matches!(out[i], Ev::Text(_)) {
                out.remove(i);
            }
            i += 1;
        }
        out
    }

    #[test]
    fn same_events_as_html5gum_on_tricky_markup() {
        for html in TRICKY {
            assert_eq!(direct(html).0, html5gums(html), "{html:?}");
        }
    }

    /// A sink that reads attributes hears them as html5gum reads them:
    /// names lowercased, values unquoted, the tokenizer's corners (a name
    /// starting with `=`, a value after a `/`, no space between two).
    #[test]
    fn attributes_are_read_as_html5gum_reads_them() {
        let html = "<ol START=\"5\" reversed><li value = 3 class='a b'>x</li>\
                    <p =a b=c/d e=\"f\"g/h i= >y<p\tid\n=\nz/>";
        let (ours, theirs) = with_attributes(html);
        assert_eq!(ours, theirs);
        let heard: Vec<(&[u8], &[u8])> = ours
            .iter()
            .filter_map(|e| match e {
                Ev::Attribute(name, value) => Some((name.as_slice(), value.as_slice())),
                _ => None,
            })
            .collect();
        let expected: [(&[u8], &[u8]); 11] = [
            (b"start", b"5"),
            (b"reversed", b""),
            (b"value", b"3"),
            (b"class", b"a b"),
            (b"=a", b""),
            (b"b", b"c/d"),
            (b"e", b"f"),
            (b"g", b""),
            (b"h", b""),
            (b"i", b""),
            (b"id", b"z/"),
        ];
        assert_eq!(heard, expected);
        for html in TRICKY.iter().filter(|h| !h.contains(['&', '\0', '\r'])) {
            let (ours, theirs) = with_attributes(html);
            assert_eq!(ours, theirs, "{html:?}");
        }
    }

    /// The plain reading of a name [`lowercase_name`] reads eight bytes at
    /// a time.
    fn lowercase_plainly(word: [u8; 8], n: usize) -> Option<u64> {
        let mut lower = [0; 8];
        for (to, &from) in lower.iter_mut().zip(&word[..n]) {
            if from == 0 {
                return None;
            }
            *to = from.to_ascii_lowercase();
        }
        Some(u64::from_le_bytes(lower))
    }

    #[test]
    fn short_names_lowercase_as_byte_by_byte_for_every_byte() {
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut word = *b"aBcDeFgH";
                word[at] = b;
                for n in 1..=KEY_NAME_MAX {
                    assert_eq!(
                        lowercase_name(u64::from_le_bytes(word), n),
                        lowercase_plainly(word, n),
                        "{word:?} {n}"
                    );
                }
            }
        }
    }

    /// Two neighbouring bytes, every pair at every place: a carry or a
    /// borrow between bytes would show next to a letter.
    #[test]
    fn short_names_lowercase_as_byte_by_byte_for_every_pair() {
        for pair in 0..=u16::MAX {
            let [b, c] = pair.to_le_bytes();
            for at in 0..7 {
                let mut word = *b"aBcDeFgH";
                word[at] = b;
                word[at + 1] = c;
                let n = KEY_NAME_MAX;
                assert_eq!(
                    lowercase_name(u64::from_le_bytes(word), n),
                    lowercase_plainly(word, n),
                    "{word:?}"
                );
            }
        }
    }

    /// Every known name, as written and in upper and mixed case, and a
    /// name cut short: the renderer's tag is the one `Tag::classify`
    /// gives the lowercased name.
    #[test]
    fn short_names_are_known_as_tag_classify_knows_them() {
        let names = [
            "a", "br", "div", "p", "h1", "h6", "li", "td", "nav", "section",
        ];
        for name in names
            .into_iter()
            .chain(["article", "main", "pre", "meta", "span"])
        {
            let mixed: String = name
                .chars()
                .enumerate()
                .map(|(i, c)| {
                    if i % 2 == 0 {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    }
                })
                .collect();
            for written in [name.to_string(), name.to_ascii_uppercase(), mixed] {
                let bytes = format!("<{written} x>").into_bytes();
                let mut seen = None;
                assert!(with_name(&bytes, 1, 1 + name.len(), |lower, tag| {
                    seen = Some((lower.to_vec(), tag));
                }));
                let want = (name.as_bytes().to_vec(), Tag::classify(name.as_bytes()));
                assert_eq!(seen, Some(want), "{written}");
            }
        }
    }

    proptest::proptest! {
        /// Any eight bytes, any short name among them: lowercased as
        /// byte by byte.
        #[test]
        fn short_names_lowercase_as_byte_by_byte(word: [u8; 8], n in 1..=KEY_NAME_MAX) {
            proptest::prop_assert_eq!(
                lowercase_name(u64::from_le_bytes(word), n),
                lowercase_plainly(word, n)
            );
        }

        /// Random soup of markup pieces: the same events as html5gum.
        #[test]
        fn same_events_as_html5gum_on_tag_soup(html in soup()) {
            proptest::prop_assert_eq!(direct(&html).0, html5gums(&html), "{:?}", html);
        }

        /// And the same attributes, but for values html5gum reads
        /// otherwise (references decoded, NUL and `\r` replaced).
        #[test]
        fn same_attributes_as_html5gum_on_tag_soup(html in soup()) {
            let html = html.replace(['&', '\0', '\r'], "");
            let (ours, theirs) = with_attributes(&html);
            proptest::prop_assert_eq!(ours, theirs, "{:?}", html);
        }

        /// And the same text.
        #[test]
        fn renders_the_same_on_tag_soup(html in soup()) {
            proptest::prop_assert_eq!(render_fragment(&html), render_original(&html), "{:?}", html);
        }
    }

    #[test]
    fn renders_the_same_on_tricky_markup() {
        for html in TRICKY {
            assert_eq!(render_fragment(html), render_original(html), "{html:?}");
        }
    }

    /// Common markup is followed to its end; what is beyond `run` stops
    /// it at that `<` (and nowhere else).
    #[test]
    fn follows_common_markup_and_stops_where_html5gum_must_go_on() {
        let whole = [
            "<p class=\"a\" id='b'>x &amp; y&nbsp;&#8217;&#x2019;</p>",
            "<img src=x.png alt=\"a > b\"/>y<br/>",
            "<div\r\n  class=\"c\"\r\n>a\r\nb\rc</div>",
            "<!-- <p class=x> --><!DOCTYPE html><?xml x?></ p>a < b <3",
            "<script>if (a < b) {}</script ><style>p{}</style><title>T</title>",
            "Q & A &",
        ];
        for html in whole {
            assert_eq!(direct(html).1, html.len(), "{html:?}");
        }
        let stops = [
            ("<p>a<script><!--<i x=y>", 4),
            ("<p>x</p><b class=\"unterminated><i x=y>", 8),
            ("<p>x<plaintext><p>", 4),
            ("<p>x<noframe><p>y</noframe>", 4),
            ("x</a\0b>", 1),
            ("x<!-- open", 1),
            ("x<p", 1),
            ("x<a\0b>", 1),
        ];
        for (html, stop) in stops {
            assert_eq!(direct(html).1, stop, "{html:?}");
        }
    }

    /// The references read here decode as html5gum decodes them; the
    /// others are left to it.
    #[test]
    fn references_read_here_are_html5gums() {
        let text = |html: &str| merged(ours(html));
        for (name, c) in NAMED {
            let html = format!("&{name};");
            assert_eq!(reference(&html.as_bytes()[1..]), Some((name.len() + 1, *c)));
            assert_eq!(
                text(&html),
                vec![Ev::Text(c.to_string().into_bytes())],
                "{html}"
            );
        }
        for (html, c) in [
            ("&#39;", '\''),
            ("&#x2019;", '’'),
            ("&#X1F600;", '😀'),
            ("&#0000065;", 'A'),
        ] {
            assert_eq!(
                reference(&html.as_bytes()[1..]).map(|r| r.1),
                Some(c),
                "{html}"
            );
            assert_eq!(
                text(html),
                vec![Ev::Text(c.to_string().into_bytes())],
                "{html}"
            );
        }
        let left = [
            "&#0;",
            "&#128;",
            "&#x9F;",
            "&#xD800;",
            "&#x110000;",
            "&#12345678;",
            "&#xFFFE;",
            "&#13;",
            "&#39",
            "&#;",
            "&#x;",
            "&copy",
            "&notin;",
            "&123;",
            "&amp",
        ];
        for html in left {
            assert_eq!(reference(&html.as_bytes()[1..]), None, "{html}");
        }
    }
}
