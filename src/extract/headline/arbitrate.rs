//! Headline arbitration: which block is the page's headline (the
//! finder's first choice, a heading above or below it, the page's lone
//! `<h1>`, the fallbacks) and the line that bounds the main content above.
//! It scores no candidate itself (the finder in `headline` does) and
//! selects no content (`select` does).

use crate::extract::headline::{self, Candidate, StopWords};
use crate::extract::scan::{self, Scan};
use crate::extract::{Extractor, HeadlineMethod, select, text};

impl Extractor {
    /// The headline, and the line of the block found for it: the upper
    /// bound of the main content, also when og:title is the headline
    /// ([`headline::og_title_instead`]). A block that is no heading and
    /// hardly agrees with the title (a fallback's pick) gives way to the
    /// page's one `<h1>`, which then bounds the content.
    pub(in crate::extract) fn headline(
        &self,
        scan: &Scan,
        sel: &select::Selection,
    ) -> (Option<headline::Headline>, Option<u32>) {
        let found = self.find_headline(scan, sel);
        let anchor = found.as_ref().and_then(|h| h.line);
        if self.options.headline != HeadlineMethod::Auto {
            return (found, anchor);
        }
        let input = headline_inputs(scan, &self.stop, &[], sel);
        let Some(found) = found else {
            return match headline_above_found(scan, sel, None, &input) {
                Some((mut h, _)) => {
                    h.text = headline::normalize(&h.text);
                    let line = h.line;
                    (Some(h), line)
                }
                None => (None, None),
            };
        };
        let mut heading = anchor
            .and_then(|l| scan.lines.get(l as usize))
            .map_or(0, |l| l.heading);
        let replaced = heading_below_label(scan, sel, anchor, heading, &found.text)
            .or_else(|| heading_above_content(scan, sel, anchor, heading));
        // Whether the label gave way to the content's first line, which by
        // design agrees with nothing in the title: the page's one `<h1>` is
        // then the label itself, not a better choice.
        let mut at_content_start = false;
        let (found, anchor) = match replaced {
            Some((h, level)) => {
                heading = level;
                let line = h.line;
                (h, line)
            }
            // The content's own first line names the story; the label's
            // line still bounds the content, so the text stays as it was.
            None => match headline_at_content_start(scan, sel, anchor, &found.text, &input) {
                Some((h, level)) => {
                    heading = level;
                    at_content_start = true;
                    (h, anchor)
                }
                None => (found, anchor),
            },
        };
        let (mut found, anchor) = match headline::og_title_instead(&found, heading, &input) {
            Some(og) => (og, anchor),
            None if heading == 0
                && !at_content_start
                && headline::agreement(headline::first_line(&found.text), &input) < 0.5 =>
            {
                match lone_h1(scan) {
                    Some(h1) => {
                        let line = h1.line;
                        (h1, line)
                    }
                    None => match headline_above_found(scan, sel, anchor, &input) {
                        Some((h, level)) => {
                            heading = level;
                            let line = h.line;
                            (h, line)
                        }
                        None => (found, anchor),
                    },
                }
            }
            // No block agreed with a title set in parts and the title's
            // longest part was taken ("Bangkok Post" of "Bangkok Post :
            // SPORTS PLUS"): a title naming the story would have been
            // found at the content's start, so the title names the site
            // and its section, and a headline-shaped line opening the
            // content that shares nothing with it names the story.
            None if found.line.is_none() && titled_in_parts(&input) => {
                match headline_above_found(scan, sel, None, &input) {
                    Some((h, level)) => {
                        heading = level;
                        let line = h.line;
                        (h, line)
                    }
                    None => (found, anchor),
                }
            }
            None => (found, anchor),
        };
        if let Some(joined) = headline::joined_heading(&found.text, heading, &input) {
            found.text = joined;
        }
        found.text = headline::normalize(&found.text);
        (Some(found), anchor)
    }

