//! Corrections to the chosen lines once Algorithm 1 has chosen them:
//! small forms, marked lines and link lines, the body's element as the
//! article's end, the headline as its start and bound, trailing headings,
//! noise headings and trailing teasers. Policy on top of the mechanism in
//! `select`; no choice of a seed or of growth.

use super::*;

/// Text characters up to which a `<form>` is page furniture: a sign-up
/// box, a quote, contact or search form, their labels and consent lines,
/// which sit inside the article or just after it and join it by the gap.
/// Larger forms are wrappers: ASP.NET pages hold their whole body in one
/// `<form>`.
pub(super) const FORM_TEXT_MAX: u32 = 1000;

/// The chosen text small forms may hold, as a share of it (one in this
/// many), and still be dropped: more, and the forms are the content (a
/// listing whose every item sits in its own voting form, a calculator's
/// fields and notes).
pub(super) const FORMS_SHARE: u64 = 5;

/// Drops from the chosen regions the lines of every small form (see
/// [`FORM_TEXT_MAX`]) that holds less than half the seed region's
/// content: a newsletter or quote form under the article, a log-in box,
/// a survey's questions. A form that holds the seed is the page's
/// content (a listing inside a sort form, a page of little text wrapped
/// in ASP.NET's form), and nothing is dropped when the forms hold more
/// than a fifth of the chosen text (see [`FORMS_SHARE`]). The growth is
/// left as it was: a form's lines still join the regions around it,
/// only their text goes; counted as boilerplate from the start, a
/// donation form split a charity's home page in two and a shop's sort
/// form lost its listing.
pub fn drop_small_forms(sel: &mut Selection, lines: &[Line], elements: &[Element]) {
    let (Some(seed), Some(head), Some(tail)) = (sel.seed, sel.regions.first(), sel.regions.last())
    else {
        return;
    };
    let (lo, hi) = (head.first, tail.last);
    let form = |e: &&Element| {
        e.kind == Kind::Form
            && e.text > 0
            && e.text <= FORM_TEXT_MAX
            && e.first_line <= hi
            && e.last_line >= lo
    };
    // Most pages have no small form among their chosen lines.
    if !elements.iter().any(|e| form(&e)) {
        return;
    }
    let t1 = |i: u32| sel.counts.get(i as usize).map_or(0, |c| c.0.max(0) as u64);
    // The seed's content summed line by line: its part within a form's
    // lines in two lookups.
    let mut prefix = Vec::with_capacity((seed.last - seed.first) as usize + 2);
    prefix.push(0u64);
    for i in seed.first..=seed.last {
        let last = prefix.last().copied().unwrap_or(0);
        prefix.push(last + t1(i));
    }
    let seed_within = |a: u32, b: u32| {
        let (a, b) = (a.max(seed.first), b.min(seed.last));
        if a > b {
            return 0;
        }
        let at = |i: u32| prefix.get((i - seed.first) as usize).copied().unwrap_or(0);
        at(b + 1).saturating_sub(at(a))
    };
    // The small forms' line spans, merged (elements are in the order they
    // open, so a form nested in another comes right after it).
    let mut spans: Vec<(u32, u32)> = Vec::new();
    for e in elements.iter().filter(form) {
        if seed_within(e.first_line, e.last_line) * 2 >= seed.content {
            continue;
        }
        match spans.last_mut() {
            Some(s) if e.first_line <= s.1 => s.1 = s.1.max(e.last_line),
            _ => spans.push((e.first_line, e.last_line)),
        }
    }
    if spans.is_empty() {
        return;
    }
    // Each chosen region without the spans' lines, in pieces trimmed to
    // lines with content.
    let mut kept = Vec::with_capacity(sel.regions.len() + spans.len());
    let mut s = 0;
    for r in &sel.regions {
        let mut i = r.first;
        while i <= r.last {
            while spans.get(s).is_some_and(|&(_, b)| b < i) {
                s += 1;
            }
            let (stop, next) = match spans.get(s) {
                Some(&(a, b)) if a <= i => {
                    i = b.saturating_add(1);
                    continue;
                }
                Some(&(a, _)) if a <= r.last => (a - 1, a),
                _ => (r.last, r.last.saturating_add(1)),
            };
            kept.extend(with_content(i..=stop, t1));
            if next <= i {
                break;
            }
            i = next;
        }
    }
    let content = |rs: &[Region]| rs.iter().map(|r| r.content).sum::<u64>();
    let (before, after) = (content(&sel.regions), content(&kept));
    if kept == sel.regions || (before - after.min(before)) * FORMS_SHARE > before {
        return;
    }
    sel.ranges = byte_ranges(lines, &kept);
    sel.lines = kept.iter().map(|r| r.last - r.first + 1).sum();
    sel.regions = kept;
}

