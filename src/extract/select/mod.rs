//! Selection policy: which lines are main content, for each variant.
//!
//! The seed variants run `regions` exactly as Algorithm 1 describes. The
//! `linesift` variant keeps the mechanism and adds: bare-tag code counts and
//! text inside boilerplate elements counted as code (both in
//! `regions::counts`, switched on by the policy), growth that follows the
//! seed's enclosing container and joins regions separated by little markup
//! but stops before the lists of links at its far end,
//! the headline line as an upper bound of the content area (thesis 000
//! §7.2.1, applied by the caller once the headline is known), and, on pages
//! of short items where Algorithm 1 finds only a sliver of the text, code
//! weighed lighter (`lighter_code`).

use super::options::{Algorithm, Options};
use super::regions::{self, Policy, Region};
use super::scan::{Element, Kind, Line, NO_ELEMENT};
use super::signals::Signal;
use super::tags::Tag;
use super::text;

mod corrections;
mod noise;
#[cfg(test)]
use corrections::*;
pub use corrections::{
    cut_at_noise_heading, cut_trailing_teasers, drop_far_scraps, drop_marked_lines,
    drop_small_forms, drop_trailing_headings, end_with_the_body, extend_to_headline,
    keep_headings_between, start_at_the_headline,
};
use noise::*;

/// The chosen lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Chosen regions, in order.
    pub regions: Vec<Region>,
    /// Byte ranges of runs of selected lines.
    pub ranges: Vec<(usize, usize)>,
    pub lines: u32,
    /// The smoothed diff per line (kept for `explain`).
    pub diff: Vec<i64>,
    /// All regions, chosen or not (for `explain`).
    pub all: Vec<Region>,
    /// The seed region growth started from.
    pub seed: Option<Region>,
    /// (T1, T2) per line as counted under the policy (for `explain`).
    pub counts: Vec<(i64, i64)>,
}

/// Runs the selection for one page.
///
/// Where boilerplate is forgiven (see [`forgive_dominant_boilerplate`]),
/// reader comments keep their marks first: on blog and news pages under
/// one misleading wrapper the long thread would otherwise outweigh the
/// article and win the seed. Unless what is then found does not look like
/// an article with its comments (see [`comments_were_the_content`]): the
/// marks go as all others do, as before. Where no forgiven line held
/// comment text, the comment marks go too when the seed found is a short
/// notice far from every comment (see [`posts_were_the_content`]): a
/// forum thread whose posts are all marked as comments.
pub fn select(lines: &[Line], elements: &[Element], options: &Options) -> Selection {
    let policy = policy(options);
    // The seed variants count boilerplate not at all.
    if !policy.boilerplate {
        return select_on(lines, elements, options, &policy);
    }
    let kept = forgive_dominant_boilerplate(lines, elements, true);
    let sel = select_on(kept.lines(lines), elements, options, &policy);
    let missed = if kept.comments {
        comments_were_the_content(kept.lines(lines), &sel, policy.gap)
    } else {
        posts_were_the_content(lines, &sel, policy.gap)
    };
    if !missed {
        return sel;
    }
    // Comment marks outside the elements forgiven go too: the comments
    // were the content.
    let mut posts = forgive_dominant_boilerplate(lines, elements, false)
        .forgiven
        .unwrap_or_else(|| lines.to_vec());
    for l in &mut posts {
        l.boiler_text -= l.comment_text.min(l.boiler_text);
    }
    select_on(&posts, elements, options, &policy)
}

/// A seed with fewer content characters than this, once comments kept
/// their marks, is too little to be the article they belong to.
const ARTICLE_MIN: u64 = 300;

/// Whether a selection made with comment marks kept missed the page's
/// content: the comments were it (a forum thread, a Q&A page, where the
/// posts are marked as comments). Then the seed is short (the thread's
/// title, a notice), or no comment follows it within `gap` lines: an
/// article is followed by its comments, while a seed past the thread (a
/// sidebar) or far above it (a cookie notice over a forum's posts) is
/// furniture that merely is unmarked.
fn comments_were_the_content(lines: &[Line], sel: &Selection, gap: u32) -> bool {
    sel.seed.is_none_or(|r| r.content < ARTICLE_MIN) || !comment_follows(lines, sel, gap)
}

/// How many times `gap` lines a forum's posts lie at least from the
/// notice found instead of them ([`posts_were_the_content`]).
const THREAD_FAR: u32 = 3;

/// Whether comment marks that [`forgive_dominant_boilerplate`] left alone
/// hid the page's content: the posts of a forum thread, each marked as a
/// comment (`class="ipsComment"`), around which a notice (an app's
/// install prompt at the top, a newsletter form in the footer) is the
/// densest unmarked text. Then the seed is short and no comment follows
/// it within `THREAD_FAR` times `gap` lines. A short post followed by its
/// comments, or a list with comments below it, keeps the marks: there the
/// comments start soon after the seed.
fn posts_were_the_content(lines: &[Line], sel: &Selection, gap: u32) -> bool {
    lines.iter().any(|l| l.comment_text > 0)
        && sel.seed.is_none_or(|r| r.content < ARTICLE_MIN)
        && !comment_follows(lines, sel, gap.saturating_mul(THREAD_FAR))
}

/// Whether a line with comment text lies at most `within` lines after
/// the seed's end.
fn comment_follows(lines: &[Line], sel: &Selection, within: u32) -> bool {
    let Some(seed) = sel.seed else {
        return false;
    };
    lines
        .get(seed.last as usize..)
        .unwrap_or_default()
        .iter()
        .take(within as usize + 1)
        .any(|l| l.comment_text > 0)
}

/// The selection on lines already forgiven as the policy says, made
/// again without the in-flow layout marks inside the article when it has
/// any (see [`inflow_layout_forgiven`]): kept when the new choice still
/// covers the first one's seed, so that it widens the article rather
/// than moving elsewhere.
fn select_on(
    lines: &[Line],
    elements: &[Element],
    options: &Options,
    policy: &Policy,
) -> Selection {
    let sel = select_once(lines, elements, options, policy);
    if options.algorithm != Algorithm::Linesift {
        return sel;
    }
    let Some(relaxed) = inflow_layout_forgiven(lines, elements, &sel) else {
        return sel;
    };
    let again = select_once(&relaxed, elements, options, policy);
    let covers = sel.seed.is_some_and(|seed| {
        again
            .regions
            .iter()
            .any(|r| r.first <= seed.first && r.last >= seed.last)
    });
    if covers { again } else { sel }
}

/// Content characters of the first chosen region from which in-flow
/// layout marks are dropped (a heading or a byline above it is no part
/// of the article's body yet).
const INFLOW_FROM: u64 = 50;

/// In-flow layout characters a line needs to lose its mark: a
/// paragraph's worth, not a label or a button.
const INFLOW_MIN: u32 = 40;

/// The lines with their in-flow layout marks (widget, more, teaser: a
/// [`Layout`](super::signals::Signal::Layout) mark not inside a block
/// shown on demand, see `Line::overlay_text`) dropped inside the article:
/// from the first chosen region with [`INFLOW_FROM`] content characters
/// to the last chosen region, within the parent of the seed's container,
/// on lines of at least [`INFLOW_MIN`] such characters that are not
/// mostly links. The article's paragraphs wrapped one by one in
/// `class="widget"` or a "read more" block (`<div class="more">` holding
/// the rest of a story) are cut out of the article by their marks while
/// the first ones are chosen. Marks of pop-ups, dropdowns and hidden
/// blocks stay: an author's dropdown or a reviews pop-up inside the
/// article is no part of it. `None` when no such line is found, as on
/// most pages.
fn inflow_layout_forgiven(
    lines: &[Line],
    elements: &[Element],
    sel: &Selection,
) -> Option<Vec<Line>> {
    let seed = sel.seed?;
    let first = sel.regions.iter().find(|r| r.content >= INFLOW_FROM)?.first as usize;
    let last = sel.regions.last()?.last as usize;
    let lca = seed_container(lines, elements, seed)?;
    let e = elements.get(elements.get(lca as usize)?.parent as usize)?;
    if matches!(e.tag, Tag::Body | Tag::Html) {
        return None;
    }
    let first = first.max(e.first_line as usize);
    let last = last
        .min(e.last_line as usize)
        .min(lines.len().saturating_sub(1));
    let inflow = |l: &Line| l.layout_text.saturating_sub(l.overlay_text);
    let plain = |l: &Line| l.anchor_text * 4 < l.text && inflow(l) >= INFLOW_MIN;
    if !lines.get(first..=last)?.iter().any(plain) {
        return None;
    }
    let mut out = lines.to_vec();
    for l in out.get_mut(first..=last)? {
        if plain(l) {
            let n = inflow(l);
            l.boiler_text = l.boiler_text.saturating_sub(n);
            l.layout_text -= n;
        }
    }
    Some(out)
}

/// One selection on the lines as given.
fn select_once(
    lines: &[Line],
    elements: &[Element],
    options: &Options,
    policy: &Policy,
) -> Selection {
    let t: Vec<(i64, i64)> = lines.iter().map(|l| regions::counts(l, policy)).collect();
    let mut page = Counted::new(t);
    // The seed variants stay as the thesis has them.
    if options.algorithm == Algorithm::Linesift
        && let Some(lighter) = lighter_code(lines, elements, &page, policy.gap)
    {
        page = lighter;
    }
    let Counted { t, diff, all } = page;
    let Some(m) = regions::seed(&all) else {
        return Selection {
            diff,
            all,
            counts: t,
            ..Selection::default()
        };
    };
    let (lo, hi, head) = if options.algorithm == Algorithm::Linesift {
        let (lo, hi) = grow_in_container(lines, elements, &t, &all, m, policy.gap);
        let (hi, head) = without_trailing_links(lines, &t, &all, m, hi);
        (lo, hi, head)
    } else {
        let (lo, hi) = regions::grow(&all, m, policy.gap);
        (lo, hi, None)
    };
    let mut chosen = all[lo..=hi].to_vec();
    chosen.extend(head);
    let chosen = match options.algorithm {
        Algorithm::Linesift => join_table_rows(lines, elements, chosen),
        _ => chosen,
    };
    let ranges = byte_ranges(lines, &chosen);
    let count = chosen.iter().map(|r| r.last - r.first + 1).sum();
    Selection {
        regions: chosen,
        ranges,
        lines: count,
        diff,
        seed: Some(all[m]),
        all,
        counts: t,
    }
}

/// How the variant counts lines.
fn policy(options: &Options) -> Policy {
    Policy {
        algorithm: options.algorithm,
        filter: options.filter,
        gap: options.gap,
        boilerplate: options.algorithm == Algorithm::Linesift,
        bare_tags: options.algorithm == Algorithm::Linesift,
    }
}

/// A page's per-line (T1, T2) under a policy, their smoothed diff and
/// the regions they form.
struct Counted {
    t: Vec<(i64, i64)>,
    diff: Vec<i64>,
    all: Vec<Region>,
}

impl Counted {
    fn new(t: Vec<(i64, i64)>) -> Self {
        let diff = regions::smooth(&t);
        let all = regions::regions(&t, &diff);
        Counted { t, diff, all }
    }

    /// The seed region (Algorithm 1: the one with the most content).
    fn seed(&self) -> Option<Region> {
        regions::seed(&self.all).map(|m| self.all[m])
    }
}

/// A seed region holding less than this share of the page's text (1/20)
/// is a sliver of it.
const SLIVER: u64 = 20;

/// How far code may be weighted down when the seed is a sliver: each step
/// halves it, to a sixteenth at most.
const LIGHTER_CODE_STEPS: u32 = 4;

/// On pages of short items (listings, link lists, shop grids, forum
/// indexes) markup outweighs the text on every line: Algorithm 1 finds no
/// region at all, or only a sliver of the page's text (an intro line above
/// the list). Then the code is weighed lighter, halved step by step, until
/// a seed with more content comes out: where the page is densest relative
/// to itself rather than against a fixed one-to-one balance.
///
/// The new seed must lie within `gap` lines of the old one: lighter code
/// should widen the area Algorithm 1 found, not move to another part of
/// the page. A short article beside a long comment thread or a link
/// sidebar is a sliver too, and the heavier markup there is what kept it
/// apart. `None` when the seed is no sliver or nothing better is found, as
/// on most pages.
///
/// Failing that, at any weight, a new seed that is one of a listing's
/// linked items is taken when the run of items it is in (see
/// [`items_reach`]) comes within `gap` lines of the old seed, or within
/// [`ITEMS_REACH`] times that when both lie in one container below the
/// body: a shop's best-seller grid whose longest title is far down the
/// list, under an intro line. Comments and prose are no items, so a
/// short post is not traded for its thread.
fn lighter_code(lines: &[Line], elements: &[Element], page: &Counted, gap: u32) -> Option<Counted> {
    let total: u64 = page.t.iter().map(|&(t1, _)| t1.max(0) as u64).sum();
    let old = page.seed();
    let content = old.map_or(0, |r| r.content);
    if content.saturating_mul(SLIVER) >= total {
        return None;
    }
    let near_by = |reach: u32| {
        move |first: u32, last: u32| {
            old.is_none_or(|o| {
                first <= o.last.saturating_add(reach) && last.saturating_add(reach) >= o.first
            })
        }
    };
    let near = near_by(gap);
    let lighter = |shift: u32| {
        let c = Counted::new(page.t.iter().map(|&(t1, t2)| (t1, t2 >> shift)).collect());
        let m = regions::seed(&c.all)?;
        (c.all[m].content > content).then_some((c, m))
    };
    // A new seed near the old one first, at any weight. The weights
    // tried are kept for the rules after it (each is a pass over the
    // page's lines), which take them in the same order.
    let mut tried = Vec::new();
    for (c, m) in (1..=LIGHTER_CODE_STEPS).filter_map(lighter) {
        if near(c.all[m].first, c.all[m].last) {
            return Some(c);
        }
        tried.push((c, m));
    }
    // Else one whose chain of listing items reaches the old seed.
    let reach = near_by(gap.saturating_mul(ITEMS_REACH));
    let at = tried
        .iter()
        .position(|(c, m)| items_reach(lines, c, *m, near, gap))
        .or_else(|| {
            tried.iter().position(|(c, m)| {
                items_reach(lines, c, *m, reach, gap)
                    && old.is_none_or(|o| one_container(lines, elements, o, c.all[*m]))
            })
        })?;
    Some(tried.swap_remove(at).0)
}

/// Whether two regions lie in one container below the page's body: a
/// list's intro and its items do, a short article and an archive list
/// in the sidebar beside it often do not.
fn one_container(lines: &[Line], elements: &[Element], a: Region, b: Region) -> bool {
    let container = |r: Region| {
        lines
            .get(r.first as usize)
            .map_or(NO_ELEMENT, |l| l.container)
    };
    let e = common_ancestor(elements, container(a), container(b));
    elements
        .get(e as usize)
        .is_some_and(|e| !matches!(e.tag, Tag::Body | Tag::Html))
}

/// How many times `gap` lines a run of listing items may start past the
/// old seed (an intro line above the list, then a heading and the list's
/// own header).
const ITEMS_REACH: u32 = 2;

/// Whether the seed region `m` of `page` is one of a listing's items
/// (linked, see [`linked_items`]) and the run of items it is in, each
/// within `gap` lines of the next, reaches what `near` accepts. Short
/// regions (a heading, a price) count among the items.
fn items_reach(
    lines: &[Line],
    page: &Counted,
    m: usize,
    near: impl Fn(u32, u32) -> bool,
    gap: u32,
) -> bool {
    let item = |r: &Region| r.content < ALIKE_TEXT || linked_items(lines, r);
    let joins = |a: &Region, b: &Region| regions::distance(a, b) <= gap && item(a) && item(b);
    let (lo, hi) = regions::grow_by(&page.all, m, joins);
    item(&page.all[m]) && near(page.all[lo].first, page.all[hi].last)
}

/// Whether at least half of a region's text is link text.
fn linked_items(lines: &[Line], r: &Region) -> bool {
    let (a, x) = lines
        .get(r.first as usize..=r.last as usize)
        .unwrap_or_default()
        .iter()
        .fold((0u64, 0u64), |(a, x), l| {
            (a + u64::from(l.anchor_text), x + u64::from(l.text))
        });
    2 * a >= x
}