    fn find_headline(&self, scan: &Scan, sel: &select::Selection) -> Option<headline::Headline> {
        let content_start = sel.seed.map(|r| r.first);
        let method = self.options.headline;
        if method == HeadlineMethod::Off {
            return None;
        }
        let auto = method == HeadlineMethod::Auto;
        let wanted = candidate_lines(scan, auto, content_start);
        let mut fragments = text::Fragments::default();
        if !auto {
            let rendered = render_lines(scan, &wanted, &mut fragments);
            let all = as_candidates(scan, &fragments, &rendered);
            return headline::find(method, &headline_inputs(scan, &self.stop, &all, sel));
        }
        // `Auto`'s first choice must share a term with the title or
        // og:title: only the lines that may are rendered for it. Of the
        // rest, those the fallbacks may look at are rendered when it finds
        // nothing.
        let FirstChoice {
            found,
            mut rendered,
            rest,
        } = self.first_choice(scan, sel, &wanted, &mut fragments);
        found.or_else(|| {
            let heading = |i: usize| scan.lines.get(i).map_or(0, |l| l.heading);
            let used: Vec<usize> = rest
                .into_iter()
                .filter(|&i| headline::fallback_may_use(i as u32, heading(i), content_start))
                .collect();
            rendered.extend(render_lines(scan, &used, &mut fragments));
            rendered.sort_unstable_by_key(|&(line, _)| line);
            let all = as_candidates(scan, &fragments, &rendered);
            headline::auto_fallback(&headline_inputs(scan, &self.stop, &all, sel))
        })
    }
}

/// A footer or sidebar heading found for the headline gives way to the
/// heading at the content start that outranks it, with its level. Titles
/// that name only the site ("Cape Argus", "The Independent on Saturday")
/// agree best with a heading repeating that name well past the story's
/// start ("About Cape Argus", an `<h5>`), while the story's `<h1>` agrees
/// with nothing. Only a heading found more than 15 lines past the content
/// start (no headline heads content that began above it) and not made of
/// link text (a teaser linking to the page itself may name it better than
/// its heading does) is replaced; plain blocks stay (on pages with a
/// specific title they are mostly the headline set in a `<p>`, and the
/// heading above the content a section label). The heading is the
/// nearest `<h1>`-`<h3>` at most 30 lines before the content start that
/// looks like a headline (3 to 25 words, not a date).
fn heading_above_content(
    scan: &Scan,
    sel: &select::Selection,
    anchor: Option<u32>,
    heading: u8,
) -> Option<(headline::Headline, u8)> {
    let start = sel.seed?.first as usize;
    let line = anchor? as usize;
    let found = scan.lines.get(line)?;
    let teaser = found.anchor_text * 2 > found.text;
    if line <= start + headline::PAST_CONTENT as usize || heading == 0 || teaser {
        return None;
    }
    let mut fragments = text::Fragments::default();
    let (i, level, text) = nearest_heading_before(scan, &mut fragments, start, 0)?;
    (level < heading).then_some((
        headline::Headline {
            text,
            line: Some(i as u32),
        },
        level,
    ))
}

/// A label found for the headline gives way to the nearest headline-shaped
/// `<h1>`-`<h3>` between it and the content start, with its level. A
/// block of one or two words that agrees with the title ("CTV Toronto",
/// "STATE NEWS", "News" in "Sportal > Golf > News") names the site or the
/// section above the story, whose own heading follows it; the story's
/// heading agrees less with a title that is mostly the site's name. An
/// `<h1>` label stays (the page's own choice: "Flexbox", "Hiking boots"),
/// and so does one with no such heading after it, at most 30 lines
/// before the content start.
fn heading_below_label(
    scan: &Scan,
    sel: &select::Selection,
    anchor: Option<u32>,
    heading: u8,
    text: &str,
) -> Option<(headline::Headline, u8)> {
    let start = sel.seed?.first as usize;
    let line = anchor? as usize;
    if heading == 1 || line >= start || headline::looks_like_headline(headline::first_line(text)) {
        return None;
    }
    let mut fragments = text::Fragments::default();
    let (i, level, text) = nearest_heading_before(scan, &mut fragments, start, line + 1)?;
    Some((
        headline::Headline {
            text,
            line: Some(i as u32),
        },
        level,
    ))
}