/// Drops from the chosen regions every line whose text is all marked
/// furniture under the selection's own counts (no content character left
/// once boilerplate is counted as code, see `regions::counts`): a caption,
/// a share bar or a "related" box between the article's paragraphs joins
/// the regions around it by the gap, but its text is not the article's.
/// Lines whose marks the selection forgave keep their text. So go
/// promotions of other articles set in the text (see [`promotion`]), and,
/// where the chosen text reads as prose, the short lines that are links
/// through and through (see [`link_line`]).
pub fn drop_marked_lines(sel: &mut Selection, lines: &[Line], src: &str) {
    let counts = &sel.counts;
    let prose = links_share(sel, lines) < LINKS_IN_PROSE_TENTHS;
    let marked = |i: u32| {
        let i = i as usize;
        lines.get(i).is_some_and(|l| {
            l.text > 0
                && (counts.get(i).is_some_and(|c| c.0 == 0)
                    || promotion(src, l)
                    || (prose && link_line(l)))
        })
    };
    // Each chosen line is weighed once; most pages have no such line.
    let dropped: Vec<u32> = sel
        .regions
        .iter()
        .flat_map(|r| r.first..=r.last)
        .filter(|&i| marked(i))
        .collect();
    drop_lines(sel, lines, &dropped);
}

/// Links' share of the chosen text, in tenths, below which the chosen
/// text reads as prose. In a list of links (an index, a weekly links post,
/// a shop's grid) the links are the content.
pub(super) const LINKS_IN_PROSE_TENTHS: u64 = 4;

/// The share of a link line's text in links, in tenths.
pub(super) const LINK_LINE_TENTHS: u32 = 9;

/// Content characters up to which a link line is a link set in the text
/// (a story promoted between paragraphs, "more on this", a sign-up link);
/// a longer one is a card that describes what it links to.
pub(super) const LINK_LINE_MAX: u32 = 200;

/// Whether a line is a link set in prose: short, and links through and
/// through.
pub(super) fn link_line(l: &Line) -> bool {
    l.text <= LINK_LINE_MAX && l.heading == 0 && l.anchor_text * 10 >= l.text * LINK_LINE_TENTHS
}

/// The links' share of the chosen text, in tenths.
pub(super) fn links_share(sel: &Selection, lines: &[Line]) -> u64 {
    let (links, text) = sel
        .regions
        .iter()
        .flat_map(|r| r.first..=r.last)
        .map(|i| &lines[i as usize])
        .fold((0u64, 0u64), |(a, x), l| {
            (a + u64::from(l.anchor_text), x + u64::from(l.text))
        });
    (links * 10).checked_div(text).unwrap_or(0)
}

/// Leaves the chosen lines `dropped` (ascending) out, each region split
/// around them and trimmed to its lines with content.
pub(super) fn drop_lines(sel: &mut Selection, lines: &[Line], dropped: &[u32]) {
    if dropped.is_empty() {
        return;
    }
    let counts = &sel.counts;
    let t1 = |i: u32| counts.get(i as usize).map_or(0, |c| c.0.max(0) as u64);
    let mut kept = Vec::with_capacity(sel.regions.len() + dropped.len());
    let mut next = dropped.iter().copied().peekable();
    for r in &sel.regions {
        let mut start = r.first;
        while let Some(d) = next.next_if(|&d| d <= r.last) {
            if start < d {
                kept.extend(with_content(start..=d - 1, t1));
            }
            start = d + 1;
        }
        if start <= r.last {
            kept.extend(with_content(start..=r.last, t1));
        }
    }
    sel.ranges = byte_ranges(lines, &kept);
    sel.lines = kept.iter().map(|r| r.last - r.first + 1).sum();
    sel.regions = kept;
}

/// The article ends with the element that names it. Of the elements in
/// the seed whose class or id names the content (`entry-content`,
/// `article-body`, `post-text`: [`Signal::Content`]), the innermost that
/// holds half the chosen text or more bounds the selection: the chosen
/// lines after it go (an author box, tags, share and newsletter prompts,
/// teasers that growth joined by the gap). The lines before it stay: the
/// headline, dek and byline sit there, which some readers count as the
/// article and some do not. An element holding less (one section of a
/// landing page, a wrapper of the lead paragraph) bounds nothing, and so
/// does one that opens inside the seed (below a headline the seed starts
/// with) with more than a [`BODY_TAIL`]th of its text after it: that is
/// the article's first part (the text before a "read more" jump, the
/// interview before the book excerpt). Any element around the whole seed
/// that holds [`UNNAMED_BODY_TENTHS`] of the chosen text bounds it the
/// same way, named or not (a grid's main column, with cards in the column
/// beside it), and so does one around the seed that the `headline` opens
/// and that holds half the chosen text, when at most one paragraph is
/// chosen after it (a box about the writer, a promotion; an essay that
/// goes on past a picture has more; see [`opened_by`]). The innermost
/// element of any kind is the article's, and where it names the content
/// the article may go on in the blocks like it (see [`body_end`]).
pub fn end_with_the_body(
    sel: &mut Selection,
    lines: &[Line],
    elements: &[Element],
    headline: Option<u32>,
) {
    let Some(seed) = sel.seed else {
        return;
    };
    let total = chosen_text(sel, lines, 0, u32::MAX);
    // Elements are kept in the order they open: of those around the
    // seed's first line, a later one is inside an earlier one, and those
    // that open inside the seed come after them all.
    let bounds = |e: &Element| {
        let around = around_the_seed(e, seed);
        let named =
            e.signal == Signal::Content && e.first_line <= seed.last && e.last_line >= seed.first;
        if !(around || named) {
            return false;
        }
        let text = chosen_text(sel, lines, e.first_line, e.last_line);
        // Named as the content and holding half the chosen text; when it
        // opens inside the seed, with little chosen text after it.
        let named_body = named
            && 2 * text >= total
            && (e.first_line <= seed.first
                || BODY_TAIL * chosen_text(sel, lines, e.last_line + 1, u32::MAX) <= text);
        // Around the whole seed and holding nearly all the chosen text, or
        // opened by the headline with little prose after it.
        let opened = || headline.is_some_and(|h| opened_by(sel, lines, e, h, text, total));
        named_body || (around && (nearly_all(text, total) || opened()))
    };
    if let Some(body) = elements.iter().rposition(bounds) {
        end_after(sel, lines, body_end(sel, lines, elements, body));
    }
}

