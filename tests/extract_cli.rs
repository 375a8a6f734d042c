//! `linesift extract` on files end to end: a closed output pipe, file names
//! that are not UTF-8, `--format json` with several inputs.

mod cli_support;

use cli_support::linesift_reading_a_little;
use std::path::PathBuf;
use std::process::Command;

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

/// Runs the binary to the end; returns the exit code, stdout and stderr.
fn linesift(args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A file name that is not UTF-8 (Latin-1 "café.html") is an input like
/// any other, on the command line and in a `--from` list; its JSONL `path`
/// shows the name with U+FFFD for the byte that is not UTF-8.
#[cfg(unix)]
#[test]
fn file_names_that_are_not_utf8_are_read() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch("latin1");
    let bad = dir.join(OsStr::from_bytes(b"caf\xe9.html"));
    let good = dir.join("good.html");
    std::fs::write(&bad, page("bakery")).unwrap();
    std::fs::write(&good, page("orchard")).unwrap();
    let list = dir.join("list.txt");
    let mut names = bad.as_os_str().as_bytes().to_vec();
    names.extend_from_slice(b"\n");
    names.extend_from_slice(good.as_os_str().as_bytes());
    names.extend_from_slice(b"\n");
    std::fs::write(&list, names).unwrap();
    let from = [
        OsStr::new("extract"),
        OsStr::new("--from"),
        list.as_os_str(),
    ];
    let args = [OsStr::new("extract"), bad.as_os_str(), good.as_os_str()];
    for args in [&args[..], &from[..]] {
        let (code, stdout, stderr) = linesift(args);
        assert_eq!(code, Some(0), "{stderr}");
        let lines: Vec<serde_json::Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2, "{stdout}");
        let path = lines[0]["path"].as_str().unwrap();
        assert!(path.ends_with("caf\u{fffd}.html"), "{path}");
        assert!(lines[0]["text"].as_str().unwrap().contains("bakery"));
        assert!(lines[1]["text"].as_str().unwrap().contains("orchard"));
    }
}

/// `--format json` writes one JSON document, so it takes one input; with
/// several it is refused up front, pointing at `--format jsonl`, instead of
/// writing pretty-printed objects back to back that no JSON parser reads.
#[test]
fn json_format_with_several_inputs_is_refused() {
    let dir = scratch("json");
    let a = dir.join("a.html");
    let b = dir.join("b.html");
    std::fs::write(&a, page("ferry")).unwrap();
    std::fs::write(&b, page("mill")).unwrap();
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    let (code, stdout, stderr) = linesift(&[
        os("extract"),
        os("--format"),
        os("json"),
        a.as_os_str(),
        b.as_os_str(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--format jsonl"), "{stderr}");
    assert_eq!(stdout, "");
    // One input: one JSON document.
    let (code, stdout, stderr) =
        linesift(&[os("extract"), os("--format"), os("json"), a.as_os_str()]);
    assert_eq!(code, Some(0), "{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(doc["text"].as_str().unwrap().contains("ferry"));
}
