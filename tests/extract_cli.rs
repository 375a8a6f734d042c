//! `linesift extract` on files end to end: a closed output pipe, file names
//! that are not UTF-8, `--format json` with several inputs.

mod cli_support;

use cli_support::linesift_reading_a_little;
use std::path::PathBuf;

/// A fresh directory under the tests' scratch directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("extract-cli")
        .join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A hand-written page with enough prose to be kept.
fn page(topic: &str) -> String {
    let body: String = (0..6)
        .map(|n| {
            format!(
                "<p>Paragraph {n} about the {topic}: the committee met on Thursday to review the \
                 {topic} of the valley, and residents told how the {topic} had changed over the \
                 last ten years, with new visitors arriving every summer.</p>"
            )
        })
        .collect();
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>The {topic}</title></head>\
         <body><article><h1>Notes on the {topic}</h1>{body}</article></body></html>"
    )
}

/// `linesift extract *.html | head -1`: the closed pipe is no error to
/// report; the exit status is the one a SIGPIPE death gives (141).
#[test]
fn a_closed_output_pipe_ends_quietly() {
    let dir = scratch("pipe");
    let file = dir.join("page.html");
    std::fs::write(&file, page("harbour")).unwrap();
    let file = file.to_str().unwrap();
    // Far more output than a pipe buffer holds, so writes meet the closed pipe.
    let mut args = vec!["extract", "--format", "jsonl", "--jobs", "2"];
    args.extend(std::iter::repeat_n(file, 400));
    let (code, stderr) = linesift_reading_a_little(&args, 100);
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
    assert_eq!(code, Some(141), "{stderr}");
}