/// The last line of the article whose element is `elements[body]`: that
/// element's, or that of the last block like it after it in which the
/// article goes on, with more than one paragraph chosen. Page builders
/// put each run of text between two pictures or a gallery in a block of
/// its own, all named alike (`sqs-html-content`): a block named as the
/// content too, of the same kind and as deep, is read as one of them. A
/// box about the writer or a promotion after the article holds one
/// paragraph at most (see [`opened_by`]).
fn body_end(sel: &Selection, lines: &[Line], elements: &[Element], body: usize) -> u32 {
    let e = &elements[body];
    let mut last = e.last_line;
    let (Some(end), Signal::Content) = (sel.regions.last().map(|r| r.last), e.signal) else {
        return last;
    };
    let depth = |i: usize| super::depth(elements, i as u32);
    let body_depth = depth(body);
    // Elements are kept in the order they open.
    for (i, next) in elements
        .iter()
        .enumerate()
        .skip(body + 1)
        .take_while(|(_, n)| n.first_line <= end)
    {
        let like = next.first_line > last && next.signal == Signal::Content && next.tag == e.tag;
        if like
            && paragraphs(sel, lines, next.first_line, next.last_line) > 1
            && depth(i) == body_depth
        {
            last = next.last_line;
        }
    }
    last
}

/// Does the headline (line `h`) open `e`, which holds `text` of the
/// chosen text (`total`), as the article's element (see [`headline_opens`]),
/// with at most one paragraph chosen after it?
fn opened_by(sel: &Selection, lines: &[Line], e: &Element, h: u32, text: u64, total: u64) -> bool {
    headline_opens(sel, lines, e, h, text, total)
        && paragraphs(sel, lines, e.last_line.saturating_add(1), u32::MAX) <= 1
}

/// Does the headline (line `h`) open `e`, which holds `text` of the
/// chosen text (`total`): no chosen text in `e` before the headline, half
/// the chosen text and a paragraph's worth at least?
fn headline_opens(
    sel: &Selection,
    lines: &[Line],
    e: &Element,
    h: u32,
    text: u64,
    total: u64,
) -> bool {
    e.first_line <= h
        && 2 * text >= total
        && text >= u64::from(PARAGRAPH_TEXT)
        && nothing_chosen_before(sel, lines, e, h)
}

/// Chosen lines from `from` to `to` with a paragraph's text
/// ([`PARAGRAPH_TEXT`]).
fn paragraphs(sel: &Selection, lines: &[Line], from: u32, to: u32) -> usize {
    sel.regions
        .iter()
        .flat_map(|r| r.first.max(from)..=r.last.min(to))
        .filter(|&i| lines[i as usize].text >= PARAGRAPH_TEXT)
        .count()
}

/// Content characters from which a line is a paragraph of prose: an
/// article goes on in paragraphs, while a box after it (an author's blurb,
/// a promotion, a list of links) holds one at most.
pub(super) const PARAGRAPH_TEXT: u32 = 300;

/// The share of the chosen text, in tenths, that an element around the
/// seed must hold to be the article's element: to bound the article's end
/// when its class does not name the content, and its start where the
/// headline opens it. Nearly all of it, so that a wrapper of the
/// article's first part, or one of two full columns, bounds nothing.
pub(super) const UNNAMED_BODY_TENTHS: u64 = 9;

/// An element naming the content that opens inside the seed bounds the
/// article only when the chosen text after it is at most this fraction
/// of its own (one in this many): tags and an author box, not the
/// article's second part.
pub(super) const BODY_TAIL: u64 = 4;

/// Content characters of the chosen lines from `from` to `to`.
pub(super) fn chosen_text(sel: &Selection, lines: &[Line], from: u32, to: u32) -> u64 {
    sel.regions
        .iter()
        .flat_map(|r| r.first.max(from)..=r.last.min(to))
        .map(|i| u64::from(lines[i as usize].text))
        .sum()
}

/// Ends the selection after line `last` (nothing changes when it ends
/// there or before).
pub(super) fn end_after(sel: &mut Selection, lines: &[Line], last: u32) {
    if sel.regions.last().is_some_and(|r| r.last > last) {
        let keep = sel.regions.partition_point(|r| r.first <= last);
        end_before(sel, lines, keep, last + 1);
    }
}