/// A label found for the headline that only repeats the title's site or
/// section part ("Sports Wire" under "cbs4denver.com - Sports Wire", "News
/// Update Service" under "The Hindu News Update Service") gives way to the
/// story's headline at the start of the extracted text, where no heading
/// sits between them ([`heading_below_label`]): old news pages set the
/// headline in a `<b>` or `<font>` block, first or second among the
/// content's lines (after "E-mail | Print" or "Top Stories"). The line
/// must look like a headline (3 to 25 words, not a date, no closing
/// period: a sentence is the story's first paragraph), not be link text,
/// and share no term with the title or og:title: a line that does ("Dental
/// care for the whole family" under "Dental Care | Clinic") may be a
/// teaser under the page's real heading, the label. The label gives way
/// even as an `<h1>` (cbs4denver's "Sports Wire"); one of more than three
/// words, one that only starts the title ("Dental Care" under
/// "Dental Care | Clinic": modern pages' own headings), and one on or past
/// the content start stay.
fn headline_at_content_start(
    scan: &Scan,
    sel: &select::Selection,
    anchor: Option<u32>,
    text: &str,
    input: &headline::Inputs<'_>,
) -> Option<(headline::Headline, u8)> {
    let first = sel.regions.first()?.first as usize;
    let line = anchor? as usize;
    if line >= first {
        return None;
    }
    // The label's tests first: most blocks found are longer, and the
    // title is then not cleaned and lowercased for nothing.
    let label = headline::compare_form(headline::first_line(text));
    if label.is_empty() || label.split_whitespace().count() > 3 {
        return None;
    }
    let title = headline::compare_form(&headline::clean(input.title));
    if label.len() >= title.len() || !title.ends_with(&label) {
        return None;
    }
    headline_in_content(scan, sel, input, 2, |l| l.anchor_text * 2 <= l.text)
}

/// A plain block found for the headline that hardly agrees with the title
/// (cosine below 0.5, no lone `<h1>` to take its place) gives way to a
/// headline-shaped line above it among the first three lines of the
/// extracted text: the block is then the story's first sentence or a
/// label between the headline and the story ("Sports Section Sponsors"
/// under "Peterson eyes NFC rushing title, playoffs"), picked because it
/// sits nearest before the content's core, while the headline opens the
/// content as chosen. The line must hold no link text, look like a
/// headline (3 to 25 words, not a date, no closing period) and share no
/// term with the title or og:title (a line that does would have been
/// found). On a page where nothing was found (no title, no og:title) the
/// same line is the headline.
fn headline_above_found(
    scan: &Scan,
    sel: &select::Selection,
    below: Option<u32>,
    input: &headline::Inputs<'_>,
) -> Option<(headline::Headline, u8)> {
    // Content that starts at or below the block has no line above it:
    // nothing to render then.
    let first = sel.regions.first()?.first;
    if below.is_some_and(|below| first >= below) {
        return None;
    }
    let (found, level) = headline_in_content(scan, sel, input, 3, |l| l.anchor_text == 0)?;
    let above = match (found.line, below) {
        (Some(line), Some(below)) => line < below,
        _ => true,
    };
    above.then_some((found, level))
}

/// A title of more than one part (see [`headline::title_parts`]) and no
/// og:title: where a headline not found among the blocks came from the
/// title, it is one of the title's parts.
fn titled_in_parts(input: &headline::Inputs<'_>) -> bool {
    headline::clean(input.og_title).is_empty()
        && headline::title_parts(&headline::clean(input.title)).len() > 1
}

/// The first line among the extracted text's first `lines` lines that
/// could name the story by itself: on a line that `fits`, headline-shaped
/// (3 to 25 words, not a date), without a closing period (a sentence is
/// the story's first paragraph) and sharing no term with the title or
/// og:title; with its line's heading level.
fn headline_in_content(
    scan: &Scan,
    sel: &select::Selection,
    input: &headline::Inputs<'_>,
    lines: usize,
    fits: impl Fn(&scan::Line) -> bool,
) -> Option<(headline::Headline, u8)> {
    let mut fragments = text::Fragments::default();
    let mut seen = 0;
    for r in &sel.regions {
        for i in r.first as usize..=r.last as usize {
            let l = scan.lines.get(i)?;
            if l.text == 0 {
                continue;
            }
            let id = fragments.push(line_html(scan, i));
            for t in fragments.get(id).lines().map(str::trim) {
                if t.is_empty() {
                    continue;
                }
                if fits(l)
                    && headline::looks_like_headline(t)
                    && !t.ends_with('.')
                    && headline::agreement(t, input) == 0.0
                {
                    let found = headline::Headline {
                        text: t.to_string(),
                        line: Some(i as u32),
                    };
                    return Some((found, l.heading));
                }
                seen += 1;
                if seen == lines {
                    return None;
                }
            }
        }
    }
    None
}

