//! The seed variants on small hand-written pages, with every number worked
//! out by hand in the comments: T1/T2 per logical line, the smoothed diff
//! diff_i = Σ_{j=i-1..i+1}(T1_j − T2_j) (out-of-range lines 0), the regions
//! of positive diff (trimmed to lines with T1 > 0), the seed (most content)
//! and growth while d(r_i, r_j) = x_j − y_i + 1 ≤ gap.
//!
//! Counting rules (src/extract/scan/): a new logical line starts before
//! every opening block-level tag (`<body>`, `<p>`, `<div>`, `<h1>`, ...),
//! end tags never break a line; text characters count once each, and a
//! whitespace run counts one character only between two non-space
//! characters of the same text run (so the space in `See <a>` or between
//! `</a> <a>` counts nothing, and the newline between lines counts nothing);
//! markup counts one character per character of the tag (`<p>` = 3,
//! `</p>` = 4, `<a href="/r">` = 13). R2L/DANA count bytes instead: T1 =
//! bytes ≥ 128, T2 = bytes < 128 (a collapsed space is one byte < 128).

use linesift::extract::explain::explain;
use linesift::extract::regions::{self, Policy, Region};
use linesift::extract::scan::{Line, ScanLimits, Scanner};
use linesift::extract::select::select;
use linesift::extract::{Algorithm, HeadlineMethod, LinkFilter};
use linesift::{Extractor, Hints, Options};

fn scan_lines(page: &str) -> Vec<Line> {
    let mut s = Scanner::new(ScanLimits::default());
    s.push(page);
    s.finish().lines
}

fn region(first: u32, last: u32, content: u64) -> Region {
    Region {
        first,
        last,
        content,
    }
}

fn policy(o: &Options) -> Policy {
    Policy {
        algorithm: o.algorithm,
        filter: o.filter,
        gap: o.gap,
        boilerplate: false,
        bare_tags: false,
    }
}

/// Checks one variant on one page against the hand-computed numbers, through
/// the low-level functions, `select`, `explain` and `extract`.
fn check(
    page: &str,
    options: Options,
    t: &[(i64, i64)],
    diff: &[i64],
    all: &[Region],
    chosen: &[Region],
    text: &str,
) {
    let name = format!("{} / {}", options.algorithm, options.filter);
    let lines = scan_lines(page);
    let p = policy(&options);
    let counted: Vec<(i64, i64)> = lines.iter().map(|l| regions::counts(l, &p)).collect();
    assert_eq!(counted, t, "{name}: T1/T2 per line");
    let smoothed = regions::smooth(&counted);
    assert_eq!(smoothed, diff, "{name}: smoothed diff");
    let found = regions::regions(&counted, &smoothed);
    assert_eq!(found, all, "{name}: regions");
    let m = regions::seed(&found).expect("a seed region");
    let (lo, hi) = regions::grow(&found, m, options.gap);
    assert_eq!(&found[lo..=hi], chosen, "{name}: grown regions");

    let sel = select(&lines, &[], &options);
    assert_eq!(sel.counts, t, "{name}: select counts");
    assert_eq!(sel.diff, diff, "{name}: select diff");
    assert_eq!(sel.regions, chosen, "{name}: select regions");

    let ex = Extractor::new(options);
    let e = explain(&ex, page.as_bytes(), &Hints::default()).unwrap();
    let et: Vec<(i64, i64)> = e.lines.iter().map(|l| (l.t1, l.t2)).collect();
    assert_eq!(et, t, "{name}: explain counts");
    assert_eq!(e.diff, diff, "{name}: explain diff");
    assert_eq!(e.regions, all, "{name}: explain regions");
    assert_eq!(e.chosen, chosen, "{name}: explain chosen");

    let doc = ex.extract(page.as_bytes(), &Hints::default()).unwrap();
    assert_eq!(doc.regions, chosen, "{name}: document regions");
    assert_eq!(doc.lines_total as usize, t.len(), "{name}: lines");
    let selected: u32 = chosen.iter().map(|r| r.last - r.first + 1).sum();
    assert_eq!(doc.lines_selected, selected, "{name}: lines selected");
    assert_eq!(doc.text, text, "{name}: text");
}

fn opts(algorithm: Algorithm) -> Options {
    Options {
        headline: HeadlineMethod::Off,
        ..Options::for_algorithm(algorithm)
    }
}