/// The article starts at its headline: the chosen lines before it (a
/// kicker, a ticker of other stories, breadcrumbs, a date above the title,
/// a blog's blurb about itself) go in three cases.
/// - None of them lies in the article's element (see [`article_element`]):
///   the headline opens that element or stands above it, and what is
///   before it is the page's.
/// - The headline is a top-level heading (`<h1>`) among the chosen lines
///   (in a region, or between two where markup around it keeps it out of
///   one), and they hold half the chosen text or less where it is the
///   page's one `<h1>`, a quarter or less where other `<h1>`s may head the
///   page's sections: more than that before an `<h1>` is content the page
///   heads some other way.
/// - The headline's line reads as the headline itself (`titled` tells,
///   asked last as it renders the line: no reply prefix, breadcrumb or
///   site name taken off it), opens an element around the seed that holds
///   half the chosen text (see [`headline_opens`]), and at most one
///   paragraph stands before it: the article's start, as
///   [`end_with_the_body`] reads the same element as its end.
pub fn start_at_the_headline(
    sel: &mut Selection,
    lines: &[Line],
    elements: &[Element],
    headline: u32,
    titled: impl FnOnce() -> bool,
) {
    // The chosen lines with text before the headline.
    let before = || {
        sel.regions
            .iter()
            .flat_map(|r| r.first..=r.last)
            .take_while(|&i| i < headline)
            .filter(|&i| lines[i as usize].text > 0)
    };
    let before_text: u64 = before().map(|i| u64::from(lines[i as usize].text)).sum();
    if before_text == 0 {
        return;
    }
    let total = chosen_text(sel, lines, 0, u32::MAX);
    let h1 = h1_over(sel, lines, headline, before_text, total);
    let opens = || {
        let opened = |e: &Element| {
            let text = chosen_text(sel, lines, e.first_line, e.last_line);
            headline_opens(sel, lines, e, headline, text, total)
        };
        headline
            .checked_sub(1)
            .map_or(0, |to| paragraphs(sel, lines, 0, to))
            <= 1
            && sel.seed.is_some_and(|seed| {
                elements
                    .iter()
                    .any(|e| around_the_seed(e, seed) && opened(e))
            })
            && titled()
    };
    if !(h1 || opens_the_article(sel, lines, elements, headline, total) || opens()) {
        return;
    }
    let before: Vec<u32> = before().collect();
    drop_lines(sel, lines, &before);
}

/// Does the headline open the article's element, or stand above it: does
/// that element hold no chosen text before the headline (of `total`)?
fn opens_the_article(
    sel: &Selection,
    lines: &[Line],
    elements: &[Element],
    headline: u32,
    total: u64,
) -> bool {
    article_element(sel, lines, elements, total)
        .is_some_and(|e| nothing_chosen_before(sel, lines, e, headline))
}

/// Does `e` hold no chosen text before the headline (line `h`)? True too
/// where `e` opens below the headline.
fn nothing_chosen_before(sel: &Selection, lines: &[Line], e: &Element, h: u32) -> bool {
    h == 0 || chosen_text(sel, lines, e.first_line, h - 1) == 0
}

/// Is the headline an `<h1>` among the chosen lines with at most its share
/// of the chosen text (`total`) before it (`before`)?
fn h1_over(sel: &Selection, lines: &[Line], headline: u32, before: u64, total: u64) -> bool {
    let Some(h1) = lines.get(headline as usize).filter(|l| l.heading == 1) else {
        return false;
    };
    let among = sel.regions.first().is_some_and(|r| r.first <= headline)
        && sel.regions.last().is_some_and(|r| headline <= r.last);
    if !among {
        return false;
    }
    let share = if is_the_only_h1(lines, h1) { 2 } else { 4 };
    share * before <= total
}

/// The article's element: the innermost element around the whole seed
/// that holds nearly all the chosen text (`total`; see [`nearly_all`]),
/// named or not (a grid's main column, an `<article>`, a `<div>` of
/// paragraphs).
fn article_element<'e>(
    sel: &Selection,
    lines: &[Line],
    elements: &'e [Element],
    total: u64,
) -> Option<&'e Element> {
    let seed = sel.seed?;
    elements.iter().rev().find(|e| {
        around_the_seed(e, seed)
            && nearly_all(chosen_text(sel, lines, e.first_line, e.last_line), total)
    })
}

/// Does `e` hold the whole seed region?
fn around_the_seed(e: &Element, seed: Region) -> bool {
    e.first_line <= seed.first && e.last_line >= seed.last
}

/// Is `text` [`UNNAMED_BODY_TENTHS`] of the chosen text (`total`) or more?
fn nearly_all(text: u64, total: u64) -> bool {
    10 * text >= UNNAMED_BODY_TENTHS * total
}

/// Is `h1` the page's one top-level heading? Other `<h1>` lines with as
/// many text characters are taken for its copies (a phone layout's, a
/// print header's), and those whose text is all furniture (the site's name
/// in its header) for no heading of the content.
fn is_the_only_h1(lines: &[Line], h1: &Line) -> bool {
    lines
        .iter()
        .all(|l| l.heading != 1 || l.text == h1.text || l.boiler_text >= l.text)
}

