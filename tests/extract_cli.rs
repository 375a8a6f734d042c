//! `linesift extract` on files end to end: a closed output pipe, file names
//! that are not UTF-8, formats for one input with several, input lists and
//! stdin, the `--charset` fallback, error kinds and notes, results
//! written as soon as the ones before them, the headline in text output,
//! the warning for an empty input, and the fingerprint fields only when
//! asked for.

mod cli_support;

use cli_support::{linesift_reading_a_little, make_fifo};
use std::ffi::OsStr;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

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

/// The same page gives the same JSON line, byte for byte, run after run;
/// `--timings` adds the seconds of each stage, which differ.
#[test]
fn the_same_page_gives_the_same_bytes_unless_timings_are_asked_for() {
    let dir = scratch("same-bytes");
    let file = dir.join("page.html");
    std::fs::write(&file, page("quarry")).unwrap();
    let args = |extra: &[&str]| -> Vec<String> {
        let mut a = vec!["extract", "--format", "jsonl", "--metadata", "--blocks"];
        a.extend(extra);
        a.push(file.to_str().unwrap());
        a.into_iter().map(String::from).collect()
    };
    let runs: Vec<_> = (0..3).map(|_| cli_support::linesift(&args(&[]))).collect();
    for run in &runs {
        assert_eq!(run.status.code(), Some(0));
        assert_eq!(run.stdout, runs[0].stdout);
    }
    let line: serde_json::Value = serde_json::from_slice(&runs[0].stdout).unwrap();
    assert!(line.get("timings").is_none(), "{line}");
    let timed = cli_support::linesift(&args(&["--timings"]));
    let line: serde_json::Value = serde_json::from_slice(&timed.stdout).unwrap();
    let scan = line["timings"]["scan"].as_f64().expect("timings.scan");
    assert!(scan > 0.0, "{line}");
    for stage in ["select", "text", "headline", "meta"] {
        assert!(line["timings"][stage].is_f64(), "{stage}: {line}");
    }
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
/// So is `--format text`: texts back to back cannot be told apart.
#[test]
fn one_document_formats_with_several_inputs_are_refused() {
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
    let text = [
        os("extract"),
        os("--format"),
        os("text"),
        a.as_os_str(),
        b.as_os_str(),
    ];
    let (code, stdout, stderr) = linesift(&text);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--format text is for one input"),
        "{stderr}"
    );
    assert_eq!(stdout, "");
    // One input: one JSON document.
    let (code, stdout, stderr) =
        linesift(&[os("extract"), os("--format"), os("json"), a.as_os_str()]);
    assert_eq!(code, Some(0), "{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(doc["text"].as_str().unwrap().contains("ferry"));
}

/// Runs the binary with `stdin` as its input; returns the exit code,
/// stdout and stderr.
fn linesift_with_stdin(args: &[&OsStr], stdin: &[u8]) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A refused command line exits without reading: a closed pipe then.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The JSONL records of an output.
fn records(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `find ... > list; linesift extract --from list`: a list that names
/// nothing is nothing to do (no output, success), not a cue to read a
/// page from stdin. `--from -` reads the list itself from stdin; stdin
/// named twice (`- -`, or `--from -` and `-`) is refused up front, where
/// before the second reader got an empty page.
#[test]
fn input_lists_and_stdin() {
    let dir = scratch("lists");
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "\n\n").unwrap();
    let a = dir.join("a.html");
    std::fs::write(&a, page("lighthouse")).unwrap();
    let os = OsStr::new;
    let stdin_page = page("quarry");
    let (code, stdout, stderr) = linesift_with_stdin(
        &[os("extract"), os("--from"), empty.as_os_str()],
        stdin_page.as_bytes(),
    );
    assert_eq!((code, stdout.as_str()), (Some(0), ""), "{stderr}");
    // No inputs at all: the page on stdin, as before.
    let (code, stdout, stderr) = linesift_with_stdin(&[os("extract")], stdin_page.as_bytes());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("quarry"), "{stdout}");

    let list = format!("{}\n", a.display());
    let (code, stdout, stderr) =
        linesift_with_stdin(&[os("extract"), os("--from"), os("-")], list.as_bytes());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("lighthouse"), "{stdout}");

    for args in [
        &[os("extract"), os("-"), os("-")][..],
        &[os("extract"), os("--from"), os("-"), os("-")][..],
    ] {
        let (code, stdout, stderr) = linesift_with_stdin(args, list.as_bytes());
        assert_eq!((code, stdout.as_str()), (Some(2), ""), "{stderr}");
        assert!(stderr.contains("stdin (`-`) can be read once"), "{stderr}");
    }
}

