//! Near-duplicate fingerprints on hand-written pages: one article on a
//! site template, again with a changed footer and with a changed date,
//! is found as a near duplicate; two different articles on the same
//! template are not. Then `linesift dedup` over their JSONL drops the
//! exact and near copies and keeps the rest; lines it cannot read pass
//! as they are, and its output replaces OUT only once it is whole.

use linesift::dedup::{Deduper, Verdict};
use linesift::extract::fingerprint::distance;
use linesift::{Document, Extractor, Hints, Options};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const PIER: &[&str] = &[
    "The harbour board of Lindmere voted on Tuesday to rebuild the old stone pier, which \
     storms damaged twice in the last three winters, and to open it to fishing boats again \
     by the spring.",
    "Residents had asked for the work since the second storm, when the pier's northern arm \
     broke away and the ferry had to berth at the new quay on the far side of the bay.",
    "The board said the rebuilt pier would keep its old line but stand a metre higher, so \
     that waves at high tide no longer break over its deck, and that its lamps would be \
     restored.",
    "Work starts in March; the ferry keeps its present berth until the pier reopens, and \
     the fish market moves to the square for the summer.",
];

const ORCHARD: &[&str] = &[
    "A community orchard opened in the east of the town on Saturday, on land the council \
     bought from a closed nursery two years ago, with forty apple and pear trees planted by \
     volunteers.",
    "The trees are old local varieties collected from gardens around the valley; several \
     had no name and were given the names of the streets where they were found.",
    "Anyone may pick the fruit once it is ripe, the volunteers said, as long as they leave \
     enough on each tree for the next visitor and for the birds.",
    "A pruning class is held on the first Sunday of each month, and the cider press in the \
     barn will be lent out in the autumn.",
];

/// The site's template around an article.
fn page(title: &str, paragraphs: &[&str], date: &str, footer: &str) -> String {
    let body: String = paragraphs.iter().map(|p| format!("<p>{p}</p>")).collect();
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{title} | Lindmere \
         Gazette</title></head><body><header><a href=\"/\">Lindmere Gazette</a><nav><ul>\
         <li><a href=\"/news\">News</a></li><li><a href=\"/sport\">Sport</a></li>\
         <li><a href=\"/weather\">Weather</a></li></ul></nav></header><main><article>\
         <h1>{title}</h1><p class=\"date\">Published {date}</p>{body}</article></main>\
         <aside><h2>Most read</h2><ul><li><a href=\"/a\">Bridge closed for repairs</a></li>\
         <li><a href=\"/b\">Library extends its opening hours</a></li></ul></aside>\
         <footer><p>{footer}</p><p><a href=\"/privacy\">Privacy</a></p></footer></body></html>"
    )
}

fn extract(html: &str) -> Document {
    Extractor::new(Options {
        metadata: true,
        simhash: true,
        ..Options::default()
    })
    .extract(html.as_bytes(), &Hints::default())
    .expect("extracts")
}

fn simhash(doc: &Document) -> u64 {
    u64::from_str_radix(&doc.simhash, 16).expect("hex")
}

fn digest(doc: &Document) -> u128 {
    u128::from_str_radix(&doc.digest, 16).expect("hex")
}

fn pages() -> [Document; 4] {
    let title = "Harbour board votes to rebuild the old pier";
    [
        page(
            title,
            PIER,
            "3 March 2024",
            "© 2024 Lindmere Gazette. All rights reserved.",
        ),
        page(
            title,
            PIER,
            "3 March 2024",
            "© 2025 Lindmere Gazette Ltd. Contact the newsroom.",
        ),
        page(
            title,
            PIER,
            "4 March 2024",
            "© 2024 Lindmere Gazette. All rights reserved.",
        ),
        page(
            "Community orchard opens in the east of town",
            ORCHARD,
            "3 March 2024",
            "© 2024 Lindmere Gazette. All rights reserved.",
        ),
    ]
    .map(|html| extract(&html))
}

