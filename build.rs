//! Build script: stamps the git revision into `linesift --version` and
//! generates the queue messages from `proto/linesift.proto` (protox parses
//! the proto in pure Rust, so no system `protoc` is needed; prost-build
//! writes the Rust types into OUT_DIR, included by `src/proto.rs`).

use std::process::Command;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    stamp_version();
    generate_messages()
}

fn stamp_version() {
    // Container builds have no .git: the revision comes in as a build arg.
    println!("cargo:rerun-if-env-changed=LINESIFT_GIT_REV");
    let from_env = std::env::var("LINESIFT_GIT_REV")
        .ok()
        .filter(|r| !r.trim().is_empty());
    let rev = from_env
        .or_else(git_rev)
        .unwrap_or_else(|| "unknown".into());
    let version = env!("CARGO_PKG_VERSION");
    println!("cargo:rustc-env=LINESIFT_VERSION={version} ({rev})");
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs");
}

fn git_rev() -> Option<String> {
    Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
}

fn generate_messages() -> Result<(), Box<dyn std::error::Error>> {
    const PROTO: &str = "proto/linesift.proto";
    println!("cargo:rerun-if-changed={PROTO}");
    let descriptors = protox::compile([PROTO], ["proto"])?;
    prost_build::Config::new()
        // serde on every generated type gives the JSON encoding used for
        // debugging (content-type application/json) without a second schema.
        .type_attribute(".", "#[derive(serde::Serialize, serde::Deserialize)]")
        // Missing JSON fields take their proto3 defaults, as in protobuf.
        .message_attribute(".", "#[serde(default)]")
        .type_attribute(".", "#[serde(rename_all = \"snake_case\")]")
        // Structure is asked for: without it a document's JSON is as it
        // was before these fields.
        .field_attribute(
            "linesift.v1.DocumentMessage.blocks",
            "#[serde(skip_serializing_if = \"Vec::is_empty\")]",
        )
        .field_attribute(
            "linesift.v1.DocumentMessage.warc_repaired",
            "#[serde(skip_serializing_if = \"Vec::is_empty\")]",
        )
        .field_attribute(
            "linesift.v1.DocumentMessage.markdown",
            "#[serde(skip_serializing_if = \"Option::is_none\")]",
        )
        .field_attribute(
            "linesift.v1.DocumentMessage.links",
            "#[serde(skip_serializing_if = \"Vec::is_empty\")]",
        )
        .compile_fds(descriptors)?;
    Ok(())
}
