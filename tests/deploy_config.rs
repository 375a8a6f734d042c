//! The deployment files (docker-compose.yml, Dockerfile, deploy/) checked
//! without a Docker engine or a cluster: they parse, the external tools
//! that understand them accept them (each skipped with a note when the tool
//! is absent), and they agree with each other and with the worker's metric
//! names.

mod amqp_support;

use amqp_support::definitions::DefinitionsVhost;
use linesift::codec::stack::{LAYER_MEMORY, MAX_CODINGS};
use linesift::worker::topology::{ROUTING_DOCUMENT, ROUTING_FAILURE};
use serde::Deserialize;
use serde_json::Value as Json;
use serde_norway::Value as Yaml;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("reading {rel}: {e}"))
}

fn yaml_documents(rel: &str) -> Vec<Yaml> {
    let text = read(rel);
    serde_norway::Deserializer::from_str(&text)
        .map(|doc| {
            let mut value =
                serde_norway::Value::deserialize(doc).unwrap_or_else(|e| panic!("{rel}: {e}"));
            // `<<: *anchor` merge keys, as compose applies them.
            value.apply_merge().unwrap_or_else(|e| panic!("{rel}: {e}"));
            value
        })
        .filter(|doc| !doc.is_null())
        .collect()
}

fn yaml(rel: &str) -> Yaml {
    let mut docs = yaml_documents(rel);
    assert_eq!(docs.len(), 1, "{rel}: expected one YAML document");
    docs.remove(0)
}

fn json(rel: &str) -> Json {
    serde_json::from_str(&read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Runs a tool if it is installed; None (and a note) when it is not.
fn run_tool(program: &str, args: &[&str]) -> Option<Output> {
    match Command::new(program)
        .args(args)
        .current_dir(root())
        .output()
    {
        Ok(out) => Some(out),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!(
                "note: {program} is not installed; skipping `{program} {}`",
                args.join(" ")
            );
            None
        }
        Err(e) => panic!("running {program}: {e}"),
    }
}

fn assert_success(what: &str, out: &Output) {
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn s<'a>(v: &'a Yaml, path: &[&str]) -> &'a Yaml {
    let mut cur = v;
    for key in path {
        cur = cur
            .get(*key)
            .unwrap_or_else(|| panic!("missing {key} in {}", path.join(".")));
    }
    cur
}

fn str_at<'a>(v: &'a Yaml, path: &[&str]) -> &'a str {
    s(v, path)
        .as_str()
        .unwrap_or_else(|| panic!("{} is not a string", path.join(".")))
}

// ---------------------------------------------------------------- compose

/// `docker compose` (plugin) or the standalone `docker-compose`, whichever
/// can run `version`.
fn compose_command() -> Option<Vec<&'static str>> {
    let plugin = Command::new("docker")
        .args(["compose", "version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if plugin {
        return Some(vec!["docker", "compose"]);
    }
    let standalone = Command::new("docker-compose")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success());
    standalone.then(|| vec!["docker-compose"])
}

#[test]
fn compose_file_is_valid_for_compose() {
    let Some(cmd) = compose_command() else {
        eprintln!(
            "note: neither the docker compose plugin nor docker-compose is installed; skipping `compose config -q`"
        );
        return;
    };
    for profile_args in [&[][..], &["--profile", "tools"][..]] {
        let mut args: Vec<&str> = cmd[1..].to_vec();
        args.extend_from_slice(profile_args);
        args.extend_from_slice(&["-f", "docker-compose.yml", "config", "-q"]);
        let out = Command::new(cmd[0])
            .args(&args)
            .current_dir(root())
            .env_remove("COMPOSE_FILE")
            .output()
            .expect("running compose");
        assert_success(&format!("{} {}", cmd[0], args.join(" ")), &out);
    }
}

#[test]
fn compose_stack_has_the_agreed_services() {
    let compose = yaml("docker-compose.yml");
    let services = s(&compose, &["services"]);
    for name in [
        "rabbitmq",
        "worker",
        "enqueue",
        "sample",
        "prometheus",
        "grafana",
    ] {
        assert!(services.get(name).is_some(), "service {name} missing");
    }
    assert_eq!(
        str_at(services, &["rabbitmq", "image"]),
        "rabbitmq:3-management"
    );
    assert!(s(services, &["rabbitmq", "healthcheck", "test"]).is_sequence());
    let ports: Vec<&str> = s(services, &["rabbitmq", "ports"])
        .as_sequence()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(
        ports.iter().any(|p| p.ends_with(":15672")),
        "management UI port: {ports:?}"
    );

    let worker = s(services, &["worker"]);
    assert_eq!(s(worker, &["deploy", "replicas"]).as_u64(), Some(2));
    assert_eq!(
        str_at(worker, &["depends_on", "rabbitmq", "condition"]),
        "service_healthy"
    );
    let env = s(worker, &["environment"]);
    for key in [
        "AMQP_URL",
        "LINESIFT_TASK_QUEUE",
        "LINESIFT_RESULTS_EXCHANGE",
        "LINESIFT_DEAD_LETTER_EXCHANGE",
        "LINESIFT_DEAD_LETTER_QUEUE",
        "LINESIFT_DELIVERY_LIMIT",
        "LINESIFT_PREFETCH",
        "LINESIFT_CONCURRENCY",
        "LINESIFT_DRAIN_DEADLINE",
        "LINESIFT_HTTP",
        "LINESIFT_DOCUMENTS_QUEUE",
        "LINESIFT_FAILURES_QUEUE",
    ] {
        assert!(env.get(key).is_some(), "worker env {key} missing");
    }
    // The broker user the stack connects as is the one definitions.json creates.
    let amqp = str_at(env, &["AMQP_URL"]);
    let defs = json("deploy/rabbitmq/definitions.json");
    assert_eq!(
        str_at(env, &["LINESIFT_DELIVERY_LIMIT"]),
        defs["queues"][0]["arguments"]["x-delivery-limit"].to_string(),
        "the worker redeclares the task queue: its delivery limit must match definitions.json"
    );
    // Workers and enqueue declare the same broker objects.
    let enqueue_env = s(services, &["enqueue", "environment"]);
    for key in [
        "AMQP_URL",
        "LINESIFT_TASK_QUEUE",
        "LINESIFT_DEAD_LETTER_QUEUE",
        "LINESIFT_DELIVERY_LIMIT",
    ] {
        assert_eq!(enqueue_env.get(key), env.get(key), "enqueue env {key}");
    }
    let user = defs["users"][0]["name"].as_str().unwrap();
    assert!(amqp.starts_with(&format!("amqp://{user}:")), "{amqp}");
    assert!(amqp.contains("@rabbitmq:5672/"), "{amqp}");
    // Compose stops a worker no sooner than its drain deadline.
    let drain: u64 = str_at(env, &["LINESIFT_DRAIN_DEADLINE"]).parse().unwrap();
    let grace = str_at(worker, &["stop_grace_period"]);
    let grace: u64 = grace.trim_end_matches('s').parse().unwrap();
    assert!(
        grace > drain,
        "stop_grace_period {grace}s <= drain {drain}s"
    );

    let enqueue = s(services, &["enqueue"]);
    assert_eq!(s(enqueue, &["profiles"])[0].as_str(), Some("tools"));
    let script = s(enqueue, &["command"])[0].as_str().unwrap();
    assert!(
        script.contains("enqueue /data/sample/urls.txt --kind urls"),
        "{script}"
    );
    assert!(
        script.contains("enqueue /data/sample/warc-files.txt --kind warc-files"),
        "{script}"
    );
}

