//! Whole-scanner tests: a page read whole and a byte at a time gives the same lines.

use super::*;

/// Every concatenation of up to `max` of `pieces` (repeats allowed).
pub(super) fn every_string(pieces: &[&str], max: u32) -> impl Iterator<Item = String> {
    let n = pieces.len();
    (0..=max).flat_map(move |len| {
        (0..n.pow(len)).map(move |code| {
            let mut c = code;
            (0..len)
                .map(|_| {
                    let piece = pieces[c % n];
                    c /= n;
                    piece
                })
                .collect()
        })
    })
}

/// The line of `lines` whose source in `html` holds `needle`.
pub(super) fn line_holding<'l>(lines: &'l [Line], html: &str, needle: &str) -> &'l Line {
    lines
        .iter()
        .find(|l| html[l.start as usize..l.end as usize].contains(needle))
        .unwrap_or_else(|| panic!("no line holds {needle:?}"))
}

/// `html` reads the same whole and byte by byte, and `view` of the
/// line holding each needle is what `expected` pairs it with.
pub(super) fn assert_lines<T: PartialEq + std::fmt::Debug>(
    html: &str,
    view: impl Fn(&Line) -> T,
    expected: &[(&str, T)],
) {
    let [(lines, _, _), bytewise] = whole_and_bytewise(html);
    assert_eq!(lines, bytewise.0);
    for (needle, want) in expected {
        assert_eq!(&view(line_holding(&lines, html, needle)), want, "{needle}");
    }
}

/// What the scanner makes of `html` fed whole and fed a character at a
/// time (then a quoted attribute is never complete in the buffer, so
/// only the byte-wise tag states run).
pub(super) fn whole_and_bytewise(html: &str) -> [(Vec<Line>, Vec<Element>, [String; 3]); 2] {
    let run = |chunks: &mut dyn Iterator<Item = &str>| {
        let mut s = Scanner::new(ScanLimits::default());
        for c in chunks {
            s.push(c);
        }
        let scan = s.finish();
        let info = [scan.info.title, scan.info.og_title, scan.info.lang];
        (scan.lines, scan.elements, info)
    };
    let bytewise = (0..html.len())
        .filter(|&i| html.is_char_boundary(i))
        .map(|i| {
            &html[i..html[i..]
                .char_indices()
                .nth(1)
                .map_or(html.len(), |(j, _)| i + j)]
        });
    [
        run(&mut std::iter::once(html)),
        run(&mut bytewise.collect::<Vec<_>>().into_iter()),
    ]
}

/// `attrs_run` takes whole quoted attributes at once; every attribute
/// shape up to five bytes, on a stacked element, an anchor and a meta
/// (the tags whose attributes are read) and on a span (whose `style`
/// and `hidden` are read where they lie), counts as the byte states do.
#[test]
fn quoted_attributes_at_once_count_as_the_byte_states() {
    let alphabet = ["a", "C", "=", "\"", "'", " ", "\t", "/", ">", "é"];
    let tags = [
        ("<div ", ">nav text</div>"),
        ("<a href=\"/x\" ", ">link</a>"),
        ("<meta property=\"og:title\" ", "><p>x"),
        ("<html ", "><p>body"),
        // A span's attributes are read in place, not copied: its
        // `style` and `hidden` too (`unstacked_hiding`).
        (
            "<p><span ",
            " style=\"display: none\" hidden=\"\">hid</span>",
        ),
    ];
    // After the generated attributes, ones whose values are read: class
    // and id (boilerplate by class), and content (og:title on meta).
    let read = " class=\"footer\" id='x' content=\"T\"";
    for attrs in every_string(&alphabet, 4) {
        if attrs.is_empty() {
            // The values are really read, whole: the div is
            // boilerplate by its class, the meta gives the title.
            let [(_, elements, _), _] = whole_and_bytewise(&format!("<div {read}>x</div>"));
            assert!(elements[0].boiler);
            let [(_, _, info), _] =
                whole_and_bytewise(&format!("<meta property=\"og:title\" {read}><p>x"));
            assert_eq!(info[1], "T");
            // And the span's hiding attributes are: its text is marked.
            let html = format!("<p><span {read} style=\"display: none\">hid</span><p>open");
            let [(lines, _, _), _] = whole_and_bytewise(&html);
            let hid = line_holding(&lines, &html, "hid");
            assert!(hid.boiler_text == hid.text && hid.text > 0, "{hid:?}");
        }
        for (open, rest) in tags {
            let html = format!("{open}{attrs}{read}{rest}");
            let [whole, bytewise] = whole_and_bytewise(&html);
            assert_eq!(whole, bytewise, "{html:?}");
        }
    }
}