/// An element flagged as boilerplate that holds most of the page's text is
/// the content after all (a `<div class="content-sidebar-wrap">` around
/// everything), and so is one holding the page's one `<h1>` and half its
/// text (an `above-footer` wrapper): its lines lose the boilerplate mark,
/// except inside the elements in it that a furniture word names (a
/// newsletter box, see [`keep_named_furniture`]) and its `<noscript>`s.
/// One marked by layout words alone (a page builder's `widget-area`)
/// takes only those marks away: furniture marked by its tag (`<aside>`)
/// keeps its mark there too.
///
/// And when most of the page's text reads as boilerplate, the class names
/// are misleading: the marks are dropped altogether. Layout words
/// (widget, modal, banner, ...: [`Layout`](super::signals::Signal::Layout))
/// mislead sooner, since page builders wrap every block of a page in
/// them: when most of the prose (text outside links) sits in elements
/// only they mark, just their marks are dropped, and furniture marked by name (nav, footer,
/// comments) keeps its mark.
///
/// With `keep_comments`, text marked as reader comments
/// ([`Comment`](super::signals::Signal::Comment)) keeps its mark through
/// both rules. Dialogs ([`Element::dialog`]) always keep theirs: a
/// consent box's prose otherwise outweighed a listing's short teasers
/// once the page's other marks were dropped.
fn forgive_dominant_boilerplate(
    lines: &[Line],
    elements: &[Element],
    keep_comments: bool,
) -> Forgiven {
    let mut comments = false;
    // What is left of a forgiven line's mark.
    let mut forgive = |l: &mut Line| {
        let kept = if keep_comments {
            l.boiler_text.min(l.comment_text)
        } else {
            0
        };
        comments |= kept > 0;
        l.boiler_text = kept;
    };
    // One pass for the three sums: the lines are cold by now (a page's
    // lines are tens of kB), and three passes missed the cache three
    // times over.
    let (mut total, mut boiler) = (0u64, 0u64);
    let (mut prose, mut layout_prose) = (0u64, 0u64);
    for l in lines {
        total += u64::from(l.text);
        boiler += u64::from(l.boiler_text);
        prose += u64::from(l.text.saturating_sub(l.anchor_text));
        layout_prose += u64::from(l.layout_text.saturating_sub(l.anchor_text));
    }
    // Text in dialogs, which no reader sees until a script opens them,
    // says nothing about the class names: it is left out of the shares.
    let dialogs = Dialogs::of(elements);
    let (total, boiler) = (
        total.saturating_sub(dialogs.text),
        boiler.saturating_sub(dialogs.text),
    );
    // Layout words mislead before furniture names do: where they hold
    // most of the prose (the text outside links: menus say nothing of
    // where the article is), only marks beyond theirs count towards the
    // share that drops every mark: an author box or a footer under a page
    // builder's widgets keeps its mark.
    let layout_dominant = layout_prose * 100 > prose * 60;
    let beyond: u64 = if layout_dominant {
        lines
            .iter()
            .map(|l| u64::from(l.boiler_text.saturating_sub(l.layout_text)))
            .sum()
    } else {
        boiler
    };
    if beyond * 100 > total * 92 {
        let mut forgiven = lines.to_vec();
        forgiven.iter_mut().for_each(forgive);
        dialogs.keep_marks(lines, &mut forgiven);
        return Forgiven {
            forgiven: Some(forgiven),
            comments,
        };
    }
    let mut forgiven = layout_dominant.then(|| {
        let mut lines = lines.to_vec();
        lines
            .iter_mut()
            .for_each(|l| l.boiler_text = l.boiler_text.saturating_sub(l.layout_text));
        lines
    });
    // Most pages have no such element: the lines are copied only when
    // one is found.
    // A furniture name on an element holding the page's one headline and
    // half its text names the page's wrapper: footers, sidebars and
    // comment threads hold neither. The `<h1>` is looked for only when an
    // element is that large: most pages have none.
    let h1 = std::cell::OnceCell::new();
    let is_dominant = |(i, e): (usize, &Element)| {
        if !e.boiler {
            return false;
        }
        let share = dialogs.outside(i) * 100;
        let holds_h1 = || {
            h1.get_or_init(|| the_only_h1(lines))
                .is_some_and(|h| (e.first_line..=e.last_line).contains(&h))
        };
        share > total * 85 || (share > total * H1_SHARE && holds_h1())
    };
    if !elements.iter().enumerate().any(is_dominant) {
        return Forgiven { forgiven, comments };
    }
    let is_dominant: Vec<bool> = elements.iter().enumerate().map(is_dominant).collect();
    let dominant = elements
        .iter()
        .zip(&is_dominant)
        .filter(|&(_, &d)| d)
        .map(|(e, _)| e);
    let marked = lines;
    let lines = forgiven.get_or_insert_with(|| lines.to_vec());
    for e in dominant {
        let last = (e.last_line as usize).min(lines.len().saturating_sub(1));
        let span = lines.iter_mut().take(last + 1).skip(e.first_line as usize);
        if matches!(e.signal, Signal::Layout | Signal::Overlay) {
            // Layout words mark the element: furniture named inside it
            // (a newsletter box in the article's widget) keeps its mark.
            span.for_each(|l| l.boiler_text = l.boiler_text.saturating_sub(l.layout_text));
        } else {
            span.for_each(&mut forgive);
        }
    }
    keep_named_furniture(elements, &is_dominant, marked, lines);
    dialogs.keep_marks(marked, lines);
    Forgiven { forgiven, comments }
}

/// The share of the page's text (percent) a furniture-named element
/// holding the page's one `<h1>` needs to be forgiven as its wrapper.
const H1_SHARE: u64 = 50;

/// The line of the page's one `<h1>`, not counting those whose text is
/// all a link (a site's name linking home): `None` with none or several.
fn the_only_h1(lines: &[Line]) -> Option<u32> {
    let mut h1 = (0u32..)
        .zip(lines)
        .filter(|(_, l)| l.heading == 1 && l.anchor_text < l.text);
    match (h1.next(), h1.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

/// Gives the lines of furniture named inside a forgiven dominant element
/// (a newsletter box, a share bar: by a furniture word) back the marks
/// they had in `marked`: the dominant element's name misled, theirs did
/// not. Not those marked by their tag alone: an `<aside>` in a post is
/// often a quote or a link's preview. A `<noscript>` is: what shows only
/// with scripts off is a pixel or an ad's escaped markup, not the article.
fn keep_named_furniture(
    elements: &[Element],
    dominant: &[bool],
    marked: &[Line],
    forgiven: &mut [Line],
) {
    let mut inside = vec![false; elements.len()];
    for (i, e) in elements.iter().enumerate() {
        // A parent is recorded before its children.
        let p = e.parent as usize;
        if p < i {
            inside[i] = inside[p] || dominant[p];
        }
        let named = e.signal == Signal::Boilerplate || e.kind == Kind::NoScript;
        if inside[i] && e.boiler && named && !dominant[i] {
            restore_marks(e, marked, forgiven);
        }
    }
}

/// Gives the lines of `e` back the marks they had in `marked`.
fn restore_marks(e: &Element, marked: &[Line], forgiven: &mut [Line]) {
    // An element still open at the end may end one past the last line.
    let last = (e.last_line as usize).min(marked.len().saturating_sub(1));
    let span = e.first_line as usize..=last;
    if let (Some(from), Some(to)) = (marked.get(span.clone()), forgiven.get_mut(span)) {
        for (t, f) in to.iter_mut().zip(from) {
            t.boiler_text = f.boiler_text;
        }
    }
}

/// A page's dialogs ([`Element::dialog`]), outermost ones only.
struct Dialogs<'e> {
    elements: &'e [Element],
    /// Their indices in `elements`.
    dialogs: Vec<usize>,
    /// Their text.
    text: u64,
    /// Per element, when the page has dialogs: whether it is in one (a
    /// dialog or inside one), and the text of the outermost dialogs within
    /// it. Worked out in two passes over the elements (parents come
    /// before their children), not by walking every element's ancestors
    /// for every dialog: a page of thousands of dialogs and boilerplate
    /// elements, thousands deep, took hours that way.
    within: Vec<(bool, u64)>,
}

impl<'e> Dialogs<'e> {
    fn of(elements: &'e [Element]) -> Self {
        let mut found = Dialogs {
            elements,
            dialogs: Vec::new(),
            text: 0,
            within: Vec::new(),
        };
        if !elements.iter().any(|e| e.dialog) {
            return found;
        }
        let parent = |e: &Element| {
            let p = e.parent as usize;
            (p < elements.len()).then_some(p)
        };
        // Whether each element has a dialog around it.
        let mut around = vec![false; elements.len()];
        for (i, e) in elements.iter().enumerate() {
            if let Some(p) = parent(e).filter(|&p| p < i) {
                around[i] = around[p] || elements[p].dialog;
            }
            // A dialog in another is in its text already.
            if e.dialog && !around[i] {
                found.dialogs.push(i);
                found.text += u64::from(e.text);
            }
        }
        // The outermost dialogs' text, handed up from children to parents.
        let mut inside = vec![0u64; elements.len()];
        for (i, e) in elements.iter().enumerate().rev() {
            let up = match e.dialog && !around[i] {
                true => u64::from(e.text),
                false => inside[i],
            };
            if let Some(p) = parent(e).filter(|&p| p < i) {
                inside[p] += up;
            }
        }
        found.within = around
            .iter()
            .zip(elements)
            .map(|(&around, e)| around || e.dialog)
            .zip(inside)
            .collect();
        found
    }

    /// The text of element `i` less that of the dialogs in it: a footer
    /// holding a shop's policies in modals holds little of what a reader
    /// sees. An element in a dialog has none.
    fn outside(&self, i: usize) -> u64 {
        let text = self.elements.get(i).map_or(0, |e| u64::from(e.text));
        match self.within.get(i) {
            None => text,
            Some(&(true, _)) => 0,
            Some(&(false, inside)) => text.saturating_sub(inside),
        }
    }

    /// Gives the lines of every dialog back the marks they had in
    /// `marked`: misleading class names elsewhere say nothing about a
    /// consent or sign-up box no reader sees until a script opens it.
    fn keep_marks(&self, marked: &[Line], forgiven: &mut [Line]) {
        for e in self.dialogs.iter().filter_map(|&d| self.elements.get(d)) {
            restore_marks(e, marked, forgiven);
        }
    }
}

/// The recorded elements around `e`, innermost first. A parent is
/// recorded before its children, so the walk ends.
fn parents_of<'e>(elements: &'e [Element], e: &Element) -> impl Iterator<Item = &'e Element> {
    std::iter::successors(elements.get(e.parent as usize), move |p| {
        elements.get(p.parent as usize)
    })
}

/// What [`forgive_dominant_boilerplate`] made of a page's lines.
struct Forgiven {
    /// The lines with marks dropped; `None` when no mark is dropped.
    forgiven: Option<Vec<Line>>,
    /// Whether comment marks were kept where others were dropped.
    comments: bool,
}

impl Forgiven {
    /// The lines to select from: the forgiven ones, or else the page's.
    fn lines<'a>(&'a self, page: &'a [Line]) -> &'a [Line] {
        self.forgiven.as_deref().unwrap_or(page)
    }
}

/// Lines of a data table's row at most: its row tags and a few cells,
/// each on a line of its own, as templates write tables.
const TABLE_ROW_LINES: usize = 8;

/// Text characters a line between two parts of a table holds on average,
/// at most: cells of figures and names, not paragraphs.
const TABLE_CELL_TEXT: u32 = 25;

/// The chosen regions, two of them joined where the lines between them
/// are a data table's: short cells ([`TABLE_CELL_TEXT`]) that no
/// furniture marks, either a row's worth ([`TABLE_ROW_LINES`]) inside one
/// `<table>` or one whole `<table>` (see [`whole_table_between`]). A data
/// table written a cell or a row to a line breaks into regions at its
/// tags, whose markup outweighs a short cell: its cells between the
/// regions were lost, all but the last when that shares a line with the
/// paragraph after the table. A layout table's gaps are longer or hold
/// more text.
fn join_table_rows(lines: &[Line], elements: &[Element], chosen: Vec<Region>) -> Vec<Region> {
    let mut out: Vec<Region> = Vec::with_capacity(chosen.len());
    for r in chosen {
        if let Some(last) = out.last_mut() {
            let gap = lines
                .get(last.last as usize + 1..r.first as usize)
                .unwrap_or_default();
            let short =
                || gap.iter().map(|l| l.text).sum::<u32>() <= TABLE_CELL_TEXT * gap.len() as u32;
            let table = || {
                (gap.len() <= TABLE_ROW_LINES && in_one_table(lines, elements, last.last, r.first))
                    || whole_table_between(lines, elements, last.last, r.first)
            };
            if !gap.is_empty() && gap.iter().all(|l| l.boiler_text == 0) && short() && table() {
                last.last = r.last;
                last.content += r.content;
                continue;
            }
        }
        out.push(r);
    }
    out
}

/// Whether the lines after `a` up to `b` hold one whole `<table>` (it may
/// close on line `b`) and no text outside it, and links hold less than
/// half its text: a table of headlines is a list of teasers, not data.
fn whole_table_between(lines: &[Line], elements: &[Element], a: u32, b: u32) -> bool {
    let Some(gap) = lines.get(a as usize + 1..b as usize) else {
        return false;
    };
    let mut e = gap.last().map_or(NO_ELEMENT, |l| l.container);
    while let Some(el) = elements.get(e as usize) {
        if el.kind == Kind::Table && el.first_line > a && el.last_line <= b {
            let mut outside = (a + 1..el.first_line).chain(el.last_line + 1..b);
            let links: u32 = gap.iter().map(|l| l.anchor_text).sum();
            let text: u32 = gap.iter().map(|l| l.text).sum();
            return links * 2 < text && outside.all(|i| lines[i as usize].text == 0);
        }
        e = el.parent;
    }
    false
}

/// Whether the innermost `<table>` around line `a` reaches line `b`.
fn in_one_table(lines: &[Line], elements: &[Element], a: u32, b: u32) -> bool {
    let mut e = lines.get(a as usize).map_or(NO_ELEMENT, |l| l.container);
    while let Some(el) = elements.get(e as usize) {
        if el.kind == Kind::Table {
            return el.last_line >= b;
        }
        e = el.parent;
    }
    false
}

/// Merges the chosen regions' lines into byte ranges.
fn byte_ranges(lines: &[Line], chosen: &[Region]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for r in chosen {
        let start = lines[r.first as usize].start as usize;
        let end = lines[r.last as usize].end as usize;
        match out.last_mut() {
            Some(last) if last.1 == start => last.1 = end,
            _ => out.push((start, end)),
        }
    }
    out
}

/// Growth that follows the document's structure (thesis 000 §7.2.1): every
/// region inside the seed's enclosing container is content, however far
/// apart; outside it, Algorithm 1's gap applies from the container's
/// outermost regions. After an `<article>` container, growth goes on only
/// into regions inside an article.
fn grow_in_container(
    lines: &[Line],
    elements: &[Element],
    t: &[(i64, i64)],
    all: &[Region],
    m: usize,
    gap: u32,
) -> (usize, usize) {
    let seed = all[m];
    let joins = joins_by_lines_or_code(lines, t, gap, seed);
    let Some((span, article)) = enclosing(lines, elements, all, seed) else {
        return regions::grow_by(all, m, &joins);
    };
    let inside = |r: &Region| r.first >= span.0 && r.last <= span.1;
    let mut lo = m;
    while lo > 0 && inside(&all[lo - 1]) {
        lo -= 1;
    }
    let mut hi = m;
    while hi + 1 < all.len() && inside(&all[hi + 1]) {
        hi += 1;
    }
    let (glo, _) = regions::grow_by(all, lo, &joins);
    if article {
        // Past an `<article>`, growth goes on only into other articles
        // (the next posts of a thread): what follows one within the gap
        // is an author box, a promotion, reviews, a product page's other
        // sections.
        let in_article = |r: &Region| in_an_article(lines, elements, r);
        let inner = |a: &Region, b: &Region| joins(a, b) && in_article(b);
        let (_, ghi) = regions::grow_by(all, hi, inner);
        return (glo, ghi);
    }
    let (_, ghi) = regions::grow_by(all, hi, &joins);
    (glo, ghi)
}