#[test]
fn a_changed_footer_or_date_is_a_near_duplicate_and_another_article_is_not() {
    let [original, footer, date, other] = pages();
    assert!(original.text.contains("stone pier"), "{}", original.text);
    assert!(other.text.contains("orchard"), "{}", other.text);
    let mut dedup = Deduper::new(6, 100);
    assert_eq!(
        dedup.check(digest(&original), simhash(&original)),
        Verdict::Kept
    );
    for copy in [&footer, &date] {
        let verdict = dedup.check(digest(copy), simhash(copy));
        assert!(
            matches!(verdict, Verdict::Near(_) | Verdict::Exact),
            "{verdict:?}, {} bits apart",
            distance(simhash(&original), simhash(copy))
        );
    }
    assert!(distance(simhash(&original), simhash(&other)) > 10);
    assert_eq!(dedup.check(digest(&other), simhash(&other)), Verdict::Kept);
}

/// The same articles in Chinese, written without spaces between words.
const PIER_ZH: &[&str] = &[
    "林德米尔港务委员会周二投票决定重建旧石码头。过去三个冬天，风暴两次损坏了这座码头，\
     委员会希望在明年春天之前让渔船重新停靠。",
    "自第二次风暴以来，居民一直要求进行修缮。那次风暴冲走了码头的北臂，渡轮只好停靠在\
     海湾对面的新码头。",
    "委员会表示，重建后的码头将保持原来的走向，但会加高一米，这样涨潮时的海浪就不会再\
     越过码头的甲板，码头上的路灯也将得到修复。",
    "工程将于三月开工；在码头重新开放之前，渡轮继续使用现在的泊位，鱼市在夏天搬到广场上。",
];

const ORCHARD_ZH: &[&str] = &[
    "周六，一座社区果园在镇东开放。这块地是议会两年前从一家关闭的苗圃买下的，志愿者在\
     这里种下了四十棵苹果树和梨树。",
    "这些果树都是从山谷各处的花园里收集来的本地老品种，其中几棵没有名字，于是用发现它们\
     的街道来命名。",
    "志愿者说，果实成熟后任何人都可以采摘，只要在每棵树上给下一位来访者和鸟儿留下足够的果子。",
    "每个月的第一个星期日有修剪课，谷仓里的榨汁机将在秋天借给大家使用。",
];

/// A Chinese article again with a changed date and a changed word is a
/// near duplicate, as an English one is, and another article is not.
#[test]
fn a_near_copy_of_a_chinese_article_is_found() {
    let title = "港务委员会投票决定重建旧码头";
    let footer = "© 2024 林德米尔公报。保留所有权利。";
    let original = extract(&page(title, PIER_ZH, "2024年3月3日", footer));
    let mut changed: Vec<String> = PIER_ZH.iter().map(|p| p.to_string()).collect();
    changed[0] = changed[0].replacen("周二", "周三", 1);
    let changed: Vec<&str> = changed.iter().map(String::as_str).collect();
    let copy = extract(&page(title, &changed, "2024年3月4日", footer));
    let other = extract(&page(
        "社区果园在镇东开放",
        ORCHARD_ZH,
        "2024年3月3日",
        footer,
    ));
    assert!(original.text.contains("石码头"), "{}", original.text);
    assert!(copy.text.contains("周三"), "{}", copy.text);
    let mut dedup = Deduper::new(6, 100);
    assert_eq!(
        dedup.check(digest(&original), simhash(&original)),
        Verdict::Kept
    );
    let verdict = dedup.check(digest(&copy), simhash(&copy));
    assert!(
        matches!(verdict, Verdict::Near(_)),
        "{verdict:?}, {} bits apart",
        distance(simhash(&original), simhash(&copy))
    );
    assert!(distance(simhash(&original), simhash(&other)) > 10);
    assert_eq!(dedup.check(digest(&other), simhash(&other)), Verdict::Kept);
}

