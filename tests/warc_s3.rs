//! Remote WARCs on S3, end to end against moto's S3 server on loopback
//! (tests/remote_support; it stands in for S3's API, not its
//! authentication): a whole object and a record by ranged GET give what
//! the local file gives, signed or anonymous, a read cut or refused
//! resumes, a missing key is a clear error and a range past the end
//! finds no record.

mod remote_support;
mod warc_support;

use remote_support::{Fault, Moto, Origin, documents};
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use warc_support::*;

/// `linesift ARGS...` against `moto`, with test credentials (or none,
/// `anonymous`).
fn linesift_s3(moto: &Moto, anonymous: bool, args: &[&str]) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_linesift"));
    cmd.args(args)
        .env("AWS_ENDPOINT_URL", &moto.endpoint)
        .env("AWS_REGION", "us-east-1")
        .env("LINESIFT_REMOTE_BACKOFF", "0.05")
        .env("LINESIFT_REMOTE_RETRIES", "1")
        .env("NO_PROXY", "127.0.0.1")
        .env_remove("AWS_PROFILE");
    match anonymous {
        true => cmd
            .env("AWS_SKIP_SIGNATURE", "true")
            .env_remove("AWS_ACCESS_KEY_ID")
            .env_remove("AWS_SECRET_ACCESS_KEY"),
        false => cmd
            .env("AWS_ACCESS_KEY_ID", "test")
            .env("AWS_SECRET_ACCESS_KEY", "test")
            .env_remove("AWS_SKIP_SIGNATURE"),
    };
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn warc_out(
    name: &str,
    input: &str,
    moto: Option<(&Moto, bool)>,
    args: &[&str],
) -> (i32, String, Vec<Value>) {
    let out = scratch(name).with_extension("jsonl");
    let mut all = vec!["warc", input, "-o", out.to_str().unwrap()];
    all.extend(args);
    let (code, stderr) = match moto {
        Some((moto, anonymous)) => linesift_s3(moto, anonymous, &all),
        None => {
            let (code, _, stderr) = linesift(&all);
            (code, stderr)
        }
    };
    let docs = if out.exists() {
        documents(&out)
    } else {
        Vec::new()
    };
    (code, stderr, docs)
}