/// Whether a region's first line is inside an `<article>` element.
fn in_an_article(lines: &[Line], elements: &[Element], r: &Region) -> bool {
    elements
        .get(lines[r.first as usize].container as usize)
        .is_some_and(|e| e.article || parents_of(elements, e).any(|p| p.article))
}

/// The innermost element holding every line of the seed region (its
/// lines' common container), `NO_ELEMENT` when none does; `None` when the
/// region is not on the page's lines.
fn seed_container(lines: &[Line], elements: &[Element], seed: Region) -> Option<u32> {
    let mut lca = lines.get(seed.first as usize)?.container;
    for line in lines.get(seed.first as usize..=seed.last as usize)? {
        lca = common_ancestor(elements, lca, line.container);
    }
    Some(lca)
}

/// How much more of its text a region after the seed may have in links
/// than the seed has, in tenths: more, and it is a list of links (related
/// posts, teasers, a link sidebar) rather than the article's own text. A
/// twentieth cuts a listing's own items; a fifth keeps related lists.
const MORE_LINKS_TENTHS: u64 = 1;

/// Growth past the seed stops before the regions at its far end that are
/// denser in links than the seed by more than [`MORE_LINKS_TENTHS`]: on
/// article pages what follows the text in the same container, or within
/// the gap, is mostly lists of links to other pages. Measured against the
/// seed, not a fixed share, so that on listing pages, where the seed is a
/// list of links too, the other items stay. Regions between the seed and
/// the last kept one stay whatever their links (a reading list inside the
/// article). Returns the new last region index (at least `m`), and the
/// head of the first region trimmed when it opens with prose (see
/// [`prose_head`]).
///
/// Nothing is trimmed when the seed is itself mostly links (see
/// [`LINKED_SEED_TENTHS`]), and a long run of prose stops the trim (see
/// [`PROSE_MIN`]).
fn without_trailing_links(
    lines: &[Line],
    t: &[(i64, i64)],
    all: &[Region],
    m: usize,
    hi: usize,
) -> (usize, Option<Region>) {
    let links = |r: &Region| links_in(lines, r.first, r.last);
    let seed = links(&all[m]);
    if 10 * seed.0 >= u128::from(LINKED_SEED_TENTHS) * seed.1 {
        return (hi, None);
    }
    let mut kept = hi;
    while kept > m && trailing_links(links(&all[kept]), seed) {
        kept -= 1;
    }
    let head = (kept < hi)
        .then(|| prose_head(lines, t, &all[kept + 1], seed))
        .flatten();
    (kept, head)
}

/// Text characters that make the lines heading a trailing list of links
/// a paragraph worth keeping (see [`prose_head`]).
const PROSE_HEAD: u128 = 200;

/// Region `r`, trimmed as a trailing list of links, cut before its links
/// start: the longest run of its first lines that holds [`PROSE_HEAD`]
/// text characters or more and is not denser in links than the seed
/// (`seed`: its link text and text). A region runs on from the article's
/// last paragraph into the tags or links under it where nothing but a
/// line break parts them; the links go, the paragraph stays. `None` when
/// no such head is there.
fn prose_head(lines: &[Line], t: &[(i64, i64)], r: &Region, seed: (u128, u128)) -> Option<Region> {
    // One pass, summing the head line by line: the last line at which it
    // qualifies ends the longest head.
    let mut head = (0u128, 0u128);
    let mut last = None;
    for k in r.first..r.last {
        let l = &lines[k as usize];
        head = (
            head.0 + u128::from(l.anchor_text),
            head.1 + u128::from(l.text),
        );
        if head.1 >= PROSE_HEAD && !denser_in_links(head, seed) {
            last = Some(k);
        }
    }
    regions::trimmed(t, r.first as usize, last? as usize)
}

/// Characters of link text and of text on lines `first..=last`.
pub(super) fn links_in(lines: &[Line], first: u32, last: u32) -> (u128, u128) {
    lines[first as usize..=last as usize]
        .iter()
        .fold((0, 0), |(a, x), l| {
            (a + u128::from(l.anchor_text), x + u128::from(l.text))
        })
}

/// A seed with at least this share of its text in links, in tenths, is an
/// index itself (a recipe hub's grid of titles, a tag page): the regions
/// after it are more of its items, each a link as the seed's are, and a
/// tenth more links than the seed says nothing about them.
const LINKED_SEED_TENTHS: u64 = 4;

/// Plain (unlinked) characters from which a region is prose rather than a
/// list of links: then it is trimmed only when denser in links than the
/// seed by more than [`PROSE_LINKS_PERCENT`]. A long essay or a numbered
/// list of references, each entry with a link or two, is a tenth links
/// and more while the seed above it has almost none; teaser lists of
/// other articles, with a title link over each excerpt, are a fifth and
/// more.
const PROSE_MIN: u128 = 800;

/// How much more of its text a prose region may have in links than the
/// seed has, in hundredths.
const PROSE_LINKS_PERCENT: u128 = 15;

/// Whether a region past the seed is a trailing list of links: denser in
/// links than the seed (see [`denser_in_links`]), unless it is prose
/// (see [`PROSE_MIN`]) within [`PROSE_LINKS_PERCENT`] of the seed's share.
fn trailing_links((a, x): (u128, u128), (a_s, x_s): (u128, u128)) -> bool {
    let prose =
        x - a.min(x) >= PROSE_MIN && 100 * a * x_s <= 100 * a_s * x + PROSE_LINKS_PERCENT * x * x_s;
    denser_in_links((a, x), (a_s, x_s)) && !prose
}

/// Whether a region with `a` characters of link text in `x` of text is
/// denser in links than the seed (`a_s` in `x_s`) by more than
/// [`MORE_LINKS_TENTHS`]: a / x > a_s / x_s + k / 10, without division.
fn denser_in_links((a, x): (u128, u128), (a_s, x_s): (u128, u128)) -> bool {
    10 * a * x_s > 10 * a_s * x + u128::from(MORE_LINKS_TENTHS) * x * x_s
}

/// Code characters that may separate two regions of one content area
/// whatever the line distance: a figure, an embed, a code sample.
const GAP_CODE: i64 = 150;

/// Content characters both regions need for [`BLOCK_CODE`] to join them.
const BLOCK_MIN: i64 = 300;

/// Two regions of at least [`BLOCK_MIN`] content characters each, neither
/// denser in links than the seed by more than [`MORE_LINKS_TENTHS`], join
/// when the code between them is at most this many times the smaller one's
/// content: the posts of a forum thread, each under its own header of
/// avatar, name, rank, date and buttons, or the sections of a long page
/// apart by a figure gallery. That header is hundreds of code characters
/// and dozens of lines, so neither the gap nor [`GAP_CODE`] reaches the
/// next post, while a post is often longer than its header's markup;
/// furniture after an article is mostly short blocks (a phone number, a
/// sign-up line) or links.
const BLOCK_CODE: i64 = 2;

/// Two regions belong together when they are at most `gap` lines apart
/// (Algorithm 1), or when what separates them is little code: distance
/// measured in markup rather than in lines; or, for two long blocks of
/// plain text, little code beside their length (see [`BLOCK_CODE`]).
/// `seed` is the region growth starts from, whose share of links the
/// blocks are weighed against.
fn joins_by_lines_or_code(
    lines: &[Line],
    t: &[(i64, i64)],
    gap: u32,
    seed: Region,
) -> impl Fn(&Region, &Region) -> bool {
    let mut prefix = Vec::with_capacity(t.len() + 1);
    prefix.push(0i64);
    for (t1, t2) in t {
        let last = prefix.last().copied().unwrap_or(0);
        prefix.push(last + (t2 - t1).max(0));
    }
    // Link text and text summed line by line: a region's share of links
    // in two lookups.
    let mut linked = Vec::with_capacity(lines.len() + 1);
    linked.push((0u64, 0u64));
    for l in lines {
        let (a, x) = linked.last().copied().unwrap_or((0, 0));
        linked.push((a + u64::from(l.anchor_text), x + u64::from(l.text)));
    }
    let links = move |r: &Region| {
        let (a0, x0) = linked[r.first as usize];
        let (a1, x1) = linked[r.last as usize + 1];
        (u128::from(a1 - a0), u128::from(x1 - x0))
    };
    let seed = links(&seed);
    let plain = move |r: &Region| !denser_in_links(links(r), seed);
    move |a: &Region, b: &Region| {
        let between = prefix[b.first as usize] - prefix[a.last as usize + 1];
        let least = a.content.min(b.content) as i64;
        regions::distance(a, b) <= gap
            || between <= GAP_CODE
            || (least >= BLOCK_MIN && between <= BLOCK_CODE * least && plain(a) && plain(b))
    }
}

/// The line span of the innermost container holding the whole seed region,
/// unless that is the page itself (body, html or nothing).
fn enclosing(
    lines: &[Line],
    elements: &[Element],
    all: &[Region],
    seed: Region,
) -> Option<((u32, u32), bool)> {
    let lca = seed_container(lines, elements, seed)?;
    // Prefer the outermost <main> or <article> around the seed: landing and
    // listing pages spread their content over many sibling blocks under it.
    // Or, when further out, the container of the blocks the seed's is one
    // of many alike (see `repeated_blocks`).
    let chain = ancestors(elements, lca);
    let named = chain
        .iter()
        .rposition(|&a| elements.get(a as usize).is_some_and(|e| e.landmark_main));
    let outer = named
        .max(repeated_blocks(lines, elements, all, &chain))
        .unwrap_or(0);
    let e = elements.get(*chain.get(outer).unwrap_or(&lca) as usize)?;
    if matches!(e.tag, Tag::Body | Tag::Html) {
        return None;
    }
    Some(((e.first_line, e.last_line), e.article))
}

/// How many blocks alike make a run of them (see [`repeated_blocks`]).
const REPEATS: usize = 4;

/// How many times longer or shorter in lines than the seed's block another
/// block may be and still be alike.
const ALIKE_SPAN: u32 = 3;

/// Content characters, in regions, a block needs to count among the
/// alike ones.
const ALIKE_TEXT: u64 = 50;

/// The first container up from the seed (an index into `chain`, the seed's
/// ancestors innermost first) whose children hold at least [`REPEATS`]
/// blocks alike, the seed's own included: blocks with regions of
/// [`ALIKE_TEXT`] content characters or more, not boilerplate, within
/// [`ALIKE_SPAN`] times the length in lines of the seed's. The posts of a
/// forum thread, each under its own header of avatar, name and buttons,
/// the answers of a Q&A page, the sections of a landing page: their
/// container is the content area, however far apart its blocks are by
/// markup. The body and the page itself are not. Blocks are told alike by
/// their length and their text only: the scanner keeps no class names.
fn repeated_blocks(
    lines: &[Line],
    elements: &[Element],
    all: &[Region],
    chain: &[u32],
) -> Option<usize> {
    // The chain's elements by id (ancestors come earlier in the page, so
    // the chain reversed is in id order), to find where a region's
    // ancestors meet it.
    let ids: Vec<u32> = chain.iter().rev().copied().collect();
    let level = |e: u32| ids.binary_search(&e).ok().map(|i| chain.len() - 1 - i);
    let parent = |e: u32| elements.get(e as usize).map_or(NO_ELEMENT, |x| x.parent);
    // Each region's block: the child, off the chain, of the chain element
    // it lies in; with the chain level and the region's content.
    let mut blocks: Vec<(u32, usize, u64)> = Vec::new();
    for r in all {
        let mut e = lines[r.first as usize].container;
        for _ in 0..elements.len() {
            if e == NO_ELEMENT || level(e).is_some() {
                break;
            }
            let p = parent(e);
            if let Some(k) = level(p) {
                blocks.push((e, k, r.content));
                break;
            }
            e = p;
        }
    }
    blocks.sort_unstable();
    let mut alike = vec![1usize; chain.len()];
    let lines_of = |e: &Element| e.last_line.saturating_sub(e.first_line) + 1;
    for run in blocks.chunk_by(|a, b| a.0 == b.0) {
        let (b, k, _) = run[0];
        let content: u64 = run.iter().map(|x| x.2).sum();
        let (Some(block), Some(own)) = (
            elements.get(b as usize),
            k.checked_sub(1)
                .and_then(|j| elements.get(chain[j] as usize)),
        ) else {
            continue;
        };
        let (n, m) = (lines_of(block), lines_of(own));
        if !block.boiler && content >= ALIKE_TEXT && n * ALIKE_SPAN >= m && n <= m * ALIKE_SPAN {
            alike[k] += 1;
        }
    }
    (1..chain.len())
        .take_while(|&k| {
            elements
                .get(chain[k] as usize)
                .is_some_and(|e| !matches!(e.tag, Tag::Body | Tag::Html))
        })
        .find(|&k| alike[k] >= REPEATS)
}

fn ancestors(elements: &[Element], mut e: u32) -> Vec<u32> {
    let mut chain = Vec::new();
    while e != NO_ELEMENT && chain.len() < 1024 {
        chain.push(e);
        e = elements.get(e as usize).map_or(NO_ELEMENT, |x| x.parent);
    }
    chain
}

/// The innermost element holding both `a` and `b` (each counts as holding
/// itself); `NO_ELEMENT` when there is none. Called for every line of the
/// seed region: it walks up the parent links without allocating, the
/// deeper element first until both are as deep, then both.
fn common_ancestor(elements: &[Element], mut a: u32, mut b: u32) -> u32 {
    let parent = |e: u32| elements.get(e as usize).map_or(NO_ELEMENT, |x| x.parent);
    let (mut da, mut db) = (depth(elements, a), depth(elements, b));
    while da > db {
        a = parent(a);
        da -= 1;
    }
    while db > da {
        b = parent(b);
        db -= 1;
    }
    // Both are `da` deep: at most that many steps up to `NO_ELEMENT`.
    for _ in 0..=da {
        if a == b {
            return a;
        }
        a = parent(a);
        b = parent(b);
    }
    NO_ELEMENT
}

