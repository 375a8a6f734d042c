//! Small inline-SVG building blocks and the eval report's two charts (grouped
//! bars per dataset, histogram of per-page F1). Strings in, strings out: no
//! files, no external assets, no scripts.

use super::eval::{PageResult, Summary};
use std::fmt::Write as _;

/// Colours shared by the charts, the HTML pages and the screenshot tests.
pub mod colour {
    pub const PRECISION: &str = "#4e79a7";
    pub const RECALL: &str = "#f28e2b";
    pub const F1: &str = "#59a14f";
    pub const BOW_F1: &str = "#b07aa1";
    pub const HISTOGRAM: &str = "#4e79a7";
    /// Content characters (T1), above the axis.
    pub const CONTENT: &str = "#2166ac";
    /// Code characters (T2), below the axis.
    pub const CODE: &str = "#d6604d";
    pub const DIFF: &str = "#333333";
    pub const CHOSEN: &str = "#c7e9c0";
    pub const REGION: &str = "#e3e3e3";
    pub const HEADLINE: &str = "#7b3294";
}

/// Escapes text for SVG/HTML content and attribute values.
pub fn esc(s: &str) -> String {
    html_escape::encode_double_quoted_attribute(s).into_owned()
}

/// Opens an `<svg>` element of the given size.
pub fn open(w: f64, h: f64, label: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{}\" \
         font-family=\"sans-serif\" font-size=\"11\">\n",
        esc(label)
    )
}

pub fn rect(out: &mut String, x: f64, y: f64, w: f64, h: f64, fill: &str) {
    let _ = writeln!(
        out,
        "<rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{w:.2}\" height=\"{h:.2}\" fill=\"{fill}\"/>"
    );
}

pub fn line(out: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64), style: &str) {
    let _ = writeln!(
        out,
        "<line x1=\"{x1:.2}\" y1=\"{y1:.2}\" x2=\"{x2:.2}\" y2=\"{y2:.2}\" {style}/>"
    );
}

pub fn text(out: &mut String, x: f64, y: f64, anchor: &str, s: &str) {
    let _ = writeln!(
        out,
        "<text x=\"{x:.2}\" y=\"{y:.2}\" text-anchor=\"{anchor}\">{}</text>",
        esc(s)
    );
}

/// A legend row of coloured squares with labels.
pub fn legend(out: &mut String, x: f64, y: f64, items: &[(&str, &str)]) {
    let mut x = x;
    for (label, fill) in items {
        rect(out, x, y - 9.0, 10.0, 10.0, fill);
        text(out, x + 14.0, y, "start", label);
        x += 24.0 + 7.0 * label.chars().count() as f64;
    }
}

/// A "nice" tick step for a range of `span` with about `n` ticks.
pub fn tick_step(span: f64, n: f64) -> f64 {
    let raw = (span / n).max(1e-9);
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
}

/// The value axis of the score bars: from `lo` to `hi` in ticks of `step`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub step: f64,
}

impl Axis {
    /// An axis for scores in [0, 1] that shows their differences: from a
    /// round tick below the lowest to a round tick at or above the highest,
    /// about five ticks apart. Scores of 0.85 to 0.95 get 0.84 to 0.96 in
    /// steps of 0.02, not 0 to 1 on which their bars look all alike; a
    /// score near 0 keeps the axis at 0.
    pub fn for_scores(values: impl IntoIterator<Item = f64>) -> Axis {
        let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values.into_iter().filter(|v| v.is_finite()) {
            min = min.min(v.clamp(0.0, 1.0));
            max = max.max(v.clamp(0.0, 1.0));
        }
        if min > max {
            return Axis {
                lo: 0.0,
                hi: 1.0,
                step: 0.2,
            };
        }
        let step = tick_step((max - min).max(0.05), 5.0);
        // Rounded to the step's own digits, so that ticks print exactly.
        let round = |v: f64| (v / step).round() * step;
        let mut lo = round((min / step).floor() * step);
        if lo >= min && lo > 0.0 {
            lo = round(lo - step);
        }
        let hi = round((max / step).ceil() * step).max(lo + step).min(1.0);
        Axis {
            lo: lo.max(0.0),
            hi: hi.max(lo + step),
            step,
        }
    }

    /// Where `v` sits on the axis, from 0 (at `lo`) to 1 (at `hi`).
    pub fn share(&self, v: f64) -> f64 {
        ((v - self.lo) / (self.hi - self.lo)).clamp(0.0, 1.0)
    }

    /// The tick values from `lo` to `hi`.
    pub fn ticks(&self) -> Vec<f64> {
        let n = ((self.hi - self.lo) / self.step).round() as usize;
        (0..=n).map(|k| self.lo + self.step * k as f64).collect()
    }

    /// A tick's label, with as many decimals as the step needs.
    pub fn label(&self, v: f64) -> String {
        let decimals = (-self.step.log10().floor()).max(1.0) as usize;
        format!("{v:.decimals$}")
    }
}

