//! `linesift eval` agrees with `shared/eval/score.py`: the tokenisation on
//! tricky strings, and every summary number on a small fixture manifest
//! (English, CJK, empty gold, a failing page, headlines, two datasets),
//! through the library and through the binary. The comparisons with
//! score.py are skipped with a note when `../shared` or python3 is absent.
//! Also: files that cannot be read are named with their OS error once.

mod cli_support;

use cli_support::{linesift, linesift_command};
use linesift::report::eval::{self, Summary};
use linesift::report::{manifest, score};
use linesift::{Extractor, Hints, Options};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn score_py() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/eval/score.py");
    let python = Command::new("python3").arg("--version").output().is_ok();
    if p.exists() && python {
        Some(p)
    } else {
        eprintln!(
            "note: ../shared/eval/score.py or python3 absent; skipping the score.py comparison"
        );
        None
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("linesift-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const TRICKY: &[&str] = &[
    "Hello, WORLD_x 42! ﬁne １２ café cafe\u{301}",
    "中文分词测试，日本語のテキスト。한국어 문장 mixed中文word",
    "हिन्दी भाषा · العربية · Ελληνικά ΟΔΟΣ · straße İstanbul",
    "x²³ ½ ⅷ ① 𝐀𝐁 tab\tnew\nline\u{a0}nbsp\u{1f}sep",
    "",
];

#[test]
fn tokens_equal_score_py_tokens() {
    let Some(py) = score_py() else { return };
    let script = format!(
        "import sys, json, importlib.util\n\
         spec = importlib.util.spec_from_file_location('score', {py:?})\n\
         m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n\
         for s in json.load(sys.stdin):\n    print(json.dumps(m.tokens(s)))\n"
    );
    let out = run_python(&script, &serde_json::to_string(TRICKY).unwrap());
    for (s, line) in TRICKY.iter().zip(out.lines()) {
        let theirs: Vec<String> = serde_json::from_str(line).unwrap();
        assert_eq!(score::tokens(s), theirs, "tokens of {s:?}");
    }
    assert_eq!(out.lines().count(), TRICKY.len());
}

fn run_python(script: &str, stdin: &str) -> String {
    use std::io::Write;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python failed");
    String::from_utf8(out.stdout).unwrap()
}

/// Writes the fixture pages and returns the manifest's path.
fn fixture(dir: &Path) -> PathBuf {
    let pages: &[(&str, &str, &[u8], &str, &str)] = &[
        (
            "news",
            "en1",
            EN_PAGE.as_bytes(),
            EN_GOLD,
            "Rain Falls On The Plain",
        ),
        (
            "news",
            "en2",
            NAV_PAGE.as_bytes(),
            "The single paragraph that matters is this one here.",
            "",
        ),
        ("news", "empty", EN_PAGE.as_bytes(), "  \n ", "Anything"),
        (
            "news",
            "binary",
            b"\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
            "Some gold words",
            "",
        ),
        ("cjk", "zh1", ZH_PAGE.as_bytes(), ZH_GOLD, "北京今天下雨"),
        (
            "cjk",
            "ja1",
            JA_PAGE.as_bytes(),
            "東京の天気は晴れです。明日も晴れるでしょう。",
            "",
        ),
    ];
    let mut tsv = String::from("dataset\tid\thtml\tgold_text\tgold_headline\n");
    for (ds, id, html, gold, head) in pages {
        std::fs::create_dir_all(dir.join(ds)).unwrap();
        std::fs::write(dir.join(format!("{ds}/{id}.html")), html).unwrap();
        std::fs::write(dir.join(format!("{ds}/{id}.txt")), gold).unwrap();
        let head_col = if head.is_empty() {
            String::new()
        } else {
            std::fs::write(dir.join(format!("{ds}/{id}.head")), head).unwrap();
            format!("{ds}/{id}.head")
        };
        tsv.push_str(&format!(
            "{ds}\t{id}\t{ds}/{id}.html\t{ds}/{id}.txt\t{head_col}\n"
        ));
    }
    let path = dir.join("manifest.tsv");
    std::fs::write(&path, tsv).unwrap();
    path
}

/// Runs score.py on predictions made by the library and returns its JSON.
fn score_py_summary(py: &Path, manifest_path: &Path, dir: &Path) -> Value {
    let extractor = Extractor::new(Options::default());
    let mut preds = String::new();
    for e in manifest::read(manifest_path).unwrap() {
        let bytes = std::fs::read(&e.html).unwrap();
        let (text, headline) = match extractor.extract(&bytes, &Hints::default()) {
            Ok(d) => (d.text, d.headline.unwrap_or_default()),
            Err(_) => (String::new(), String::new()),
        };
        let obj = serde_json::json!({"path": e.html, "text": text, "headline": headline});
        preds.push_str(&format!("{obj}\n"));
    }
    let pred_path = dir.join("predictions.jsonl");
    std::fs::write(&pred_path, preds).unwrap();
    let json = dir.join("score-py.json");
    let status = Command::new("python3")
        .arg(py)
        .arg(manifest_path)
        .arg(&pred_path)
        .arg("--json")
        .arg(&json)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap()
}

/// Every number score.py reports equals ours (to 1e-9; 3 decimals asked).
fn assert_same(ours: &Value, theirs: &Value) {
    let (ours, theirs) = (ours.as_object().unwrap(), theirs.as_object().unwrap());
    assert_eq!(
        ours.keys().collect::<Vec<_>>(),
        theirs.keys().collect::<Vec<_>>(),
        "datasets"
    );
    for (ds, t) in theirs {
        for (k, tv) in t.as_object().unwrap() {
            let ov = &ours[ds][k];
            let (a, b) = (ov.as_f64().unwrap(), tv.as_f64().unwrap());
            assert!((a - b).abs() < 1e-9, "{ds}.{k}: ours {a}, score.py {b}");
        }
    }
}

#[test]
fn library_eval_agrees_with_score_py_on_the_fixture() {
    let dir = temp_dir("eval-fixture");
    let m = fixture(&dir);
    let entries = manifest::read(&m).unwrap();
    let results = eval::evaluate(&Extractor::new(Options::default()), &entries);
    let summary: Summary = eval::summarize(&results);
    // Behaviour independent of score.py: the empty-gold page is skipped, the
    // binary page fails and scores 0, CJK is scored per character.
    let news = &summary.datasets["news"];
    assert_eq!(news.pages, 3);
    assert_eq!((news.failed, news.empty), (1, 1));
    assert_eq!(news.headline_pages, Some(1));
    let zh = results.iter().find(|r| r.id == "zh1").unwrap();
    let zh_score = zh.score.as_ref().unwrap();
    assert_eq!(zh_score.gold_tokens, score::tokens(ZH_GOLD).len());
    assert!(zh_score.f1 > 0.5, "zh page extracted: {zh_score:?}");
    assert!(
        results
            .iter()
            .find(|r| r.id == "empty")
            .unwrap()
            .score
            .is_none()
    );
    assert!(summary.mean.unwrap().f1 > 0.3);
    let Some(py) = score_py() else { return };
    let theirs = score_py_summary(&py, &m, &dir);
    assert_same(&summary.to_json(), &theirs);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn binary_eval_writes_json_tsv_and_compares() {
    let dir = temp_dir("eval-cli");
    let m = fixture(&dir);
    let json = dir.join("ours.json");
    let tsv = dir.join("pages.tsv");
    let out = linesift(&[
        "eval".as_ref(),
        m.as_os_str(),
        "--json".as_ref(),
        json.as_os_str(),
        "--per-page".as_ref(),
        tsv.as_os_str(),
    ]);
    cli_support::assert_success(&out);
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.starts_with("dataset"), "{table}");
    assert!(table.contains("\nmean"), "{table}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("news/binary"));
    let ours: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let rows = std::fs::read_to_string(&tsv).unwrap();
    assert_eq!(
        rows.lines().count(),
        1 + 5,
        "header + scored pages:\n{rows}"
    );
    if let Some(py) = score_py() {
        assert_same(&ours, &score_py_summary(&py, &m, &dir));
    }
    let cmp = linesift(&[
        "eval".as_ref(),
        m.as_os_str(),
        "--compare".as_ref(),
        "--algorithm danag".as_ref(),
        "--algorithm r2l --gap 8".as_ref(),
    ]);
    assert!(
        cmp.status.success(),
        "{}",
        String::from_utf8_lossy(&cmp.stderr)
    );
    let text = String::from_utf8(cmp.stdout).unwrap();
    assert!(text.contains("A: algorithm danag, gap 20"), "{text}");
    assert!(text.contains("B: algorithm r2l, gap 8"), "{text}");
    // R2L keeps only non-ASCII characters: English pages drop to 0.
    assert!(text.contains("pages that changed most"), "{text}");
    assert!(text.contains("news/en1"), "{text}");
    let bad = linesift(&[
        "eval".as_ref(),
        m.as_os_str(),
        "--compare".as_ref(),
        "--algorithm nope".as_ref(),
        "".as_ref(),
    ]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("nope"));
    let _ = std::fs::remove_dir_all(dir);
}

const EN_GOLD: &str = "Rain Falls On The Plain\n\
    The rain in Spain stays mainly in the plain, the weather office said on Monday.\n\
    Farmers welcomed the rain after a long dry summer that hurt the harvest badly.\n\
    Forecasters expect more showers through the week across the central regions.";

const EN_PAGE: &str = r#"<!DOCTYPE html><html><head><title>Rain Falls On The Plain | Daily News</title></head>
<body><div class="nav"><a href="/">Home</a> <a href="/world">World</a> <a href="/sport">Sport</a></div>
<div class="article"><h1>Rain Falls On The Plain</h1>
<p>The rain in Spain stays mainly in the plain, the weather office said on Monday.</p>
<p>Farmers welcomed the rain after a long dry summer that hurt the harvest badly.</p>
<p>Forecasters expect more showers through the week across the central regions.</p></div>
<div class="footer"><a href="/about">About us</a> <a href="/contact">Contact</a> © Daily News</div>
</body></html>"#;

const NAV_PAGE: &str = r#"<html><body><ul class="menu"><li><a href="/a">Alpha</a></li><li><a href="/b">Beta</a></li></ul>
<p>The single paragraph that matters is this one here, with a few extra words.</p>
<div class="footer"><a href="/x">Privacy</a></div></body></html>"#;

const ZH_GOLD: &str = "北京今天下雨\n北京市气象台今天发布消息，全市大部分地区将有中到大雨，请市民出行注意安全。\n气象专家表示，这次降雨将持续到周末，气温也会明显下降。";

const ZH_PAGE: &str = r#"<html lang="zh"><head><meta charset="utf-8"><title>北京今天下雨 - 新闻网</title></head><body>
<div class="nav"><a href="/">首页</a> <a href="/n">新闻</a> <a href="/s">体育</a></div>
<h1>北京今天下雨</h1>
<p>北京市气象台今天发布消息，全市大部分地区将有中到大雨，请市民出行注意安全。</p>
<p>气象专家表示，这次降雨将持续到周末，气温也会明显下降。</p>
<div class="footer"><a href="/about">关于我们</a></div></body></html>"#;

const JA_PAGE: &str = r#"<html lang="ja"><head><meta charset="utf-8"><title>天気</title></head><body>
<div class="menu"><a href="/">ホーム</a></div>
<p>東京の天気は晴れです。明日も晴れるでしょう。週末は少し曇りの予報です。</p>
</body></html>"#;

/// A manifest page is read no further than `--max-bytes` (plus one byte):
/// a page behind a FIFO that offers 64 MiB is refused after reading about
/// the limit, and the run goes on, the page scored 0 with the reason.
#[cfg(unix)]
#[test]
fn eval_stops_reading_a_page_at_the_limit() {
    use std::io::Write;
    let dir = temp_dir("eval-limit");
    let fifo = dir.join("endless.html");
    cli_support::make_fifo(&fifo);
    std::fs::write(dir.join("gold.txt"), "some gold words").unwrap();
    std::fs::write(
        dir.join("m.tsv"),
        "dataset\tid\thtml\tgold_text\nds\tp1\tendless.html\tgold.txt\n",
    )
    .unwrap();
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
            let chunk = "<p>More and more of the same paragraph.</p>\n".repeat(1500);
            let mut written = 0usize;
            while written < 64 << 20 {
                match f.write_all(chunk.as_bytes()) {
                    Ok(()) => written += chunk.len(),
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
                    Err(e) => panic!("{e}"),
                }
            }
            written
        })
    };
    let out = linesift(&[
        "eval".as_ref(),
        dir.join("m.tsv").as_os_str(),
        "--max-bytes".as_ref(),
        "64K".as_ref(),
    ]);
    let written = writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("larger than the limit of 65536 bytes"),
        "{stderr}"
    );
    assert!(written < 16 << 20, "read {written} bytes of a 64 KiB page");
    let _ = std::fs::remove_dir_all(dir);
}