/// A `class` read whole, through `quoted_attr`'s test of its first
/// word or the general way (other spellings, `<meta>`), reads as the
/// byte states read it, and only a name that is `class` counts.
#[test]
fn class_names_read_whole_as_the_byte_states() {
    for (name, counts) in [
        ("class", true),
        ("CLASS", true),
        ("Class", true),
        ("clasS", true),
        ("clas", false),
        ("classx", false),
        ("klass", false),
        ("data-class", false),
    ] {
        for open in ["div", "section", "h2", "meta", "span", "p"] {
            for value in ["footer", "x", ""] {
                let html = format!("<{open} {name}=\"{value}\">text</{open}><p>after");
                let [whole, bytewise] = whole_and_bytewise(&html);
                assert_eq!(whole, bytewise, "{html:?}");
            }
        }
        let html = format!("<div {name}=\"footer\">text</div>");
        let [(_, elements, _), _] = whole_and_bytewise(&html);
        assert_eq!(elements[0].boiler, counts, "{html:?}");
    }
    // Read as a class, not as an id: a class `main` names no main
    // element, so the nav's text stays boilerplate.
    let html = "<nav><div class=\"main\">text</div></nav>";
    let [(lines, _, _), _] = whole_and_bytewise(html);
    let text = line_holding(&lines, html, "text");
    assert!(text.boiler_text == text.text && text.text > 0, "{text:?}");
}

/// Attributes longer than a block (names and values of 14 to 120
/// bytes, a non-ASCII char at either end of either, or in the middle)
/// count as the byte states count them: their counts are taken with
/// the value's search.
#[test]
fn long_attributes_count_as_the_byte_states() {
    for pad in [14, 15, 16, 17, 31, 33, 40] {
        let long = "x".repeat(pad);
        for attr in [
            format!("data-{long}=\"{long}\u{e9}\""),
            format!("data-{long}=\"\u{e9}{long}\""),
            format!("data-x=\"{long}\u{e9}{long}{long}\""),
            format!("data-{long}\u{e9}=\"{long}\""),
            format!("\u{e9}{long}=\"v\""),
            format!("title='{long}'"),
        ] {
            let html = format!("<div {attr} class=\"nav\">x</div><a {attr}>y</a>");
            let [whole, bytewise] = whole_and_bytewise(&html);
            assert_eq!(whole, bytewise, "{html:?}");
        }
    }
}

/// Scanning stops at the first line over the limit: a page of empty
/// blocks is refused having counted one line too many, not all of them.
#[test]
fn scanning_stops_one_line_past_the_limit() {
    let page = "<p>".repeat(100_000);
    let limits = ScanLimits {
        max_lines: 100,
        ..ScanLimits::default()
    };
    let scan = Scanner::borrowed(limits, &page).finish();
    assert!(
        (101..110).contains(&scan.lines.len()),
        "{}",
        scan.lines.len()
    );
    let mut fed = Scanner::new(limits);
    for _ in 0..1000 {
        fed.push(&page[..300]);
    }
    assert!(
        (101..110).contains(&fed.line_count()),
        "{}",
        fed.line_count()
    );
}

/// A span's `style` longer than the value cap, `display:none` past it:
/// read in place whole, it hid the span; cut at the cap by the byte
/// states (the attribute split between two chunks), it did not. Both
/// read the first `VALUE_CAP` bytes now.
#[test]
fn a_long_style_on_a_span_reads_the_same_whole_and_bytewise() {
    let style = "color:red;".repeat(VALUE_CAP / 10 + 1);
    let html = format!("<p><span style=\"{style}display:none\">hid</span><p>open");
    let [whole, bytewise] = whole_and_bytewise(&html);
    assert_eq!(whole, bytewise);
    let short = "<p><span style=\"color:red;display:none\">hid</span><p>open";
    let [(lines, _, _), bytewise] = whole_and_bytewise(short);
    assert_eq!(lines, bytewise.0);
    let hid = line_holding(&lines, short, "hid");
    assert!(hid.boiler_text == hid.text && hid.text > 0, "{hid:?}");
}

