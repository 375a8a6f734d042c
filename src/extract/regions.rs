//! Choosing the main-content lines from the per-line counts (thesis 000
//! §4.3, Algorithm 1).
//!
//! 1. Per line, content (T1) and code (T2) characters according to the
//!    variant (R2L/DANA: bytes ≥ 128 vs < 128; DANAg: text vs markup;
//!    AdDANAg: with the hyperlink filter applied).
//! 2. Smoothing: diff_i = Σ_{j=i-1..i+1} (T1_j − T2_j), out-of-range lines 0.
//! 3. Regions: maximal runs of lines with diff > 0, trimmed so that they
//!    start and end on a line with content (a line without text never forms
//!    a region on its own).
//! 4. Seed: the region with the most content; growth to the left and right
//!    while the distance d(r_i, r_j) = x_j − y_i + 1 to the next region is
//!    at most `gap`.
//!
//! This module is the mechanism; which counts and which seed are used is
//! decided by the caller's [`Policy`].

use super::options::{Algorithm, LinkFilter};
use super::scan::Line;
use serde::{Deserialize, Serialize};

/// A run of lines `[first, last]` (inclusive) with positive smoothed diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Region {
    pub first: u32,
    pub last: u32,
    /// Σ T1 over the region's lines.
    pub content: u64,
}

/// How lines are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    pub algorithm: Algorithm,
    pub filter: LinkFilter,
    pub gap: u32,
    /// Count text inside boilerplate elements as code.
    pub boilerplate: bool,
    /// Count tags without their attributes (modern markup carries long
    /// class lists that would drown every line's text).
    pub bare_tags: bool,
}

/// T1 and T2 of one line under the policy.
pub fn counts(line: &Line, p: &Policy) -> (i64, i64) {
    let l = line;
    match p.algorithm {
        Algorithm::R2l | Algorithm::Dana => (i64::from(l.high), i64::from(l.low)),
        _ => {
            let mut t1 = i64::from(l.text);
            let mut t2 = i64::from(l.code);
            let plain = i64::from(l.code) - i64::from(l.anchor_markup);
            if p.bare_tags {
                let norm = if p.filter == LinkFilter::Normalize {
                    l.anchor_norm
                } else {
                    0
                };
                t2 = i64::from(l.bare - l.inline_bare) + i64::from(norm);
            }
            match p.filter {
                _ if p.bare_tags => {}
                LinkFilter::None => {}
                LinkFilter::Drop => {
                    t1 -= i64::from(l.anchor_text);
                    t2 = plain;
                }
                LinkFilter::Strip => t2 = plain + 7 * i64::from(l.anchors),
                LinkFilter::Normalize => {
                    t2 = plain + 7 * i64::from(l.anchors) + i64::from(l.anchor_norm)
                }
            }
            if p.boilerplate {
                let b = i64::from(l.boiler_text).min(t1.max(0));
                t1 -= b;
                t2 += b;
            }
            (t1.max(0), t2.max(0))
        }
    }
}

/// The smoothed diff of every line.
pub fn smooth(t: &[(i64, i64)]) -> Vec<i64> {
    let d = |i: usize| t.get(i).map_or(0, |(a, b)| a - b);
    (0..t.len())
        .map(|i| d(i.wrapping_sub(1)) + d(i) + d(i + 1))
        .collect()
}

/// All regions of positive smoothed diff.
pub fn regions(t: &[(i64, i64)], diff: &[i64]) -> Vec<Region> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < diff.len() {
        if diff[i] <= 0 {
            i += 1;
            continue;
        }
        let start = i;
        while i < diff.len() && diff[i] > 0 {
            i += 1;
        }
        if let Some(r) = trimmed(t, start, i - 1) {
            out.push(r);
        }
    }
    out
}

/// Shrinks `[first, last]` to its lines with content; `None` if it has none.
pub(crate) fn trimmed(t: &[(i64, i64)], first: usize, last: usize) -> Option<Region> {
    let has = |i: &usize| t[*i].0 > 0;
    let first = (first..=last).find(has)?;
    let last = (first..=last).rev().find(has)?;
    let content = t[first..=last].iter().map(|(a, _)| *a as u64).sum();
    Some(Region {
        first: first as u32,
        last: last as u32,
        content,
    })
}

/// d(r_i, r_j) for r_i before r_j.
pub fn distance(a: &Region, b: &Region) -> u32 {
    (b.first - a.last) + 1
}

/// The region with the most content (the first of equals).
pub fn seed(regions: &[Region]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, r) in regions.iter().enumerate() {
        if best.is_none_or(|b| r.content > regions[b].content) {
            best = Some(i);
        }
    }
    best
}

/// Algorithm 1: grows from the seed `m` while neighbours are within `gap`.
/// Returns the range of chosen region indices `[lo, hi]`.
pub fn grow(regions: &[Region], m: usize, gap: u32) -> (usize, usize) {
    grow_by(regions, m, |a, b| distance(a, b) <= gap)
}

/// Algorithm 1 with any rule for whether two neighbouring regions belong
/// together (`joins(earlier, later)`).
pub fn grow_by(
    regions: &[Region],
    m: usize,
    joins: impl Fn(&Region, &Region) -> bool,
) -> (usize, usize) {
    let mut lo = m;
    while lo > 0 && joins(&regions[lo - 1], &regions[lo]) {
        lo -= 1;
    }
    let mut hi = m;
    while hi + 1 < regions.len() && joins(&regions[hi], &regions[hi + 1]) {
        hi += 1;
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(v: &[(i64, i64)]) -> Vec<(i64, i64)> {
        v.to_vec()
    }

    #[test]
    fn smoothing_uses_both_neighbours() {
        // diff per line: 10, -5, 3  → smoothed: 5, 8, -2
        let v = t(&[(10, 0), (0, 5), (3, 0)]);
        assert_eq!(smooth(&v), vec![5, 8, -2]);
    }

    #[test]
    fn regions_are_trimmed_to_content() {
        let v = t(&[(0, 0), (0, 1), (20, 2), (0, 1), (0, 40), (9, 0)]);
        let d = smooth(&v);
        // d = [-1, 17, 16, -23, -32, -31] → one region, lines 1..2,
        // trimmed to line 2 (line 1 has no text).
        assert_eq!(d, vec![-1, 17, 16, -23, -32, -31]);
        let r = regions(&v, &d);
        assert_eq!(
            r,
            vec![Region {
                first: 2,
                last: 2,
                content: 20
            }]
        );
    }

    #[test]
    fn growth_stops_at_the_gap() {
        let r = [
            Region {
                first: 0,
                last: 1,
                content: 5,
            },
            Region {
                first: 30,
                last: 35,
                content: 50,
            },
            Region {
                first: 40,
                last: 41,
                content: 5,
            },
            Region {
                first: 70,
                last: 70,
                content: 5,
            },
        ];
        assert_eq!(seed(&r), Some(1));
        // d(r1, r2) = 40 − 35 + 1 = 6; d(r0, r1) = 30; d(r2, r3) = 30.
        assert_eq!(grow(&r, 1, 20), (1, 2));
        assert_eq!(grow(&r, 1, 30), (0, 3));
    }
}