/// `--datasets` with a name the manifest does not have, or with no name at
/// all, is an error naming the datasets there are, not an empty table and
/// exit code 0.
#[test]
fn unknown_dataset_names_are_an_error() {
    let dir = temp_dir("eval-datasets");
    let m = fixture(&dir);
    let eval = |datasets: &str| {
        linesift(&[
            "eval".as_ref(),
            m.as_os_str(),
            "--datasets".as_ref(),
            datasets.as_ref(),
        ])
    };
    let bad = eval("news,nwes");
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("nwes"), "{stderr}");
    assert!(stderr.contains("cjk, news"), "{stderr}");
    assert!(bad.stdout.is_empty());
    // A list that names nothing (`--datasets ""`, `--datasets ,`) would
    // keep no page: an error too, not an empty table.
    for empty in ["", " , "] {
        let none = eval(empty);
        let stderr = String::from_utf8_lossy(&none.stderr);
        assert_eq!(none.status.code(), Some(2), "{empty:?}: {stderr}");
        assert!(stderr.contains("names no dataset"), "{stderr}");
        assert!(stderr.contains("cjk, news"), "{stderr}");
        assert!(none.stdout.is_empty());
    }
    let good = eval("news");
    assert!(good.status.success());
    let table = String::from_utf8_lossy(&good.stdout);
    assert!(table.contains("\nnews"), "{table}");
    assert!(!table.contains("\ncjk"), "{table}");
    let _ = std::fs::remove_dir_all(dir);
}