/// A heading that ends the chosen text heads nothing chosen: the section it
/// opened (related links, a newsletter box, the comments) was left out, so
/// the headings after the last chosen line of other text go. A selection of
/// headings alone stays. A "heading" line of more than [`HEADING_TEXT`]
/// characters holds the text after an unclosed or inline heading too.
/// Lines after the rest of the chosen text from which a last scrap of
/// text is far from it (see [`drop_far_scraps`]).
pub(super) const SCRAP_DISTANCE: u32 = 20;

/// Text characters below which a chosen region is a scrap.
pub(super) const SCRAP_TEXT: u64 = 50;

/// A scrap of text that ends the chosen lines far after the rest goes, and
/// so again: growth in the seed's container reaches any distance, and a
/// region of fewer than [`SCRAP_TEXT`] characters more than
/// [`SCRAP_DISTANCE`] lines after the text before it is that container's
/// furniture (a like button's label, a copyright line, a prompt to
/// contribute), not the article's last line.
pub fn drop_far_scraps(sel: &mut Selection, lines: &[Line]) {
    while let [.., before, last] = sel.regions[..] {
        let text: u64 = (last.first..=last.last)
            .map(|i| u64::from(lines[i as usize].text))
            .sum();
        let seed = sel.seed.is_some_and(|s| s.last >= last.first);
        if seed || last.first - before.last <= SCRAP_DISTANCE || text >= SCRAP_TEXT {
            break;
        }
        end_after(sel, lines, before.last);
    }
}

pub fn drop_trailing_headings(sel: &mut Selection, lines: &[Line]) {
    end_after_last(sel, lines, |l| l.heading == 0 || l.text > HEADING_TEXT);
}

/// Content characters up to which a line that opens with a heading is
/// taken as that heading alone.
pub(super) const HEADING_TEXT: u32 = 100;

/// Ends the selection after its last chosen line with text that `keeps`;
/// nothing changes when no chosen line does.
pub(super) fn end_after_last(sel: &mut Selection, lines: &[Line], keeps: impl Fn(&Line) -> bool) {
    let last = sel
        .regions
        .iter()
        .rev()
        .flat_map(|r| (r.first..=r.last).rev())
        .find(|&i| lines[i as usize].text > 0 && keeps(&lines[i as usize]));
    if let Some(last) = last {
        end_after(sel, lines, last);
    }
}

/// The lines `span` as a region trimmed to its lines with content (`t1`
/// above 0), with their content; `None` when none has any.
pub(super) fn with_content(
    span: std::ops::RangeInclusive<u32>,
    t1: impl Fn(u32) -> u64,
) -> Option<Region> {
    let first = span.clone().find(|&j| t1(j) > 0)?;
    let last = span.rev().find(|&j| t1(j) > 0)?;
    let content = (first..=last).map(t1).sum();
    Some(Region {
        first,
        last,
        content,
    })
}

/// A section heading between two chosen regions heads the text after it:
/// a figure, an embed or an ad around it pulled its line below the diff's
/// zero, while growth joined the text on both sides. Kept where it is
/// unmarked, not mostly a link and no noise heading (a comment count,
/// "Related").
pub fn keep_headings_between(sel: &mut Selection, lines: &[Line], src: &str) {
    let counts = &sel.counts;
    let heads = |i: u32| {
        let i = i as usize;
        lines.get(i).is_some_and(|l| {
            (2..=6).contains(&l.heading)
                && 2 * l.anchor_text < l.text
                && counts.get(i).is_some_and(|c| c.0 > 0)
                && !l.comment_heading
        })
    };
    // Its text is read last, for the few headings that pass the rest.
    let no_noise = |i: u32| noise_heading(lines[i as usize].source(src)).is_none();
    // Nothing with text between it and the next chosen line: a heading
    // over links or other text left out heads those.
    let bare = |from: u32, to: u32| (from..to).all(|j| lines[j as usize].text == 0);
    let n = sel.regions.len();
    let found: Vec<Region> = sel.regions[..n.saturating_sub(1)]
        .windows(2)
        .flat_map(|w| (w[0].last + 1..w[1].first).map(move |i| (i, w[1].first)))
        .filter(|&(i, next)| heads(i) && bare(i + 1, next) && no_noise(i))
        .map(|(i, _)| Region {
            first: i,
            last: i,
            content: counts[i as usize].0.max(0) as u64,
        })
        .collect();
    if found.is_empty() {
        return;
    }
    sel.lines += found.len() as u32;
    sel.regions.extend(found);
    sel.regions.sort_unstable_by_key(|r| r.first);
    sel.ranges = byte_ranges(lines, &sel.regions);
}

/// The headline bounds the content area from above (thesis 000 §7.2.1):
/// when it sits before the chosen regions, every region between it and
/// them is content too (the article's first paragraphs before a figure or
/// an inline box that split the page).
pub fn extend_to_headline(sel: &mut Selection, lines: &[Line], headline: u32) {
    let Some(first) = sel.regions.first().copied() else {
        return;
    };
    if headline >= first.first {
        return;
    }
    let earlier: Vec<Region> = sel
        .all
        .iter()
        .filter(|r| r.first > headline && r.last < first.first)
        .copied()
        .collect();
    if earlier.is_empty() {
        return;
    }
    sel.lines += earlier.iter().map(|r| r.last - r.first + 1).sum::<u32>();
    sel.regions.splice(0..0, earlier);
    sel.ranges = byte_ranges(lines, &sel.regions);
}