/// The nearest `<h1>`-`<h3>` at most 30 lines before line `start` (and
/// not before line `from`) whose first line looks like a headline (3 to
/// 25 words, not a date): its line, level and first line.
fn nearest_heading_before(
    scan: &Scan,
    fragments: &mut text::Fragments,
    start: usize,
    from: usize,
) -> Option<(usize, u8, String)> {
    (start.saturating_sub(30).max(from)..=start)
        .rev()
        .filter_map(|i| {
            let l = scan.lines.get(i)?;
            ((1..=3).contains(&l.heading) && l.text > 0).then_some((i, l.heading))
        })
        .find_map(|(i, level)| {
            let text = rendered_first_line(scan, fragments, i);
            headline::looks_like_headline(text).then(|| (i, level, text.to_string()))
        })
}

/// The page's one `<h1>` with text, rendered; `None` when it has none or
/// several.
fn lone_h1(scan: &Scan) -> Option<headline::Headline> {
    let mut h1 = scan
        .lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.heading == 1 && l.text > 0)
        .map(|(i, _)| i);
    let (Some(i), None) = (h1.next(), h1.next()) else {
        return None;
    };
    let mut fragments = text::Fragments::default();
    let text = rendered_first_line(scan, &mut fragments, i);
    (!text.is_empty()).then(|| headline::Headline {
        text: text.to_string(),
        line: Some(i as u32),
    })
}

/// Does line `line` read as `headline` whole: its rendered text, spaced
/// as the headline is, is the headline (case and quotes folded)? Not where
/// the headline is what is left of the line once a reply prefix, a
/// breadcrumb or a site's name is taken off, nor where the line says more.
pub(in crate::extract) fn line_reads_as(scan: &Scan, line: u32, headline: &str) -> bool {
    let text = text::render_fragment(line_html(scan, line as usize));
    let (text, headline) = (
        headline::compare_form(&text),
        headline::compare_form(headline),
    );
    text.split_whitespace().eq(headline.split_whitespace())
}

/// Line `i` rendered into `fragments`: its first line, what a headline
/// is of a block ([`headline::first_line`]).
fn rendered_first_line<'f>(scan: &Scan, fragments: &'f mut text::Fragments, i: usize) -> &'f str {
    let id = fragments.push(line_html(scan, i));
    headline::first_line(fragments.get(id))
}

/// What `Auto`'s first choice found, and what it did with the lines.
struct FirstChoice {
    found: Option<headline::Headline>,
    /// (line, fragment) of every line rendered.
    rendered: Vec<(usize, usize)>,
    /// The lines that cannot share a term with the title, not rendered.
    rest: Vec<usize>,
}

impl Extractor {
    /// `Auto`'s first choice ([`headline::best_match`]) over `lines`,
    /// looking at a line only while it may still win: after a strong match
    /// (an `<h1>` agreeing with the title) most other lines cannot, and
    /// are neither prefiltered nor rendered. A line that may win and may
    /// share a term with the title or og:title is rendered; one that
    /// cannot goes to `rest`. When nothing is found, no line was skipped:
    /// every one is in one list or the other.
    fn first_choice(
        &self,
        scan: &Scan,
        sel: &select::Selection,
        lines: &[usize],
        fragments: &mut text::Fragments,
    ) -> FirstChoice {
        let mut matcher = headline::Matcher::new(&headline_inputs(scan, &self.stop, &[], sel));
        let query = headline::prefilter::Query::new(matcher.query_terms());
        let (mut rendered, mut rest) = (Vec::new(), Vec::new());
        let mut best = None;
        let heading = |i: usize| scan.lines.get(i).map_or(0, |l| l.heading);
        // Strongest first: once a block agrees well (an `<h1>` repeating
        // the title), the lines whose bonus cannot lift them past it are
        // all that is left, and the loop ends without prefiltering them.
        // Ties keep the earlier line ([`headline::Matcher::consider`]), so
        // the choice is the one a pass in line order makes.
        // Each line's bonus computed once, not in every comparison.
        let mut order: Vec<(f64, usize)> = lines
            .iter()
            .map(|&i| (matcher.bonus(i as u32, heading(i)), i))
            .collect();
        order.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for (_, i) in order {
            if !matcher.may_win(i as u32, heading(i)) {
                break;
            }
            // Lines the first choice cannot take (plain lines well past the
            // content start, mostly) are candidates for the fallbacks' sake
            // only: on the corpus sample, one in seven of those rendered
            // for it (1,050 -> 893).
            let links = scan
                .lines
                .get(i)
                .is_some_and(|l| l.anchor_text * 2 > l.text);
            if !matcher.may_be_chosen(i as u32, heading(i), links)
                || !headline::prefilter::may_share_a_term(line_html(scan, i), &query)
            {
                rest.push(i);
                continue;
            }
            let id = fragments.push(line_html(scan, i));
            rendered.push((i, id));
            let Some(c) = candidate(scan, fragments, i, id) else {
                continue;
            };
            if matcher.consider(&c) {
                best = Some((i, id));
            }
        }
        let found = best.map(|(i, id)| headline::Headline {
            text: matcher.chosen(fragments.get(id)).to_string(),
            line: Some(i as u32),
        });
        FirstChoice {
            found,
            rendered,
            rest,
        }
    }
}