fn linesift_eval(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let out = linesift(&[&["eval".as_ref()], args].concat());
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The manifest cannot be read: one line names it and its OS error, once
/// (its error used to carry the OS error and chain it as its cause too).
/// With stderr closed the exit code is still 2, not a panic's 101.
#[test]
fn a_missing_manifest_is_named_with_its_os_error_once() {
    let dir = temp_dir("eval-missing-manifest");
    let m = dir.join("nothing-here.tsv");
    let (code, stderr) = linesift_eval(&[m.as_os_str()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        format!(
            "linesift: {}: No such file or directory (os error 2)",
            m.display()
        )
    );
    assert_eq!(
        cli_support::linesift_with_closed_stderr(&["eval".as_ref(), m.as_os_str()]),
        Some(2)
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A page whose html or gold file is missing is named with what could not
/// be read, each OS error once, and scored as a failure; the run goes on.
#[test]
fn a_missing_page_file_is_named_with_its_os_error_once() {
    let dir = temp_dir("eval-missing-page");
    let m = dir.join("m.tsv");
    std::fs::write(dir.join("gold.txt"), "some gold words").unwrap();
    std::fs::write(
        &m,
        "dataset\tid\thtml\tgold_text\n\
         d\t1\tnone.html\tgold.txt\n\
         d\t2\tnone.html\tnone.txt\n",
    )
    .unwrap();
    let (code, stderr) = linesift_eval(&[m.as_os_str()]);
    assert_eq!(code, Some(0), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(
        lines[0].ends_with("reading html: No such file or directory (os error 2)"),
        "{stderr}"
    );
    assert!(
        lines[1].ends_with(
            "reading html: No such file or directory (os error 2); \
             reading gold: No such file or directory (os error 2)"
        ),
        "{stderr}"
    );
    for line in lines {
        assert_eq!(
            line.matches("os error 2").count(),
            line.matches("reading").count()
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Control characters in a manifest's name or a page's path are escaped
/// on stderr (`\u{1b}`), as `extract` and `warc` show names.
#[test]
fn control_characters_in_names_are_escaped_on_stderr() {
    let dir = temp_dir("eval-control");
    let (code, stderr) = linesift_eval(&[dir.join("m\u{1b}[31m.tsv").as_os_str()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("m\\u{1b}[31m.tsv: No such file"),
        "{stderr}"
    );
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    let m = dir.join("m.tsv");
    std::fs::write(
        &m,
        "dataset\tid\thtml\tgold_text\nd\t1\tno\u{1b}[2J.html\tg.txt\n",
    )
    .unwrap();
    let (code, stderr) = linesift_eval(&[m.as_os_str()]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("no\\u{1b}[2J.html"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    let _ = std::fs::remove_dir_all(dir);
}

/// An option set of `--compare` that does not parse is one line naming
/// the set and the error, as every error is, without clap's usage
/// lines.
#[test]
fn a_compare_option_set_that_does_not_parse_is_one_line() {
    let dir = temp_dir("eval-compare-bad");
    let m = fixture(&dir);
    let (code, stderr) = linesift_eval(&[
        m.as_os_str(),
        "--compare".as_ref(),
        "--gap x".as_ref(),
        "".as_ref(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--compare \"--gap x\""), "{stderr}");
    assert!(stderr.contains("invalid value 'x'"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A table that cannot be written (a full disk) is an error naming
/// stdout (exit 2), as `extract` names it, not the OS error alone.
#[test]
fn a_failed_write_of_the_table_names_stdout() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let dir = temp_dir("eval-full");
    let m = fixture(&dir);
    let out = linesift_command(&["eval".as_ref(), m.as_os_str()])
        .stdout(std::fs::File::create(full).unwrap())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.lines().last(),
        Some("linesift: writing stdout: No space left on device (os error 28)"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A manifest that lists no page (its header alone) is an error naming
/// it (exit 2), not an empty table and exit code 0.
#[test]
fn a_manifest_without_pages_is_an_error() {
    let dir = temp_dir("eval-no-pages");
    let m = dir.join("m.tsv");
    std::fs::write(&m, "dataset\tid\thtml\tgold_text\n\n").unwrap();
    let out = linesift(&["eval".as_ref(), m.as_os_str()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        format!("linesift: {}: lists no page: nothing to score", m.display())
    );
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

/// A huge `--jobs` is capped (at the cores and the pages), not a pool of
/// 100,000 threads that never finishes starting: the table is printed.
#[test]
fn a_huge_jobs_count_scores_the_pages_without_hanging() {
    let dir = temp_dir("eval-huge-jobs");
    let m = fixture(&dir);
    let mut child = linesift_command(&[
        "eval".as_ref(),
        m.as_os_str(),
        "-j".as_ref(),
        "100000".as_ref(),
    ])
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped())
    .spawn()
    .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(30) {
            let _ = child.kill();
            panic!("eval -j 100000 still running after 30 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("\nnews"), "{table}");
    let _ = std::fs::remove_dir_all(dir);
}
