//! Which headline candidate lines can be left unrendered.
//!
//! `Auto`'s first choice must share a term with the title or og:title
//! ([`super::best_match`]). Rendering a line and scoring its terms cost
//! more than looking at its bytes (without this test the core runs 2 %
//! more instructions on the corpus), so lines whose raw HTML cannot hold
//! any of those terms are skipped before rendering; the fallbacks, which
//! look at every line, still get them all.
//!
//! The test only ever errs towards "may share": the raw line's text is
//! what is left between its markup, skipped as the renderer skips it
//! ([`text::text_after_markup`]), with the character references the
//! renderer reads itself decoded as it decodes them ([`text::reference`]),
//! the quote characters terms lose removed, and lowercased per char as
//! terms are; every term of the rendered text is then a substring of it
//! (the renderer only adds breaks and collapses spaces). Where that
//! reasoning does not hold, the line may share: markup or references the
//! renderer leaves to html5gum, markup still open at the end, a NUL, and
//! `Σ` (whose lowercase depends on its place in the word).
//!
//! References inside tags (`href="?a=1&amp;b=2"`) render nothing and are
//! not looked at: on the corpus, three in ten of the candidate lines that
//! were rendered only for an `&` had it in a tag, and most of the rest
//! `&nbsp;` or `&amp;` in the text.

use crate::extract::text;
use memchr::memmem::Finder;

/// The terms to look for, each with its searcher built once per page.
#[derive(Debug)]
pub struct Query {
    finders: Vec<Finder<'static>>,
}

impl Query {
    pub fn new<'t>(terms: impl IntoIterator<Item = &'t str>) -> Self {
        Query {
            finders: terms
                .into_iter()
                .map(|t| Finder::new(t.as_bytes()).into_owned())
                .collect(),
        }
    }
}

/// Could the rendered text of `raw` (one logical line) contain one of the
/// query's terms? `scratch` is reused between calls.
pub fn may_share_a_term(raw: &str, query: &Query, scratch: &mut Vec<u8>) -> bool {
    if query.finders.is_empty() {
        return false;
    }
    if visible_lowercase(raw, scratch).is_none() {
        return true;
    }
    query.finders.iter().any(|f| f.find(scratch).is_some())
}

/// `raw` without its markup and quote characters, lowercased per char,
/// into `out`; `None` where the markup cannot be told apart from text.
fn visible_lowercase(raw: &str, out: &mut Vec<u8>) -> Option<()> {
    out.clear();
    let bytes = raw.as_bytes();
    let mut pos = 0;
    loop {
        let lt = memchr::memchr(b'<', &bytes[pos..]).map(|i| pos + i);
        // `<` and `>` are ASCII: both ends are char boundaries.
        push_text(raw.get(pos..lt.unwrap_or(bytes.len()))?, out)?;
        let Some(lt) = lt else {
            return Some(());
        };
        // Skipped exactly as the renderer skips it: text kept from inside
        // a tag (`title="a > b"`) or a comment would join the text on
        // either side, and a word that spans the markup would be lost.
        pos = match text::text_after_markup(bytes, lt)? {
            next if next == lt => {
                out.push(b'<');
                lt + 1
            }
            next => next,
        };
    }
}

/// Appends the text between two pieces of markup as [`push_lowercase`]
/// does, its character references decoded; `None` at a reference the
/// renderer leaves to html5gum, or a NUL.
fn push_text(text: &str, out: &mut Vec<u8>) -> Option<()> {
    let mut rest = text;
    while let Some(amp) = memchr::memchr2(b'&', 0, rest.as_bytes()) {
        // `&` is ASCII, and a reference ends at a char boundary. A NUL the
        // tokenizer reports otherwise.
        push_lowercase(rest.get(..amp)?, out)?;
        if rest.as_bytes()[amp] == 0 {
            return None;
        }
        let (len, c) = text::reference(&rest.as_bytes()[amp + 1..])?;
        push_lowercase(c.encode_utf8(&mut [0; 4]), out)?;
        rest = rest.get(amp + 1 + len..)?;
    }
    push_lowercase(rest, out)
}