// ---------------------------------------------------------------------------
// R2L (gap 8) and DANA (gap 20): a Persian page.
//
// سلام and کتاب are four Arabic-script letters each, two UTF-8 bytes per
// letter: 8 bytes ≥ 128 per word. Filler lines `<p>x</p>` are 8 bytes < 128.
//
// line  source                                   T1 (≥128)  T2 (<128)        d
//  0    <body>                                        0      6               -6
//  1    <p>سلام×4</p>                         4·8=32     3+3 sp+4=10     22
//  2    <p>کتاب×5 2024</p>                    5·8=40     3+4 sp+1 sp+4+4=16  24
//  3-6  <p>x</p> (4 lines)                          0      8               -8
//  7    <p>سلام×4</p>                             32     10              22
//  8-16 <p>x</p> (9 lines)                          0      8               -8
// 17    <p>سلام×6</p>                         6·8=48     3+5 sp+4=12     36
// 18    <p>x</p></body>                             0      8+7=15         -15
//
// smoothed: 0: 0-6+22=16   1: -6+22+24=40   2: 22+24-8=38   3: 24-8-8=8
//           4,5: -24       6: -8-8+22=6     7: -8+22-8=6    8: 22-8-8=6
//           9..15: -24     16: -8-8+36=20   17: -8+36-15=13 18: 36-15+0=21
// runs of diff > 0: [0,3] → trimmed to lines with T1 > 0 → [1,2], content 72;
//                   [6,8] → [7,7], content 32;  [16,18] → [17,17], content 48.
// seed: [1,2] (72). d([1,2],[7,7]) = 7-2+1 = 6; d([7,7],[17,17]) = 17-7+1 = 11.
// R2L, gap 8: 6 ≤ 8 joins, 11 > 8 stops → [1,2], [7,7].
// DANA, gap 20: both join → [1,2], [7,7], [17,17].
// ---------------------------------------------------------------------------

fn persian_page() -> String {
    let salam4 = ["سلام"; 4].join(" ");
    let salam6 = ["سلام"; 6].join(" ");
    let ketab5 = ["کتاب"; 5].join(" ");
    let mut p = String::from("<body>\n");
    p += &format!("<p>{salam4}</p>\n");
    p += &format!("<p>{ketab5} 2024</p>\n");
    p += &"<p>x</p>\n".repeat(4);
    p += &format!("<p>{salam4}</p>\n");
    p += &"<p>x</p>\n".repeat(9);
    p += &format!("<p>{salam6}</p>\n");
    p += "<p>x</p></body>\n";
    p
}

fn persian_counts() -> Vec<(i64, i64)> {
    let mut t = vec![(0, 6), (32, 10), (40, 16)];
    t.extend([(0, 8); 4]);
    t.push((32, 10));
    t.extend([(0, 8); 9]);
    t.push((48, 12));
    t.push((0, 15));
    t
}

fn persian_diff() -> Vec<i64> {
    let mut d = vec![16, 40, 38, 8, -24, -24, 6, 6, 6];
    d.extend([-24; 7]);
    d.extend([20, 13, 21]);
    d
}

fn persian_regions() -> Vec<Region> {
    vec![region(1, 2, 72), region(7, 7, 32), region(17, 17, 48)]
}

#[test]
fn r2l_gap_8_outputs_only_non_ascii() {
    let o = opts(Algorithm::R2l);
    assert_eq!(o.gap, 8);
    let all = persian_regions();
    // The selected lines, non-ASCII characters only: "2024" is gone.
    let text = "سلام سلام سلام سلام\nکتاب کتاب کتاب کتاب کتاب\nسلام سلام سلام سلام";
    check(
        &persian_page(),
        o,
        &persian_counts(),
        &persian_diff(),
        &all,
        &all[..2],
        text,
    );
}

#[test]
fn dana_gap_20_parses_selected_lines() {
    let o = opts(Algorithm::Dana);
    assert_eq!(o.gap, 20);
    let all = persian_regions();
    // Same counts; gap 20 takes the third region, and the lines are parsed
    // to text, ASCII included.
    let text = "سلام سلام سلام سلام\nکتاب کتاب کتاب کتاب کتاب 2024\nسلام سلام سلام سلام\n\
                سلام سلام سلام سلام سلام سلام";
    check(
        &persian_page(),
        o,
        &persian_counts(),
        &persian_diff(),
        &all,
        &all,
        text,
    );
}