/// A heading that opens a section of links to other pages, of reader
/// comments or of sharing buttons ("Related articles", "You may also
/// like", "Most popular", "12 comments", "Share this article": seed 003's
/// noise headings) ends the article: when one follows chosen content, the
/// chosen lines from it on are dropped. Only while they hold a small part
/// of the chosen text, though (see [`Noise::share`]), or a quarter of
/// their text is links (see [`LINKED_SECTION`]): a long section of text
/// after such a heading is more likely content under a label that looks
/// like one. Only the first such heading is weighed. A comments heading
/// inside an element marked as the thread (`<div id="comments"><h3>46
/// Comments</h3>`) ends the article whatever follows, and is looked for
/// between the chosen regions too (its mark often leaves it out of them):
/// the thread was kept only because its marks were forgiven. So does a
/// heading whose class or id names the comments by a whole word (`<h3
/// class="comments-title">`, `<h2 id="comments">`: see
/// [`Line::comment_heading`]) where such a heading is looked for (chosen,
/// or inside the marked thread), whatever its text and however long the
/// unmarked thread below it.
pub fn cut_at_noise_heading(sel: &mut Selection, lines: &[Line], src: &str) {
    let (Some(first), Some(last)) = (sel.regions.first(), sel.regions.last()) else {
        return;
    };
    let mut before = 0u64;
    let mut found = None;
    let mut r = 0;
    for i in first.first..=last.last {
        while sel.regions.get(r).is_some_and(|reg| reg.last < i) {
            r += 1;
        }
        let chosen = sel.regions.get(r).is_some_and(|reg| reg.first <= i);
        let line = &lines[i as usize];
        let marked = line.comment_text > 0;
        if line.heading > 0 && before > 0 && (chosen || marked) {
            // A comment word in the heading's class or id names it
            // whatever its text says.
            let noise = if line.comment_heading {
                Some(Noise::Comments)
            } else {
                noise_heading(line.source(src)).filter(|&n| chosen || n == Noise::Comments)
            };
            if let Some(noise) = noise {
                found = Some((i, noise));
                break;
            }
        }
        if chosen {
            before += u64::from(line.text);
        }
    }
    let Some((at, noise)) = found else {
        return;
    };
    let (after, links) = sel
        .regions
        .iter()
        .flat_map(|r| r.first.max(at)..=r.last)
        .map(|i| &lines[i as usize])
        .fold((0u64, 0u64), |(t, a), l| {
            (t + u64::from(l.text), a + u64::from(l.anchor_text))
        });
    // The thread's own heading (inside the marked thread, or marked as
    // the thread's by its class or id): cut however long the thread.
    let heading = &lines[at as usize];
    let thread = noise == Noise::Comments && (heading.comment_text > 0 || heading.comment_heading);
    if !thread && after * noise.share() > before && links * LINKED_SECTION < after {
        return;
    }
    let keep = sel.regions.partition_point(|r| r.first < at);
    end_before(sel, lines, keep, at);
}

/// Ends the selection before line `at`: its first `keep` regions stay
/// (all of them starting before `at`), the last of them cut short there.
pub(super) fn end_before(sel: &mut Selection, lines: &[Line], keep: usize, at: u32) {
    sel.regions.truncate(keep);
    if let Some(last) = sel.regions.last_mut() {
        last.last = last.last.min(at - 1);
    }
    sel.lines = sel.regions.iter().map(|r| r.last - r.first + 1).sum();
    sel.ranges = byte_ranges(lines, &sel.regions);
}

/// Content characters from which a block is more than a teaser: an item
/// of a teaser list holds at most this much text, and a seed with less
/// may itself be one of a listing's items.
pub(super) const TEASER_TEXT: u64 = 600;

/// How many teasers make a listing of them (see [`teaser_list`]).
pub(super) const TEASERS: usize = 3;

/// Content characters of a chosen region after a teaser listing that
/// the listing still ends the article before (a newsletter line, a
/// copyright): at most [`TAIL_REGIONS`] such regions are looked past.
pub(super) const TAIL_TEXT: u64 = 150;

/// How many short regions after a teaser listing are looked past.
pub(super) const TAIL_REGIONS: usize = 2;