#[test]
fn dedup_drops_the_copies_from_a_jsonl_stream_and_passes_other_lines() {
    let [original, footer, date, other] = pages();
    let mut input = Vec::new();
    for (name, doc) in [
        ("a", &original),
        ("b", &footer),
        ("c", &date),
        ("d", &other),
        ("e", &original),
    ] {
        let mut line = serde_json::to_value(doc).expect("serializes");
        line["path"] = name.into();
        writeln!(input, "{line}").expect("writes");
    }
    writeln!(input, r#"{{"path":"f","error":"not found"}}"#).expect("writes");
    let mut child = Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args(["dedup"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&input)
        .expect("feeds");
    let out = child.wait_with_output().expect("ends");
    assert!(out.status.success());
    let kept: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON")["path"].to_string())
        .collect();
    assert_eq!(kept, [r#""a""#, r#""d""#, r#""f""#]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("6 lines, 2 kept, 2 exact and 1 near duplicates"),
        "{stderr}"
    );
}

/// A fresh empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("linesift-dedup-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creates the folder");
    dir
}

/// `linesift dedup` with these arguments and nothing on stdin.
fn dedup(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_linesift"))
        .arg("dedup")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("runs")
}

/// A document line as `extract --simhash` writes it, cut to what dedup
/// reads.
fn doc(path: &str, digest: &str, simhash: &str) -> String {
    format!(r#"{{"path":"{path}","digest":"{digest}","simhash":"{simhash}"}}"#)
}

const DIGEST: &str = "e0c2fb8e5736bf8b7bb4d2981b2e4771";
const SIMHASH: &str = "22fe0c75247e88a8";

/// Files in a folder other than `keep`: what a run left behind.
fn left_behind(dir: &Path, keep: &[&str]) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("lists")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| !keep.contains(&name.as_str()))
        .collect()
}

#[test]
fn dedup_refuses_an_output_that_is_its_input_and_leaves_it_whole() {
    let dir = scratch("same");
    let file = dir.join("docs.jsonl");
    let text = format!(
        "{}\n{}\n",
        doc("a", DIGEST, SIMHASH),
        doc("b", DIGEST, SIMHASH)
    );
    std::fs::write(&file, &text).expect("writes");
    let out = dedup(&[&file, Path::new("-o"), &file]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is the input"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).expect("reads"), text);
}

#[test]
fn a_failed_dedup_leaves_the_old_output_as_it_was() {
    let dir = scratch("failed");
    let output = dir.join("out.jsonl");
    std::fs::write(&output, "old\n").expect("writes");
    // A folder opens but cannot be read: the run fails after the output
    // was opened.
    let unreadable = dir.join("folder");
    std::fs::create_dir(&unreadable).expect("creates");
    let out = dedup(&[&unreadable, Path::new("-o"), &output]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&output).expect("reads"), "old\n");
    assert_eq!(
        left_behind(&dir, &["out.jsonl", "folder"]),
        Vec::<String>::new()
    );
    // A run that succeeds replaces it, and leaves nothing else.
    let input = dir.join("in.jsonl");
    std::fs::write(&input, doc("a", DIGEST, SIMHASH) + "\n").expect("writes");
    let out = dedup(&[&input, Path::new("-o"), &output]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&output).expect("reads"),
        doc("a", DIGEST, SIMHASH) + "\n"
    );
    assert_eq!(
        left_behind(&dir, &["out.jsonl", "folder", "in.jsonl"]),
        Vec::<String>::new()
    );
}