/// `--charset` is assumed only where the page declares nothing: a page's
/// own `<meta charset>` outranks it (before, the flag overrode it and
/// garbled the page), and a label no encoding has is refused by name.
#[test]
fn the_charset_flag_is_a_fallback() {
    let dir = scratch("charset");
    let body = "<p>Привет мир, это страница о погоде в горах и долинах, где летом идут \
                дожди, а зимой лежит снег.</p>";
    let (koi8, _, _) = encoding_rs::KOI8_R.encode(body);
    let mut declared = b"<html><head><meta charset=koi8-r><title>t</title></head><body>".to_vec();
    declared.extend_from_slice(&koi8);
    let mut bare = b"<html><head><title>t</title></head><body>".to_vec();
    bare.extend_from_slice(&koi8);
    let (declared_path, bare_path) = (dir.join("declared.html"), dir.join("bare.html"));
    std::fs::write(&declared_path, declared).unwrap();
    std::fs::write(&bare_path, bare).unwrap();
    let os = OsStr::new;
    let run = |charset: &str, path: &PathBuf| {
        let args = [
            os("extract"),
            os("--format"),
            os("json"),
            os("--charset"),
            os(charset),
            path.as_os_str(),
        ];
        let (code, stdout, stderr) = linesift(&args);
        assert_eq!(code, Some(0), "{stderr}");
        serde_json::from_str::<serde_json::Value>(&stdout).unwrap()
    };
    let doc = run("windows-1251", &declared_path);
    assert_eq!(doc["encoding"], "KOI8-R");
    assert_eq!(doc["encoding_source"], "meta");
    assert!(
        doc["text"].as_str().unwrap().contains("Привет мир"),
        "{doc}"
    );
    let doc = run("koi8-r", &bare_path);
    assert_eq!(doc["encoding_source"], "fallback");
    assert!(
        doc["text"].as_str().unwrap().contains("Привет мир"),
        "{doc}"
    );

    let (code, stdout, stderr) = linesift(&[
        os("extract"),
        os("--charset"),
        os("bogus"),
        bare_path.as_os_str(),
    ]);
    assert_eq!((code, stdout.as_str()), (Some(2), ""), "{stderr}");
    assert!(stderr.contains("\"bogus\""), "{stderr}");
}

/// A file the core refuses has an `error_kind` in its JSONL record, as a
/// URL the fetcher refuses has; in text mode, text cut at `--max-text`
/// is said on stderr (JSON says it in `text_truncated`).
#[test]
fn core_errors_have_kinds_and_cut_text_is_noted() {
    let dir = scratch("kinds");
    let binary = dir.join("image.png");
    std::fs::write(&binary, [0u8, 1, 2, 3, 0, 0, 0, 7].repeat(512)).unwrap();
    let a = dir.join("a.html");
    std::fs::write(&a, page("glacier")).unwrap();
    let os = OsStr::new;
    let (code, stdout, stderr) = linesift(&[os("extract"), binary.as_os_str(), a.as_os_str()]);
    assert_eq!(code, Some(1), "{stderr}");
    let records = records(&stdout);
    assert_eq!(records[0]["error_kind"], "binary", "{stdout}");
    assert!(records[1]["text"].as_str().unwrap().contains("glacier"));

    let (code, stdout, stderr) =
        linesift(&[os("extract"), os("--max-text"), os("200"), a.as_os_str()]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.len() <= 300, "{stdout}");
    assert!(stderr.contains("text cut at --max-text"), "{stderr}");
}