/// A listing of teasers of other articles after the article ends it:
/// from the first such listing on (see [`teaser_list`]) among the chosen
/// regions that end the selection, past at most [`TAIL_REGIONS`] short
/// ones, the chosen lines are dropped; then again, and before each the
/// regions denser in links than the seed (see [`trailing_links`]). The
/// teasers' excerpts and dates are plain text outside their title links,
/// so the trim of trailing links keeps them, and their label ("Also in
/// the news", "Recommended for you") is seldom a heading. Nothing is cut
/// when the seed is no longer than a teaser (a listing page, whose items
/// are the content) or is itself mostly links (see
/// [`LINKED_SEED_TENTHS`]).
pub fn cut_trailing_teasers(sel: &mut Selection, lines: &[Line], elements: &[Element], src: &str) {
    let Some(seed) = sel.seed else {
        return;
    };
    if seed.content <= TEASER_TEXT {
        return;
    }
    let links = |r: &Region| links_in(lines, r.first, r.last);
    let seed_links = links(&seed);
    if 10 * seed_links.0 >= u128::from(LINKED_SEED_TENTHS) * seed_links.1 {
        return;
    }
    let mut end = sel.regions.len();
    let mut cut_at = None;
    'cut: loop {
        let after = |i: usize| sel.regions[i].first > seed.last;
        if cut_at.is_some() {
            while end > 0
                && after(end - 1)
                && trailing_links(links(&sel.regions[end - 1]), seed_links)
            {
                end -= 1;
            }
        }
        for back in 0..=TAIL_REGIONS {
            let Some(i) = end.checked_sub(back + 1).filter(|&i| after(i)) else {
                break 'cut;
            };
            let r = sel.regions[i];
            if let Some(first) = teaser_list(lines, elements, src, r, seed) {
                cut_at = Some(first);
                end = sel.regions.partition_point(|x| x.first < first);
                continue 'cut;
            }
            if r.content > TAIL_TEXT {
                break 'cut;
            }
        }
        break;
    }
    if let Some(at) = cut_at {
        end_before(sel, lines, end, at);
    }
}

/// The first line of the innermost element around region `r`, wholly
/// after the seed, whose children hold at least [`TEASERS`] teasers (see
/// [`teaser`]) and half its text (a listing's label, an advert between
/// its items).
pub(super) fn teaser_list(
    lines: &[Line],
    elements: &[Element],
    src: &str,
    r: Region,
    seed: Region,
) -> Option<u32> {
    let lca = seed_container(lines, elements, r)?;
    for a in ancestors(elements, lca).into_iter().take(LIST_DEPTH) {
        let e = elements.get(a as usize)?;
        if e.first_line <= seed.last || matches!(e.tag, Tag::Body | Tag::Html) {
            return None;
        }
        let children = || {
            elements[a as usize + 1..]
                .iter()
                .take_while(|c| c.first_line <= e.last_line)
                .filter(|c| c.parent == a)
        };
        // By the counts alone first: reading the text of the blocks that
        // may be teasers is the cost of this rule, and most elements could
        // not make a listing even if every such block were one.
        let listing = |teasers: &dyn Fn(&Element) -> bool| {
            let (n, text) = children()
                .filter(|c| teasers(c))
                .fold((0, 0u64), |(n, t), c| (n + 1, t + u64::from(c.text)));
            n >= TEASERS && 2 * text >= u64::from(e.text)
        };
        if listing(&|c| may_be_teaser(lines, c).is_some()) && listing(&|c| teaser(lines, src, c)) {
            return Some(e.first_line);
        }
    }
    None
}

/// How many elements up from a region [`teaser_list`] looks for the
/// listing: a teaser's text sits a few levels inside its block, and
/// each level looked at walks all the elements inside it, which on a
/// deeply nested page would be the rest of it.
pub(super) const LIST_DEPTH: usize = 8;

/// Link text of a line from which it is a teaser's title.
pub(super) const TITLE_MIN: u32 = 20;

/// Whether a block is the teaser of another article: at most
/// [`TEASER_TEXT`] characters, a link, and a title link (see
/// [`TITLE_MIN`]) over a date, or an excerpt cut short ("...", "…") or
/// followed by a link to the rest ("Read more"). Items of a real list
/// (resources, a reference's entries, awards) have none of these; a
/// forum's posts have dates but no title links.
pub(super) fn teaser(lines: &[Line], src: &str, c: &Element) -> bool {
    let Some((block, title)) = may_be_teaser(lines, c) else {
        return false;
    };
    block.iter().filter(|l| l.text > 0).any(|l| {
        let marks = teaser_marks(src, l);
        marks.cut || (marks.more && l.anchors > 0) || (title && marks.dated)
    })
}

/// What the counts alone tell of a block that may be a teaser (see
/// [`teaser`]): its lines, and whether one is a title link; `None` when
/// it holds no text, more than a teaser's or no link.
pub(super) fn may_be_teaser<'l>(lines: &'l [Line], c: &Element) -> Option<(&'l [Line], bool)> {
    if c.text == 0 || u64::from(c.text) > TEASER_TEXT {
        return None;
    }
    let block = lines.get(c.first_line as usize..=c.last_line as usize)?;
    block.iter().any(|l| l.anchors > 0).then(|| {
        let title = block.iter().any(|l| l.anchor_text >= TITLE_MIN);
        (block, title)
    })
}

/// Text characters of a line, blanks left out, from which it holds more
/// than a date.
pub(super) const DATE_LINE_MAX: usize = 80;

/// What in a line's text tells a teaser (see [`teaser_marks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct TeaserMarks {
    /// The line is a date ("December 19, 2025", "Mar 3, 2026", "5 hours
    /// ago", "09/28/2025").
    pub(super) dated: bool,
    /// It ends cut short ("...", "…", "[…]").
    pub(super) cut: bool,
    /// It ends with "more" or "reading" ("Read more »", "Continue
    /// reading").
    pub(super) more: bool,
}