#[test]
fn class_lists_and_values_cut_by_the_buffer_count_the_same() {
    let html = "<div class=\"site-footer\" data-x='1' lang=\"de\" role=\"main\" \
                id=\"x\"><span class=\"nav\">a</span><div class = \"nav\" x=y>b</div>\
                <section data-y=\"2\" class=\"share-bar\">c</section>\
                <html lang=\"fr\"><meta name=\"og:title\" content=\"T \u{e9}\">";
    let [whole, bytewise] = whole_and_bytewise(html);
    assert_eq!(whole, bytewise);
    // The first div's footer class is outweighed by role="main"; the
    // nav span is not read at all; the second div has its class read
    // by the byte states (spaces around `=`), the section its class by
    // the whole-attribute path: both boilerplate.
    let boiler: Vec<bool> = whole.1.iter().map(|e| e.boiler).collect();
    assert_eq!(boiler, [false, true, true]);
    assert_eq!(whole.2[1], "T \u{e9}");
}

/// `skip_raw` tries each `<` of a script in place; fed a byte at a
/// time, every `<` is left to the byte states instead. Every string of
/// up to five pieces that can start, break or finish `</xmp`, between
/// `<xmp>` and text that must count once the element is closed.
#[test]
fn raw_text_skipped_at_once_ends_where_the_byte_states_end_it() {
    let pieces = [
        "<", "</", "</xmp", "</XmP", "</xm", "x", " ", ">", "/", "\u{e9}",
    ];
    let mut closed = 0;
    for body in every_string(&pieces, 5) {
        let html = format!("<p>a<xmp>{body}</p><p>text</p>");
        let [whole, bytewise] = whole_and_bytewise(&html);
        assert_eq!(whole, bytewise, "{html:?}");
        closed += usize::from(whole.0.iter().any(|l| l.text > 1));
    }
    // Both outcomes occur: the element closed early (the text after it
    // counts) and not at all (it runs to the end of the page).
    assert!(closed > 1000, "{closed}");
}

/// A name read whole by `tag_name_run` is keyed from its block in a
/// register (`run_tag`), one cut by a chunk's end from the buffer
/// (`Name::tag`): every known name, in upper case, one byte shorter
/// and longer, with a non-ASCII or NUL byte, and at the key's length
/// limit, scans the same either way, and the line breaks show that
/// a block name is known as one.
#[test]
fn names_read_whole_are_known_as_names_read_bytewise() {
    let mut names: Vec<String> = NAMES_SEEN.iter().map(|n| n.to_string()).collect();
    for name in NAMES_SEEN {
        names.push(name.to_ascii_uppercase());
        names.push(name[..name.len() - 1].to_string());
        names.push(format!("{name}x"));
    }
    names.extend(["d\u{ed}v", "x\0", "abcdefg", "abcdefgh", "mainx"].map(String::from));
    // Bytes ≥ 128 at a block's end, across it and past it, and a name
    // that fills a block: its counts as read byte by byte.
    names.extend(
        [
            "abcdefghijklmn\u{ed}",
            "abcdefghijklmno\u{ed}",
            "abcdefghijklmnop\u{ed}q",
            "abcdefghijklmnop",
        ]
        .map(String::from),
    );
    for name in &names {
        for open in [format!("<{name}>"), format!("<{name} class=\"nav\">")] {
            let html = format!("x{open}text</{name}>tail<br>z");
            let [whole, bytewise] = whole_and_bytewise(&html);
            assert_eq!(whole, bytewise, "{html:?}");
            let breaks = Tag::classify(name.to_ascii_lowercase().as_bytes()).breaks_line();
            assert_eq!(whole.0.len() > 1, breaks, "{html:?}");
        }
    }
}