/// Appends `text` lowercased per char, without `'` and `’`, as terms are;
/// `None` at a `Σ`.
fn push_lowercase(text: &str, out: &mut Vec<u8>) -> Option<()> {
    if text.is_ascii() {
        let from = out.len();
        if memchr::memchr(b'\'', text.as_bytes()).is_some() {
            out.extend(text.bytes().filter(|&b| b != b'\''));
        } else {
            out.extend_from_slice(text.as_bytes());
        }
        out[from..].make_ascii_lowercase();
        return Some(());
    }
    let mut utf8 = [0u8; 4];
    for c in text.chars().filter(|&c| !super::terms::is_quote(c)) {
        if c == 'Σ' {
            return None;
        }
        for lower in c.to_lowercase() {
            out.extend_from_slice(lower.encode_utf8(&mut utf8).as_bytes());
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::headline::{StopWords, terms};
    use crate::extract::text;

    /// The terms the renderer's text of `raw` really has.
    fn rendered_terms(raw: &str) -> Vec<String> {
        let text = text::render_fragment(raw);
        let mut out = Vec::new();
        terms::each_term(&text, &StopWords::default(), &mut String::new(), |t| {
            out.push(t.to_string())
        });
        out
    }

    const LINES: &[&str] = &[
        "<h1 class=\"title\">Storm <b>hits</b> Maine</h1>",
        "<p>Hel<i>lo</i> wor<span class=x>ld</span></p>",
        "<li><a href=\"/a?b=c>d\">Don't</a> miss it</li>",
        "<div title=\"a > b\">O’Neill's İstanbul ÉTATS</div>",
        "<p>a<!-- x > y --> b<br>c</p>",
        "<td>x</td><td>y</td>",
        "<script>if (a<b) { c = '>'; }</script>Text after",
        "<p>plain words only</p>",
        "<a title=\"<b>Bold</b>\">Storm</a> x<y z</p> after",
        "<pre>Code\n  block</pre><textarea>t</textarea><svg><text>s</text></svg>Tail",
    ];

    fn query(terms: &[&str]) -> Query {
        Query::new(terms.iter().copied())
    }

    /// Every term of the rendered text is found in the raw line: a line
    /// is never skipped when it shares one.
    #[test]
    fn a_line_sharing_a_rendered_term_is_kept() {
        let mut scratch = Vec::new();
        for raw in LINES {
            let terms = rendered_terms(raw);
            assert!(!terms.is_empty(), "{raw:?}");
            for t in terms {
                assert!(
                    may_share_a_term(raw, &query(&[&t]), &mut scratch),
                    "{raw:?} renders {t:?}"
                );
            }
        }
    }

    #[test]
    fn lines_without_the_terms_are_skipped_and_doubtful_ones_kept() {
        let mut scratch = Vec::new();
        let storm = query(&["storm", "maine"]);
        assert!(!may_share_a_term(
            "<p><a href=\"/storm\">Home</a> News</p>",
            &storm,
            &mut scratch
        ));
        assert!(!may_share_a_term("<p>x</p>", &query(&[]), &mut scratch));
        // References read where they render: in a tag they render
        // nothing, in text they decode (to a letter, or to a space that
        // splits no term).
        for skipped in [
            "<p><a href=\"/s?q=storm&amp;x=maine\">Home</a></p>",
            "<p>News&nbsp;&amp;&#160;Weather &mdash; today & tomorrow</p>",
            "<p>St&#111;ry</p>",
            "<p>a < b</p>",
            "<p><a title=\"Storm > Maine\">Home</a></p>",
            "<p>x<!-- Storm > Maine -->y</p>",
            "<p>x<script>Storm</script>y</p>",
        ] {
            assert!(
                !may_share_a_term(skipped, &storm, &mut scratch),
                "{skipped:?}"
            );
        }
        assert!(may_share_a_term("<p>St&#111;rm</p>", &storm, &mut scratch));
        assert!(may_share_a_term("<p>M&#x61;ine</p>", &storm, &mut scratch));
        assert!(may_share_a_term("<p>a <3 storm</p>", &storm, &mut scratch));
        // A word split by a tag or a comment holding a `>`, or by left-out
        // raw text, is one word.
        assert!(may_share_a_term(
            "<p>Sto<a title=\"x > y\">rm</a></p>",
            &storm,
            &mut scratch
        ));
        assert!(may_share_a_term(
            "<p>Sto<!-- > -->rm</p>",
            &storm,
            &mut scratch
        ));
        assert!(may_share_a_term(
            "<p>Sto<style>p>a{}</style>rm</p>",
            &storm,
            &mut scratch
        ));
        // References and markup the renderer leaves to html5gum, a NUL,
        // raw text it reads, an open tag, a capital sigma (also as a
        // reference).
        for doubtful in [
            "<p>St&ouml;rm</p>",
            "<p>x &amp y</p>",
            "<p>&#128;</p>",
            "<p>x\0y</p>",
            "<p>x<noframe>y</noframe></p>",
            "<p>x<script><!-- y</script>",
            "<p>x</p><a href=",
            "<p>Σ</p>",
            "<p>&#931;</p>",
        ] {
            assert!(
                may_share_a_term(doubtful, &storm, &mut scratch),
                "{doubtful:?}"
            );
        }
        // Terms hidden in markup only do not count as text, but text split
        // by inline tags does.
        assert!(!may_share_a_term(
            "<img alt=\"Storm\">",
            &storm,
            &mut scratch
        ));
        assert!(may_share_a_term(
            "<p>Sto<b>rm</b></p>",
            &storm,
            &mut scratch
        ));
    }

    /// A line of words, character references (read here or left to
    /// html5gum), tags with `&` and `>` in their attributes, stray `<`
    /// and comments.
    fn line() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let fixed = proptest::sample::select(vec![
            " ",
            "'",
            "’",
            "É",
            "İ",
            "Σ",
            "\r\n",
            "\0",
            "&amp;",
            "&nbsp;",
            "&shy;",
            "&apos;",
            "&rsquo;",
            "&amp",
            "&ouml;",
            "&#931;",
            "&#128;",
            "&",
            "<b>",
            "</b>",
            "<br>",
            "<",
            " < ",
            "<p class=\"a&amp;b\">",
            "<a href=\"/x?a=1&b>2\">",
            "<a title=\"x > y\" b=c>",
            "<i x=a\"b>",
            "<img alt='x &#65; y'>",
            "<!-- c > d -->",
            "<!-->",
            "<!--->",
            "<!-- e --!>",
            "<script>",
            "</script>",
            "<noframe>",
            "</noframe>",
            "<xmp>",
            "</xmp>",
        ])
        .prop_map(str::to_string);
        let piece = prop_oneof![
            3 => fixed,
            1 => "[A-Za-z0-9]{1,6}",
            1 => "&#[0-9]{1,4};",
            1 => "&#x[0-9a-fA-F]{1,4};",
        ];
        proptest::collection::vec(piece, 1..14).prop_map(|p| p.concat())
    }

    proptest::proptest! {
        /// No line is skipped that renders a term of the query, on random
        /// lines.
        #[test]
        fn a_random_line_sharing_a_rendered_term_is_kept(raw in line()) {
            let mut scratch = Vec::new();
            for t in rendered_terms(&raw) {
                proptest::prop_assert!(
                    may_share_a_term(&raw, &query(&[&t]), &mut scratch),
                    "{:?} renders {:?}", raw, t
                );
            }
        }
    }
}