/// A result is written as soon as every input before it is done, not when
/// a whole batch is: the first page's record comes out while the second
/// input, a FIFO, still waits for its writer.
#[cfg(unix)]
#[test]
fn results_are_written_as_soon_as_the_ones_before_them() {
    let dir = scratch("stream");
    let a = dir.join("a.html");
    std::fs::write(&a, page("estuary")).unwrap();
    let fifo = dir.join("slow.html");
    make_fifo(&fifo);
    let mut child = Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args([OsStr::new("extract"), a.as_os_str(), fifo.as_os_str()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let _ = tx.send(line.unwrap());
        }
    });
    let first = rx.recv_timeout(Duration::from_secs(60));
    // Feed the FIFO whatever happened, so that the run ends.
    std::fs::write(&fifo, page("moor")).unwrap();
    let first = first.expect("the first record waited for the FIFO");
    assert!(first.contains("estuary"), "{first}");
    let second = rx.recv_timeout(Duration::from_secs(60)).unwrap();
    assert!(second.contains("moor"), "{second}");
    assert!(child.wait().unwrap().success());
    reader.join().unwrap();
}

/// The fixture page `tests/fixtures/NAME`.
fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// A headline the text already holds as a line (an `<h1>` in the chosen
/// region) is printed once, where it stands in the text.
#[test]
fn text_output_shows_a_headline_the_text_holds_once() {
    let article = fixture("article.html");
    let (code, stdout, stderr) = linesift(&[OsStr::new("extract"), article.as_os_str()]);
    assert_eq!(code, Some(0), "{stderr}");
    let headline = "City Council Approves New Riverside Park";
    assert_eq!(stdout.matches(headline).count(), 1, "{stdout}");
    assert!(
        stdout.starts_with(&format!("{headline}\nBy Dana Whitfield")),
        "{stdout}"
    );
}

/// A headline the text does not hold as a line of its own comes first,
/// then a blank line, then the text.
#[test]
fn text_output_puts_a_headline_the_text_lacks_above_it() {
    let thread = fixture("pages/forum-thread.html");
    let (code, stdout, stderr) = linesift(&[OsStr::new("extract"), thread.as_os_str()]);
    assert_eq!(code, Some(0), "{stderr}");
    let (headline, text) = stdout.split_once("\n\n").unwrap();
    assert_eq!(headline, "Bike chain keeps slipping on the smallest cog");
    assert!(!text.lines().any(|l| l == headline), "{text}");
    assert!(
        text.contains("My commuter bike has started jumping"),
        "{text}"
    );
}

/// A 0-byte file or empty stdin has no text: a warning names it on
/// stderr, and the run (and the other inputs) succeed as before.
#[test]
fn an_empty_input_is_warned_about_by_name() {
    let dir = scratch("empty");
    let empty = dir.join("empty.html");
    std::fs::write(&empty, "").unwrap();
    let article = fixture("article.html");
    let (code, stdout, stderr) = linesift(&[
        OsStr::new("extract"),
        empty.as_os_str(),
        article.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        format!(
            "linesift: {}: warning: empty input (0 bytes), no text",
            empty.display()
        )
    );
    let docs = records(&stdout);
    assert_eq!(docs[0]["text"], "");
    assert!(docs[1]["text"].as_str().unwrap().contains("Riverside"));

    let (code, stdout, stderr) = linesift_with_stdin(&[OsStr::new("extract")], b"");
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout.trim(), "");
    assert_eq!(
        stderr.trim_end(),
        "linesift: -: warning: empty input (0 bytes), no text"
    );

    // A page of blank lines is not empty: it has bytes, just no text.
    std::fs::write(&empty, "\n\n").unwrap();
    let (code, _, stderr) = linesift(&[OsStr::new("extract"), empty.as_os_str()]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("empty input"), "{stderr}");
}