/// Names for `names_read_whole_are_known_as_names_read_bytewise`.
const NAMES_SEEN: &[&str] = &[
    "a",
    "br",
    "div",
    "section",
    "article",
    "main",
    "blockquote",
    "h1",
    "h6",
    "nav",
    "footer",
    "header",
    "span",
    "p",
    "li",
    "td",
    "tr",
    "table",
    "pre",
    "title",
    "meta",
    "script",
    "textarea",
    "template",
    "figcaption",
    "svg",
    "img",
];

/// Unquoted values are code like quoted ones, less the quotes; they are
/// read (a footer class makes the div boilerplate) and end at `>` or a
/// space, however the page is cut.
#[test]
fn unquoted_values_count_and_read_as_quoted_ones() {
    let counts = |html: &str| {
        let [whole, bytewise] = whole_and_bytewise(html);
        assert_eq!(whole, bytewise, "{html:?}");
        let (lines, elements, _) = whole;
        let code: u32 = lines.iter().map(|l| l.code).sum();
        let text: u32 = lines.iter().map(|l| l.text).sum();
        (code, text, elements.iter().any(|e| e.boiler))
    };
    let long = "x".repeat(40);
    for (unquoted, quoted) in [
        ("<td width=100>x</td>", "<td width=\"100\">x</td>"),
        (
            "<div class=site-footer id=f\u{e9}>x</div>",
            "<div class=\"site-footer\" id=\"f\u{e9}\">x</div>",
        ),
        (
            &format!("<a href={long}/ title=t>x</a>"),
            &format!("<a href=\"{long}/\" title=\"t\">x</a>"),
        ),
        ("<p al=1  bc=2\t>x</p>", "<p al=\"1\"  bc=\"2\"\t>x</p>"),
    ] {
        let (code, text, boiler) = counts(unquoted);
        let quotes = quoted.matches('"').count() as u32;
        assert_eq!(
            (code + quotes, text, boiler),
            counts(quoted),
            "{unquoted:?}"
        );
    }
    assert_eq!(counts("<td width=100>x</td>"), (19, 1, false));
    assert!(counts("<div class=site-footer>x</div>").2);
}

/// Tag names are read in any case: a page and the same page with its
/// tag names in capitals scan alike (names shorter than a block, one
/// that fills a block, one longer than a block), whole and a byte at a
/// time. Mutation-checked: storing the name's block without lowercasing
/// it fails this test.
#[test]
fn tag_names_are_read_in_any_case() {
    let lower = "<html lang=en><head><title>T</title></head><body>\
        <nav class=menu><a href=/>Home</a></nav><article><h1>Title</h1>\
        <p>Some text <b>bold</b> and more</p><blockquote>quoted words</blockquote>\
        <custom-elements-x>x</custom-elements-x><script>var a = '<p>';</script>\
        <p>after</p></article><footer>foot</footer></body></html>";
    let mut upper = String::new();
    let mut in_name = false;
    for c in lower.chars() {
        in_name = if c == '<' || (in_name && c == '/') {
            true
        } else {
            in_name && (c.is_ascii_alphanumeric() || c == '-')
        };
        upper.push(if in_name { c.to_ascii_uppercase() } else { c });
    }
    assert!(upper.contains("<BLOCKQUOTE>") && upper.contains("</CUSTOM-ELEMENTS-X>"));
    let want = whole_and_bytewise(lower);
    assert!(want[0].0.iter().any(|l| l.heading == 1));
    assert_eq!(whole_and_bytewise(&upper), want);
}

/// A table cell written bare (`<td>`, `<th>`) wraps its text at no code
/// cost, as an inline tag does; one with attributes, or with a space
/// before its `>`, costs its tag as any container does.
#[test]
fn a_bare_table_cell_costs_no_code() {
    let html = "<table>\n<tr>\n<td>12.4 m3</td>\n<TH>Field</TH>\n\
        <td class=\"c\">9.8 m3</td>\n<td >1.0</td>\n</tr>\n</table>";
    assert_lines(
        html,
        |l| l.inline_bare,
        &[("12.4", 4), ("Field", 4), ("9.8", 0), ("1.0", 0)],
    );
    let [(lines, _, _), _] = whole_and_bytewise(html);
    assert_eq!(line_holding(&lines, html, "12.4").bare, 9);
}
