//! The pages progress bar shared by the commands that process many inputs:
//! shown on stderr only when it is a terminal and there is more than one
//! input, hidden otherwise (so logs and pipes stay clean).

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

pub fn pages(n: usize) -> ProgressBar {
    if n < 2 || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(n as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} pages {per_sec} eta {eta}")
    {
        bar.set_style(style);
    }
    bar
}