#[test]
fn compose_bind_mounts_exist() {
    let compose = yaml("docker-compose.yml");
    let services = s(&compose, &["services"]).as_mapping().unwrap();
    let mut checked = 0;
    for (name, service) in services {
        let Some(volumes) = service.get("volumes").and_then(Yaml::as_sequence) else {
            continue;
        };
        for v in volumes {
            let spec = v.as_str().unwrap();
            let source = spec.split(':').next().unwrap();
            if source.starts_with("./") {
                assert!(
                    root().join(source).exists(),
                    "{name:?}: bind mount source {source} does not exist"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 8, "only {checked} bind mounts checked");
}

#[test]
fn dockerfile_builds_release_and_runs_non_root() {
    let dockerfile = read("Dockerfile");
    // The build stage's toolchain is the one Cargo.toml names, pinned.
    let manifest = read("Cargo.toml");
    let rust_version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .expect("rust-version in Cargo.toml")
        .trim_matches('"');
    assert!(
        dockerfile.contains(&format!("FROM rust:{rust_version}-bookworm AS build")),
        "the Dockerfile's build stage must use rust:{rust_version}-bookworm (Cargo.toml's rust-version)"
    );
    assert!(dockerfile.contains("cargo build --release --locked"));
    assert!(dockerfile.contains("FROM debian:bookworm-slim"));
    assert!(dockerfile.contains("ca-certificates"));
    assert!(dockerfile.contains("useradd --system --uid 10001"));
    assert!(dockerfile.contains("USER 10001:10001"));
    assert!(dockerfile.contains(r#"ENTRYPOINT ["linesift"]"#));
    let ignore: BTreeSet<&str> = include_str!("../.dockerignore").lines().collect();
    for entry in ["target", ".venv", ".git"] {
        assert!(ignore.contains(entry), ".dockerignore lacks {entry}");
    }
}

/// The build stage's `RUN` command as the shell gets it: its continuation
/// lines joined, without `RUN` and the `--mount` flags.
fn dockerfile_build_command(dockerfile: &str) -> String {
    let start = dockerfile
        .find("RUN --mount=type=cache,target=/usr/local/cargo/registry")
        .expect("the build stage's RUN");
    let mut command = String::new();
    for line in dockerfile[start..].lines() {
        let continued = line.trim_end().ends_with('\\');
        command.push_str(line.trim_end().trim_end_matches('\\'));
        command.push('\n');
        if !continued {
            break;
        }
    }
    command
        .split_whitespace()
        .filter(|word| *word != "RUN" && !word.starts_with("--mount="))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the build stage's command under `sh` in a scratch directory whose
/// `cargo`, `rustup`, `install`, `apt-get` and `scripts/build-pgo.sh` only
/// log their arguments; returns the log.
fn run_build_command(command: &str, pgo: &str) -> String {
    let dir = tempdir(&format!("build-{pgo}"));
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = dir.join("log");
    let stub = |path: PathBuf| {
        let script = format!(
            "#!/bin/sh\necho \"$(basename \"$0\") $*\" >> {}\n",
            log.display()
        );
        std::fs::write(&path, script).unwrap();
        let status = Command::new("chmod").arg("+x").arg(&path).status().unwrap();
        assert!(status.success());
    };
    for tool in ["cargo", "rustup", "install", "apt-get"] {
        stub(bin.join(tool));
    }
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    stub(dir.join("scripts/build-pgo.sh"));
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .args(["-c", command])
        .current_dir(&dir)
        .env("PATH", path)
        .env("PGO", pgo)
        .output()
        .unwrap();
    assert_success(
        &format!("the Dockerfile's build command with PGO={pgo}"),
        &out,
    );
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    logged
}

/// The build stage builds with the release profile by default and with
/// scripts/build-pgo.sh when asked (`--build-arg PGO=1`), and installs the
/// binary that build made.
#[test]
fn dockerfile_build_step_picks_the_build_by_pgo() {
    let dockerfile = read("Dockerfile");
    assert!(dockerfile.contains("ARG PGO=0"));
    let command = dockerfile_build_command(&dockerfile);
    let plain = run_build_command(&command, "0");
    assert_eq!(
        plain,
        "cargo build --release --locked\n\
         install -m 0755 target/release/linesift /usr/local/bin/linesift\n"
    );
    let pgo = run_build_command(&command, "1");
    let lines: Vec<&str> = pgo.lines().filter(|l| !l.starts_with("apt-get")).collect();
    assert_eq!(
        lines,
        [
            "rustup component add llvm-tools",
            "build-pgo.sh ",
            "install -m 0755 target/pgo/use/release/linesift /usr/local/bin/linesift",
        ]
    );
    // The training pages are made by a Python script the stage must have.
    assert!(read("scripts/build-pgo.sh").contains("python3 scripts/pgo_pages.py"));
}

/// An executable shell script at `path`.
fn script(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    let status = Command::new("chmod").arg("+x").arg(path).status().unwrap();
    assert!(status.success());
}

/// scripts/build-pgo.sh run from a checkout whose path has a space in it,
/// with a `cargo` that only logs the rustc flags it was given (and makes
/// stand-in binaries for the training runs) and a stand-in llvm-profdata:
/// each build gets its profile flag, and the --target-cpu flag, whole,
/// through CARGO_ENCODED_RUSTFLAGS (RUSTFLAGS splits at spaces, so a
/// profile path with a space became two flags and the build failed).
#[test]
fn build_pgo_passes_each_rustflag_whole_in_a_path_with_spaces() {
    let scratch = tempdir("pgo");
    let checkout = scratch.join("check out");
    std::fs::create_dir_all(checkout.join("scripts")).unwrap();
    for file in ["build-pgo.sh", "pgo_pages.py"] {
        std::fs::copy(
            root().join("scripts").join(file),
            checkout.join("scripts").join(file),
        )
        .unwrap();
    }
    let bin = scratch.join("stub bin");
    std::fs::create_dir_all(&bin).unwrap();
    script(
        &bin.join("cargo"),
        "#!/bin/sh\n\
         printf '%s\\n' \"${CARGO_ENCODED_RUSTFLAGS-}\" >> \"$PGO_LOG\"\n\
         printf '%s\\n' \"${RUSTFLAGS-unset}\" >> \"$PGO_LOG.plain\"\n\
         dir=\n\
         while [ $# -gt 0 ]; do\n\
           if [ \"$1\" = --target-dir ]; then dir=$2; fi\n\
           shift\n\
         done\n\
         mkdir -p \"$dir/release/examples\"\n\
         for f in \"$dir/release/linesift\" \"$dir/release/examples/throughput\"; do\n\
           printf '#!/bin/sh\\nexit 0\\n' > \"$f\"; chmod +x \"$f\"\n\
         done\n",
    );
    let profdata = bin.join("llvm-profdata");
    script(&profdata, "#!/bin/sh\nexit 0\n");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let pgo = checkout.join("target/pgo");
    for cpu in [None, Some("x86-64-v3")] {
        let log = scratch.join(format!("log-{}", cpu.unwrap_or("portable")));
        let mut command = Command::new("bash");
        command.arg(checkout.join("scripts/build-pgo.sh"));
        if let Some(cpu) = cpu {
            command.args(["--target-cpu", cpu]);
        }
        let out = command
            .arg("3")
            .env("PATH", &path)
            .env("LLVM_PROFDATA", &profdata)
            .env("PGO_LOG", &log)
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .output()
            .unwrap();
        assert_success(&format!("build-pgo.sh (target cpu {cpu:?})"), &out);
        let logged = std::fs::read_to_string(&log).unwrap();
        let builds: Vec<Vec<&str>> = logged.lines().map(|l| l.split('\x1f').collect()).collect();
        let mut expected = vec![
            vec![format!("-Cprofile-generate={}", pgo.join("data").display())],
            vec![format!(
                "-Cprofile-use={}",
                pgo.join("linesift.profdata").display()
            )],
        ];
        if let Some(cpu) = cpu {
            for flags in &mut expected {
                flags.push(format!("-Ctarget-cpu={cpu}"));
            }
        }
        assert_eq!(builds, expected, "the two builds' CARGO_ENCODED_RUSTFLAGS");
        let plain = std::fs::read_to_string(format!("{}.plain", log.display())).unwrap();
        assert_eq!(plain, "unset\nunset\n", "RUSTFLAGS set for a build");
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

// ---------------------------------------------------------------- sample

/// The gzip members of a file, each with its offset and length in the
/// file, decompressed.
fn gzip_members(bytes: &[u8]) -> Vec<(u64, u64, Vec<u8>)> {
    use std::io::Read;
    let mut members = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let offset = (bytes.len() - rest.len()) as u64;
        // The bufread decoder takes only its member's bytes from the slice.
        let mut decoder = flate2::bufread::GzDecoder::new(rest);
        let mut data = Vec::new();
        decoder
            .read_to_end(&mut data)
            .unwrap_or_else(|e| panic!("gzip member at offset {offset}: {e}"));
        rest = decoder.into_inner();
        let length = (bytes.len() - rest.len()) as u64 - offset;
        members.push((offset, length, data));
    }
    members
}

/// The sample WARC holds what scripts/make-sample-warc.py makes of the
/// sample pages today (the script is deterministic): the same records,
/// one gzip member each. Compared decompressed, member by member, since
/// the compressed bytes depend on the zlib that warcio's Python uses.
/// warc-records.txt's `path offset length` names a whole member of the
/// committed file: a `response` record of the sample site.
#[test]
fn sample_warc_is_up_to_date() {
    let committed = std::fs::read(root().join("deploy/sample/sample.warc.gz")).unwrap();
    assert!(committed.len() < 64 * 1024, "sample WARC should stay small");
    let members = gzip_members(&committed);
    for line in read("deploy/sample/warc-records.txt").lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (offset, length): (u64, u64) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
        let member = members
            .iter()
            .find(|(o, l, _)| *o == offset && *l == length)
            .unwrap_or_else(|| {
                panic!("warc-records.txt: no gzip member at {offset} of {length} bytes")
            });
        let record = String::from_utf8_lossy(&member.2);
        assert!(record.contains("WARC-Type: response\r\n"), "{line}");
        assert!(record.contains("WARC-Target-URI: http://sample/"), "{line}");
    }

    let python = root().join(".venv/bin/python");
    let has_warcio = Command::new(&python)
        .args(["-c", "import warcio"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_warcio {
        eprintln!("note: .venv with warcio missing; skipping the sample WARC regeneration check");
        return;
    }
    let dir = tempdir("regen");
    let out_path = dir.join("sample.warc.gz");
    let out = Command::new(&python)
        .arg(root().join("scripts/make-sample-warc.py"))
        .arg(&out_path)
        .output()
        .unwrap();
    assert_success("make-sample-warc.py", &out);
    let fresh = gzip_members(&std::fs::read(&out_path).unwrap());
    std::fs::remove_dir_all(dir).ok();
    let stale =
        "deploy/sample/sample.warc.gz is stale: run .venv/bin/python scripts/make-sample-warc.py";
    assert_eq!(fresh.len(), members.len(), "{stale} (member count)");
    for ((offset, _, old), (_, _, new)) in members.iter().zip(&fresh) {
        assert!(
            old == new,
            "{stale}: the record in the member at {offset} differs:\n{}\n---\n{}",
            String::from_utf8_lossy(old),
            String::from_utf8_lossy(new)
        );
    }
}

fn tempdir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("linesift-deploy-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// linesift itself extracts the sample WARC's four HTML pages, and the
/// task lists name what the compose stack serves and mounts.
#[test]
fn sample_warc_extracts_with_linesift() {
    let dir = tempdir("warc");
    let out_path = dir.join("out.jsonl");
    let out = Command::new(env!("CARGO_BIN_EXE_linesift"))
        .arg("warc")
        .arg(root().join("deploy/sample/sample.warc.gz"))
        .arg("-o")
        .arg(&out_path)
        .output()
        .unwrap();
    assert_success("linesift warc sample.warc.gz", &out);
    let jsonl = std::fs::read_to_string(&out_path).unwrap();
    let docs: Vec<Json> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let urls: BTreeSet<&str> = docs.iter().filter_map(|d| d["url"].as_str()).collect();
    for page in [
        "lighthouse-keepers.html",
        "tide-tables.html",
        "bread-oven.html",
    ] {
        assert!(
            urls.contains(format!("http://sample/{page}").as_str()),
            "{page} not extracted: {urls:?}"
        );
    }
    let keepers = docs
        .iter()
        .find(|d| d["url"] == "http://sample/lighthouse-keepers.html")
        .unwrap();
    let text = keepers["text"].as_str().unwrap();
    assert!(text.contains("final entry reads simply"), "{text}");
    assert!(!text.contains("Privacy"), "footer leaked into text: {text}");

    for line in read("deploy/sample/urls.txt").lines() {
        let page = line.strip_prefix("http://sample/").expect(line);
        let file = if page.is_empty() { "index.html" } else { page };
        assert!(
            root().join("deploy/sample/site").join(file).exists(),
            "{line}"
        );
    }
    for line in read("deploy/sample/warc-files.txt")
        .lines()
        .chain(read("deploy/sample/warc-records.txt").lines())
    {
        let path = line.split_whitespace().next().unwrap();
        let local = path.strip_prefix("/data/sample/").expect(path);
        assert!(root().join("deploy/sample").join(local).exists(), "{line}");
    }
    std::fs::remove_dir_all(dir).ok();
}

// ---------------------------------------------------------------- k8s

fn k8s_documents() -> Vec<(String, Yaml)> {
    let docs = k8s_documents_in("deploy/k8s");
    assert!(docs.len() >= 5, "{} documents in deploy/k8s", docs.len());
    docs
}

/// The YAML documents of the files of one directory (not below it), with
/// the file each came from.
fn k8s_documents_in(rel_dir: &str) -> Vec<(String, Yaml)> {
    let dir = root().join(rel_dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|f| {
            let rel = f
                .strip_prefix(root())
                .unwrap()
                .to_str()
                .unwrap()
                .to_string();
            yaml_documents(&rel)
                .into_iter()
                .map(move |d| (rel.clone(), d))
        })
        .collect()
}

fn find_kind<'a>(docs: &'a [(String, Yaml)], kind: &str) -> &'a Yaml {
    let found: Vec<&Yaml> = docs
        .iter()
        .filter(|(_, d)| d.get("kind").and_then(Yaml::as_str) == Some(kind))
        .map(|(_, d)| d)
        .collect();
    assert_eq!(found.len(), 1, "expected one {kind}");
    found[0]
}

#[test]
fn k8s_documents_are_objects() {
    let docs = k8s_documents();
    for (file, doc) in &docs {
        let kind = doc.get("kind").and_then(Yaml::as_str);
        assert!(kind.is_some(), "{file}: no kind");
        assert!(
            doc.get("apiVersion").and_then(Yaml::as_str).is_some(),
            "{file}: no apiVersion"
        );
        if kind == Some("Kustomization") {
            continue;
        }
        let name = doc
            .get("metadata")
            .and_then(|m| m.get("name"))
            .and_then(Yaml::as_str);
        assert!(
            name.is_some_and(|n| !n.is_empty()),
            "{file}: no metadata.name"
        );
    }
    let kinds: BTreeSet<&str> = docs
        .iter()
        .map(|(_, d)| d["kind"].as_str().unwrap())
        .collect();
    for kind in [
        "Deployment",
        "Service",
        "ServiceMonitor",
        "PodMonitor",
        "PrometheusRule",
        "ScaledObject",
        "TriggerAuthentication",
        "Secret",
    ] {
        assert!(kinds.contains(kind), "no {kind} in deploy/k8s: {kinds:?}");
    }
    assert_eq!(
        str_at(find_kind(&docs, "ServiceMonitor"), &["apiVersion"]),
        "monitoring.coreos.com/v1"
    );
    assert_eq!(
        str_at(find_kind(&docs, "ScaledObject"), &["apiVersion"]),
        "keda.sh/v1alpha1"
    );
}

/// `8M`, `512K`, `1G` or plain bytes, as the worker's size flags read them.
fn size(v: &str) -> u64 {
    let (digits, unit) = match v.chars().last() {
        Some('K') => (&v[..v.len() - 1], 1 << 10),
        Some('M') => (&v[..v.len() - 1], 1 << 20),
        Some('G') => (&v[..v.len() - 1], 1 << 30),
        _ => (v, 1),
    };
    digits
        .parse::<u64>()
        .unwrap_or_else(|e| panic!("size {v}: {e}"))
        * unit
}

/// A Kubernetes quantity such as `1Gi` or `512Mi`.
fn quantity(v: &str) -> u64 {
    let (digits, unit) = match v {
        _ if v.ends_with("Gi") => (&v[..v.len() - 2], 1 << 30),
        _ if v.ends_with("Mi") => (&v[..v.len() - 2], 1 << 20),
        _ => panic!("memory quantity {v}: expected Mi or Gi"),
    };
    digits.parse::<u64>().unwrap() * unit
}

/// The limits that bound a worker's memory, set alike in the compose file
/// and the Kubernetes deployment, and small enough that a worker busy with
/// its most pages at their largest stays under its memory limit (see
/// `task_memory`).
#[test]
fn worker_limits_agree_and_fit_the_memory_limit() {
    let keys = [
        "LINESIFT_CONCURRENCY",
        "LINESIFT_MAX_BODY",
        "LINESIFT_MAX_PAYLOAD",
        "LINESIFT_MAX_BYTES",
        "LINESIFT_FETCH_TIMEOUT",
        "LINESIFT_TASK_DEADLINE",
    ];
    let compose = yaml("docker-compose.yml");
    let compose_env = s(&compose, &["services", "worker", "environment"]);
    let docs = k8s_documents();
    let deployment = find_kind(&docs, "Deployment");
    let container = &s(deployment, &["spec", "template", "spec", "containers"])[0];
    let k8s = |key: &str| {
        env_value(container, key).unwrap_or_else(|| panic!("k8s env {key} missing"))["value"]
            .as_str()
            .unwrap()
            .to_string()
    };
    for key in keys {
        assert_eq!(str_at(compose_env, &[key]), k8s(key), "{key}");
    }
    let concurrency: u64 = k8s("LINESIFT_CONCURRENCY").parse().unwrap();
    // The page limit that applies: a fetched body, a WARC payload as
    // stored, and that payload once its Content-Encoding is undone (left
    // unset, the last would be the core's default of 256 MiB).
    let page = [
        "LINESIFT_MAX_BODY",
        "LINESIFT_MAX_PAYLOAD",
        "LINESIFT_MAX_BYTES",
    ]
    .iter()
    .map(|key| size(&k8s(key)))
    .max()
    .unwrap();
    // A task reading a gzip WARC also holds the buffer its members are
    // inflated into at once, bounded by the payload limit.
    let payload = size(&k8s("LINESIFT_MAX_PAYLOAD"));
    let member = linesift::codec::container::gzip::whole_max_for(payload as usize) as u64;
    let memory = quantity(str_at(container, &["resources", "limits", "memory"]));
    // The compose file enforces the same budget (Docker's `M` is MiB).
    let compose_memory = size(str_at(
        &compose,
        &[
            "services",
            "worker",
            "deploy",
            "resources",
            "limits",
            "memory",
        ],
    ));
    assert_eq!(compose_memory, memory, "compose vs k8s worker memory limit");
    assert!(
        concurrency * task_memory(page, member) <= memory,
        "{concurrency} tasks x {} bytes (page {page}, member {member}) > memory limit {memory}",
        task_memory(page, member)
    );
}

/// The most memory one task may take with `page` the page limit that
/// applies and `member` a gzip WARC reader's one-call buffer (docs/worker.md,
/// memory budget): a page peaks at about 7x its size while
/// it is extracted (8 leaves a margin), a WARC task adding its reader's
/// buffer; a fetch task, while its body streams in, holds the decoded
/// page (up to 3x in a legacy single-byte encoding) and a decoder per
/// stacked content coding, which are dropped before the page is finished.
fn task_memory(page: u64, member: u64) -> u64 {
    let extracting = page * 8 + member;
    let decoding = page * 3 + MAX_CODINGS as u64 * LAYER_MEMORY;
    extracting.max(decoding)
}

fn env_value<'a>(container: &'a Yaml, name: &str) -> Option<&'a Yaml> {
    s(container, &["env"])
        .as_sequence()
        .unwrap()
        .iter()
        .find(|e| e["name"].as_str() == Some(name))
}

#[test]
fn k8s_worker_deployment_probes_drain_and_security() {
    let docs = k8s_documents();
    let deployment = find_kind(&docs, "Deployment");
    let pod = s(deployment, &["spec", "template", "spec"]);
    let container = &s(pod, &["containers"])[0];

    // Metrics port: the container port named `metrics` is the one the
    // worker listens on (LINESIFT_HTTP).
    let metrics_port = s(container, &["ports"])
        .as_sequence()
        .unwrap()
        .iter()
        .find(|p| p["name"].as_str() == Some("metrics"))
        .expect("container port named metrics")["containerPort"]
        .as_u64()
        .unwrap();
    let addr = env_value(container, "LINESIFT_HTTP").unwrap()["value"]
        .as_str()
        .unwrap();
    assert_eq!(
        addr.rsplit(':').next().unwrap().parse::<u64>().unwrap(),
        metrics_port
    );
    for (probe, path) in [("livenessProbe", "/healthz"), ("readinessProbe", "/readyz")] {
        let get = s(container, &[probe, "httpGet"]);
        assert_eq!(str_at(get, &["path"]), path, "{probe}");
        let port = &get["port"];
        assert!(
            port.as_str() == Some("metrics") || port.as_u64() == Some(metrics_port),
            "{probe} port {port:?}"
        );
    }

    let defs = json("deploy/rabbitmq/definitions.json");
    assert_eq!(
        env_value(container, "LINESIFT_DELIVERY_LIMIT").unwrap()["value"].as_str(),
        Some(
            defs["queues"][0]["arguments"]["x-delivery-limit"]
                .to_string()
                .as_str()
        ),
        "LINESIFT_DELIVERY_LIMIT must match the task queue's x-delivery-limit"
    );
    let delay = defs["queues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["name"] == "linesift.delay")
        .expect("linesift.delay in definitions.json");
    let seconds: u64 = env_value(container, "LINESIFT_DEFER_DELAY").unwrap()["value"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        Some(seconds * 1000),
        delay["arguments"]["x-message-ttl"].as_u64(),
        "LINESIFT_DEFER_DELAY must match linesift.delay's x-message-ttl"
    );

    // Grace period longer than the drain deadline (default 30 s).
    let drain = env_value(container, "LINESIFT_DRAIN_DEADLINE")
        .map(|e| e["value"].as_str().unwrap().parse::<u64>().unwrap())
        .unwrap_or(30);
    let grace = s(pod, &["terminationGracePeriodSeconds"]).as_u64().unwrap();
    assert!(
        grace > drain,
        "terminationGracePeriodSeconds {grace} <= drain {drain}"
    );

    assert_eq!(
        s(pod, &["securityContext", "runAsNonRoot"]).as_bool(),
        Some(true)
    );
    assert_ne!(s(pod, &["securityContext", "runAsUser"]).as_u64(), Some(0));
    for kind in ["requests", "limits"] {
        for res in ["cpu", "memory"] {
            assert!(
                s(container, &["resources", kind]).get(res).is_some(),
                "{kind}.{res}"
            );
        }
    }

    // AMQP_URL from the Secret that KEDA's TriggerAuthentication reads too.
    let secret_ref = s(
        env_value(container, "AMQP_URL").unwrap(),
        &["valueFrom", "secretKeyRef"],
    );
    let secret = find_kind(&docs, "Secret");
    assert_eq!(
        str_at(secret_ref, &["name"]),
        str_at(secret, &["metadata", "name"])
    );
    let key = str_at(secret_ref, &["key"]);
    assert!(s(secret, &["stringData"]).get(key).is_some());
    let auth = &s(
        find_kind(&docs, "TriggerAuthentication"),
        &["spec", "secretTargetRef"],
    )[0];
    assert_eq!(str_at(auth, &["name"]), str_at(secret_ref, &["name"]));
    assert_eq!(str_at(auth, &["key"]), key);
    assert_eq!(str_at(auth, &["parameter"]), "host");

    // Service and ServiceMonitor select these pods' metrics port.
    let labels = s(deployment, &["spec", "template", "metadata", "labels"]);
    let service = find_kind(&docs, "Service");
    for (k, v) in s(service, &["spec", "selector"]).as_mapping().unwrap() {
        assert_eq!(
            labels.get(k.as_str().unwrap()),
            Some(v),
            "service selector {k:?}"
        );
    }
    assert_eq!(
        str_at(&s(service, &["spec", "ports"])[0], &["name"]),
        "metrics"
    );
    let monitor = find_kind(&docs, "ServiceMonitor");
    let service_labels = s(service, &["metadata", "labels"]);
    for (k, v) in s(monitor, &["spec", "selector", "matchLabels"])
        .as_mapping()
        .unwrap()
    {
        assert_eq!(
            service_labels.get(k.as_str().unwrap()),
            Some(v),
            "monitor selector {k:?}"
        );
    }
    let endpoint = &s(monitor, &["spec", "endpoints"])[0];
    assert_eq!(str_at(endpoint, &["port"]), "metrics");
    assert_eq!(str_at(endpoint, &["path"]), "/metrics");
}

#[test]
fn k8s_scaled_object_scales_on_task_queue_length() {
    let docs = k8s_documents();
    let scaled = find_kind(&docs, "ScaledObject");
    let deployment = find_kind(&docs, "Deployment");
    assert_eq!(
        str_at(scaled, &["spec", "scaleTargetRef", "name"]),
        str_at(deployment, &["metadata", "name"])
    );
    let trigger = &s(scaled, &["spec", "triggers"])[0];
    assert_eq!(str_at(trigger, &["type"]), "rabbitmq");
    assert_eq!(str_at(trigger, &["metadata", "mode"]), "QueueLength");
    let container = &s(deployment, &["spec", "template", "spec", "containers"])[0];
    let queue = env_value(container, "LINESIFT_TASK_QUEUE").unwrap()["value"]
        .as_str()
        .unwrap();
    assert_eq!(str_at(trigger, &["metadata", "queueName"]), queue);
    let value: u64 = str_at(trigger, &["metadata", "value"]).parse().unwrap();
    assert!(value > 0);
    assert_eq!(
        str_at(trigger, &["authenticationRef", "name"]),
        str_at(
            find_kind(&docs, "TriggerAuthentication"),
            &["metadata", "name"]
        )
    );
    // KEDA owns the count: a `replicas` in the Deployment would reset the
    // scaled fleet on every `kubectl apply`.
    assert!(
        s(deployment, &["spec"]).get("replicas").is_none(),
        "the Deployment must leave replicas to KEDA"
    );
    let min = s(scaled, &["spec", "minReplicaCount"]).as_u64().unwrap();
    let max = s(scaled, &["spec", "maxReplicaCount"]).as_u64().unwrap();
    assert!(min <= max && max > 1);
}

/// `kubectl kustomize DIR`'s objects; None (and a note) without kubectl.
fn kustomize(dir: &str) -> Option<Vec<Yaml>> {
    let out = run_tool("kubectl", &["kustomize", dir])?;
    assert_success(&format!("kubectl kustomize {dir}"), &out);
    let text = String::from_utf8(out.stdout).unwrap();
    Some(
        serde_norway::Deserializer::from_str(&text)
            .map(|d| Yaml::deserialize(d).unwrap())
            .collect(),
    )
}

/// Every container image of the objects.
fn images(objects: &[Yaml]) -> Vec<String> {
    objects
        .iter()
        .filter_map(|o| o["spec"]["template"]["spec"]["containers"].as_sequence())
        .flatten()
        .map(|c| c["image"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn k8s_kustomization_builds() {
    let Some(objects) = kustomize("deploy/k8s") else {
        return;
    };
    let kinds: BTreeSet<&str> = objects
        .iter()
        .map(|o| o["kind"].as_str().unwrap())
        .collect();
    for kind in [
        "Namespace",
        "Deployment",
        "Service",
        "ServiceMonitor",
        "PodMonitor",
        "PrometheusRule",
        "ScaledObject",
    ] {
        assert!(
            kinds.contains(kind),
            "kustomize output lacks {kind}: {kinds:?}"
        );
    }
    // The WARC-file workers, applied after the main objects.
    let warc = kustomize("deploy/k8s/warc-files").unwrap();
    let kinds: BTreeSet<&str> = warc.iter().map(|o| o["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        BTreeSet::from(["Deployment", "Service", "ServiceMonitor"])
    );
    // The image the documented build command tags, in both.
    let expected = format!("linesift:{}", cargo_version());
    for image in images(&objects).iter().chain(&images(&warc)) {
        assert_eq!(image, &expected);
    }
}

/// Cargo.toml's package version.
fn cargo_version() -> String {
    read("Cargo.toml")
        .lines()
        .find_map(|l| l.strip_prefix("version = "))
        .expect("version in Cargo.toml")
        .trim_matches('"')
        .to_string()
}

/// The image deploy/k8s runs is one a documented command builds: the
/// Dockerfile's and docs/operations.md's `docker build` tag Cargo.toml's version
/// (and the compose stack's `linesift:local`), and the manifests and
/// their kustomizations name that tag.
#[test]
fn k8s_image_is_the_one_the_documented_build_tags() {
    let tag = format!("linesift:{}", cargo_version());
    let dockerfile = read("Dockerfile");
    let build = dockerfile
        .lines()
        .find(|l| l.contains("docker build"))
        .expect("a docker build command in the Dockerfile's comments");
    assert!(build.contains(&format!("-t {tag} ")), "{build}");
    assert!(build.contains("-t linesift:local "), "{build}");
    let compose = yaml("docker-compose.yml");
    assert_eq!(
        str_at(&compose, &["services", "worker", "image"]),
        "linesift:local"
    );
    let operations = read("docs/operations.md");
    assert!(
        operations
            .lines()
            .any(|l| l.contains("docker build") && l.contains(&format!("-t {tag} "))),
        "docs/operations.md's Kubernetes steps must build {tag}"
    );
    for dir in kustomization_dirs() {
        let kustomization = yaml(&format!("{dir}/kustomization.yaml"));
        let entry = &s(&kustomization, &["images"])[0];
        assert_eq!(str_at(entry, &["name"]), "linesift", "{dir}");
        assert_eq!(str_at(entry, &["newTag"]), cargo_version(), "{dir}");
        for (file, doc) in k8s_documents_in(&dir) {
            if doc["kind"] == "Deployment" {
                let container = &s(&doc, &["spec", "template", "spec", "containers"])[0];
                assert_eq!(str_at(container, &["image"]), tag, "{file}");
            }
        }
    }
}

/// deploy/k8s and each directory in it with a kustomization.yaml.
fn kustomization_dirs() -> Vec<String> {
    let mut dirs = vec!["deploy/k8s".to_string()];
    let mut subdirs: Vec<String> = std::fs::read_dir(root().join("deploy/k8s"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("kustomization.yaml").exists())
        .map(|p| format!("deploy/k8s/{}", p.file_name().unwrap().to_str().unwrap()))
        .collect();
    subdirs.sort();
    dirs.extend(subdirs);
    dirs
}

/// The Operator's copy of the alert rules is alerts.yml's: the same
/// groups, rule for rule (scripts/sync-prometheusrule.sh writes it).
#[test]
fn k8s_prometheus_rule_has_the_rules_of_alerts_yml() {
    let rule = yaml("deploy/k8s/prometheusrule.yaml");
    assert_eq!(str_at(&rule, &["apiVersion"]), "monitoring.coreos.com/v1");
    assert_eq!(str_at(&rule, &["kind"]), "PrometheusRule");
    assert_eq!(str_at(&rule, &["metadata", "namespace"]), "linesift");
    let alerts = yaml("deploy/prometheus/alerts.yml");
    let expected = s(&alerts, &["groups"]);
    let actual = s(&rule, &["spec", "groups"]);
    assert!(
        actual == expected,
        "deploy/k8s/prometheusrule.yaml's rules differ from deploy/prometheus/alerts.yml's: \
         run scripts/sync-prometheusrule.sh"
    );
    // Nothing but the groups under spec, and the file is in the build.
    assert_eq!(s(&rule, &["spec"]).as_mapping().unwrap().len(), 1);
    let kustomization = yaml("deploy/k8s/kustomization.yaml");
    let resources: Vec<&str> = s(&kustomization, &["resources"])
        .as_sequence()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    for file in ["prometheusrule.yaml", "rabbitmq-podmonitor.yaml"] {
        assert!(
            resources.contains(&file),
            "{file} not in kustomization.yaml"
        );
    }
}

/// The alerts' queue series (rabbitmq_queue_messages_ready{queue=...})
/// come from RabbitMQ's per-object endpoint: scraped in the cluster as
/// the compose stack's prometheus.yml scrapes it.
#[test]
fn k8s_scrapes_rabbitmq_per_object_metrics() {
    let config = yaml("deploy/prometheus/prometheus.yml");
    let compose_path = s(&config, &["scrape_configs"])
        .as_sequence()
        .unwrap()
        .iter()
        .find(|j| j["job_name"] == "rabbitmq")
        .expect("a rabbitmq job in prometheus.yml")["metrics_path"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(compose_path, "/metrics/per-object");
    let alerts = read("deploy/prometheus/alerts.yml");
    assert!(alerts.contains("rabbitmq_queue_messages_ready{queue="));

    let docs = k8s_documents();
    let monitor = find_kind(&docs, "PodMonitor");
    assert_eq!(str_at(monitor, &["apiVersion"]), "monitoring.coreos.com/v1");
    let endpoint = &s(monitor, &["spec", "podMetricsEndpoints"])[0];
    assert_eq!(str_at(endpoint, &["path"]), compose_path);
    assert!(!str_at(endpoint, &["port"]).is_empty());
    let labels = s(monitor, &["spec", "selector", "matchLabels"])
        .as_mapping()
        .unwrap();
    assert!(!labels.is_empty());
    // RabbitMQ lives elsewhere (the Secret's rabbitmq.rabbitmq.svc).
    let namespaces = s(monitor, &["spec", "namespaceSelector", "matchNames"]);
    let secret = find_kind(&docs, "Secret");
    let url = str_at(secret, &["stringData", "AMQP_URL"]);
    let namespace = namespaces[0].as_str().unwrap();
    assert!(
        url.contains(&format!(".{namespace}.svc")),
        "{url} vs {namespace}"
    );
    // No worker label: the monitor must not pick up linesift's own pods.
    assert!(labels.get("app.kubernetes.io/name") != Some(&Yaml::from("linesift")));
}

/// The WARC-file workers (deploy/k8s/warc-files): the main workers'
/// settings except what a queue of long tasks needs: their own queue, a
/// drain deadline near a file's time (longer than the main workers', at
/// most the task deadline) with the grace period just past it, a prefetch
/// no larger than the concurrency, a task deadline within half the
/// broker's default consumer_timeout; pods the main Deployment does not
/// select, scraped as job="linesift".
#[test]
fn k8s_warc_file_workers_drain_their_files() {
    let main_docs = k8s_documents();
    let main = find_kind(&main_docs, "Deployment");
    let main_container = &s(main, &["spec", "template", "spec", "containers"])[0];
    let docs = k8s_documents_in("deploy/k8s/warc-files");
    let warc = find_kind(&docs, "Deployment");
    let pod = s(warc, &["spec", "template", "spec"]);
    let container = &s(pod, &["containers"])[0];
    let value = |c: &Yaml, key: &str| -> Option<String> {
        env_value(c, key).map(|e| match e.get("value") {
            Some(v) => v.as_str().unwrap().to_string(),
            None => format!("{:?}", e["valueFrom"]),
        })
    };
    let seconds = |key: &str| -> u64 {
        value(container, key)
            .unwrap_or_else(|| panic!("{key} missing"))
            .parse()
            .unwrap()
    };
    let differ = [
        "LINESIFT_TASK_QUEUE",
        "LINESIFT_PREFETCH",
        "LINESIFT_CONCURRENCY",
        "LINESIFT_DRAIN_DEADLINE",
        "LINESIFT_TASK_DEADLINE",
        "LINESIFT_MAX_HOST_WAIT",
        "LINESIFT_DEFER_DELAY",
        "LINESIFT_DELAY_QUEUE",
    ];
    for e in s(main_container, &["env"]).as_sequence().unwrap() {
        let key = e["name"].as_str().unwrap();
        if !differ.contains(&key) {
            assert_eq!(value(container, key), value(main_container, key), "{key}");
        }
    }
    assert_ne!(
        value(container, "LINESIFT_TASK_QUEUE"),
        value(main_container, "LINESIFT_TASK_QUEUE")
    );
    // No delay queue: only URL tasks are put aside for a busy host.
    assert_eq!(
        value(container, "LINESIFT_MAX_HOST_WAIT").as_deref(),
        Some("0")
    );
    assert!(seconds("LINESIFT_PREFETCH") <= seconds("LINESIFT_CONCURRENCY"));
    let drain = seconds("LINESIFT_DRAIN_DEADLINE");
    let deadline = seconds("LINESIFT_TASK_DEADLINE");
    let main_drain: u64 = value(main_container, "LINESIFT_DRAIN_DEADLINE")
        .unwrap()
        .parse()
        .unwrap();
    assert!(drain > main_drain && drain <= deadline, "drain {drain} s");
    assert!(deadline <= 30 * 60 / 2, "task deadline {deadline} s");
    let grace = s(pod, &["terminationGracePeriodSeconds"]).as_u64().unwrap();
    assert!(
        grace > drain && grace <= drain + 60,
        "terminationGracePeriodSeconds {grace} vs drain {drain}"
    );
    // The task stage's histogram reaches every task deadline in use.
    let buckets = linesift::worker::metrics::stage_buckets().unwrap();
    let top = buckets[buckets.len() - 1];
    let compose = yaml("docker-compose.yml");
    let compose_deadline: u64 = str_at(
        &compose,
        &[
            "services",
            "worker",
            "environment",
            "LINESIFT_TASK_DEADLINE",
        ],
    )
    .parse()
    .unwrap();
    for d in [deadline, compose_deadline] {
        assert!(
            d as f64 <= top,
            "task deadline {d} s past the top bucket {top} s"
        );
    }

    // The main workers' memory budget holds at this concurrency too.
    let page = [
        "LINESIFT_MAX_BODY",
        "LINESIFT_MAX_PAYLOAD",
        "LINESIFT_MAX_BYTES",
    ]
    .iter()
    .map(|key| size(&value(container, key).unwrap()))
    .max()
    .unwrap();
    let payload = size(&value(container, "LINESIFT_MAX_PAYLOAD").unwrap());
    let member = linesift::codec::container::gzip::whole_max_for(payload as usize) as u64;
    let memory = quantity(str_at(container, &["resources", "limits", "memory"]));
    assert!(seconds("LINESIFT_CONCURRENCY") * task_memory(page, member) <= memory);

    // Same image, probes, ports and security as the main workers.
    for key in [
        "image",
        "livenessProbe",
        "readinessProbe",
        "ports",
        "securityContext",
        "args",
    ] {
        assert_eq!(container.get(key), main_container.get(key), "{key}");
    }
    let main_pod = s(main, &["spec", "template", "spec"]);
    assert_eq!(pod.get("securityContext"), main_pod.get("securityContext"));

    // Neither Deployment selects the other's pods.
    let labels = |d: &Yaml| s(d, &["spec", "template", "metadata", "labels"]).clone();
    let selects = |d: &Yaml, pod_labels: &Yaml| {
        s(d, &["spec", "selector", "matchLabels"])
            .as_mapping()
            .unwrap()
            .iter()
            .all(|(k, v)| pod_labels.get(k.as_str().unwrap()) == Some(v))
    };
    assert!(selects(warc, &labels(warc)));
    assert!(!selects(warc, &labels(main)));
    assert!(!selects(main, &labels(warc)));
    // Scraped like the main workers: the Service selects the pods, the
    // ServiceMonitor the Service, and the job label is the same.
    let service = find_kind(&docs, "Service");
    assert!(
        s(service, &["spec", "selector"])
            .as_mapping()
            .unwrap()
            .iter()
            .all(|(k, v)| labels(warc).get(k.as_str().unwrap()) == Some(v))
    );
    let monitor = find_kind(&docs, "ServiceMonitor");
    let service_labels = s(service, &["metadata", "labels"]);
    assert!(
        s(monitor, &["spec", "selector", "matchLabels"])
            .as_mapping()
            .unwrap()
            .iter()
            .all(|(k, v)| service_labels.get(k.as_str().unwrap()) == Some(v))
    );
    let main_monitor = find_kind(&main_docs, "ServiceMonitor");
    assert_eq!(
        str_at(monitor, &["spec", "jobLabel"]),
        str_at(main_monitor, &["spec", "jobLabel"])
    );
    assert_eq!(
        service_labels.get(str_at(monitor, &["spec", "jobLabel"])),
        s(main, &["metadata", "labels"]).get(str_at(main_monitor, &["spec", "jobLabel"]))
    );
}

// ---------------------------------------------------------------- rabbitmq

#[test]
fn rabbitmq_definitions_declare_queues_and_policy() {
    let defs = json("deploy/rabbitmq/definitions.json");
    let named = |section: &str, name: &str| -> Json {
        defs[section]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == name)
            .unwrap_or_else(|| panic!("{section}: no {name}"))
            .clone()
    };
    let tasks = named("queues", "linesift.tasks");
    assert_eq!(tasks["durable"], true);
    let args = &tasks["arguments"];
    assert_eq!(args["x-queue-type"], "quorum");
    // As the worker declares it (or every worker would warn).
    assert_eq!(args["x-dead-letter-strategy"], "at-least-once");
    assert_eq!(args["x-overflow"], "reject-publish");
    let dlx = args["x-dead-letter-exchange"].as_str().unwrap();
    assert_eq!(named("exchanges", dlx)["type"], "fanout");
    assert_eq!(named("exchanges", "linesift.results")["type"], "topic");
    named("queues", "linesift.dead");
    assert!(
        defs["bindings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["source"] == dlx
                && b["destination"] == "linesift.dead"
                && b["destination_type"] == "queue"),
        "the dead-letter exchange must route to linesift.dead"
    );

    let policy = named("policies", "linesift-tasks");
    assert_eq!(policy["pattern"], r"^linesift\.tasks$");
    let def = &policy["definition"];
    // At-least-once dead-lettering only takes effect with reject-publish.
    assert_eq!(def["dead-letter-strategy"], "at-least-once");
    assert_eq!(def["overflow"], "reject-publish");
    assert_eq!(def["dead-letter-exchange"], dlx);
    assert!(def["max-length"].as_u64().is_some_and(|n| n > 0));
    let limit = def["delivery-limit"].as_u64().unwrap();
    assert!(limit > 0);
    // Redeclaring with different arguments fails, so the queue's own
    // delivery limit must be the worker's default (and the policy's).
    assert_eq!(args["x-delivery-limit"].as_u64(), Some(limit));

    // A full dead-letter queue refuses rather than silently dropping its
    // oldest dead letters (the default, drop-head), and an alert fires
    // before it is full.
    let dead = named("policies", "linesift-dead");
    assert_eq!(dead["pattern"], r"^linesift\.dead$");
    assert_eq!(dead["definition"]["overflow"], "reject-publish");
    let cap = dead["definition"]["max-length"].as_u64().unwrap();
    let alerts = read("deploy/prometheus/alerts.yml");
    let threshold: u64 = alerts
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix(r#"max(rabbitmq_queue_messages{queue="linesift.dead"}) > "#)
        })
        .expect("a nearly-full alert on linesift.dead")
        .parse()
        .unwrap();
    assert!(threshold < cap, "alert at {threshold}, cap {cap}");

    // Tasks for busy hosts wait in linesift.delay for the workers' defer
    // delay, then go straight back to the task queue, dead-lettered at
    // least once like the task queue's own.
    let delay = named("queues", "linesift.delay");
    let args = &delay["arguments"];
    assert_eq!(args["x-queue-type"], "quorum");
    assert_eq!(args["x-dead-letter-exchange"], "");
    assert_eq!(args["x-dead-letter-routing-key"], "linesift.tasks");
    assert_eq!(args["x-dead-letter-strategy"], "at-least-once");
    assert_eq!(args["x-overflow"], "reject-publish");
    let ttl = args["x-message-ttl"].as_u64().unwrap();
    let compose = yaml("docker-compose.yml");
    let env = s(&compose, &["services", "worker", "environment"]);
    let seconds: u64 = str_at(env, &["LINESIFT_DEFER_DELAY"]).parse().unwrap();
    assert_eq!(seconds * 1000, ttl, "LINESIFT_DEFER_DELAY vs x-message-ttl");
    assert_eq!(str_at(env, &["LINESIFT_DELAY_QUEUE"]), "linesift.delay");

    // The results exchange routes both kinds of result to a queue: the
    // worker publishes documents `mandatory`, so with none bound for
    // `document` every task of the demo would come back unroutable, be
    // retried and end dead-lettered. Each demo queue is capped so that a
    // stack nobody consumes from cannot fill the broker's disk: documents
    // refused when full (their tasks retried, none dropped silently),
    // failure events dropped oldest first (a refused event would fail
    // its task).
    let results = str_at(env, &["LINESIFT_RESULTS_EXCHANGE"]);
    assert_eq!(named("exchanges", results)["type"], "topic");
    for (routing_key, queue, overflow, variable) in [
        (
            ROUTING_DOCUMENT,
            "linesift.documents",
            "reject-publish",
            "LINESIFT_DOCUMENTS_QUEUE",
        ),
        (
            ROUTING_FAILURE,
            "linesift.failures",
            "drop-head",
            "LINESIFT_FAILURES_QUEUE",
        ),
    ] {
        // The queue the workers declare and bind themselves is this one.
        assert_eq!(str_at(env, &[variable]), queue, "{variable}");
        let bound: Vec<&Json> = defs["bindings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| {
                b["source"] == results
                    && b["destination_type"] == "queue"
                    && b["routing_key"] == routing_key
            })
            .collect();
        assert_eq!(
            bound.len(),
            1,
            "{results} needs one queue bound with routing key {routing_key:?}"
        );
        assert_eq!(bound[0]["destination"], queue);
        let declared = named("queues", queue);
        assert_eq!(declared["durable"], true, "{queue}");
        assert_eq!(declared["arguments"]["x-queue-type"], "quorum", "{queue}");
        let policy = named("policies", &queue.replace('.', "-"));
        assert_eq!(
            policy["pattern"].as_str(),
            Some(format!("^{}$", queue.replace('.', r"\.")).as_str())
        );
        assert_eq!(policy["apply-to"], "queues");
        let def = &policy["definition"];
        assert_eq!(def["overflow"], overflow, "{queue}");
        let capped = ["max-length", "max-length-bytes"]
            .iter()
            .any(|k| def[k].as_u64().is_some_and(|n| n > 0));
        assert!(capped, "{queue}: no max-length or max-length-bytes");
    }

    let user = &defs["users"][0];
    assert_eq!(user["hashing_algorithm"], "rabbit_password_hashing_sha256");
    assert!(
        defs["permissions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["user"] == user["name"] && p["vhost"] == "/")
    );

    let conf = read("deploy/rabbitmq/rabbitmq.conf");
    assert!(conf.contains("load_definitions = /etc/rabbitmq/definitions.json"));
    assert!(read("deploy/rabbitmq/enabled_plugins").contains("rabbitmq_prometheus"));
}

// ---------------------------------------------------------------- prometheus

#[test]
fn promtool_accepts_rules_config_and_rule_tests() {
    let checks: [&[&str]; 3] = [
        &["check", "rules", "deploy/prometheus/alerts.yml"],
        &["check", "config", "deploy/prometheus/prometheus.yml"],
        // Unit tests of the alerts: they fire when they should, and only then.
        &["test", "rules", "deploy/prometheus/alerts_test.yml"],
    ];
    for args in checks {
        let Some(out) = run_tool("promtool", args) else {
            return;
        };
        assert_success(&format!("promtool {}", args.join(" ")), &out);
    }
}

#[test]
fn alert_rules_cover_dead_letters_progress_and_errors() {
    let rules = yaml("deploy/prometheus/alerts.yml");
    let alerts: Vec<(&str, &str)> = s(&rules, &["groups"])
        .as_sequence()
        .unwrap()
        .iter()
        .flat_map(|g| g["rules"].as_sequence().unwrap())
        .map(|r| (r["alert"].as_str().unwrap(), r["expr"].as_str().unwrap()))
        .collect();
    let expr = |name: &str| {
        alerts
            .iter()
            .find(|(a, _)| *a == name)
            .unwrap_or_else(|| panic!("no alert {name}"))
            .1
    };
    assert!(expr("LinesiftDeadLettersGrowing").contains(r#"queue="linesift.dead""#));
    let progress = expr("LinesiftNoProgress");
    assert!(progress.contains("linesift_tasks_acked_total"));
    assert!(progress.contains(r#"rabbitmq_queue_messages_ready{queue="linesift.tasks"}"#));
    let errors = expr("LinesiftHighErrorRate");
    assert!(errors.contains("linesift_tasks_received_total"));
    assert!(errors.contains("linesift_tasks_deferred_total"));

    let config = yaml("deploy/prometheus/prometheus.yml");
    let jobs: Vec<&str> = s(&config, &["scrape_configs"])
        .as_sequence()
        .unwrap()
        .iter()
        .map(|j| j["job_name"].as_str().unwrap())
        .collect();
    assert!(
        jobs.contains(&"linesift") && jobs.contains(&"rabbitmq"),
        "{jobs:?}"
    );
}

// ---------------------------------------------------------------- grafana

fn panels(dashboard: &Json) -> Vec<&Json> {
    let mut out = Vec::new();
    for p in dashboard["panels"].as_array().unwrap() {
        if p["type"] == "row" {
            out.extend(p["panels"].as_array().into_iter().flatten());
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn grafana_dashboard_panels_query_linesift_or_rabbitmq_metrics() {
    let dashboard = json("deploy/grafana/linesift.json");
    let panels = panels(&dashboard);
    assert!(panels.len() >= 6);
    let mut all = String::new();
    for panel in &panels {
        let title = panel["title"].as_str().unwrap();
        let targets = panel["targets"]
            .as_array()
            .unwrap_or_else(|| panic!("{title}: no targets"));
        assert!(!targets.is_empty(), "{title}: no targets");
        for t in targets {
            let expr = t["expr"]
                .as_str()
                .unwrap_or_else(|| panic!("{title}: target without expr"));
            assert!(
                expr.contains("linesift_") || expr.contains("rabbitmq_"),
                "{title}: {expr}"
            );
            all.push_str(expr);
            all.push('\n');
        }
    }
    for needed in [
        "histogram_quantile",
        "linesift_stage_seconds_bucket",
        "linesift_tasks_dead_lettered_total",
        "linesift_task_outcomes_total",
        "rabbitmq_queue_messages_ready",
        "linesift_tasks_in_flight",
        "linesift_tasks_acked_total",
    ] {
        assert!(all.contains(needed), "dashboard never queries {needed}");
    }
    let datasource = yaml("deploy/grafana/provisioning/datasources/prometheus.yml");
    let ds = &s(&datasource, &["datasources"])[0];
    assert_eq!(str_at(ds, &["type"]), "prometheus");
    assert_eq!(str_at(ds, &["url"]), "http://prometheus:9090");
    yaml("deploy/grafana/provisioning/dashboards/linesift.yml");
}

/// Every linesift_ metric the dashboard and the alerts use is one the
/// worker registers (names are in its source as string literals).
#[test]
fn dashboard_and_alerts_use_metrics_the_worker_exports() {
    let mut source = String::new();
    collect_rust(&root().join("src"), &mut source);
    let mut used = BTreeSet::new();
    for text in [
        read("deploy/grafana/linesift.json"),
        read("deploy/prometheus/alerts.yml"),
    ] {
        let mut rest = text.as_str();
        while let Some(i) = rest.find("linesift_") {
            let name: String = rest[i..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            rest = &rest[i + name.len()..];
            let base = ["_bucket", "_sum", "_count"]
                .iter()
                .find_map(|suffix| name.strip_suffix(suffix))
                .unwrap_or(&name)
                .to_string();
            used.insert(base);
        }
    }
    assert!(used.len() >= 8, "{used:?}");
    for name in &used {
        assert!(
            source.contains(&format!("\"{name}\"")),
            "{name} is used in deploy/ but not registered in src/"
        );
    }
}

fn collect_rust(dir: &Path, out: &mut String) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_rust(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push_str(&std::fs::read_to_string(&path).unwrap());
        }
    }
}

// ---------------------------------------------------------------- broker

/// The definitions load into a real RabbitMQ (the one `.ci/run` starts for
/// the worker tests), in a throwaway vhost: the task queue is a quorum
/// queue under the linesift-tasks policy, the demo's result queues are
/// under theirs, and the worker's own topology declaration is equivalent
/// to what the definitions made (a mismatch in queue arguments or exchange
/// types would be PRECONDITION_FAILED).
#[tokio::test]
async fn rabbitmq_accepts_definitions_and_worker_topology_matches() {
    let Some(imported) = DefinitionsVhost::import("defs") else {
        return;
    };
    // Policies apply a moment after the queues appear.
    let mut listing = String::new();
    for _ in 0..60 {
        listing = imported.list_queues(&["name", "type", "policy"]);
        let policy_of = |queue: &str| {
            listing
                .lines()
                .find(|l| l.starts_with(&format!("{queue}\t")))
                .and_then(|l| l.split('\t').nth(2))
                .map(str::to_string)
        };
        if policy_of("linesift.tasks").is_some_and(|p| !p.is_empty())
            && policy_of("linesift.documents").is_some_and(|p| !p.is_empty())
            && policy_of("linesift.failures").is_some_and(|p| !p.is_empty())
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    let row = |queue: &str| -> Vec<String> {
        listing
            .lines()
            .find(|l| l.starts_with(&format!("{queue}\t")))
            .unwrap_or_else(|| panic!("{queue} not declared:\n{listing}"))
            .split('\t')
            .map(str::to_string)
            .collect()
    };
    for (queue, policy) in [
        ("linesift.tasks", "linesift-tasks"),
        ("linesift.documents", "linesift-documents"),
        ("linesift.failures", "linesift-failures"),
    ] {
        let row = row(queue);
        assert_eq!(row[1], "quorum", "{queue}: {listing}");
        assert_eq!(row[2], policy, "{queue}: {listing}");
    }
    row("linesift.dead");

    let conn = lapin::Connection::connect(&imported.url, lapin::ConnectionProperties::default())
        .await
        .expect("connecting as guest to the throwaway vhost");
    // The names the compose stack gives workers and enqueue.
    let compose = yaml("docker-compose.yml");
    let env = s(&compose, &["services", "worker", "environment"]);
    let configured = linesift::worker::Names {
        tasks: str_at(env, &["LINESIFT_TASK_QUEUE"]).into(),
        dead_letter_exchange: str_at(env, &["LINESIFT_DEAD_LETTER_EXCHANGE"]).into(),
        dead_letter_queue: str_at(env, &["LINESIFT_DEAD_LETTER_QUEUE"]).into(),
        results: str_at(env, &["LINESIFT_RESULTS_EXCHANGE"]).into(),
        delay: str_at(env, &["LINESIFT_DELAY_QUEUE"]).into(),
        documents: str_at(env, &["LINESIFT_DOCUMENTS_QUEUE"]).into(),
        failures: str_at(env, &["LINESIFT_FAILURES_QUEUE"]).into(),
    };
    // The delivery limit the workers are configured with, not the file's:
    // a mismatch must fail here as it would fail in the stack.
    let delivery_limit: u32 = str_at(env, &["LINESIFT_DELIVERY_LIMIT"]).parse().unwrap();
    let defer_delay =
        std::time::Duration::from_secs(str_at(env, &["LINESIFT_DEFER_DELAY"]).parse().unwrap());
    // ... and the worker's built-in defaults.
    // The queue the definitions make is the one the worker declares, down
    // to its at-least-once dead-lettering (not merely tolerated as found).
    for names in [configured, linesift::worker::Names::default()] {
        let declared = linesift::worker::topology::declare(&conn, &names, delivery_limit)
            .await
            .unwrap_or_else(|e| panic!("worker topology vs definitions ({names:?}): {e}"));
        assert_eq!(
            declared,
            linesift::worker::topology::DeadLettering::AtLeastOnce,
            "{names:?}"
        );
        linesift::worker::topology::declare_delay(&conn, &names, defer_delay)
            .await
            .unwrap_or_else(|e| panic!("delay queue vs definitions ({names:?}): {e}"));
        // The results queues the workers declare and bind by default are
        // the definitions' own, as they are (not bound as found).
        let results = linesift::worker::topology::declare_results_queues(&conn, &names)
            .await
            .unwrap_or_else(|e| panic!("results queues vs definitions ({names:?}): {e}"));
        let declared = linesift::worker::topology::ResultsQueue::Declared;
        assert_eq!(results, [declared.clone(), declared], "{names:?}");
    }
    conn.close(200, "done".into()).await.ok();
}