/// How many elements from `e` up to the page's outermost, `e` included
/// (0 for `NO_ELEMENT`). The scanner links every element to an earlier
/// one; the walk stops after as many steps as there are elements anyway.
pub(super) fn depth(elements: &[Element], mut e: u32) -> usize {
    let mut depth = 0;
    while let Some(x) = elements.get(e as usize)
        && depth <= elements.len()
    {
        depth += 1;
        e = x.parent;
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn element(parent: u32) -> Element {
        Element {
            tag: Tag::Container,
            parent,
            first_line: 0,
            last_line: 0,
            text: 0,
            signal: crate::extract::signals::Signal::Neutral,
            boiler: false,
            landmark_main: false,
            article: false,
            dialog: false,
            kind: Kind::Other,
        }
    }

    /// The text outside dialogs, worked out in two passes, is what the
    /// definition says, element by element: its text less that of the
    /// outermost dialogs under it (none for an element in a dialog), on
    /// a tree with dialogs nested in dialogs, siblings and deep chains.
    #[test]
    fn text_outside_dialogs_follows_the_tree() {
        // 0 body > 1 footer > {2 dialog > 3 dialog (nested), 4 div > 5
        // dialog}, 6 nav > 7 div > 8 div > 9 dialog.
        let parents = [NO_ELEMENT, 0, 1, 2, 1, 4, 0, 6, 7, 8];
        let dialogs = [2, 3, 5, 9];
        let texts = [1000, 600, 200, 50, 150, 100, 300, 300, 300, 40];
        let elements: Vec<Element> = parents
            .iter()
            .zip(texts)
            .enumerate()
            .map(|(i, (&p, t))| Element {
                text: t,
                dialog: dialogs.contains(&i),
                ..element(p)
            })
            .collect();
        let found = Dialogs::of(&elements);
        assert_eq!(found.dialogs, [2, 5, 9], "outermost only");
        assert_eq!(found.text, 200 + 100 + 40);
        let outside: Vec<u64> = (0..elements.len()).map(|i| found.outside(i)).collect();
        assert_eq!(outside, [660, 300, 0, 0, 50, 0, 260, 260, 260, 0]);
        // No dialogs: every element's own text.
        let plain: Vec<Element> = elements
            .iter()
            .map(|e| Element {
                dialog: false,
                ..*e
            })
            .collect();
        let none = Dialogs::of(&plain);
        assert_eq!(none.outside(1), 600);
    }

    /// Each line with text of `html`: its source, and its text inside
    /// boilerplate before and after forgiveness (`None` after when
    /// nothing was forgiven).
    fn forgiven_boiler_text(html: &str) -> Vec<(&str, u32, Option<u32>)> {
        let scan = crate::extract::scan::Scanner::borrowed(Default::default(), html).finish();
        let after = forgive_dominant_boilerplate(&scan.lines, &scan.elements, true).forgiven;
        let source = |l: &Line| &html[l.start as usize..l.end as usize];
        scan.lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.text > 0)
            .map(|(i, l)| {
                (
                    source(l),
                    l.boiler_text,
                    after.as_ref().map(|a| a[i].boiler_text),
                )
            })
            .collect()
    }

    /// A page builder's page: the article sits in "widget" blocks, which
    /// hold most of the text, so their marks go; the nav, and a footer and
    /// a menu widget named as furniture, keep theirs (inside a layout
    /// block or not). With the article outside the widgets, a widget
    /// sidebar stays boilerplate.
    #[test]
    fn layout_marks_drop_only_where_they_hold_most_of_the_text() {
        let para = "Words of the article itself, long enough to matter. ".repeat(4);
        let furniture = concat!(
            "<nav><a href=/>Home</a> <a href=/a>About</a></nav>",
            "<div class=widget><footer>Footer words here</footer></div>",
            "<div class=\"widget widget_nav_menu\"><a href=/b>Links</a></div>",
        );
        // Some text outside every mark: a page all boilerplate has its
        // marks dropped whatever words made them.
        let intro = "<h1>An introduction that no block of the page marks at all</h1>";
        let builder = format!(
            "{furniture}{intro}<div class=elementor-widget-container><p>{para}</p></div>\
             <div class=elementor-widget-container><p>{para}</p></div>"
        );
        let lines = forgiven_boiler_text(&builder);
        assert_eq!(lines.len(), 6, "{lines:?}");
        for (source, before, after) in lines.into_iter().filter(|l| !l.0.contains("<h1>")) {
            assert!(before > 0, "{source}: marked at first");
            let article = source.contains("article itself");
            assert_eq!(after == Some(0), article, "{source}: {after:?}");
        }

        let sidebar = format!(
            "{furniture}{intro}<article><p>{para}</p><p>{para}</p></article>\
             <div class=widget><p>Tag cloud and archive links</p></div>"
        );
        let lines = forgiven_boiler_text(&sidebar);
        let last = lines.last().copied();
        assert!(
            matches!(last, Some((s, b, None)) if s.contains("Tag cloud") && b > 0),
            "{lines:?}"
        );
    }

    /// A page whose `<main>` sits in a wrapper that holds most of the text,
    /// marked by a layout word alone (a page builder's widget area) or by
    /// a furniture word (an ad takeover): the wrapper's mark is forgiven,
    /// but a newsletter box inside it, named as furniture, keeps its own.
    #[test]
    fn furniture_named_in_a_dominant_wrapper_keeps_its_mark() {
        let para = "Words of the article itself, long enough to matter. ".repeat(4);
        for wrapper in ["widget-area", "ads-takeover"] {
            let html = format!(
                "<nav><a href=/>Home</a> <a href=/a>About</a></nav>\n\
                 <div class={wrapper}><main><p>{para}</p>\n\
                 <div class=newsletter><p>Sign up for the weekly letter</p></div>\n\
                 <p>{para}</p></main></div>"
            );
            let lines = forgiven_boiler_text(&html);
            let letter = lines.iter().find(|l| l.0.contains("Sign up"));
            assert!(
                matches!(letter, Some(&(_, b, Some(a))) if b > 0 && a == b),
                "{wrapper}: {lines:?}"
            );
            let text = text_of(&html);
            assert!(text.contains("article itself"), "{wrapper}: {text}");
            assert!(!text.contains("Sign up"), "{wrapper}: {text}");
        }
    }

    /// A page wrapped in an element whose class names furniture
    /// (`above-footer`), holding the page's one `<h1>` and two thirds of
    /// its text: the wrapper's mark goes and the article is chosen, but
    /// not the ad's escaped markup in a `<noscript>` after it. With the
    /// `<h1>` outside the wrapper, or with a second `<h1>`, the wrapper
    /// keeps its mark.
    #[test]
    fn a_furniture_name_on_the_wrapper_of_the_pages_one_h1_is_forgiven() {
        let article = (1..=6).map(harbour_paragraph).collect::<String>();
        let ad = "<noscript>&lt;img src=&quot;https://ads.example.com/pixel?id=12345&quot; \
                  width=&quot;1&quot; height=&quot;1&quot; alt=&quot;&quot;&gt; \
                  &lt;a href=&quot;https://ads.example.com/click?id=12345&quot;&gt;\
                  &lt;img src=&quot;https://ads.example.com/banner.gif&quot;&gt;&lt;/a&gt;\
                  </noscript>\n";
        // Text outside every mark, so that the page is not all furniture.
        let note = "<div class=reprints><p>Reprints need the written leave of the publisher; \
                    quotes up to three sentences with a link back are welcome, and so are \
                    corrections sent to the desk.</p></div>\n";
        let footer = "<footer><p>Our newsroom, the team behind it, its history and the ways \
                      to reach us, written long.</p>\n<p>More of the footer's own words about \
                      the publisher, its licences and its offices.</p></footer>";
        let page = |before: &str, inside: &str| {
            format!(
                "<html><body>\n{before}<div class=\"above-footer\">\n{inside}{article}{ad}\
                 </div>\n{note}{footer}</body></html>"
            )
        };
        let h1 = "<h1>The river rose over the mill</h1>\n";
        let text = text_of(&page("", h1));
        for line in ["The river rose", "Paragraph 1 of", "Paragraph 5 of"] {
            assert!(text.contains(line), "{line}: {text}");
        }
        assert!(!text.contains("ads.example.com"), "{text}");
        assert!(!text.contains("newsroom"), "{text}");

        let second = "<h1>Elsewhere on the site</h1>\n";
        for html in [page(h1, ""), page(second, h1)] {
            let lines = forgiven_boiler_text(&html);
            let article = lines.iter().find(|l| l.0.contains("Paragraph 1"));
            assert!(matches!(article, Some(&(_, b, None)) if b > 0), "{lines:?}");
        }
    }

    /// A blog post and its comment thread, both inside a wrapper marked
    /// as a sidebar: the wrapper holds most of the page's text, so its
    /// mark is forgiven (with the whole page marked, by the share rule;
    /// with a note outside it, by the dominant element's), but the
    /// thread's marks stay and the long thread no longer outweighs the
    /// post.
    #[test]
    fn comments_keep_their_marks_when_a_dominant_wrapper_is_forgiven() {
        let article: String = (1..=4)
            .map(|i| {
                format!(
                    "<p>Paragraph {i} of the post tells how the river flooded the old mill \
                     and what the town did next.</p>\n"
                )
            })
            .collect();
        let thread: String = (1..=12)
            .map(|i| {
                format!(
                    "<li class=\"comment\" id=\"comment-{i}\"><div class=\"author\">Reader \
                     {i}</div>\n<p>I remember that flood well, my grandmother lived by the mill \
                     and told us about it for years, says reader {i}.</p></li>\n"
                )
            })
            .collect();
        let note = "<p>A note below the wrapper, which no class marks, long enough to keep \
                    the share of marked text under the page-wide threshold for sure, with \
                    some more words here.</p>";
        for outside in ["", note] {
            let html = format!(
                "<html><head><title>The flood</title></head><body>\
                 <div class=\"sidebar-wrap\">\n<h1>The flood</h1>\n{article}\
                 <div class=\"share\"><a href=\"/s\">Share</a></div>\n\
                 <ol class=\"commentlist\">\n{thread}</ol>\n</div>{outside}</body></html>"
            );
            let lines = forgiven_boiler_text(&html);
            let kept = |needle: &str| {
                lines
                    .iter()
                    .filter(|l| l.0.contains(needle))
                    .all(|l| l.1 > 0 && l.2.is_some_and(|b| b > 0))
            };
            assert!(kept("says reader") && kept("Reader 3"), "{lines:?}");
            assert!(
                lines
                    .iter()
                    .filter(|l| l.0.contains("Paragraph"))
                    .all(|l| l.1 > 0 && l.2 == Some(0)),
                "{lines:?}"
            );
            let text = text_of(&html);
            assert!(text.contains("Paragraph 4 of the post"), "{text}");
            assert!(!text.contains("says reader"), "{text}");
        }
    }

    /// A forum thread whose posts are all marked as comments: with their
    /// marks kept, little of the page is left to seed on (the thread's
    /// title), or only a notice far above the posts, which no comment
    /// follows: the comments were the content and lose their marks as the
    /// rest does.
    #[test]
    fn a_page_of_comments_alone_is_still_extracted() {
        let posts: String = (1..=10)
            .map(|i| {
                format!(
                    "<div class=\"comment\"><div class=\"author\">User {i}</div>\n<p>My tap \
                     still leaks after a new washer, so I tried the other valve too, post \
                     number {i}.</p></div>\n"
                )
            })
            .collect();
        let notice = format!(
            "<div class=\"cookie-notice\"><p>{}</p></div>\n{}",
            "We use cookies to run this forum and to count our visitors. ".repeat(6),
            "<div class=\"x\"><img src=\"a.png\"></div>\n".repeat(60)
        );
        for above in ["", &notice] {
            let html = format!(
                "<html><head><title>Leaking tap</title></head><body>{above}\
                 <h1>Fixing a leaking tap</h1>\n<div id=\"comments\">\n{posts}</div>\
                 </body></html>"
            );
            let text = text_of(&html);
            for i in 1..=10 {
                assert!(
                    text.contains(&format!("post number {i}.")),
                    "post {i}: {text}"
                );
            }
            assert!(!text.contains("We use cookies"), "{text}");
        }
    }

    /// A forum thread whose posts are marked as comments but hold too
    /// little of the page for any forgiveness (a long directory below
    /// them, unmarked): the seed is a newsletter notice at the page's
    /// end, which no comment follows, so the posts lose their marks. The
    /// same posts right below a short post of their own, the seed then,
    /// stay comments.
    #[test]
    fn a_thread_beside_a_long_directory_is_still_extracted() {
        let posts: String = (1..=8)
            .map(|i| {
                format!(
                    "<article class=\"ipsComment\"><div class=\"author\">User {i}</div>\n<p>The \
                     agent found us a cabin upgrade and watched the fare drop, post number \
                     {i}.</p></article>\n"
                )
            })
            .collect();
        let directory: String = (1..=60)
            .map(|i| {
                format!(
                    "<div class=\"item item--plain\"><a class=\"item__link\" \
                     href=\"/destinations/region/number-{i}\">Place {i}</a></div>\n"
                )
            })
            .collect();
        let notice = "<div><p>Get special cruise deals, expert advice and insider tips from \
                      our team, delivered to your inbox every week.</p></div>\n";
        let story = "<p>A short post of our own about booking with an agent this year: she \
                     found the cabin, watched the fare and sorted the transfers, and we paid \
                     nothing more for it than booking ourselves.</p>\n";
        for (above, posts_kept) in [("", true), (story, false)] {
            let html = format!(
                "<html><head><title>Travel agents</title></head><body>\
                 <h1>Pros and cons of a travel agent</h1>\n{above}\
                 <div id=\"comments\">\n{posts}</div>\n{directory}{notice}</body></html>"
            );
            let text = text_of(&html);
            for i in 1..=8 {
                let post = format!("post number {i}.");
                assert_eq!(text.contains(&post), posts_kept, "post {i}: {text}");
            }
            assert!(!text.contains("Place 30"), "{text}");
            assert_eq!(text.contains("booking ourselves"), !posts_kept, "{text}");
        }
    }

    /// A shop page keeps its policies in modal dialogs inside the footer,
    /// far more text than the product's own. That text is no reason to
    /// think the page's marks mislead: without leaving it out, the footer
    /// (or the modal's own wrapper) held most of the text and was
    /// forgiven, and the policy won.
    #[test]
    fn policies_in_dialogs_do_not_make_the_footer_the_content() {
        let policy: String = (1..=40)
            .map(|i| {
                format!(
                    "<p>Clause {i}. Items bought in the holiday season may be returned until \
                     the middle of January when they are unworn, unwashed and in their box.</p>\n"
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>Wool Runner</title></head><body>\
             <nav><a href=\"/men\">Men</a> <a href=\"/women\">Women</a></nav>\n\
             <div class=\"product\"><h1>Wool Runner</h1>\n<p>A true original, our Wool \
             Runner combines soft merino wool with cloud-like comfort. The responsibly \
             sourced wool keeps the fit cozy and itch-free inside and durable outside, \
             and the sole is made of sugarcane.</p></div>\n\
             <footer><div>Copyright 2025 The Shop</div>\n\
             <a role=\"button\" aria-controls=\"modal-refund\">Refund policy</a>\n\
             <div id=\"modal-refund\" role=\"dialog\" aria-modal=\"true\">\n\
             <div class=\"popup-inner\"><h2>Refund policy</h2>\n{policy}</div></div>\n\
             </footer></body></html>"
        );
        let text = text_of(&html);
        assert!(text.contains("merino wool"), "{text}");
        assert!(!text.contains("Clause 20."), "{text}");
    }

    /// A page whose whole body sits in a wrapper its class calls a
    /// sidebar, so that the wrapper's mark is forgiven as misleading, and
    /// whose consent box (`role="alertdialog"`) has more prose than any
    /// story teaser: the box keeps its mark through the forgiveness and
    /// the teasers are the content.
    #[test]
    fn a_dialog_keeps_its_mark_where_the_page_marks_are_forgiven() {
        let teasers: String = (1..=6)
            .map(|i| {
                format!(
                    "<div class=\"card\"><h3>Story {i}</h3>\n<p>Story {i} tells of the \
                     harbour, the boats that came in late and the people who waited.</p></div>\n"
                )
            })
            .collect();
        let consent: String = (1..=12)
            .map(|i| {
                format!(
                    "<p>Purpose {i}. We and our partners store and access information on your \
                     device, such as cookies, to measure audiences and personalise ads.</p>\n"
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>Harbour news</title></head><body>\
             <div class=\"sidebar\">\n<h1>Harbour news</h1>\n{teasers}\
             <div role=\"alertdialog\" aria-modal=\"true\"><h2>Your privacy</h2>\n\
             {consent}</div>\n</div>\n\
             </body></html>"
        );
        let text = text_of(&html);
        assert!(text.contains("Story 4 tells"), "{text}");
        assert!(!text.contains("Purpose 6."), "{text}");
    }

    /// A story whose middle paragraphs a page builder wrapped one by one
    /// in widgets, between plain ones, with an author's dropdown among
    /// them: the widgets' marks go inside the article, so its middle
    /// comes back, and the dropdown's stay.
    #[test]
    fn inflow_layout_marks_inside_the_article_go() {
        let plain: String = (1..=4).map(harbour_paragraph).collect();
        let widgets: String = (5..=7)
            .map(|i| format!("<div class=\"widget\">{}</div>\n", harbour_paragraph(i)))
            .collect();
        let tail: String = (8..=11).map(harbour_paragraph).collect();
        let html = format!(
            "<html><body><nav><a href=\"/\">Home</a> <a href=\"/news\">News</a></nav>\n\
             <div class=\"page\"><div class=\"story\"><h1>The harbour</h1>\n{plain}\
             <div class=\"dropdown\"><p>The author writes about the sea, boats and harbours \
             for the paper, and lives by the coast with two dogs.</p></div>\n\
             {widgets}{tail}</div></div>\n\
             <footer>Copyright 2025 The Paper</footer></body></html>"
        );
        let text = text_of(&html);
        assert!(text.contains("Paragraph 1 "), "{text}");
        assert!(text.contains("Paragraph 6 "), "{text}");
        assert!(text.contains("Paragraph 11 "), "{text}");
        assert!(!text.contains("two dogs"), "{text}");
    }

    /// A page builder wraps every block in `class="widget"`, so nearly all
    /// the text is marked; the author box below the article is marked by
    /// name. The layout marks go, the author box keeps its mark.
    #[test]
    fn furniture_keeps_its_mark_where_layout_words_mark_the_page() {
        let paras: String = (1..=8)
            .map(|i| format!("<div class=\"widget\">{}</div>\n", harbour_paragraph(i)))
            .collect();
        let html = format!(
            "<html><body><div class=\"widget\"><h1>The harbour</h1></div>\n{paras}\
             <div class=\"author-box\"><p>Jane writes about boats, tides and the \
             towns along the coast, and lives by the sea with two dogs.</p></div>\n\
             </body></html>"
        );
        let text = text_of(&html);
        assert!(text.contains("Paragraph 1 "), "{text}");
        assert!(text.contains("Paragraph 8 "), "{text}");
        assert!(!text.contains("two dogs"), "{text}");
    }

    /// Panels of a tabbed feature page (`lm_navSource`: the panel a nav
    /// tab shows) and a feed in a block whose BEM modifier names ads
    /// (`container--section-more-ads`) hold the page's text: their
    /// furniture words are modifiers and mark nothing. The tabs
    /// themselves (`lm_navigation`) stay out.
    #[test]
    fn furniture_words_as_modifiers_keep_their_text() {
        let para = |i: u32| {
            format!(
                "<p>Section {i} tells how the tool files each contact, keeps the notes of \
                 every call, and reminds the team of the next step to take.</p>\n"
            )
        };
        let panels: String = (2..=4)
            .map(|i| format!("<div class=\"tab_panel lm_navSource\">{}</div>\n", para(i)))
            .collect();
        let feed: String = (6..=8)
            .map(|i| {
                format!(
                    "<div class=\"feed container--section-more-ads\">{}</div>\n",
                    para(i)
                )
            })
            .collect();
        let html = format!(
            "<html><body><nav><a href=\"/\">Home</a> <a href=\"/crm\">CRM</a></nav>\n\
             <main><h1>The free edition</h1>\n{}\
             <ul class=\"lm_navigation\"><li>Contacts</li><li>Deals</li><li>Mail</li></ul>\n\
             {panels}{}{feed}</main>\n\
             <footer>Copyright 2025 The Company</footer></body></html>",
            para(1),
            para(5),
        );
        let text = text_of(&html);
        assert!(text.contains("Section 1 "), "{text}");
        assert!(text.contains("Section 3 "), "{text}");
        assert!(text.contains("Section 7 "), "{text}");
        assert!(!text.contains("Deals"), "{text}");
    }

    /// A story in an `<article>` element ends where the element ends: an
    /// author box and a promotion just after it, within the gap, stay
    /// out; a thread of posts, each in its own `<article>`, still joins.
    #[test]
    fn growth_stays_inside_the_article() {
        let story: String = (1..=5).map(harbour_paragraph).collect();
        let share: String = (1..=5)
            .map(|i| {
                format!(
                    "<a href=\"/share?site={i}&amp;u=/news/harbour\" class=\"share-link\">\
                     <img src=\"/i/{i}.svg\" alt=\"\"></a>\n"
                )
            })
            .collect();
        let html = format!(
            "<html><body><nav><a href=\"/\">Home</a> <a href=\"/news\">News</a></nav>\n\
             <div class=\"page\"><article><h1>The harbour</h1>\n{story}</article>\n\
             <div class=\"share\">\n{share}</div>\n\
             <div><p>Jo writes about the sea and boats for us, and \
             lives by the coast with two dogs.</p></div>\n\
             <div><p>Sign up today and save twenty percent on your \
             first year of the paper.</p></div></div>\n\
             <footer>Copyright 2025 The Paper</footer></body></html>"
        );
        let text = text_of(&html);
        assert!(text.contains("Paragraph 1 "), "{text}");
        assert!(text.contains("Paragraph 5 "), "{text}");
        assert!(!text.contains("two dogs"), "{text}");
        assert!(!text.contains("twenty percent"), "{text}");
        let post = |i: u32| {
            format!(
                "<article><p>Post {i}: I bought the same card last year and it runs every \
                 game I play at high settings without getting loud.</p></article>\n\
                 <div class=\"sig\"><p>Posted by user {i}</p></div>\n"
            )
        };
        let posts: String = (1..=4).map(post).collect();
        let html = format!(
            "<html><body><div class=\"thread\">{posts}</div>\n\
             <footer>Copyright 2025 The Forum</footer></body></html>"
        );
        let text = text_of(&html);
        assert!(text.contains("Post 1:"), "{text}");
        assert!(text.contains("Post 4:"), "{text}");
    }

    /// What the tests below look at on `html` under the default options:
    /// the document's text; the seed Algorithm 1 finds on the linesift
    /// counts before any code is weighed lighter; and the seed lighter
    /// code finds when it may go anywhere on the page (no `gap`). Seeds as
    /// the source of their first and last line.
    struct Seeds {
        text: String,
        plain: Option<(String, String)>,
        anywhere: Option<(String, String)>,
    }

    fn seeds(html: &str) -> Seeds {
        use crate::extract::{Extractor, Hints};
        let options = Options::default();
        let doc = Extractor::new(options)
            .extract(html.as_bytes(), &Hints::default())
            .expect("extracts");
        let scan = crate::extract::scan::Scanner::borrowed(Default::default(), html).finish();
        let policy = policy(&options);
        let t = scan
            .lines
            .iter()
            .map(|l| regions::counts(l, &policy))
            .collect();
        let source = |r: Region| {
            let line = |i: u32| {
                let l = &scan.lines[i as usize];
                html[l.start as usize..l.end as usize].to_string()
            };
            (line(r.first), line(r.last))
        };
        let plain = Counted::new(t);
        let anywhere =
            lighter_code(&scan.lines, &scan.elements, &plain, u32::MAX).and_then(|c| c.seed());
        Seeds {
            text: doc.text,
            plain: plain.seed().map(source),
            anywhere: anywhere.map(source),
        }
    }

    /// A job board (Hacker News' "jobs" page, rebuilt by hand): every
    /// item's line carries more markup than text, so Algorithm 1 alone
    /// seeds on the one-line intro above the list, a sliver of the page's
    /// text. Weighed lighter, the code lets the list through, intro and
    /// all thirty items.
    #[test]
    fn a_listing_is_found_whole_where_only_its_intro_was() {
        let intro = "These are jobs at our startups. See more on the jobs page.";
        let items: String = (1..=30)
            .map(|i| {
                format!(
                    "<tr class=\"athing submission\" id=\"item{i}\"><td align=\"right\" \
                     valign=\"top\" class=\"rank\">{i}.</td><td><img src=\"s.gif\" \
                     height=\"1\" width=\"14\"></td><td class=\"title\"><a \
                     href=\"https://example.com/jobs/{i}\" rel=\"nofollow\">Startup number \
                     {i} is hiring engineers</a> <span class=\"sitebit\">(example.com)</span>\
                     </td></tr>\n<tr><td colspan=\"2\"></td><td class=\"subtext\"><span \
                     class=\"age\" title=\"2026-03-07\">{i} hours ago</span></td></tr>\n"
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>Jobs</title></head><body><table id=\"main\"><tr><td>\
             <div style=\"margin:6px\">{intro}</div><table>{items}</table></td></tr>\
             </table></body></html>"
        );
        let Seeds { text, plain, .. } = seeds(&html);
        let (first, last) = plain.expect("a seed");
        assert!(first.contains(intro) && first == last, "{first} .. {last}");
        assert!(text.starts_with(intro), "{text}");
        for i in 1..=30 {
            assert!(
                text.contains(&format!("Startup number {i} is hiring engineers")),
                "item {i}: {text}"
            );
        }
    }

    /// Code too heavy for any lighter weight to leave a seed: nothing is
    /// found, also with the widest gap a caller can ask for (the listing
    /// rule's reach, twice the gap, saturates rather than overflowing).
    #[test]
    fn lighter_code_finds_nothing_under_heavy_code_at_any_gap() {
        let page = Counted::new(vec![(10, 1000); 30]);
        for gap in [8, 40, u32::MAX] {
            assert!(lighter_code(&[], &[], &page, gap).is_none(), "gap {gap}");
        }
    }

    /// A shop's best-seller grid: an intro line, then items whose linked
    /// titles sit among many lines of markup, the longest title far down
    /// the list. Weighed lighter, the code seeds on that title, more than
    /// `gap` lines below the intro; the items between, each a link within
    /// the gap of the next, reach back to the intro, so the grid is the
    /// content and is found whole.
    #[test]
    fn a_grid_of_linked_items_reaching_the_intro_is_found() {
        let intro = "Our most popular products based on sales. Updated frequently.";
        let items: String = (1..=30)
            .map(|i| {
                let title = if i == 25 {
                    format!(
                        "Product {i} with a much longer name that tells what it is, what it \
                         does, and why it sells better than all the others on the list"
                    )
                } else {
                    format!("Product {i} with a name that tells what it is and what it does")
                };
                format!(
                    "<li class=\"grid-item\">\n<div class=\"badge\">\n<div class=\"tri\"></div>\n\
                     <div class=\"face\">\n<div class=\"img\"><img src=\"/p{i}.jpg\"></div>\n\
                     <div>\n<div><a class=\"link\" href=\"/products/item-{i}/ref=grid_{i}\">\n\
                     <div class=\"clamp\">{title}</div></a>\n<div class=\"row\">\n\
                     <div class=\"row\">\n<div class=\"wrap\">\n<div class=\"ph\"></div>\n\
                     </div></div></div></div></li>\n"
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>Best sellers</title></head><body><div id=\"main\">\
             <h1>Best sellers</h1>\n<p>{intro}</p>\n<ol class=\"grid\">{items}</ol></div>\
             </body></html>"
        );
        let Seeds { text, plain, .. } = seeds(&html);
        let (first, _) = plain.expect("a seed");
        assert!(
            first.contains("Best sellers") || first.contains(intro),
            "{first}"
        );
        for i in [1, 12, 25, 30] {
            assert!(
                text.contains(&format!("Product {i} with")),
                "item {i}: {text}"
            );
        }
    }

    /// A short article far above a long archive list: the article is a
    /// sliver of the page's text too, and lighter code would seed on the
    /// list. The list is more than `gap` lines away, so the article
    /// stays what it was.
    #[test]
    fn lighter_code_does_not_move_the_content_elsewhere() {
        let para =
            "The council voted on the new budget late last night after a long debate. ".repeat(2);
        let filler = "<div class=x><img src=a.png></div>\n".repeat(60);
        let links: String = (0..200)
            .map(|i| {
                format!(
                    "<li class=\"month\"><a href=\"/archive/{i}\" title=\"Archive page \
                     {i}\">Archive of the month {i}</a></li>\n"
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>Budget</title></head><body><h1>Budget passes</h1><p>{para}</p>\
             {filler}<ul class=\"archive-list\">{links}</ul></body></html>"
        );
        let Seeds {
            text,
            plain,
            anywhere,
        } = seeds(&html);
        let (first, last) = plain.expect("a seed");
        assert!(
            first.contains("<h1>") && last.contains("council"),
            "{first} .. {last}"
        );
        let (first, last) = anywhere.expect("lighter code seeds somewhere");
        assert!(
            first.contains("Archive") && last.contains("Archive"),
            "{first} .. {last}"
        );
        assert!(text.contains("council voted"), "{text}");
        assert!(!text.contains("Archive of the month"), "{text}");
    }

    /// Paragraph `i` of a story about a harbour: one plain line of prose.
    fn harbour_paragraph(i: u32) -> String {
        format!(
            "<p>Paragraph {i} of the story goes on about the harbour, the boats that \
             came in late, and the people who waited for them on the quay.</p>\n"
        )
    }

    /// A page's text under the default options.
    fn text_of(html: &str) -> String {
        use crate::extract::{Extractor, Hints};
        Extractor::new(Options::default())
            .extract(html.as_bytes(), &Hints::default())
            .expect("extracts")
            .text
    }

    /// A data table written a cell to a line, inside a story: its row
    /// tags' markup outweighs a short cell and breaks it into regions, and
    /// the cells between them come back.
    #[test]
    fn a_data_table_written_a_cell_to_a_line_is_kept_whole() {
        let row = |name: &str, a: &str, b: &str| {
            format!("<tr>\n<td>{name}</td>\n<td>{a} m³</td>\n<td>{b} m³</td>\n</tr>\n")
        };
        let rows: String = [
            ("North field", "12.4", "61.3"),
            ("Orchard", "3.1", "9.8"),
            ("Brook side", "6.7", "17.5"),
            ("Top terrace", "2.2", "8.6"),
        ]
        .iter()
        .map(|(n, a, b)| row(n, a, b))
        .collect();
        let page = format!(
            "<html><body><div>\n{}<table>\n{rows}</table>\n{}</div></body></html>",
            harbour_paragraph(1),
            harbour_paragraph(2)
        );
        let text = text_of(&page);
        for cell in [
            "North field",
            "61.3 m³",
            "Orchard",
            "9.8 m³",
            "Brook side",
            "17.5 m³",
        ] {
            assert!(text.contains(cell), "{cell} lost: {text}");
        }
    }

    /// A data table of a row to a line between two paragraphs: its tags
    /// outweigh its short cells, and only the last cell, on the line of
    /// the table's end, joined the paragraph after it. The whole table
    /// comes back; a table of headline links in the same place stays out.
    #[test]
    fn a_data_table_between_two_paragraphs_is_kept_whole() {
        let page = |rows: &str| {
            format!(
                "<html><body><article><h1>Harbour story</h1>\n{}<table>\n{rows}</table>\n{}\
                 </article></body></html>",
                harbour_paragraph(1),
                harbour_paragraph(2)
            )
        };
        let data: String = [("Quay", "1,204"), ("Dock", "862"), ("Pier", "431")]
            .iter()
            .map(|(name, boats)| format!("<tr><td>{name}</td><td>{boats}</td></tr>\n"))
            .collect();
        let text = text_of(&page(&data));
        for cell in ["Quay", "1,204", "Dock", "862", "Pier", "431", "Paragraph 2"] {
            assert!(text.contains(cell), "{cell} lost: {text}");
        }
        let links: String = (1..=15)
            .map(|i| {
                format!("<tr><td><a href=\"/news/{i}\">Storm closes quay {i}</a></td><td>Today</td></tr>\n")
            })
            .collect();
        let text = text_of(&page(&links));
        assert!(text.contains("Paragraph 2"), "{text}");
        assert!(!text.contains("Storm closes quay"), "{text}");
    }

    /// A story in an element that names it as the body, then an author's
    /// note and a line of tags in the same article: growth joins them by
    /// the gap, and the body's end leaves them out. Where the body holds
    /// less than half the chosen text (a guide's intro before its
    /// sections), it bounds nothing.
    #[test]
    fn the_element_naming_the_body_ends_the_article() {
        let story = (1..=6).map(harbour_paragraph).collect::<String>();
        let text = text_of(&format!(
            "<html><body><div class=\"page\"><article><h1>Harbour story</h1>\
             <div class=\"entry-content\">{story}</div><div class=\"writer\"><p>Ann \
             Example has written about harbours and boats for this paper since 2010.</p>\
             </div><p>Filed under harbour, boats and the quay</p></article></div></body></html>"
        ));
        assert!(text.contains("Paragraph 6 of the story"), "{text}");
        assert!(!text.contains("Ann Example"), "{text}");
        assert!(!text.contains("Filed under"), "{text}");

        let intro = (1..=2).map(harbour_paragraph).collect::<String>();
        let sections = (3..=7).map(harbour_paragraph).collect::<String>();
        let text = text_of(&format!(
            "<html><body><div class=\"page\"><h1>Harbour guide</h1>\
             <div class=\"intro-text\">{intro}</div><img src=\"quay.jpg\" alt=\"\">\
             <div class=\"details\">{sections}</div></div></body></html>"
        ));
        assert!(text.contains("Paragraph 1 of the story"), "{text}");
        assert!(text.contains("Paragraph 7 of the story"), "{text}");
    }

    /// The innermost element around the seed that holds nine tenths of
    /// the chosen text ends the article, whether or not it names the
    /// content: a grid's main column, with a short card in the column
    /// beside it, alone or in a wrapper whose class names the content. A
    /// column holding less (a story whose last part sits beside it)
    /// bounds nothing.
    #[test]
    fn an_element_holding_nearly_all_the_text_ends_the_article() {
        let page = |wrapper: &str, side: &str| {
            format!(
                "<html><body>\n<div class=\"{wrapper}\">\n<div class=\"row\">\n\
                 <div class=\"col-md-8\">\n{}</div>\n<div class=\"col-md-4\">\n{side}</div>\n\
                 </div>\n</div>\n</body></html>",
                (1..=6).map(harbour_paragraph).collect::<String>()
            )
        };
        let card = "<div class=\"card\"><h4>Boat trips</h4><p>Saturdays at ten from \
                    the quay steps, weather permitting.</p></div>\n";
        for wrapper in ["container", "entry-content"] {
            let text = text_of(&page(wrapper, card));
            assert!(
                text.contains("Paragraph 6 of the story"),
                "{wrapper}: {text}"
            );
            assert!(!text.contains("Saturdays at ten"), "{wrapper}: {text}");

            let text = text_of(&page(wrapper, &harbour_paragraph(7)));
            assert!(
                text.contains("Paragraph 7 of the story"),
                "{wrapper}: {text}"
            );
        }
    }

    /// The body's element may open below the headline the seed starts
    /// with. It still ends the article when what follows it is a tail
    /// (a line of tags), and not when it is the article's second part
    /// (the text after a "read more" jump, in an element of its own).
    #[test]
    fn a_body_element_below_the_headline_ends_the_article_before_its_tail_only() {
        let page = |body: &str, after: &str| {
            format!(
                "<html><body>\n<div class=\"page\">\n<article>\n<h1>The harbour waits up for \
                 the late boats on a stormy night</h1>\n\
                 <div class=\"post-body\">\n{body}</div>\n{after}</article>\n</div>\n</body></html>"
            )
        };
        let story = (1..=4).map(harbour_paragraph).collect::<String>();
        let tags = "<div class=\"tags\">Filed under these tags: <a href=\"/t/harbour\">harbour</a>, \
                    <a href=\"/t/boats\">boats</a>, <a href=\"/t/quay\">quay</a></div>\n";
        let text = text_of(&page(&story, tags));
        assert!(text.starts_with("The harbour waits up"), "{text}");
        assert!(text.contains("Paragraph 4 of the story"), "{text}");
        assert!(!text.contains("Filed under"), "{text}");

        let more = format!(
            "<div class=\"post-more\">\n{}</div>\n",
            (5..=7).map(harbour_paragraph).collect::<String>()
        );
        let text = text_of(&page(&story, &more));
        assert!(text.contains("Paragraph 7 of the story"), "{text}");
    }

    /// A page builder's article in blocks named alike, split by a
    /// gallery: the article goes on in the second block, which holds two
    /// paragraphs, and ends before the third, a box of one paragraph about
    /// the writer.
    #[test]
    fn an_article_goes_on_in_a_block_named_like_its_own() {
        let paragraph = |i: u32| {
            format!(
                "<p>Part {i} of the walk: the path leaves the harbour by the old rope works, \
                 climbs through the gorse to the lookout where the coastguard kept watch, and \
                 follows the cliff edge for two miles past the lighthouse and the seal caves, \
                 with the whole bay below and, on a clear day, the islands beyond it, before it \
                 drops to the beach at the far end.</p>\n"
            )
        };
        let block = |body: String| {
            format!("<div class=\"block\"><div class=\"text-content\">\n{body}</div></div>\n")
        };
        let gallery = format!("<div class=\"block\">\n{}</div>\n", pictures().repeat(3));
        let writer = "<p>Ann Lee has walked every path on the coast and writes about them for \
                      the paper each week; her first book, on the harbour towns of the north, \
                      came out last spring, and her second, on the lighthouses and the families \
                      who kept them, is due out in the autumn with pictures by her brother, a \
                      photographer who lives in the lighthouse keeper's old cottage.</p>\n";
        let text = text_of(&format!(
            "<html><head><title>The cliff walk</title></head><body><div class=\"page\"><article>\n<h1>The cliff walk</h1>\n\
             <div class=\"blocks\">\n{}{gallery}{}{}</div>\n</article></div></body></html>",
            block((1..=4).map(paragraph).collect()),
            block((5..=6).map(paragraph).collect()),
            block(writer.to_string()),
        ));
        assert!(text.contains("Part 1 of the walk"), "{text}");
        assert!(text.contains("Part 6 of the walk"), "{text}");
        assert!(!text.contains("Ann Lee"), "{text}");
    }

    /// Lines chosen before the page's `<h1>` headline (a ticker of other
    /// stories) go while they are a small part of the text; where they
    /// are most of it (a page whose `<h1>` heads only its last part), they
    /// stay.
    #[test]
    fn the_article_starts_at_its_headline() {
        let ticker = "<div class=\"ticker\"><p>09:12 The ring road stays closed until \
                      Friday</p><p>08:40 Bus fares go up in the spring</p></div>";
        let story = (1..=6).map(harbour_paragraph).collect::<String>();
        let page = |before: &str, after: &str| {
            format!(
                "<html><head><title>Harbour story</title></head><body><div class=\"page\">\
                 {before}<h1>Harbour story</h1>{after}</div></body></html>"
            )
        };
        let text = text_of(&page(ticker, &story));
        assert!(text.starts_with("Harbour story"), "{text}");
        assert!(!text.contains("ring road"), "{text}");

        let text = text_of(&page(&story, &harbour_paragraph(7)));
        assert!(text.contains("Paragraph 1 of the story"), "{text}");
        assert!(text.contains("Paragraph 7 of the story"), "{text}");
    }

    /// A ticker of three other stories, a line each.
    fn ticker() -> String {
        (1..=3)
            .map(|i| {
                format!(
                    "<p>0{i}:15 Another story of the day, told in one long line above the \
                     headline, with a link to read it all. <a href=\"/s/{i}\">Full story</a></p>\n"
                )
            })
            .collect()
    }

    /// Where the headline is the page's one `<h1>`, the lines before it
    /// go while they hold half the chosen text or less: here a ticker of
    /// three stories, a third of it. The site's name in an `<h1>` of its
    /// header is no other heading. Where other `<h1>`s head the page's
    /// sections, a quarter is the most that goes, and the same ticker
    /// stays.
    #[test]
    fn up_to_half_the_text_before_the_pages_one_h1_goes() {
        let ticker = ticker();
        let story = (1..=4).map(harbour_paragraph).collect::<String>();
        let page = |before: &str, after: &str| {
            format!(
                "<html><head><title>Harbour story</title></head><body>{before}\
                 <div class=\"page\"><div class=\"strip\">{ticker}</div>\
                 <h1>Harbour story</h1>{story}{after}</div></body></html>"
            )
        };
        let site = "<header><h1 class=\"site-title\"><a href=\"/\">The Harbour Daily News</a></h1>\
                    </header>\n";
        for before in ["", site] {
            let text = text_of(&page(before, ""));
            assert!(text.starts_with("Harbour story"), "{text}");
            assert!(!text.contains("Another story"), "{text}");
        }

        let sections = "<h1>The tides</h1><p>High water is at nine in the morning and \
                        again at half past nine in the evening, all week.</p>";
        let text = text_of(&page("", sections));
        assert!(text.contains("Another story"), "{text}");
        assert!(text.contains("Paragraph 4 of the story"), "{text}");
    }

    /// Three linked pictures in boxes of their own: markup without text.
    fn pictures() -> String {
        (1..=3)
            .map(|i| {
                format!(
                    "<div class=\"pic\"><a href=\"/p/{i}\"><img src=\"/p/{i}.jpg\" \
                     width=\"300\" height=\"200\" alt=\"\"></a></div>\n"
                )
            })
            .collect()
    }

    /// A headline between two chosen regions (pictures around it, too
    /// much markup for a region of its own) still starts the article: the
    /// ticker chosen above it goes.
    #[test]
    fn a_headline_between_chosen_regions_starts_the_article() {
        let ticker = ticker();
        let pictures = pictures();
        let story = (1..=6).map(harbour_paragraph).collect::<String>();
        let text = text_of(&format!(
            "<html><head><title>Harbour story</title></head><body><div class=\"page\">\n\
             <div class=\"strip\">\n{ticker}</div>\n{pictures}<h1>Harbour story</h1>\n\
             {pictures}{story}</div></body></html>"
        ));
        assert!(text.contains("Paragraph 1 of the story"), "{text}");
        assert!(!text.contains("Another story"), "{text}");
    }

    /// A headline of any level that opens the article's element (the
    /// innermost around the seed holding nearly all the chosen text)
    /// starts the article: the ticker line chosen above that element goes.
    /// Where the element holds text before the headline (an introduction
    /// above the story's own heading), that text stays.
    #[test]
    fn a_headline_opening_the_articles_element_starts_the_article() {
        let ticker = "<div class=\"strip\"><p>09:15 Another story of the day, told in one long \
                      line above the headline. <a href=\"/s/1\">Full story</a></p></div>\n";
        let pictures = pictures();
        let story = (1..=8).map(harbour_paragraph).collect::<String>();
        let text = text_of(&format!(
            "<html><head><title>Harbour story</title></head><body><div class=\"page\">\n\
             {ticker}{pictures}<article>\n<h2>Harbour story</h2>\n{story}</article>\n\
             </div></body></html>"
        ));
        assert!(text.starts_with("Harbour story"), "{text}");
        assert!(!text.contains("Another story"), "{text}");

        let intro = "<p>An introduction to the harbour and its boats, the first lines of \
                     the page, above the story's own heading.</p>\n";
        let text = text_of(&format!(
            "<html><head><title>Harbour story</title></head><body><div class=\"page\">\n\
             <article>\n{intro}{pictures}<h2>Harbour story</h2>\n{story}</article>\n\
             </div></body></html>"
        ));
        assert!(text.starts_with("An introduction to the harbour"), "{text}");
        assert!(text.contains("Paragraph 8 of the story"), "{text}");
    }

    /// The element a headline opens ends the article when at most one
    /// paragraph is chosen after it: a box about the writer after the
    /// story goes, while an essay going on in paragraphs past a picture
    /// stays.
    #[test]
    fn the_element_a_headline_opens_ends_the_article_before_a_box() {
        let story = (1..=8).map(harbour_paragraph).collect::<String>();
        let pictures = pictures();
        let page = |after: &str| {
            text_of(&format!(
                "<html><head><title>Harbour story</title></head><body><div class=\"page\">\n\
                 <div class=\"c1\">\n<h2>Harbour story</h2>\n{story}</div>\n{pictures}\
                 <div class=\"c2\">\n{after}</div>\n</div></body></html>"
            ))
        };
        let about = "<p>The writer has lived in the harbour town for twenty years and writes \
                     about its boats.</p>\n<p>Her book on the quays came out last spring from \
                     a small press in the town.</p>\n";
        let text = page(about);
        assert!(text.contains("Paragraph 8 of the story"), "{text}");
        assert!(!text.contains("The writer has lived"), "{text}");
        assert!(!text.contains("Her book on the quays"), "{text}");

        let essay = (1..=3)
            .map(|i| {
                format!(
                    "<p>Part {i} of the essay goes on past the picture: the harbour in winter, \
                     when the boats stay in and the quay is empty, the nets hang drying in the \
                     sheds along the water, and the people of the town walk out to the end of \
                     the pier to look at the grey sea and talk about the season that is coming \
                     and the one that has gone.</p>\n"
                )
            })
            .collect::<String>();
        let text = page(&essay);
        assert!(text.contains("Paragraph 1 of the story"), "{text}");
        let parts: Vec<&str> = text.lines().filter(|l| l.starts_with("Part ")).collect();
        assert_eq!(parts.len(), 3, "{text}");
        assert!(
            parts.iter().all(|p| p.len() >= PARAGRAPH_TEXT as usize),
            "{text}"
        );
    }

    /// A headline whose line reads as the headline itself, opening an
    /// element with half the chosen text, starts the article where at most
    /// one paragraph stands before it: a blog's blurb about itself above
    /// the post goes. It stays under a reply's "Re: Harbour story" (a
    /// forum's later post, not the article's title) and above two
    /// paragraphs (a landing page's introduction).
    #[test]
    fn the_element_a_titled_headline_opens_starts_the_article() {
        let story = (1..=8).map(harbour_paragraph).collect::<String>();
        let pictures = pictures();
        let page = |before: &str, title: &str| {
            text_of(&format!(
                "<html><head><title>Harbour story</title></head><body><div class=\"page\">\n\
                 <div class=\"intro\">\n{before}</div>\n{pictures}\
                 <div class=\"c1\">\n<h2>{title}</h2>\n{story}</div>\n</div></body></html>"
            ))
        };
        let blurb = "<p>Welcome to the harbour log, where we write about boats every week.</p>\n\
                     <p>Did you know? Our book about the quays came out last spring.</p>\n";
        let text = page(blurb, "Harbour story");
        assert!(text.starts_with("Harbour story"), "{text}");
        assert!(!text.contains("Welcome to the harbour log"), "{text}");
        assert!(text.contains("Paragraph 8 of the story"), "{text}");

        let text = page(blurb, "Re: Harbour story");
        assert!(text.contains("Welcome to the harbour log"), "{text}");

        let intro = (1..=2)
            .map(|i| {
                format!(
                    "<p>Part {i} of the introduction to the harbour: the town that grew up \
                     around it, the fleet that still sails from it every morning before dawn, \
                     the market on the quay where the catch is sold, and the families who \
                     have worked the boats and the nets for as long as anyone in the town can \
                     remember, from the old harbour master to the children who fish from the \
                     pier on summer evenings.</p>\n"
                )
            })
            .collect::<String>();
        let text = page(&intro, "Harbour story");
        assert!(text.starts_with("Part 1 of the introduction"), "{text}");
        assert!(text.contains("Paragraph 8 of the story"), "{text}");
    }

    /// A scrap of text that ends the chosen lines far after the story, in
    /// the story's container (a like button's label under a row of empty
    /// share blocks), goes; the same scrap close to the story stays, and
    /// so does a sentence as far away.
    #[test]
    fn a_scrap_far_after_the_story_goes() {
        let story = (1..=6).map(harbour_paragraph).collect::<String>();
        let page = |blocks: usize, tail: &str| {
            let blocks = "<div class=\"sd-block\"></div>\n".repeat(blocks);
            text_of(&format!(
                "<html><body><div class=\"post\"><h1>Harbour story</h1>\n{story}{blocks}\
                 <p>{tail}</p>\n</div></body></html>"
            ))
        };
        let like = "Like this: be the first to like this post.";
        let text = page(SCRAP_DISTANCE as usize + 5, like);
        assert!(text.contains("Paragraph 6 of the story"), "{text}");
        assert!(!text.contains("Like this"), "{text}");

        let text = page(SCRAP_DISTANCE as usize / 2, like);
        assert!(text.contains("Like this"), "{text}");
        let sentence = "The harbour master will speak at the town hall on Friday at seven.";
        let text = page(SCRAP_DISTANCE as usize + 5, sentence);
        assert!(text.contains("harbour master"), "{text}");
    }

    /// A section heading set between two embeds (a picture's markup, an
    /// ad slot) has more code than text around it and falls out of every
    /// region, while growth joins the paragraphs on both sides: it heads
    /// the text after it, so it is kept. Not a noise heading ("Related
    /// stories"), and not before the last chosen paragraph: there headings
    /// label a box after the article as often.
    #[test]
    fn a_heading_between_two_chosen_paragraphs_is_kept() {
        let figure = "<figure><picture><source type=\"image/webp\" srcset=\"/img/quay-320.webp 320w, \
                      /img/quay-640.webp 640w, /img/quay-1280.webp 1280w\" sizes=\"(max-width: 640px) \
                      100vw, 640px\"><img src=\"/img/quay-640.jpg\" alt=\"\" class=\"lazy wide\" \
                      width=\"640\" height=\"360\" loading=\"lazy\"></picture></figure>\n";
        let ad = "<div id=\"ad-slot-2\" class=\"ad-unit in-article\" data-slot=\"mid\" \
                  data-sizes=\"300x250,336x280\"><script src=\"/ads/slot.js\" async></script></div>\n";
        let page = |heading: &str, more: &str| {
            let before = (1..=3).map(harbour_paragraph).collect::<String>();
            let after = (4..=5).map(harbour_paragraph).collect::<String>();
            text_of(&format!(
                "<html><body><div class=\"story\"><h1>Harbour story</h1>\n{before}{figure}{figure}\
                 <h2>{heading}</h2>\n{ad}{ad}{after}{more}</div></body></html>"
            ))
        };
        let more = format!(
            "{figure}{figure}{ad}{ad}{}",
            (6..=7).map(harbour_paragraph).collect::<String>()
        );
        let text = page("The ferries", &more);
        assert!(text.contains("Paragraph 7 of the story"), "{text}");
        assert!(text.contains("\nThe ferries\nParagraph 4"), "{text}");
        let text = page("Related stories", &more);
        assert!(text.contains("Paragraph 7 of the story"), "{text}");
        assert!(!text.contains("Related stories"), "{text}");
        let text = page("The ferries", "");
        assert!(text.contains("Paragraph 5 of the story"), "{text}");
        assert!(!text.contains("The ferries"), "{text}");
    }

    /// A heading left last in the chosen text heads nothing chosen (here
    /// the newsletter box it labels is furniture), so it goes; a page whose
    /// chosen text is headings alone keeps them.
    #[test]
    fn a_heading_that_ends_the_text_goes() {
        let story = (1..=6).map(harbour_paragraph).collect::<String>();
        let text = text_of(&format!(
            "<html><body><div class=\"page\"><h1>Harbour story</h1>{story}\
             <h2>Get the harbour news</h2><div class=\"newsletter\"><p>Every morning in \
             your inbox, with the tides and the ferry times.</p></div></div></body></html>"
        ));
        assert!(text.contains("Paragraph 6 of the story"), "{text}");
        assert!(!text.contains("Get the harbour news"), "{text}");

        let text = text_of(
            "<html><body><div class=\"page\"><h1>Harbour story</h1><h2>The boats</h2>\
             </div></body></html>",
        );
        assert!(text.contains("The boats"), "{text}");
    }

    /// An article, then (below the label "Also in the news", no heading)
    /// a listing of other stories: each a linked title over an excerpt
    /// and a date, or over an excerpt cut short. The excerpts and dates
    /// are plain text, so the trim of trailing links keeps them; the
    /// listing's teasers end the article (`cut_trailing_teasers`). The
    /// same listing with neither dates nor cut excerpts (a list of
    /// resources, each described), or with dates but no title links (a
    /// thread's short replies), stays.
    #[test]
    fn a_trailing_listing_of_teasers_ends_the_article() {
        let article: String = (1..=6).map(harbour_paragraph).collect();
        let item = |i: u32, title: bool, date: &str, end: &str| {
            let head = if title {
                format!(
                    "<h3><a href=\"/story-{i}\">Another story from the coast, part {i}</a></h3>"
                )
            } else {
                format!("<div><a href=\"/user-{i}\">ann{i}</a></div>")
            };
            format!(
                "<div class=\"card\">\n{head}\n<div class=\"date\">{date}</div>\n\
                 <div class=\"body\">The fishermen of the northern villages met again on \
                 the quay, for the {i}th time, to talk about the season, the weather, the price of fuel, the \
                 new rules for the nets and the boats that will not sail this winter; \
                 the harbour master listened, wrote it all down in his book and \
                 promised an answer before the first storms of the year came in from \
                 the sea, as they do every year at about the same time{end}</div>\n</div>\n"
            )
        };
        let page = |items: &str| {
            format!(
                "<html><head><title>Harbour story</title></head><body>\
                 <div class=\"story\"><h1>Harbour story</h1>\n{article}</div>\n\
                 <div class=\"cards\"><div>Also in the news</div>\n\
                 <div class=\"grid\">\n{items}</div></div></body></html>"
            )
        };
        let dated: String = (1..=5)
            .map(|i| item(i, true, "December 19, 2025", "."))
            .collect();
        let cut: String = (1..=5)
            .map(|i| item(i, true, "Front page", " and the..."))
            .collect();
        let described: String = (1..=5).map(|i| item(i, true, "Resource", ".")).collect();
        let replies: String = (1..=5)
            .map(|i| item(i, false, "Mar 3, 2026", "."))
            .collect();
        for (items, dropped) in [
            (dated, true),
            (cut, true),
            (described, false),
            (replies, false),
        ] {
            let text = text_of(&page(&items));
            assert!(text.contains("Paragraph 6 of the story"), "{text}");
            assert_eq!(
                !text.contains("northern villages"),
                dropped,
                "{items}\n{text}"
            );
        }
    }

    /// A short post, then a thread many times its length whose only
    /// marks are Movable Type's one-word names (`commentform` around it,
    /// `commentbody` on each comment): the thread is reader comments, not
    /// the post's text, and goes.
    #[test]
    fn a_thread_marked_by_joined_comment_words_goes() {
        let post: String = (1..=3).map(harbour_paragraph).collect();
        let comment = |i: u32| {
            format!(
                "<div class=\"commentbody by-reader-{i}\">\n<p>Reader {i} thinks the \
                 harbour master should have listened sooner, since the boats were late \
                 every winter and the quay was never lit after dark.</p>\n\
                 <p>Posted by reader {i} at November 8, 2012 7:12 AM</p>\n</div>\n\
                 <hr class=\"comment-separator\">\n"
            )
        };
        let thread: String = (1..=12).map(comment).collect();
        let html = format!(
            "<html><head><title>Harbour</title></head><body>\
             <div class=\"entry\"><h1>Harbour</h1>\n{post}</div>\n\
             <div class=\"commentform\">\n<h2>Comments</h2>\n{thread}</div>\n\
             </body></html>"
        );
        let text = text_of(&html);
        assert!(text.contains("Paragraph 3 of the story"), "{text}");
        assert!(!text.contains("should have listened sooner"), "{text}");
    }

    /// A short post, then its thread under a count of comments, both
    /// inside the element marked as the thread (`<div id="comments">`),
    /// the thread many times the post's length: the marks are forgiven as
    /// the page's content (see [`comments_were_the_content`]) but the
    /// heading, marked as part of the thread, still ends the article,
    /// however long the thread.
    #[test]
    fn a_comments_heading_marked_as_such_ends_the_article() {
        let post: String = (1..=2).map(harbour_paragraph).collect();
        let reply = |i: u32| {
            format!(
                "<li id=\"comment-{i}\">\n<p>Reader {i} thinks the harbour master should have \
                 listened sooner, since the boats were late every winter and the quay \
                 was never lit after dark.</p>\n\
                 <p>Posted by: reader {i} at November 8, 2012 7:12 AM</p>\n</li>\n"
            )
        };
        let thread: String = (1..=12).map(reply).collect();
        let html = format!(
            "<html><head><title>Harbour</title></head><body>\
             <div class=\"entry\"><h1>Harbour</h1>\n{post}</div>\n\
             <div id=\"comments\">\n<h3>12 Comments</h3>\n<ol>\n{thread}</ol>\n</div>\n\
             </body></html>"
        );
        let text = text_of(&html);
        assert!(text.contains("Paragraph 2 of the story"), "{text}");
        assert!(!text.contains("should have listened sooner"), "{text}");
    }

    /// A post, then its thread under a heading whose class or id names
    /// the comments (`<h3 class="comments-title">`, `<h2 id="comments">`),
    /// the thread unmarked and many times the post's length, the heading's
    /// text no noise phrase: the heading still ends the article. A class
    /// where `comment` is only part of a word (`commentary-title`) or no
    /// class at all ends nothing.
    #[test]
    fn a_heading_marked_as_the_comments_ends_the_article() {
        let post: String = (1..=3).map(harbour_paragraph).collect();
        let reply = |i: u32| {
            format!(
                "<div class=\"reply\">\n<h4>Reader {i}</h4>\n<p>Reader {i} thinks the harbour \
                 master should have listened sooner, since the boats were late every \
                 winter and the quay was never lit after dark.</p>\n\
                 <p>Posted by reader {i} at November 8, 2012 7:12 AM</p>\n</div>\n"
            )
        };
        let thread: String = (1..=12).map(reply).collect();
        for (heading, dropped) in [
            ("<h3 class=\"comments-title\">What readers said</h3>", true),
            ("<h2 id=\"comments\">What readers said</h2>", true),
            (
                "<h3 class=\"commentary-title\">What readers said</h3>",
                false,
            ),
            ("<h3>What readers said</h3>", false),
        ] {
            let html = format!(
                "<html><head><title>Harbour</title></head><body>\
                 <div class=\"entry\"><h1>Harbour</h1>\n{post}{heading}\n{thread}</div>\n\
                 </body></html>"
            );
            let text = text_of(&html);
            assert!(
                text.contains("Paragraph 3 of the story"),
                "{heading}: {text}"
            );
            assert_eq!(
                !text.contains("should have listened sooner"),
                dropped,
                "{heading}: {text}"
            );
        }
    }

    #[test]
    fn teaser_marks_are_told_by_the_lines_text() {
        let marks = |html: &str| {
            let line = Line {
                start: 0,
                end: html.len() as u32,
                ..Line::default()
            };
            let m = teaser_marks(html, &line);
            (m.dated, m.cut, m.more)
        };
        for (html, want) in [
            (
                "<div class=date>December 19, 2025</div>",
                (true, false, false),
            ),
            ("<span>Mar 3, 2026</span>", (true, false, false)),
            ("<time>5 hours ago</time>", (true, false, false)),
            ("<p>09/28/2025</p>", (true, false, false)),
            ("<p>2025-12-19</p>", (true, false, false)),
            ("<p>May you find it</p>", (false, false, false)),
            ("<p>Version 2.1</p>", (false, false, false)),
            (
                "<p>The season began on March 3, 2026, with a long parade through the old town, the market and down to the harbour.</p>",
                (false, false, false),
            ),
            (
                "<p>The fishermen met on the quay...</p>",
                (false, true, false),
            ),
            (
                "<p>The fishermen met on the quay &hellip;</p>",
                (false, true, false),
            ),
            (
                "<p>The fishermen met \u{2026} [\u{2026}]</p>",
                (false, true, false),
            ),
            (
                "<p>They met. <a href=/x>Read more &raquo;</a></p>",
                (false, false, true),
            ),
            ("<a href=/x>Continue reading →</a>", (false, false, true)),
            ("<p>They met. <a href=/x>more</a></p>", (false, false, true)),
            ("<a href=/x>Learn more</a>", (false, false, false)),
            ("<p>Nevermore</p>", (false, false, false)),
        ] {
            assert_eq!(marks(html), want, "{html}");
        }
    }

    /// A forum thread whose posts each sit under a header of avatar,
    /// name, rank, date and buttons (dozens of lines and hundreds of code
    /// characters, past both the gap and `GAP_CODE`): the posts join as
    /// long blocks of plain text with little code between beside their
    /// length (`BLOCK_CODE`). A teaser list under the same header, a
    /// third of its text in links, does not join (growth toward it from
    /// the first post stops there), nor does a short line.
    #[test]
    fn forum_posts_apart_by_their_headers_join() {
        let header = |i: usize| {
            format!(
                "<div class=\"message-user\"><img src=\"/avatar/{i}.png\">\n\
                 <h4 class=\"message-name\"><a href=\"/members/{i}\">User {i}</a></h4>\n{}\
                 <div class=\"message-date\">May {i}</div>\n</div>\n",
                "<div class=\"message-button\"><span class=\"icon\"></span></div>\n".repeat(45)
            )
        };
        let posts: String = (1..=5)
            .map(|i| {
                format!(
                    "<div class=\"message\">{}<div class=\"message-body\">{}Post number \
                     {i} ends here.</div>\n</div>\n",
                    header(i),
                    "The tank has been running for a month now and the ammonia reading is \
                     still not at zero, so I wonder whether the rock was cured well enough. "
                        .repeat(3)
                )
            })
            .collect();
        let links: String = (1..=5)
            .map(|i| {
                format!(
                    "<a href=\"/threads/{i}\">Another thread about reef tanks, number {i}</a> \
                     Lighting and flow for a first tank. "
                )
            })
            .collect();
        // The list of links before the thread: growth away from the seed's
        // end, where no trimming of trailing links follows.
        let html = format!(
            "<html><head><title>New tank</title></head><body>\
             <div class=\"message\">{}<div>{links}</div>\n</div>\n\
             <h1>New tank thoughts</h1>\n<div class=\"thread\">\n{posts}</div>\n{}\
             <p>Short note at the end.</p></body></html>",
            header(6),
            header(7)
        );
        let text = text_of(&html);
        for i in 1..=5 {
            assert!(
                text.contains(&format!("Post number {i} ends")),
                "post {i}: {text}"
            );
        }
        assert!(!text.contains("Another thread"), "{text}");
        assert!(!text.contains("Short note"), "{text}");
    }

    /// A forum thread of short posts, each under a header of avatar,
    /// name, date and buttons (dozens of lines and hundreds of code
    /// characters): too short for `BLOCK_CODE` and too far apart for the
    /// gap, the posts join as blocks alike in one container
    /// (`repeated_blocks`). A note after the thread, outside its
    /// container and past the gap, stays out.
    #[test]
    fn short_posts_alike_in_one_thread_join() {
        let posts: String = (1..=6)
            .map(|i| {
                format!(
                    "<div class=\"message\"><div class=\"message-user\"><img \
                     src=\"/avatar/{i}.png\">\n<h4 class=\"message-name\"><a \
                     href=\"/members/{i}\">User {i}</a></h4>\n{}<div \
                     class=\"message-date\">May {i}</div>\n</div>\n<div \
                     class=\"message-body\">{}Post number {i} ends here.</div>\n</div>\n",
                    "<div class=\"message-button\"><span class=\"icon\"></span></div>\n".repeat(45),
                    "The pump hums louder since the filter was changed, so I wonder \
                     what else to check. "
                        .repeat(if i == 3 { 3 } else { 1 })
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>Noisy pump</title></head><body>\
             <h1>Noisy pump</h1>\n<div class=\"thread\">\n{posts}</div>\n{}\
             <p>A note far below the thread, which is not part of it.</p></body></html>",
            "<div class=\"x\"><span class=\"icon\"></span></div>\n".repeat(60)
        );
        let text = text_of(&html);
        for i in 1..=6 {
            assert!(
                text.contains(&format!("Post number {i} ends")),
                "post {i}: {text}"
            );
        }
        assert!(!text.contains("A note far below"), "{text}");
    }

    /// Sections that noise headings open after the article ("Related
    /// articles", "3 Comments", "Share this article") are dropped while
    /// short beside it, or whatever their length when a quarter of their
    /// text is links; a long one of text stays (content under a label
    /// that looks like one), and so does one before the article's text.
    #[test]
    fn a_noise_heading_ends_the_article_when_little_follows() {
        let article = (1..=8)
            .map(|i| {
                format!("<p>Paragraph {i} of the story tells what happened at the harbour.</p>")
            })
            .collect::<String>();
        let items = |n: usize, what: &str| -> String {
            (1..=n)
                .map(|i| format!("<li>{what} number {i} has a title of some length</li>"))
                .collect()
        };
        let page = |section: &str| {
            format!(
                "<html><head><title>Harbour story</title></head><body><div class=\"story\">\
                 <h1>Harbour story</h1>{article}{section}</div></body></html>"
            )
        };
        for (section, dropped) in [
            (
                format!(
                    "<h2>Related articles</h2><ul>{}</ul>",
                    items(3, "Other story")
                ),
                true,
            ),
            (
                format!(
                    "<h2>Related articles</h2><ul>{}</ul>",
                    items(7, "Other story")
                ),
                false,
            ),
            (
                format!(
                    "<h2>Related articles</h2><ul>{}</ul>",
                    items(
                        7,
                        "<a href=\"/other\">Other story with a longer linked title</a>"
                    )
                ),
                true,
            ),
            (
                format!("<h3>3 Comments</h3><ul>{}</ul>", items(1, "Reader comment")),
                true,
            ),
            (
                format!("<h3>3 Comments</h3><ul>{}</ul>", items(3, "Reader comment")),
                false,
            ),
            (
                format!(
                    "<h4>Share this article</h4><ul>{}</ul>",
                    items(6, "Share button")
                ),
                true,
            ),
        ] {
            let text = text_of(&page(&section));
            assert!(text.contains("Paragraph 8 of the story"), "{text}");
            let heading = section.split(['<', '>']).nth(2).unwrap_or_default();
            assert_eq!(!text.contains(heading), dropped, "{section}: {text}");
            assert_eq!(!text.contains("number 1 has"), dropped, "{section}: {text}");
        }
        // The same heading above the article's text ends nothing.
        let html = format!(
            "<html><head><title>Harbour story</title></head><body><div class=\"story\">\
             <h1>Harbour story</h1><p>An opening line of the story.</p><h2>Related</h2>{article}\
             </div></body></html>"
        );
        assert!(text_of(&html).contains("Paragraph 8 of the story"));
    }

    /// What counts as a noise heading: whole words at the start, whole
    /// headings, counts of comments; tags and spacing do not matter.
    #[test]
    fn noise_headings_are_told_by_their_words() {
        for (source, noise) in [
            ("<h2>Related Articles</h2>", Some(Noise::Links)),
            (
                "<h2 class=\"x\"><span>You may  also\n like</span>&hellip;</h2>",
                Some(Noise::Links),
            ),
            (
                "<h3>More from <a href=/>the desk</a></h3>",
                Some(Noise::Links),
            ),
            ("<h3>Trending</h3>", Some(Noise::Links)),
            ("<h3>From other news sites</h3>", Some(Noise::Links)),
            ("<h3>Around the Web</h3>", Some(Noise::Links)),
            ("<h2>Latest news</h2>", Some(Noise::Links)),
            ("<h2>12 Comments</h2>", Some(Noise::Comments)),
            ("<h2>3 Responses to “A post”</h2>", Some(Noise::Comments)),
            ("<h2>Leave a Reply</h2>", Some(Noise::Comments)),
            ("<h2>Comments</h2>", Some(Noise::Comments)),
            ("<h4>Share this article</h4>", Some(Noise::Share)),
            // Markup skipped as the renderer skips it: a `>` inside a
            // quoted attribute, a comment.
            (
                "<h2 data-x=\"a > b\">Related <!-- x > y -->stories</h2>",
                Some(Noise::Links),
            ),
            // Character references read as the renderer decodes them.
            ("<h2>Related&nbsp;Articles</h2>", Some(Noise::Links)),
            ("<h3>Art&iacute;culos relacionados</h3>", Some(Noise::Links)),
            ("<h3>Weitere Beitr&#228;ge</h3>", Some(Noise::Links)),
            ("<h2>Relatedness of species</h2>", None),
            ("<h2>Latest news from the front line of the war</h2>", None),
            ("<h2>Comments on the draft law</h2>", None),
            ("<h2>12 commentators agree</h2>", None),
            ("<h2>Sharing economy</h2>", None),
            ("<h2>From other worlds</h2>", None),
            (&format!("<h2>Related {}</h2>", "word ".repeat(20)), None),
        ] {
            assert_eq!(noise_heading(source), noise, "{source}");
        }
    }

    /// A blog post followed, in the post's own container, by a list of
    /// related posts, each a linked title and a line of excerpt: growth
    /// joins the list to the post, but it is denser in links than the
    /// post and at the far end, so it stays out. A reading list in the
    /// middle of the post, with more of the post after it, stays in.
    #[test]
    fn growth_stops_before_a_trailing_list_of_links() {
        let para = |topic: &str| {
            format!(
                "<p>We spent the whole week on {topic} and learned more than we expected \
                 about the way small teams decide what to build next and why.</p>\n"
            )
        };
        // Markup without text (a figure, share buttons) between the parts,
        // so that each is a region of its own.
        let figure = "<div class=\"figure\"><a href=\"/img/1.png\"><img src=\"1.png\" \
                      alt=\"\"></a></div>\n"
            .repeat(3);
        let reading: String = (1..=4)
            .map(|i| {
                format!(
                    "<li><a href=\"/books/{i}\">A book about how small teams work, volume \
                     {i}</a>, read twice this spring</li>\n"
                )
            })
            .collect();
        let related: String = (1..=6)
            .map(|i| {
                format!(
                    "<li><a href=\"/posts/{i}\">Another post from this blog, number {i}</a> \
                     <span>A short excerpt of it.</span></li>\n"
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>A week of planning</title></head><body>\
             <div class=\"entry\">\n<h1>A week of planning</h1>\n{}{}{}{figure}<ul>\n{reading}\
             </ul>\n{figure}{}{figure}<h3>You may also like</h3>\n<ul>\n{related}</ul>\n\
             </div></body></html>",
            para("planning"),
            para("roadmaps"),
            para("estimates"),
            para("retrospectives"),
        );
        let Seeds { text, .. } = seeds(&html);
        assert!(text.contains("planning and learned"), "{text}");
        assert!(text.contains("retrospectives and learned"), "{text}");
        for i in 1..=4 {
            assert!(text.contains(&format!("volume {i}")), "book {i}: {text}");
        }
        for i in 1..=6 {
            assert!(
                !text.contains(&format!("this blog, number {i}")),
                "related post {i}: {text}"
            );
        }
    }

    /// An essay whose second part cites its sources inline, a link in
    /// every paragraph: an eighth of that part's text is links, against none
    /// in the first part, the seed. It is prose (800 plain characters and
    /// more), so the trim of trailing links keeps it.
    #[test]
    fn long_prose_with_some_links_is_no_trailing_list() {
        let para = |i: u32| {
            format!(
                "<p>Part one, paragraph {i}: the committee met again in the spring and \
                 went through every objection raised in the winter, one at a time, \
                 until nothing was left but the budget and the question of staff.</p>\n"
            )
        };
        let cited = |i: u32| {
            format!(
                "<p>Part two, paragraph {i}: the figures for that year were revised twice, \
                 as <a href=\"/sources/{i}\">the annual report of 1962</a> says, and the \
                 second revision is the one most later accounts of the affair rely on, in \
                 the end.</p>\n"
            )
        };
        let figure = "<div class=\"figure\"><a href=\"/img/1.png\"><img src=\"1.png\" \
                      alt=\"\"></a></div>\n"
            .repeat(3);
        let html = format!(
            "<html><head><title>The committee</title></head><body>\
             <div class=\"entry\">\n<h1>The committee</h1>\n{}{figure}{}</div></body></html>",
            (1..=9).map(para).collect::<String>(),
            (1..=6).map(cited).collect::<String>(),
        );
        let Seeds { text, plain, .. } = seeds(&html);
        let (first, _) = plain.expect("a seed");
        assert!(!first.contains("Part two"), "{first}");
        for i in 1..=6 {
            assert!(
                text.contains(&format!("Part two, paragraph {i}:")),
                "paragraph {i}: {text}"
            );
        }
    }

    /// A hub page whose seed is a list of titles, each a link with a line
    /// of plain text under it, half links; past a banner, more titles,
    /// four fifths links. They are the hub's items, not a trailing list.
    #[test]
    fn a_hub_of_links_keeps_its_items_after_the_seed() {
        let teaser = |i: u32| {
            format!(
                "<li><a href=\"/recipes/{i}\">Slow cooker dinner number {i} for the week</a>\
                 <p>Ready in forty minutes, serves four.</p></li>\n"
            )
        };
        let title = |i: u32| {
            format!(
                "<li><a href=\"/m{i}\">Casserole number {i} to make on a cold winter day</a> \
                 in one pan</li>\n"
            )
        };
        let banner = "<div class=\"banner\"><a href=\"/shop\"><img src=\"b.png\" \
                      alt=\"\"></a></div>\n"
            .repeat(4);
        let html = format!(
            "<html><head><title>Dinners</title></head><body><div class=\"hub\">\n\
             <h1>Dinners</h1>\n<ul>\n{}</ul>\n{banner}<ul>\n{}</ul>\n</div></body></html>",
            (1..=12).map(teaser).collect::<String>(),
            (1..=8).map(title).collect::<String>(),
        );
        let text = text_of(&html);
        // The first and last items fall to the smoothing at the list's edges.
        for i in 2..=6 {
            assert!(
                text.contains(&format!("Casserole number {i} to")),
                "item {i}: {text}"
            );
        }
    }

    /// The article's last paragraph, parted from the tags and feed links
    /// under it by nothing but line breaks, forms one region with them:
    /// that region is denser in links than the story and goes as a
    /// trailing list of links, but its paragraph stays.
    #[test]
    fn a_last_paragraph_run_into_the_tags_under_it_stays() {
        let html = "<html><head><title>Rain on the coast</title></head><body>\n\
            <div class=\"post\">\n<h1>Rain on the coast</h1>\n\
            <p>The first storm of the autumn reached the coast on Tuesday night, two days later than the forecasters had said. By morning the harbour road was under water from the fish market to the ferry ramp, and the council closed it to cars until the tide turned in the afternoon.</p>\n\
            <p>Shopkeepers along the front had sandbags ready this year. Most of them had learned from the floods three winters ago, when the water came through the doors of every shop between the lighthouse and the old customs house and stayed there for a week.</p>\n\
            <p>The ferry to the island ran on time all day. Its captain said the swell was high but steady, and that he had crossed in worse; the crossing took ten minutes longer than usual and a few passengers chose to wait for calmer water.</p>\n\
            <div class=\"figure\"><div class=\"frame\"><div class=\"inner\"><img src=\"harbour.jpg\"></div></div></div>\n\
            <div class=\"frame\"><div class=\"inner\"><div class=\"credit\"></div></div></div>\n\
            <p>The forecast for the weekend is drier. The council will reopen the harbour road on Friday once its engineers have checked the sea wall, and the market will move back to the quay on Saturday morning as it does every week.</p>\n\
            <p>Tags: <a href=\"/tag/rain\">rain</a>, <a href=\"/tag/harbour\">harbour</a>, <a href=\"/tag/ferry\">ferry</a>, <a href=\"/tag/council\">council</a>, <a href=\"/tag/weather\">weather</a>, <a href=\"/tag/autumn\">autumn</a></p>\n\
            <p><a href=\"/feed/rain\">Comments feed for this story</a> | <a href=\"/trackback/rain\">Trackback address</a></p>\n\
            </div>\n</body></html>";
        let text = text_of(html);
        assert!(text.contains("The ferry to the island"), "{text}");
        assert!(
            text.contains("The forecast for the weekend is drier."),
            "{text}"
        );
        assert!(!text.contains("Tags:"), "{text}");
        assert!(!text.contains("Comments feed"), "{text}");
    }

    /// The linked-section rule on its own, on counted lines (on a whole
    /// page, a section of links at the page's far end goes already in
    /// growth, `without_trailing_links`): a long section after "Related
    /// articles" goes when a quarter of its text is links, and stays just
    /// under that.
    #[test]
    fn a_long_section_of_links_after_a_noise_heading_goes() {
        let src = "<p>The story.</p><h2>Related articles</h2><ul><li>Items</li></ul>";
        let cut = |links: u32| {
            let line = |start, end, text, heading, anchor_text| Line {
                start,
                end,
                text,
                heading,
                anchor_text,
                ..Line::default()
            };
            let lines = [
                line(0, 17, 500, 0, 0),
                line(17, 42, 16, 2, 0),
                line(42, 65, 800, 0, links),
            ];
            let region = Region {
                first: 0,
                last: 2,
                content: 1316,
            };
            let mut sel = Selection {
                regions: vec![region],
                ..Selection::default()
            };
            cut_at_noise_heading(&mut sel, &lines, src);
            (sel.regions.last().map(|r| r.last), sel.lines, sel.ranges)
        };
        // From the heading on: 816 characters, so a quarter is 204.
        assert_eq!(cut(210), (Some(0), 1, vec![(0, 17)]));
        assert_eq!(cut(200).0, Some(2));
    }

    /// Section labels are read in the languages the corpora hold, and a
    /// heading that only begins with the same word is no label.
    #[test]
    fn noise_headings_are_told_in_several_languages() {
        let noise = |h: &str| noise_heading(h);
        assert_eq!(
            noise("<h3>Das könnte Sie auch interessieren</h3>"),
            Some(Noise::Links)
        );
        assert_eq!(noise("<h2>Lea también</h2>"), Some(Noise::Links));
        assert_eq!(noise("<h2>À lire aussi</h2>"), Some(Noise::Links));
        assert_eq!(noise("<h2>Leggi anche</h2>"), Some(Noise::Links));
        assert_eq!(noise("<h2>12 Kommentare</h2>"), Some(Noise::Comments));
        assert_eq!(noise("<h2>Kommentare</h2>"), Some(Noise::Comments));
        assert_eq!(noise("<h2>Diesen Artikel teilen</h2>"), Some(Noise::Share));
        assert_eq!(noise("<h2>Weitere Schritte der Regierung</h2>"), None);
        assert_eq!(noise("<h2>Lesen und Schreiben im Alter</h2>"), None);
        assert_eq!(
            noise("<h2>Kommentare der Leser zur Wahl sind kein Thema</h2>"),
            None
        );
    }

    /// A promotion set between a story's paragraphs, its label written
    /// with character references (`Lea m&aacute;s:&nbsp;`), is left out
    /// as the same label written plainly is.
    #[test]
    fn a_promotion_labelled_with_character_references_is_left_out() {
        let para = |i: u32| {
            format!(
                "<p>P&aacute;rrafo {i} de la noticia, con bastante texto para que cuente como \
                 prosa del cuerpo del art&iacute;culo y no como un enlace suelto.</p>\n"
            )
        };
        for label in ["Lea m&aacute;s:&nbsp;", "Lea más: "] {
            let html = format!(
                "<html><body><article>\n<h1>La noticia</h1>\n{}{}\
                 <p><strong>{label}<a href=\"/otra\">Otra noticia sobre el mismo asunto de \
                 hoy</a></strong></p>\n{}{}</article></body></html>",
                para(1),
                para(2),
                para(3),
                para(4)
            );
            let text = text_of(&html);
            assert!(text.contains("Párrafo 4"), "{label}: {text}");
            assert!(!text.contains("Otra noticia"), "{label}: {text}");
        }
    }

    /// The first of `b`'s ancestors (itself included) that is one of
    /// `a`'s: the rule spelled out with lists.
    fn by_lists(elements: &[Element], a: u32, b: u32) -> u32 {
        let chain = ancestors(elements, a);
        ancestors(elements, b)
            .into_iter()
            .find(|e| chain.contains(e))
            .unwrap_or(NO_ELEMENT)
    }

    proptest! {
        /// On random forests (each element's parent an earlier one or
        /// none), the walk finds what the lists find.
        #[test]
        fn common_ancestor_is_the_first_shared_ancestor(
            parents in proptest::collection::vec(0u32..1000, 1..40),
            a in 0u32..45,
            b in 0u32..45,
        ) {
            let elements: Vec<Element> = parents
                .iter()
                .enumerate()
                .map(|(i, &p)| element(if p as usize % (i + 1) == i { NO_ELEMENT } else { p % (i as u32 + 1) }))
                .collect();
            // Indices past the end stand for untracked elements.
            let a = if a as usize >= elements.len() { NO_ELEMENT } else { a };
            prop_assert_eq!(common_ancestor(&elements, a, b), by_lists(&elements, a, b));
        }
    }
}