/// `extract --format jsonl INPUT`.
fn jsonl(input: &OsStr) -> [&OsStr; 4] {
    let os = OsStr::new;
    [os("extract"), os("--format"), os("jsonl"), input]
}

/// A regular file is read whole and extracted in memory, stdin and a FIFO
/// in chunks: the documents are the same, for a UTF-8 page scanned where
/// it lies and for a legacy-encoded one decoded. A file over
/// `--max-bytes` is refused by name, as a stream over it is.
#[test]
fn a_file_a_fifo_and_stdin_give_the_same_document() {
    let dir = scratch("whole");
    let utf8 = page("glacier café");
    let latin1: Vec<u8> = page("moraine")
        .replace("utf-8", "iso-8859-1")
        .replace("moraine", "moräne")
        .chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap())
        .collect();
    for (name, bytes, word) in [
        ("utf8", utf8.as_bytes(), "glacier café"),
        ("latin1", &latin1[..], "moräne"),
    ] {
        let file = dir.join(format!("{name}.html"));
        std::fs::write(&file, bytes).unwrap();
        let (code, from_file, stderr) = linesift(&jsonl(file.as_os_str()));
        assert_eq!(code, Some(0), "{stderr}");
        let (code, from_stdin, stderr) = linesift_with_stdin(&jsonl(OsStr::new("-")), bytes);
        assert_eq!(code, Some(0), "{stderr}");
        let fifo = dir.join(format!("{name}.fifo"));
        make_fifo(&fifo);
        let writer = {
            let (fifo, bytes) = (fifo.clone(), bytes.to_vec());
            std::thread::spawn(move || std::fs::write(fifo, bytes).unwrap())
        };
        let (code, from_fifo, stderr) = linesift(&jsonl(fifo.as_os_str()));
        writer.join().unwrap();
        assert_eq!(code, Some(0), "{stderr}");
        let doc = |out: &str| {
            let mut r = records(out).remove(0);
            r.as_object_mut().unwrap().retain(|k, _| k != "path");
            r
        };
        assert_eq!(doc(&from_file), doc(&from_stdin), "{name}");
        assert_eq!(doc(&from_file), doc(&from_fifo), "{name}");
        let text = doc(&from_file)["text"].as_str().unwrap().to_string();
        assert!(text.contains(word), "{text}");
    }
    let file = dir.join("utf8.html");
    let (code, stdout, stderr) = linesift(&[
        OsStr::new("extract"),
        OsStr::new("--format"),
        OsStr::new("jsonl"),
        OsStr::new("--max-bytes"),
        OsStr::new("100"),
        file.as_os_str(),
    ]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("utf8.html: page is larger than the limit of 100 bytes"),
        "{stderr}"
    );
    assert_eq!(records(&stdout)[0]["error_kind"], "too_large");
}

/// The fingerprints are fields only when asked for, as links are: without
/// `--simhash` and `--minhash` a document has neither key; with them, the
/// SimHash's 16 hex digits and N MinHash values.
#[test]
fn fingerprints_are_fields_only_when_asked_for() {
    let dir = scratch("fingerprints");
    let file = dir.join("page.html");
    std::fs::write(&file, page("orchard")).unwrap();
    let os = OsStr::new;
    let plain = [os("extract"), os("--format"), os("jsonl"), file.as_os_str()];
    let (code, stdout, stderr) = linesift(&plain);
    assert_eq!(code, Some(0), "{stderr}");
    let doc = &records(&stdout)[0];
    assert!(doc.get("simhash").is_none(), "{doc}");
    assert!(doc.get("minhash").is_none(), "{doc}");
    let asked = [
        os("extract"),
        os("--format"),
        os("jsonl"),
        os("--simhash"),
        os("--minhash"),
        os("8"),
        file.as_os_str(),
    ];
    let (code, stdout, stderr) = linesift(&asked);
    assert_eq!(code, Some(0), "{stderr}");
    let doc = &records(&stdout)[0];
    let simhash = doc["simhash"].as_str().unwrap_or_default();
    assert_eq!(simhash.len(), 16, "{doc}");
    assert!(simhash.bytes().all(|b| b.is_ascii_hexdigit()), "{doc}");
    assert_eq!(doc["minhash"].as_array().map(Vec::len), Some(8), "{doc}");
}