#[test]
fn lines_not_utf8_or_not_json_pass_unchanged_named_by_number() {
    let dir = scratch("unreadable");
    let input = dir.join("in.jsonl");
    let output = dir.join("out.jsonl");
    let mut bytes = Vec::new();
    writeln!(bytes, "{}", doc("a", DIGEST, SIMHASH)).expect("writes");
    bytes.extend_from_slice(b"{\"path\":\"caf\xe9\",\"digest\":\"x\"}\n");
    bytes.extend_from_slice(b"{\"broken json\n\n");
    // Lines after the bad ones are still read: this copy is left out.
    writeln!(bytes, "{}", doc("b", DIGEST, SIMHASH)).expect("writes");
    writeln!(bytes, r#"{{"path":"c","error":"not found"}}"#).expect("writes");
    std::fs::write(&input, &bytes).expect("writes");
    let out = dedup(&[&input, Path::new("-o"), &output]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut expected = Vec::new();
    writeln!(expected, "{}", doc("a", DIGEST, SIMHASH)).expect("writes");
    expected.extend_from_slice(b"{\"path\":\"caf\xe9\",\"digest\":\"x\"}\n{\"broken json\n");
    writeln!(expected, r#"{{"path":"c","error":"not found"}}"#).expect("writes");
    assert_eq!(std::fs::read(&output).expect("reads"), expected);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 2 is not UTF-8"), "{stderr}");
    assert!(stderr.contains("line 3 is not JSON"), "{stderr}");
    assert!(
        stderr.contains("5 lines, 1 kept, 1 exact and 0 near duplicates left out; passed unchanged: 1 without a fingerprint, 0 with a malformed one, 2 unreadable"),
        "{stderr}"
    );
}

#[test]
fn only_the_first_unreadable_lines_are_named_and_the_rest_counted() {
    let dir = scratch("many");
    let input = dir.join("in.jsonl");
    let bytes: Vec<u8> = (0..1000).flat_map(|_| *b"\xff\xfe\n").collect();
    std::fs::write(&input, &bytes).expect("writes");
    let out = dedup(&[&input, Path::new("-o"), Path::new("/dev/null")]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.lines().count() <= 7, "{stderr}");
    assert!(stderr.contains("line 5 is not UTF-8"), "{stderr}");
    assert!(stderr.contains("995 more"), "{stderr}");
    assert!(stderr.contains("1000 unreadable"), "{stderr}");
}

#[test]
fn hex_of_either_case_is_read_and_a_malformed_fingerprint_is_counted_apart() {
    let dir = scratch("hex");
    let input = dir.join("in.jsonl");
    let empty = linesift::extract::document::digest("");
    let lines = [
        doc("a", DIGEST, SIMHASH),
        // The same text written in upper case: an exact duplicate.
        doc("b", &DIGEST.to_uppercase(), &SIMHASH.to_uppercase()),
        // Two documents without text (the same empty digest) both pass.
        doc("c", &empty.to_uppercase(), "0000000000000000"),
        doc("d", &empty.to_uppercase(), "0000000000000000"),
        doc("e", DIGEST, "not hex"),
        format!(r#"{{"path":"f","digest":"{DIGEST}","simhash":12}}"#),
        // A sign is no hex digit.
        doc("h", DIGEST, &format!("+{}", &SIMHASH[1..])),
        doc("i", &format!("+{}", &DIGEST[1..]), SIMHASH),
        // No SimHash (made without --simhash): the same digest as "a".
        format!(r#"{{"path":"g","digest":"{DIGEST}"}}"#),
    ];
    std::fs::write(&input, lines.join("\n")).expect("writes");
    let out = dedup(&[&input]);
    assert!(out.status.success());
    let kept: Vec<&str> = std::str::from_utf8(&out.stdout)
        .expect("UTF-8")
        .lines()
        .collect();
    let expected: Vec<&str> = lines
        .iter()
        .map(String::as_str)
        .filter(|l| !l.contains(r#""b""#) && !l.contains(r#""g""#))
        .collect();
    assert_eq!(kept, expected);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("9 lines, 1 kept, 2 exact and 0 near duplicates left out; passed unchanged: 2 without a fingerprint, 4 with a malformed one, 0 unreadable"),
        "{stderr}"
    );
}

/// Documents extracted without `--simhash` carry their digest alone:
/// dedup still leaves out the exact copies among them, and keeps the near
/// ones, which only a SimHash tells.
#[test]
fn documents_made_without_simhash_lose_their_exact_copies() {
    let dir = scratch("no-simhash");
    let original = page(
        "Pier to be rebuilt",
        PIER,
        "3 March 2024",
        "© Lindmere Gazette",
    );
    let mut changed = PIER.to_vec();
    changed[3] = "Work starts in April; the ferry keeps its present berth until the pier reopens.";
    let pages = [
        ("a.html", original.clone()),
        ("b.html", original),
        (
            "c.html",
            page(
                "Pier to be rebuilt",
                &changed,
                "3 March 2024",
                "© Lindmere Gazette",
            ),
        ),
    ];
    let mut names = vec![PathBuf::from("extract"), "--format".into(), "jsonl".into()];
    for (name, html) in &pages {
        std::fs::write(dir.join(name), html).expect("writes");
        names.push(dir.join(name));
    }
    let extracted = Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args(&names)
        .output()
        .expect("runs");
    assert!(extracted.status.success());
    let jsonl = dir.join("docs.jsonl");
    std::fs::write(&jsonl, &extracted.stdout).expect("writes");
    let out = dedup(&[&jsonl]);
    assert!(out.status.success());
    let kept: Vec<&str> = std::str::from_utf8(&out.stdout)
        .expect("UTF-8")
        .lines()
        .collect();
    assert_eq!(kept.len(), 2, "{kept:?}");
    assert!(
        kept[0].contains("a.html") && kept[1].contains("c.html"),
        "{kept:?}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("3 lines, 2 kept, 1 exact and 0 near duplicates left out"),
        "{stderr}"
    );
}

#[test]
fn a_window_of_zero_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args(["dedup", "--window", "0"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--window"), "{stderr}");
}