/// Bytes of a line's text, blanks as one space, kept from its end.
pub(super) const TAIL: usize = 24;

/// The [`TeaserMarks`] of a line's text (markup skipped as the renderer
/// skips it, ASCII case ignored).
pub(super) fn teaser_marks(src: &str, line: &Line) -> TeaserMarks {
    let bytes = src
        .as_bytes()
        .get(line.start as usize..line.end as usize)
        .unwrap_or_default();
    let mut text = [0u8; DATE_LINE_MAX];
    let mut tail = [0u8; TAIL];
    let (mut len, mut total, mut words, mut space, mut at) = (0, 0, 0, false, 0);
    while let Some(&b) = bytes.get(at) {
        if b == b'<' {
            match text::text_after_markup(bytes, at) {
                Some(next) if next > at => {
                    at = next;
                    continue;
                }
                Some(_) => {}
                None => break,
            }
        }
        at += 1;
        if b.is_ascii_whitespace() {
            space = len > 0;
            continue;
        }
        words += usize::from(space);
        let b = b.to_ascii_lowercase();
        if space {
            tail.rotate_left(1);
            tail[TAIL - 1] = b' ';
        }
        tail.rotate_left(1);
        tail[TAIL - 1] = b;
        total += 1;
        if len + 1 + usize::from(space) <= DATE_LINE_MAX {
            if space {
                text[len] = b' ';
                len += 1;
            }
            text[len] = b;
            len += 1;
        }
        space = false;
    }
    let tail = &tail[TAIL - (total + words).min(TAIL)..];
    TeaserMarks {
        dated: total <= DATE_LINE_MAX && is_date(&text[..len]),
        cut: cut_short(tail),
        more: ends_with_more(tail),
    }
}

/// Whether text ending in these bytes (blanks as one space, lowercase)
/// ends with a link on to the rest of a story: "read more", "continue
/// reading", or "more" alone or after punctuation ("... more", "[more]"),
/// past an arrow, a bracket or an entity ("&raquo;"). Not "learn more" or
/// "see more": a service's or a product's card, whose text is content.
pub(super) fn ends_with_more(tail: &[u8]) -> bool {
    let mut end = tail.len();
    while end > 0 {
        let b = tail[end - 1];
        if b == b';' {
            // An entity: back to its `&`.
            match tail[..end].iter().rposition(|&c| c == b'&') {
                Some(amp) => end = amp,
                None => break,
            }
        } else if b.is_ascii_alphanumeric() {
            break;
        } else {
            end -= 1;
        }
    }
    let tail = &tail[..end];
    if ["read more", "readmore", "reading"]
        .iter()
        .any(|w| tail.ends_with(w.as_bytes()))
    {
        return true;
    }
    let Some(before) = tail.strip_suffix(b"more") else {
        return false;
    };
    let before = before.strip_suffix(b" ").unwrap_or(before);
    before.last().is_none_or(|b| !b.is_ascii_alphanumeric())
}

/// Month names and their short forms, lowercase.
pub(super) const MONTHS: &[&str] = &[
    "jan",
    "january",
    "feb",
    "february",
    "mar",
    "march",
    "apr",
    "april",
    "may",
    "jun",
    "june",
    "jul",
    "july",
    "aug",
    "august",
    "sep",
    "sept",
    "september",
    "oct",
    "october",
    "nov",
    "november",
    "dec",
    "december",
];

/// Whether a short lowercase text is a date: a month's name with a
/// number, a number of units "ago", or numbers joined by `/`, `.` or `-`
/// as day, month and year are.
pub(super) fn is_date(text: &[u8]) -> bool {
    if !text.iter().any(u8::is_ascii_digit) {
        return false;
    }
    let mut words = text
        .split(|b| !b.is_ascii_alphabetic())
        .filter(|w| !w.is_empty());
    if words.any(|w| w == b"ago" || MONTHS.iter().any(|m| m.as_bytes() == w)) {
        return true;
    }
    // d/d/d: three groups of digits joined by one separator twice.
    text.split(|b| !(b.is_ascii_digit() || matches!(b, b'/' | b'.' | b'-')))
        .any(|run| {
            [b'/', b'.', b'-'].iter().any(|&sep| {
                let number =
                    |g: &[u8]| (1..=4).contains(&g.len()) && g.iter().all(u8::is_ascii_digit);
                run.split(|&b| b == sep)
                    .try_fold(0, |n, g| number(g).then_some(n + 1))
                    == Some(3)
            })
        })
}

/// Whether text ending in these bytes (blanks as one space) is cut short: an
/// ellipsis, as characters or an entity, maybe in brackets.
pub(super) fn cut_short(tail: &[u8]) -> bool {
    let end = tail
        .iter()
        .rposition(|b| !matches!(b, b']' | b')'))
        .map_or(0, |i| i + 1);
    let tail = &tail[..end];
    ["...", "\u{2026}", "&hellip;", "&#8230;", "&#x2026;"]
        .iter()
        .any(|e| tail.ends_with(e.as_bytes()))
}