/// A file that cannot be read has an `error_kind` in its JSONL record, as
/// a page the core refuses has: `open` for a name that is no file to read
/// (missing, a directory, not permitted), `io` for a read that failed
/// after the file opened. The other inputs are still extracted.
#[test]
fn a_file_that_cannot_be_read_is_reported_with_its_error_kind() {
    let dir = scratch("unreadable");
    let a = dir.join("a.html");
    std::fs::write(&a, page("harbour")).unwrap();
    let missing = dir.join("missing.html");
    let folder = dir.join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let (code, stdout, stderr) = linesift(&[
        OsStr::new("extract"),
        missing.as_os_str(),
        folder.as_os_str(),
        a.as_os_str(),
    ]);
    assert_eq!(code, Some(1), "{stderr}");
    let records = records(&stdout);
    assert_eq!(records[0]["error_kind"], "open", "{stdout}");
    assert_eq!(records[1]["error_kind"], "open", "{stdout}");
    assert!(records[2]["text"].as_str().unwrap().contains("harbour"));
}

/// A file that opens and then fails to read (`/proc/self/mem` answers
/// EIO at offset 0) is `io`.
#[cfg(target_os = "linux")]
#[test]
fn a_file_whose_read_fails_is_reported_as_io() {
    let (code, stdout, stderr) = linesift(&jsonl(OsStr::new("/proc/self/mem")));
    assert_eq!(code, Some(1), "{stderr}");
    let record = &records(&stdout)[0];
    assert_eq!(record["error_kind"], "io", "{record}");
    assert!(
        record["error"].as_str().unwrap().contains("os error"),
        "{record}"
    );
}

/// A name holding control characters (a newline, an ESC that would start
/// a terminal sequence) is shown escaped on stderr, so each message stays
/// one line and the terminal gets no sequence; the JSONL `path` is the
/// name as it is, JSON escaping it.
#[test]
fn control_characters_in_a_name_are_escaped_on_stderr() {
    let dir = scratch("control");
    let missing = dir.join("bad\nname\u{1b}[31m.html");
    let empty = dir.join("empty\n.html");
    std::fs::write(&empty, "").unwrap();
    let (code, stdout, stderr) = linesift(&[
        OsStr::new("extract"),
        missing.as_os_str(),
        empty.as_os_str(),
    ]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr:?}");
    assert!(
        lines[0].contains("bad\\nname\\u{1b}[31m.html: reading file"),
        "{stderr:?}"
    );
    assert!(
        lines[1].ends_with("empty\\n.html: warning: empty input (0 bytes), no text"),
        "{stderr:?}"
    );
    let records = records(&stdout);
    assert_eq!(records[0]["path"].as_str(), missing.to_str());
    assert_eq!(records[1]["path"].as_str(), empty.to_str());
}

/// Output to a full device is a fatal error (exit code 2) that says what
/// was being written, as `warc`'s does, in every format.
#[cfg(target_os = "linux")]
#[test]
fn a_full_output_device_is_named_in_the_error() {
    let dir = scratch("full");
    let a = dir.join("a.html");
    std::fs::write(&a, page("reservoir")).unwrap();
    for format in ["text", "json", "jsonl", "markdown"] {
        let out = Command::new(env!("CARGO_BIN_EXE_linesift"))
            .args([
                OsStr::new("extract"),
                OsStr::new("--format"),
                OsStr::new(format),
            ])
            .arg(&a)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{format}: {stderr}");
        assert_eq!(
            stderr.trim_end(),
            "linesift: writing output to stdout: No space left on device (os error 28)",
            "{format}"
        );
    }
}