// ---------------------------------------------------------------------------
// DANAg, AdDANAg (Filter 3), Filter 2 and Filter 1 on one English page.
//
// line source
//  0   <body>
//  1   <div><a href="/home">Home</a> <a href="/world">World</a></div>
//  2   <h1>Rain</h1>
//  3   <p>The rain in Spain stays mainly in the plain.</p>
//  4   <p>Farmers in the south were glad of it.</p>
//  5   <p>See <a href="https://example.com/weather/spain">the weather report</a>
//         and <a href="https://example.com/maps">rain maps</a> today.</p>
//  6   <p><a href="/r">Spain expects more rain next week</a></p>
//  7   <div><a href="/about">About</a> <a href="/contact">Contact</a></div></body>
//
// Raw counts (text, code; anchors n, anchor text at, anchor markup am =
// opening tag + 4 for `</a>`, norm = Σ max(LT − 7, 0)):
//  0  text 0; code <body> 6
//  1  text Home 4 + World 5 = 9 (the space between the links is a run of
//     its own: 0); code <div> 5 + <a href="/home"> 2+1+4+1+7+1=16 + </a> 4
//     + <a href="/world"> 17 + </a> 4 + </div> 6 = 52;
//     n 2, at 9, am 20+21=41, norm 0+0=0
//  2  text 4; code 4+5 = 9
//  3  text 36 letters + 8 spaces = 44; code 3+4 = 7
//  4  text 30 letters + 7 spaces = 37; code 7
//  5  text See 3 + "the weather report" 18 + and 3 + "rain maps" 9 +
//     "today." 6 = 39 (spaces next to tags count nothing);
//     code <p> 3 + <a href="https://example.com/weather/spain"> (33-char
//     url) 2+1+4+1+35+1=44 + 4 + <a href="https://example.com/maps">
//     (24-char url) 35 + 4 + </p> 4 = 94; n 2, at 18+9=27, am 48+39=87,
//     norm (18−7)+(9−7) = 13
//  6  text 28 letters + 5 spaces = 33; code 3 + <a href="/r"> 13 + 4 + 4 = 24;
//     n 1, at 33, am 17, norm 33−7 = 26
//  7  text About 5 + Contact 7 = 12; code 5 + 17 + 4 + 19 + 4 + 6 + </body> 7
//     = 62; n 2, at 12, am 21+23=44, norm 0+0 = 0
// ---------------------------------------------------------------------------

const ENGLISH: &str = r#"<body>
<div><a href="/home">Home</a> <a href="/world">World</a></div>
<h1>Rain</h1>
<p>The rain in Spain stays mainly in the plain.</p>
<p>Farmers in the south were glad of it.</p>
<p>See <a href="https://example.com/weather/spain">the weather report</a> and <a href="https://example.com/maps">rain maps</a> today.</p>
<p><a href="/r">Spain expects more rain next week</a></p>
<div><a href="/about">About</a> <a href="/contact">Contact</a></div></body>
"#;

const P1: &str = "The rain in Spain stays mainly in the plain.";
const P2: &str = "Farmers in the south were glad of it.";

#[test]
fn danag_gap_20_loses_the_link_rich_paragraph() {
    // DANAg: T1 = text, T2 = code.
    //  d: 0-6=-6, 9-52=-43, 4-9=-5, 44-7=37, 37-7=30, 39-94=-55, 33-24=9, 12-62=-50
    //  smoothed: 0: 0-6-43=-49   1: -6-43-5=-54   2: -43-5+37=-11
    //            3: -5+37+30=62  4: 37+30-55=12   5: 30-55+9=-16
    //            6: -55+9-50=-96 7: 9-50+0=-41
    //  one run [3,4], content 44+37 = 81: seed, nothing to grow to.
    let o = opts(Algorithm::Danag);
    assert_eq!((o.gap, o.filter), (20, LinkFilter::None));
    let t = [
        (0, 6),
        (9, 52),
        (4, 9),
        (44, 7),
        (37, 7),
        (39, 94),
        (33, 24),
        (12, 62),
    ];
    let diff = [-49, -54, -11, 62, 12, -16, -96, -41];
    let all = [region(3, 4, 81)];
    check(ENGLISH, o, &t, &diff, &all, &all, &format!("{P1}\n{P2}"));
}

#[test]
fn addanag_filter_3_keeps_inline_links_and_drops_link_lines() {
    // Filter 3: T2 = code − anchor markup + 7 per anchor + Σ max(LT−7, 0).
    //  T2: 0: 6   1: 52-41+14+0=25   2: 9   3: 7   4: 7
    //      5: 94-87+14+13=34   6: 24-17+7+26=40   7: 62-44+14+0=32
    //  d: -6, 9-25=-16, -5, 37, 30, 39-34=5, 33-40=-7, 12-32=-20
    //  smoothed: 0: -22  1: -6-16-5=-27  2: -16-5+37=16  3: -5+37+30=62
    //            4: 37+30+5=72  5: 30+5-7=28  6: 5-7-20=-22  7: -7-20=-27
    //  one run [2,5], content 4+44+37+39 = 124.
    let o = opts(Algorithm::Addanag);
    assert_eq!((o.gap, o.filter), (20, LinkFilter::Normalize));
    let t = [
        (0, 6),
        (9, 25),
        (4, 9),
        (44, 7),
        (37, 7),
        (39, 34),
        (33, 40),
        (12, 32),
    ];
    let diff = [-22, -27, 16, 62, 72, 28, -22, -27];
    let all = [region(2, 5, 124)];
    let text = format!("Rain\n{P1}\n{P2}\nSee the weather report and rain maps today.");
    check(ENGLISH, o, &t, &diff, &all, &all, &text);
}

