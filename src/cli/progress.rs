//! The progress bar shared by the commands that process many inputs:
//! shown on stderr only when it is a terminal and there is more than one
//! input, hidden otherwise (so logs and pipes stay clean).

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

pub fn pages(n: usize) -> ProgressBar {
    counted(n, "pages")
}

/// A bar of `n` inputs called `unit` (`pages`, `tasks`).
pub fn counted(n: usize, unit: &str) -> ProgressBar {
    if n < 2 || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(n as u64);
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit} {{per_sec}} eta {{eta}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}