#[test]
fn an_s3_object_read_whole_or_by_record_gives_what_the_local_file_gives() {
    let (path, written) = make_warc("s3-whole", &simple_spec(30), true);
    let (code, stderr, local) = warc_out("s3-local", path.to_str().unwrap(), None, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(local.len(), 30);
    let moto = Moto::start();
    let bytes = std::fs::read(&path).unwrap();
    moto.put("crawl", "segments/a/x.warc.gz", "public-read", &bytes);
    moto.put("crawl", "private/x.warc.gz", "private", &bytes);
    let url = "s3://crawl/segments/a/x.warc.gz";
    let (code, stderr, whole) = warc_out("s3-remote", url, Some((&moto, false)), &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        whole == local,
        "{} documents from S3, {} locally",
        whole.len(),
        local.len()
    );
    let w = &written[12];
    let (offset, length) = (w.offset.to_string(), w.length.to_string());
    let args = ["--offset", offset.as_str(), "--length", length.as_str()];
    let (code, stderr, one) = warc_out("s3-record", url, Some((&moto, false)), &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(one[..] == local[12..13], "{one:?}");
    // Unsigned requests, as for a public bucket: they read a public
    // object, and a private one is refused.
    let (code, stderr, anonymous) = warc_out("s3-anon", url, Some((&moto, true)), &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(anonymous == one);
    let private = "s3://crawl/private/x.warc.gz";
    let (code, stderr, refused) = warc_out("s3-private", private, Some((&moto, true)), &args);
    assert_ne!(code, 0);
    assert!(refused.is_empty());
    assert!(
        stderr.contains(private) && stderr.contains("403"),
        "{stderr}"
    );
}

#[test]
fn a_missing_s3_key_is_a_clear_error() {
    let moto = Moto::start();
    moto.put("crawl", "present.warc.gz", "private", b"");
    let url = "s3://crawl/absent.warc.gz";
    let (code, stderr, docs) = warc_out("s3-missing", url, Some((&moto, false)), &[]);
    assert_ne!(code, 0);
    assert!(docs.is_empty());
    assert!(
        stderr.contains(url) && stderr.to_lowercase().contains("not found"),
        "{stderr}"
    );
}

#[test]
fn a_columnar_index_export_reads_its_records_from_s3() {
    let (path, written) = make_warc("s3-index", &simple_spec(12), true);
    let moto = Moto::start();
    let key = "crawl-data/seg/s3-index.warc.gz";
    moto.put(
        "commoncrawl",
        key,
        "public-read",
        &std::fs::read(&path).unwrap(),
    );
    let mut csv = String::from(
        "url,fetch_status,content_mime_type,warc_filename,warc_record_offset,warc_record_length\n",
    );
    for (i, w) in written.iter().enumerate() {
        let status = if i == 4 { 404 } else { 200 };
        csv.push_str(&format!(
            "\"http://site{i}.example/page?a=1,b=2\",{status},text/html,{key},{},{}\n",
            w.offset, w.length
        ));
    }
    let list = scratch("s3-index").with_extension("csv");
    std::fs::write(&list, csv).unwrap();
    let out = scratch("s3-index").with_extension("jsonl");
    let args = [
        "run",
        list.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--warc-prefix",
        "s3://commoncrawl/",
        "--status",
        "200",
    ];
    let (code, stderr) = linesift_s3(&moto, true, &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("1 index entries passed over"), "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    let mut ids: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["warc_record_id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    ids.sort();
    let mut expected: Vec<String> = written
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 4)
        .map(|(_, w)| w.id.clone())
        .collect();
    expected.sort();
    assert_eq!(ids, expected);
}

/// moto injects no faults; the test origin does, and answers an unsigned
/// S3 GET (path-style `/BUCKET/KEY`) as S3 would for these reads. The key
/// holds "416", as Common Crawl's segment keys do: only the status of a
/// refused range may end a read.
#[test]
fn an_s3_read_cut_mid_body_or_refused_with_503_resumes_where_it_stopped() {
    let (path, written) = make_warc("s3-faults", &simple_spec(30), true);
    let (_, stderr, local) = warc_out("s3-faults-local", path.to_str().unwrap(), None, &[]);
    assert_eq!(local.len(), 30, "{stderr}");
    let bytes = std::fs::read(&path).unwrap();
    let cut = bytes.len() / 2;
    let origin = Origin::serve(bytes);
    origin.script(&[Fault::CutAfter(cut), Fault::Status(503)]);
    let out = scratch("s3-faults").with_extension("jsonl");
    let out = out.to_str().unwrap();
    let key = "s3://crawl/segments/1707947473416.52/x.warc.gz";
    let (code, stderr) = Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args(["warc", key, "-o", out])
        .env("AWS_ENDPOINT_URL", origin.base.trim_end_matches('/'))
        .env("AWS_SKIP_SIGNATURE", "true")
        .env("AWS_REGION", "us-east-1")
        .env("LINESIFT_REMOTE_BACKOFF", "0.05")
        .env("NO_PROXY", "127.0.0.1")
        .output()
        .map(|o| {
            (
                o.status.code(),
                String::from_utf8_lossy(&o.stderr).into_owned(),
            )
        })
        .unwrap();
    assert_eq!(code, Some(0), "{stderr}");
    let remote = documents(Path::new(out));
    assert!(
        remote == local,
        "{} documents from S3, {} locally",
        remote.len(),
        local.len()
    );
    let resumed = format!("bytes={cut}-");
    assert_eq!(
        origin.requests(),
        vec!["-".to_string(), resumed.clone(), resumed]
    );
    // A record is one ranged GET, as over HTTPS.
    let w = &written[7];
    let (offset, length) = (w.offset.to_string(), w.length.to_string());
    let status = Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args(["warc", "s3://crawl/x.warc.gz", "-o", out])
        .args(["--offset", &offset, "--length", &length])
        .env("AWS_ENDPOINT_URL", origin.base.trim_end_matches('/'))
        .env("AWS_SKIP_SIGNATURE", "true")
        .env("NO_PROXY", "127.0.0.1")
        .status()
        .unwrap();
    assert!(status.success());
    assert!(documents(Path::new(out))[..] == local[7..8]);
    let asked = format!("bytes={}-{}", w.offset, w.offset + w.length - 1);
    assert_eq!(origin.requests()[3..], [asked]);
}

/// S3 refuses a range that starts past the object's end with a 416: the
/// read ends there (no record starts at that offset), at once, not tried
/// again as a fault would be.
#[test]
fn a_record_read_past_an_s3_objects_end_finds_no_record_there() {
    let (path, _) = make_warc("s3-past-end", &simple_spec(3), true);
    let bytes = std::fs::read(&path).unwrap();
    let moto = Moto::start();
    moto.put("crawl", "past/x.warc.gz", "public-read", &bytes);
    let past = (bytes.len() + 1000).to_string();
    let args = ["--offset", past.as_str(), "--length", "100"];
    let url = "s3://crawl/past/x.warc.gz";
    let (code, stderr, docs) = warc_out("s3-past-end", url, Some((&moto, true)), &args);
    assert_eq!(code, 1, "{stderr}");
    assert!(docs.is_empty());
    assert!(
        stderr.contains(&format!("no record starts at offset {past}")),
        "{stderr}"
    );
    assert!(!stderr.contains("tries"), "{stderr}");
}

/// Writes the AWS shared files a profile test reads: `credentials` and
/// `config` in `dir`.
fn shared_files(dir: &Path, credentials: &str, config: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("credentials"), credentials).unwrap();
    std::fs::write(dir.join("config"), config).unwrap();
}

/// `linesift warc URL --offset --length` of written record `w`, with a
/// clean AWS environment (no keys, no region, no profile) plus `env`.
fn read_record_s3(
    endpoint: &str,
    url: &str,
    w: &Written,
    out: &Path,
    env: &[(&str, &str)],
) -> (Option<i32>, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_linesift"));
    cmd.args(["warc", url, "-o", out.to_str().unwrap()])
        .args(["--offset", &w.offset.to_string()])
        .args(["--length", &w.length.to_string()])
        .env("AWS_ENDPOINT_URL", endpoint)
        .env("NO_PROXY", "127.0.0.1")
        .env("LINESIFT_REMOTE_RETRIES", "0");
    for name in [
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
        "AWS_PROFILE",
        "AWS_SKIP_SIGNATURE",
        "AWS_SHARED_CREDENTIALS_FILE",
        "AWS_CONFIG_FILE",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    ] {
        cmd.env_remove(name);
    }
    cmd.envs(env.iter().copied());
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const CREDENTIALS: &str = "\
[default]
aws_access_key_id = AKIDDEFAULT
aws_secret_access_key = secretdefault

[crawler]
aws_access_key_id = AKIDCRAWLER
aws_secret_access_key = secretcrawler
aws_session_token = tokencrawler
";

const CONFIG: &str = "\
[default]
region = ap-south-1

[profile crawler]
region = eu-west-3
s3 =
  region = nowhere-1
";

/// With no keys in the environment, a profile of the shared files signs
/// the requests: `AWS_PROFILE`'s keys (from `~/.aws/credentials`) and
/// region (from `~/.aws/config`) are in the signature and its session
/// token is sent; without `AWS_PROFILE` the default profile of the files
/// `AWS_SHARED_CREDENTIALS_FILE` and `AWS_CONFIG_FILE` name is; keys and
/// region in the environment come before any profile.
#[test]
fn s3_requests_are_signed_with_a_profile_of_the_shared_files() {
    let (path, written) = make_warc("s3-profile", &simple_spec(5), true);
    let (_, stderr, local) = warc_out("s3-profile-local", path.to_str().unwrap(), None, &[]);
    assert_eq!(local.len(), 5, "{stderr}");
    let origin = Origin::serve(std::fs::read(&path).unwrap());
    let endpoint = origin.base.trim_end_matches('/');
    let home = scratch("s3-profile-home");
    shared_files(&home.join(".aws"), CREDENTIALS, CONFIG);
    let elsewhere = scratch("s3-profile-files");
    shared_files(
        &elsewhere,
        "[default]\naws_access_key_id=AKIDELSEWHERE\naws_secret_access_key=s\n",
        "[default]\nregion=sa-east-1\n",
    );
    let home = home.to_str().unwrap();
    let (credentials, config) = (elsewhere.join("credentials"), elsewhere.join("config"));
    // The environment, the key id the signature names, its scope's region.
    type Case<'a> = (&'a [(&'a str, &'a str)], &'a str, &'a str);
    let cases: [Case; 3] = [
        (
            &[("HOME", home), ("AWS_PROFILE", "crawler")],
            "Credential=AKIDCRAWLER/",
            "/eu-west-3/s3/aws4_request",
        ),
        (
            &[
                ("HOME", home),
                ("AWS_SHARED_CREDENTIALS_FILE", credentials.to_str().unwrap()),
                ("AWS_CONFIG_FILE", config.to_str().unwrap()),
            ],
            "Credential=AKIDELSEWHERE/",
            "/sa-east-1/s3/aws4_request",
        ),
        (
            &[
                ("HOME", home),
                ("AWS_PROFILE", "crawler"),
                ("AWS_ACCESS_KEY_ID", "AKIDENV"),
                ("AWS_SECRET_ACCESS_KEY", "secretenv"),
                ("AWS_REGION", "us-east-2"),
            ],
            "Credential=AKIDENV/",
            "/us-east-2/s3/aws4_request",
        ),
    ];
    let out = scratch("s3-profile").with_extension("jsonl");
    for (i, (env, key, scope)) in cases.into_iter().enumerate() {
        let (code, stderr) =
            read_record_s3(endpoint, "s3://crawl/x.warc.gz", &written[2], &out, env);
        assert_eq!(code, Some(0), "case {i}: {stderr}");
        assert!(documents(&out)[..] == local[2..3], "case {i}");
        let (authorization, token) = origin.signed().pop().unwrap();
        assert!(
            authorization.contains(key) && authorization.contains(scope),
            "case {i}: {authorization}"
        );
        // Only the crawler profile's own keys carry its token.
        let expected = if i == 0 { "tokencrawler" } else { "" };
        assert_eq!(token, expected, "case {i}");
    }
}

/// moto reads a private object for a request signed with a profile's keys
/// (moto takes any signature: what it shows is that the profile gives
/// keys to sign with, where the environment has none).
#[test]
fn a_private_s3_object_is_read_with_a_profile_of_the_shared_files() {
    let (path, written) = make_warc("s3-profile-moto", &simple_spec(4), true);
    let (_, stderr, local) = warc_out("s3-profile-moto-local", path.to_str().unwrap(), None, &[]);
    assert_eq!(local.len(), 4, "{stderr}");
    let moto = Moto::start();
    moto.put(
        "crawl",
        "private/y.warc.gz",
        "private",
        &std::fs::read(&path).unwrap(),
    );
    let home = scratch("s3-profile-moto-home");
    shared_files(&home.join(".aws"), CREDENTIALS, CONFIG);
    let out = scratch("s3-profile-moto").with_extension("jsonl");
    let env = [("HOME", home.to_str().unwrap()), ("AWS_PROFILE", "crawler")];
    let url = "s3://crawl/private/y.warc.gz";
    let (code, stderr) = read_record_s3(&moto.endpoint, url, &written[1], &out, &env);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(documents(&out)[..] == local[1..2]);
}