#[test]
fn filter_2_strips_attributes_and_keeps_the_related_link() {
    // Filter 2: T2 = code − anchor markup + 7 per anchor (`<a>` + `</a>`).
    //  T2: 0: 6  1: 11+14=25  2: 9  3: 7  4: 7  5: 7+14=21  6: 7+7=14  7: 18+14=32
    //  d: -6, -16, -5, 37, 30, 39-21=18, 33-14=19, -20
    //  smoothed: 0: -22  1: -27  2: 16  3: 62  4: 37+30+18=85
    //            5: 30+18+19=67  6: 18+19-20=17  7: 19-20=-1
    //  one run [2,6], content 124+33 = 157: the related link joins.
    let o = Options {
        filter: LinkFilter::Strip,
        ..opts(Algorithm::Addanag)
    };
    let t = [
        (0, 6),
        (9, 25),
        (4, 9),
        (44, 7),
        (37, 7),
        (39, 21),
        (33, 14),
        (12, 32),
    ];
    let diff = [-22, -27, 16, 62, 85, 67, 17, -1];
    let all = [region(2, 6, 157)];
    let text = format!(
        "Rain\n{P1}\n{P2}\nSee the weather report and rain maps today.\n\
         Spain expects more rain next week"
    );
    check(ENGLISH, o, &t, &diff, &all, &all, &text);
}

#[test]
fn filter_1_drops_anchors_with_their_text() {
    // Filter 1: T1 = text − anchor text, T2 = code − anchor markup.
    //  T1: 0, 9-9=0, 4, 44, 37, 39-27=12, 33-33=0, 12-12=0
    //  T2: 6, 52-41=11, 9, 7, 7, 94-87=7, 24-17=7, 62-44=18
    //  d: -6, -11, -5, 37, 30, 5, -7, -18
    //  smoothed: 0: -17  1: -22  2: 21  3: 62  4: 72  5: 28  6: -20  7: -25
    //  one run [2,5], content 4+44+37+12 = 97; the anchors' text is gone
    //  from the output too.
    let o = Options {
        filter: LinkFilter::Drop,
        ..opts(Algorithm::Addanag)
    };
    let t = [
        (0, 6),
        (0, 11),
        (4, 9),
        (44, 7),
        (37, 7),
        (12, 7),
        (0, 7),
        (0, 18),
    ];
    let diff = [-17, -22, 21, 62, 72, 28, -20, -25];
    let all = [region(2, 5, 97)];
    let text = format!("Rain\n{P1}\n{P2}\nSee and today.");
    check(ENGLISH, o, &t, &diff, &all, &all, &text);
}

// ---------------------------------------------------------------------------
// DANAg's gap of 20 at its edge.
//
// line   source                      T1   T2    d
//  0     <p>A×40</p>                 40    7   33
//  1..k-1 <hr> (k−1 lines)             0    4   -4
//  k     <p>B×20</p>                 20    7   13   (last line)
//
// smoothed: 0: 0+33-4 = 29   1: 33-4-4 = 25   2..k-2: -12
//           k-1: -4-4+13 = 5   k: -4+13+0 = 9
// regions: [0,1] → [0,0] (40); [k-1,k] → [k,k] (20). Seed [0,0];
// d = k − 0 + 1: k = 19 gives 20 ≤ 20 (joins), k = 20 gives 21 (does not).
// ---------------------------------------------------------------------------

fn gap_page(k: usize) -> String {
    format!(
        "<p>{}</p>\n{}<p>{}</p>",
        "A".repeat(40),
        "<hr>\n".repeat(k - 1),
        "B".repeat(20)
    )
}

fn gap_numbers(k: usize) -> (Vec<(i64, i64)>, Vec<i64>) {
    let mut t = vec![(40, 7)];
    t.extend(std::iter::repeat_n((0, 4), k - 1));
    t.push((20, 7));
    let mut d = vec![29, 25];
    d.extend(std::iter::repeat_n(-12, k - 3));
    d.extend([5, 9]);
    (t, d)
}

#[test]
fn danag_gap_20_is_inclusive() {
    for (k, joins) in [(19usize, true), (20, false)] {
        let (t, diff) = gap_numbers(k);
        let all = [region(0, 0, 40), region(k as u32, k as u32, 20)];
        let (chosen, text) = if joins {
            (&all[..], format!("{}\n{}", "A".repeat(40), "B".repeat(20)))
        } else {
            (&all[..1], "A".repeat(40))
        };
        check(
            &gap_page(k),
            opts(Algorithm::Danag),
            &t,
            &diff,
            &all,
            chosen,
            &text,
        );
    }
}
