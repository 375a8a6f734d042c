//! `--links` on the command line: `extract` of a local file (no URL:
//! relative hrefs as written) and `warc` (resolved against the record's
//! `WARC-Target-URI` and the page's `<base>`), each JSON line with a
//! `links` list; without the flag no such field.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

const FIXTURE: &str = "tests/fixtures/links/article.html";

fn linesift(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn urls(doc: &Value) -> Vec<(String, bool)> {
    doc["links"]
        .as_array()
        .expect("a links list")
        .iter()
        .map(|l| {
            let url = l["url"].as_str().unwrap_or_default().to_string();
            (url, l["in_content"].as_bool().unwrap_or_default())
        })
        .collect()
}

#[test]
fn extract_adds_links_only_when_asked() {
    let (code, out, err) = linesift(&["extract", "--format", "jsonl", "--links", FIXTURE]);
    assert_eq!(code, 0, "{err}");
    let docs = lines(&out);
    assert_eq!(docs.len(), 1);
    let got = urls(&docs[0]);
    assert_eq!(got.len(), 8, "{got:?}");
    assert_eq!(got[0], ("/".to_string(), false));
    assert_eq!(got[3], ("crossing.html".to_string(), true));
    assert_eq!(docs[0]["links"][2]["rel"], "external nofollow");
    assert_eq!(docs[0]["links"][2]["text"], "2024 survey of the bay");
    let (code, out, err) = linesift(&["extract", "--format", "jsonl", FIXTURE]);
    assert_eq!(code, 0, "{err}");
    assert!(lines(&out)[0].get("links").is_none());
}

/// One WARC response record of the fixture, written by hand.
fn warc(uri: &str) -> PathBuf {
    let body = std::fs::read_to_string(FIXTURE).expect("fixture");
    let http = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let record = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>\r\n\
         WARC-Target-URI: {uri}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
        http.len()
    );
    let path = std::env::temp_dir().join(format!("links-cli-{}.warc", std::process::id()));
    std::fs::write(&path, record).expect("write warc");
    path
}

#[test]
fn warc_resolves_links_against_the_record_s_uri_and_base() {
    let path = warc("https://coast.example/2024/tides.html");
    let input = path.to_str().expect("utf-8 path");
    let (code, out, err) = linesift(&["warc", "--links", input, "-o", "-"]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 0, "{err}");
    let docs = lines(&out);
    assert_eq!(docs.len(), 1, "{out}");
    let got = urls(&docs[0]);
    assert_eq!(
        got[..4],
        [
            ("https://coast.example/".to_string(), false),
            ("https://coast.example/notes/archive/".to_string(), false),
            ("https://survey.example.org/bay-2024".to_string(), true),
            (
                "https://coast.example/notes/crossing.html".to_string(),
                true
            ),
        ]
    );
    assert_eq!(
        docs[0]["canonical"],
        "https://coast.example/notes/tides.html?print=0"
    );
}
