//! A profile of the AWS shared files (`~/.aws/credentials`,
//! `~/.aws/config`): its static keys and region, as the AWS CLI reads
//! them. Reads no other setting (SSO, assume-role, `credential_process`
//! and the like are not followed) and signs nothing.
//!
//! The files are read by a small parser of their own rather than an INI
//! crate: they are INI-like but not INI (a setting may open an indented
//! block of sub-settings, `s3 =` then `  max_concurrent_requests = 20`,
//! which must not be read as top-level keys), and only five keys of one
//! section are wanted.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What a profile gives.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Profile {
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<String>,
    pub session_token: Option<String>,
    pub region: Option<String>,
}

/// The profile named by `AWS_PROFILE` (default `default`), from the files
/// named by `AWS_SHARED_CREDENTIALS_FILE` and `AWS_CONFIG_FILE` (default
/// `~/.aws/credentials` and `~/.aws/config`). Keys are taken from the
/// credentials file, else the config file; both a key id and a secret
/// are needed. The region is the config file's. A file that is missing
/// or unreadable gives nothing.
pub fn from_env() -> Profile {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let name = var("AWS_PROFILE").unwrap_or_else(|| "default".to_string());
    let home = var("HOME").map(PathBuf::from);
    let file = |var_name: &str, default: &str| {
        var(var_name)
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|h| h.join(".aws").join(default)))
    };
    let read = |path: Option<PathBuf>| path.and_then(|p| read_file(&p)).unwrap_or_default();
    let credentials = read(file("AWS_SHARED_CREDENTIALS_FILE", "credentials"));
    let config = read(file("AWS_CONFIG_FILE", "config"));
    resolve(&credentials, &config, &name)
}

fn read_file(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// The profile `name` of the two files' texts.
fn resolve(credentials: &str, config: &str, name: &str) -> Profile {
    let from_credentials = section(credentials, name);
    // The config file names a profile `[profile NAME]`, the default one
    // `[default]` (`[profile default]` is taken too).
    let from_config = match name {
        "default" => section(config, "default").or_else(|| section(config, "profile default")),
        _ => section(config, &format!("profile {name}")),
    };
    let keys_of = |s: &Option<HashMap<String, String>>| {
        let s = s.as_ref()?;
        let id = s.get("aws_access_key_id")?;
        let secret = s.get("aws_secret_access_key")?;
        Some((
            id.clone(),
            secret.clone(),
            s.get("aws_session_token").cloned(),
        ))
    };
    let keys = keys_of(&from_credentials).or_else(|| keys_of(&from_config));
    let region = from_config.as_ref().and_then(|s| s.get("region").cloned());
    let (access_key_id, secret_access_key, session_token) = match keys {
        Some((id, secret, token)) => (Some(id), Some(secret), token),
        None => (None, None, None),
    };
    Profile {
        access_key_id,
        secret_access_key,
        session_token,
        region,
    }
}

/// The settings of section `[name]` (several sections of one name are
/// one, the later setting kept), `None` when there is none. Keys are
/// lower-cased; empty values are left out; `#` and `;` start comment
/// lines; indented lines (a setting's sub-settings) are skipped.
fn section(text: &str, name: &str) -> Option<HashMap<String, String>> {
    let mut found: Option<HashMap<String, String>> = None;
    let mut inside = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
            continue;
        }
        if let Some(header) = trimmed.strip_prefix('[') {
            let title = header.split(']').next().unwrap_or_default();
            inside = title.split_whitespace().collect::<Vec<_>>().join(" ") == name;
            if inside {
                found.get_or_insert_with(HashMap::new);
            }
            continue;
        }
        if !inside || line.starts_with([' ', '\t']) {
            continue;
        }
        let Some((key, value)) = trimmed.split_once('=') else {
            continue;
        };
        let value = value.trim();
        if let Some(settings) = found.as_mut()
            && !value.is_empty()
        {
            settings.insert(key.trim().to_ascii_lowercase(), value.to_string());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const CREDENTIALS: &str = "\
# written by hand
[default]
aws_access_key_id = AKIDDEFAULT
aws_secret_access_key = secretdefault

[crawler]
aws_access_key_id=AKIDCRAWLER
aws_secret_access_key=secretcrawler
aws_session_token = tokencrawler
";

    const CONFIG: &str = "\
[default]
region = us-west-2

[profile crawler]
region = eu-west-3
s3 =
  region = nowhere-1
  max_concurrent_requests = 20

[profile config-only]
; keys in the config file are read too
aws_access_key_id = AKIDCONFIG
aws_secret_access_key = secretconfig
region = ap-south-1
";

    #[test]
    fn a_named_profile_takes_its_keys_from_credentials_and_its_region_from_config() {
        let p = resolve(CREDENTIALS, CONFIG, "crawler");
        assert_eq!(p.access_key_id.as_deref(), Some("AKIDCRAWLER"));
        assert_eq!(p.secret_access_key.as_deref(), Some("secretcrawler"));
        assert_eq!(p.session_token.as_deref(), Some("tokencrawler"));
        // Not the indented sub-setting's region.
        assert_eq!(p.region.as_deref(), Some("eu-west-3"));
    }

    #[test]
    fn the_default_profile_is_a_plain_section_in_both_files() {
        let p = resolve(CREDENTIALS, CONFIG, "default");
        assert_eq!(p.access_key_id.as_deref(), Some("AKIDDEFAULT"));
        assert_eq!(p.session_token, None);
        assert_eq!(p.region.as_deref(), Some("us-west-2"));
    }

    #[test]
    fn keys_in_the_config_file_are_read_when_the_credentials_file_has_none() {
        let p = resolve(CREDENTIALS, CONFIG, "config-only");
        assert_eq!(p.access_key_id.as_deref(), Some("AKIDCONFIG"));
        assert_eq!(p.region.as_deref(), Some("ap-south-1"));
    }

    #[test]
    fn a_key_id_without_its_secret_or_an_unknown_profile_gives_no_keys() {
        let half = "[default]\naws_access_key_id = AKID\n";
        assert_eq!(resolve(half, "", "default"), Profile::default());
        assert_eq!(resolve(CREDENTIALS, CONFIG, "nobody"), Profile::default());
        // `[crawler]` in the config file is no `[profile crawler]`.
        let p = resolve("", "[crawler]\nregion = eu-north-1\n", "crawler");
        assert_eq!(p.region, None);
    }
}