/// Grouped bars: P, R, F1, bowF1 per dataset and for the mean.
pub fn score_bars(summary: &Summary) -> String {
    let mut groups: Vec<(String, [f64; 4])> = summary
        .datasets
        .iter()
        .map(|(ds, s)| (ds.clone(), [s.precision, s.recall, s.f1, s.bow_f1]))
        .collect();
    if let Some(m) = &summary.mean {
        groups.push(("mean".into(), [m.precision, m.recall, m.f1, m.bow_f1]));
    }
    let fills = [
        colour::PRECISION,
        colour::RECALL,
        colour::F1,
        colour::BOW_F1,
    ];
    let axis = Axis::for_scores(groups.iter().flat_map(|(_, v)| v.iter().copied()));
    let (left, top, ph) = (44.0, 30.0, 220.0);
    let gw = 120.0;
    let w = left + gw * groups.len().max(1) as f64 + 20.0;
    let mut s = open(w, top + ph + 56.0, "scores per dataset");
    legend(
        &mut s,
        left,
        16.0,
        &[
            ("precision", fills[0]),
            ("recall", fills[1]),
            ("F1", fills[2]),
            ("bag-of-words F1", fills[3]),
        ],
    );
    for v in axis.ticks() {
        let y = top + ph * (1.0 - axis.share(v));
        line(&mut s, (left, y), (w - 10.0, y), "stroke=\"#ddd\"");
        text(&mut s, left - 4.0, y + 4.0, "end", &axis.label(v));
    }
    if axis.lo > 0.0 {
        // Bars that start above 0 are read as lengths unless told.
        text(
            &mut s,
            left,
            top + ph + 48.0,
            "start",
            &format!(
                "axis from {} to {}, not from 0",
                axis.label(axis.lo),
                axis.label(axis.hi)
            ),
        );
    }
    for (g, (name, vals)) in groups.iter().enumerate() {
        let x0 = left + gw * g as f64 + 12.0;
        for (k, v) in vals.iter().enumerate() {
            let h = ph * axis.share(*v);
            rect(
                &mut s,
                x0 + 24.0 * k as f64,
                top + ph - h,
                22.0,
                h,
                fills[k],
            );
        }
        text(&mut s, x0 + 36.0 + 12.0, top + ph + 16.0, "middle", name);
        text(
            &mut s,
            x0 + 48.0 + 12.0,
            top + ph - ph * axis.share(vals[2]) - 4.0,
            "middle",
            &format!("{:.3}", vals[2]),
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Histogram of per-page token F1 in 20 bins over [0, 1].
pub fn f1_histogram(results: &[PageResult]) -> String {
    let mut bins = [0usize; 20];
    for f in results.iter().filter_map(PageResult::f1) {
        bins[((f * 20.0) as usize).min(19)] += 1;
    }
    let max = bins.iter().copied().max().unwrap_or(0).max(1) as f64;
    let (left, top, pw, ph) = (50.0, 20.0, 600.0, 200.0);
    let mut s = open(
        left + pw + 20.0,
        top + ph + 40.0,
        "histogram of per-page F1",
    );
    // Counts are whole pages: whole-number ticks only.
    let step = tick_step(max, 5.0).max(1.0) as usize;
    for v in (0..=max as usize).step_by(step) {
        let y = top + ph * (1.0 - v as f64 / max);
        line(&mut s, (left, y), (left + pw, y), "stroke=\"#ddd\"");
        text(&mut s, left - 4.0, y + 4.0, "end", &v.to_string());
    }
    let bw = pw / 20.0;
    for (i, &n) in bins.iter().enumerate() {
        let h = ph * n as f64 / max;
        rect(
            &mut s,
            left + bw * i as f64 + 1.0,
            top + ph - h,
            bw - 2.0,
            h,
            colour::HISTOGRAM,
        );
    }
    for k in 0..=5 {
        let x = left + pw * k as f64 / 5.0;
        text(
            &mut s,
            x,
            top + ph + 14.0,
            "middle",
            &format!("{:.1}", k as f64 / 5.0),
        );
    }
    text(
        &mut s,
        left + pw / 2.0,
        top + ph + 32.0,
        "middle",
        "token F1 per page (pages per bin)",
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_axis_over_close_scores_starts_at_a_round_value_below_the_lowest() {
        let axis = Axis::for_scores([0.85, 0.91, 0.95]);
        assert_eq!(axis.step, 0.02);
        assert_eq!(axis.label(axis.lo), "0.84");
        assert_eq!(axis.label(axis.hi), "0.96");
        assert!(axis.share(0.85) > 0.0 && axis.share(0.95) < 1.0);
        assert!(
            axis.share(0.95) - axis.share(0.85) > 0.8,
            "differences fill the height"
        );
        let labels: Vec<String> = axis.ticks().iter().map(|&v| axis.label(v)).collect();
        assert_eq!(
            labels,
            ["0.84", "0.86", "0.88", "0.90", "0.92", "0.94", "0.96"]
        );
    }

    #[test]
    fn an_axis_over_scores_near_zero_starts_at_zero() {
        let axis = Axis::for_scores([0.0, 0.4, 0.97]);
        assert_eq!((axis.lo, axis.hi, axis.step), (0.0, 1.0, 0.2));
        assert_eq!(Axis::for_scores([]).lo, 0.0);
        assert_eq!(Axis::for_scores([0.03, 0.9]).lo, 0.0);
    }

    #[test]
    fn an_axis_over_one_score_still_has_a_span() {
        let axis = Axis::for_scores([0.9]);
        assert!(axis.lo < 0.9 && axis.hi >= 0.9, "{axis:?}");
        assert!(axis.share(0.9) > 0.0);
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(100.0, 5.0), 20.0);
        assert_eq!(tick_step(7.0, 5.0), 2.0);
        assert_eq!(tick_step(1.0, 5.0), 0.2);
    }
}