/// What the headline finder looks at, with `candidates`.
fn headline_inputs<'a>(
    scan: &'a Scan,
    stop: &'a StopWords,
    candidates: &'a [Candidate<'a>],
    sel: &select::Selection,
) -> headline::Inputs<'a> {
    headline::Inputs {
        title: &scan.info.title,
        og_title: &scan.info.og_title,
        candidates,
        stop,
        content_start: sel.seed.map(|r| r.first),
        content_first: sel.regions.first().map(|r| r.first),
    }
}

/// The lines whose blocks may hold the headline. TitleFinder as in the
/// thesis looks at every line with text; `Auto` at headings up to a little
/// past the content start and at short lines around it (headlines precede
/// what they head), so the tokenizer never runs over the rest of the page.
fn candidate_lines(scan: &Scan, auto: bool, content_start: Option<u32>) -> Vec<usize> {
    let near = |i: usize| match (auto, content_start) {
        (true, Some(start)) => i + 80 >= start as usize && i <= start as usize + 40,
        _ => true,
    };
    let wanted = |i: usize, l: &scan::Line| {
        let heading = l.heading > 0 && content_start.is_none_or(|s| i <= s as usize + 40);
        l.text > 0 && (!auto || heading || (l.text <= 300 && near(i)))
    };
    // `Auto` wants nothing past 40 lines after the content start: the
    // walk stops there rather than reading every line's record.
    let end = match (auto, content_start) {
        (true, Some(start)) => (start as usize).saturating_add(41),
        _ => usize::MAX,
    };
    scan.lines
        .iter()
        .take(end)
        .enumerate()
        .filter(|(i, l)| wanted(*i, l))
        .map(|(i, _)| i)
        .collect()
}

/// The raw HTML of line `i`.
fn line_html<'s>(scan: &'s Scan<'_>, i: usize) -> &'s str {
    scan.lines
        .get(i)
        .and_then(|l| scan.src.get(l.start as usize..l.end as usize))
        .unwrap_or("")
}

/// Renders `lines` into `fragments`: (line, fragment index) pairs.
fn render_lines(
    scan: &Scan,
    lines: &[usize],
    fragments: &mut text::Fragments,
) -> Vec<(usize, usize)> {
    lines
        .iter()
        .map(|&i| (i, fragments.push(line_html(scan, i))))
        .collect()
}

/// Rendered lines as candidates, in the order given; empty ones left out.
fn as_candidates<'f>(
    scan: &Scan,
    fragments: &'f text::Fragments,
    rendered: &[(usize, usize)],
) -> Vec<Candidate<'f>> {
    rendered
        .iter()
        .filter_map(|&(i, id)| candidate(scan, fragments, i, id))
        .collect()
}

/// Line `i` rendered as fragment `id`, as a candidate; `None` when empty.
fn candidate<'f>(
    scan: &Scan,
    fragments: &'f text::Fragments,
    i: usize,
    id: usize,
) -> Option<Candidate<'f>> {
    let l = scan.lines.get(i)?;
    let text = fragments.get(id);
    (!text.is_empty()).then_some(Candidate {
        text,
        line: i as u32,
        heading: l.heading,
        links: l.anchor_text * 2 > l.text,
    })
}
