//! `s3://BUCKET/KEY` WARC locations through object_store: one ranged GET
//! a request, a resume pinned to the first response's ETag (`If-Match`).
//! Configured by the AWS environment: credentials (`AWS_ACCESS_KEY_ID`,
//! `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, then a profile's static
//! keys from the shared files (`profile`), web identity, the ECS
//! container and EC2 instance metadata), `AWS_REGION` (else the
//! profile's),
//! `AWS_ENDPOINT_URL` (an S3-compatible server; `http://` allowed when
//! named so) and `AWS_SKIP_SIGNATURE=true` for public buckets read
//! anonymously. Retrying is `transfer`'s (object_store's own is off).

use super::{Body, Failure, FailureKind, Opened, env_duration};
use futures_util::StreamExt;
use object_store::aws::{AmazonS3, AmazonS3Builder, AmazonS3ConfigKey};
use object_store::{ClientConfigKey, GetOptions, GetRange, ObjectStore, RetryConfig};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

#[derive(Debug, Clone)]
pub(super) struct S3 {
    store: Arc<AmazonS3>,
    key: object_store::path::Path,
}

impl S3 {
    pub(super) fn new(location: &str) -> Result<S3, Failure> {
        let bad = |why: &str| Failure::permanent(format!("{location}: {why}"));
        let rest = location.get(5..).ok_or_else(|| bad("not an s3:// URL"))?;
        let (bucket, key) = rest
            .split_once('/')
            .filter(|(b, k)| !b.is_empty() && !k.is_empty())
            .ok_or_else(|| bad("an s3:// location is s3://BUCKET/KEY"))?;
        let key = object_store::path::Path::parse(key)
            .map_err(|e| bad(&format!("not an object key ({e})")))?;
        Ok(S3 {
            store: store(bucket)?,
            key,
        })
    }

    pub(super) async fn get(
        &self,
        start: u64,
        end: Option<u64>,
        validator: Option<&str>,
    ) -> Result<Opened, Failure> {
        let range = match (start, end) {
            (0, None) => None,
            (s, None) => Some(GetRange::Offset(s)),
            (s, Some(e)) => Some(GetRange::Bounded(s..e.max(s + 1))),
        };
        let options = GetOptions {
            range,
            if_match: validator.map(str::to_string),
            ..GetOptions::default()
        };
        let result = self
            .store
            .get_opts(&self.key, options)
            .await
            .map_err(failure)?;
        // Tried again, as a wrong HTTP Content-Range is.
        if result.range.start != start {
            return Err(Failure::transient(format!(
                "the object's range starts at byte {}, not {start}",
                result.range.start
            )));
        }
        let total = Some(result.meta.size);
        let validator = result.meta.e_tag.clone();
        let body: Body = Box::pin(result.into_stream().map(|r| r.map_err(failure)));
        Ok(Opened {
            body,
            total,
            validator,
        })
    }
}

/// The client of `bucket`, made once (with its connection pool).
fn store(bucket: &str) -> Result<Arc<AmazonS3>, Failure> {
    static STORES: OnceLock<Mutex<HashMap<String, Arc<AmazonS3>>>> = OnceLock::new();
    let stores = STORES.get_or_init(Mutex::default);
    let mut stores = stores
        .lock()
        .map_err(|_| Failure::permanent("the S3 clients' lock is poisoned"))?;
    if let Some(store) = stores.get(bucket) {
        return Ok(store.clone());
    }
    // `Err` only means another provider is installed, which is fine.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let read_timeout = env_duration("LINESIFT_REMOTE_TIMEOUT", Duration::from_secs(30));
    let connect_timeout = env_duration("LINESIFT_REMOTE_CONNECT_TIMEOUT", Duration::from_secs(10));
    let mut builder = AmazonS3Builder::from_env()
        .with_bucket_name(bucket)
        // Ours retries, resuming where a body stopped.
        .with_retry(RetryConfig {
            max_retries: 0,
            ..RetryConfig::default()
        })
        .with_config(
            AmazonS3ConfigKey::Client(ClientConfigKey::ReadTimeout),
            format!("{}ms", read_timeout.as_millis()),
        )
        .with_config(
            AmazonS3ConfigKey::Client(ClientConfigKey::ConnectTimeout),
            format!("{}ms", connect_timeout.as_millis()),
        )
        // A whole WARC takes as long as it takes; a stalled read is what
        // fails (the read timeout).
        .with_config(AmazonS3ConfigKey::Client(ClientConfigKey::Timeout), "7days");
    builder = with_profile(builder, super::profile::from_env());
    let endpoint = ["AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_ENDPOINT"]
        .iter()
        .find_map(|name| std::env::var(name).ok());
    if endpoint.is_some_and(|e| e.to_ascii_lowercase().starts_with("http://")) {
        builder = builder.with_allow_http(true);
    }
    let store = builder
        .build()
        .map_err(|e| Failure::permanent(format!("s3://{bucket}: {e}")))?;
    let store = Arc::new(store);
    stores.insert(bucket.to_string(), store.clone());
    Ok(store)
}

/// The shared files' profile where the environment says nothing: its
/// keys when no key is set (the environment's keys come first, then the
/// profile's, then web identity and the rest of object_store's chain, as
/// the AWS SDKs order them), its region when no region is.
fn with_profile(mut builder: AmazonS3Builder, profile: super::profile::Profile) -> AmazonS3Builder {
    let set = |b: &AmazonS3Builder, key| b.get_config_value(&key).is_some();
    if !set(&builder, AmazonS3ConfigKey::AccessKeyId)
        && let (Some(id), Some(secret)) = (profile.access_key_id, profile.secret_access_key)
    {
        builder = builder
            .with_access_key_id(id)
            .with_secret_access_key(secret);
        if let Some(token) = profile.session_token {
            builder = builder.with_token(token);
        }
    }
    // `AWS_DEFAULT_REGION` too: object_store keeps either as its region.
    let region_set = set(&builder, AmazonS3ConfigKey::Region);
    if let Some(region) = profile.region.filter(|_| !region_set) {
        builder = builder.with_region(region);
    }
    builder
}

/// object_store's errors, by whether another try may help.
fn failure(e: object_store::Error) -> Failure {
    use object_store::Error as E;
    let message = chain(&e);
    let kind = match &e {
        E::NotFound { .. } => FailureKind::NotFound,
        E::PermissionDenied { .. } | E::Unauthenticated { .. } => FailureKind::Denied,
        E::Precondition { .. } | E::NotModified { .. } => {
            return Failure::permanent(format!(
                "the object changed since reading began (its ETag differs): {message}"
            ));
        }
        E::InvalidPath { .. } | E::NotSupported { .. } | E::NotImplemented { .. } => {
            FailureKind::Permanent
        }
        // By the status alone: a "416" in the URL (a port, a Common Crawl
        // segment's key) is no answer, and taking it for one ends a cut
        // read early as if the file were whole.
        _ if message.contains("status code: 416 ") => FailureKind::PastEnd,
        _ => FailureKind::Transient,
    };
    Failure::new(kind, message)
}

fn chain(e: &dyn std::error::Error) -> String {
    let mut message = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let text = c.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        cause = c.source();
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    fn generic(message: &str) -> object_store::Error {
        object_store::Error::Generic {
            store: "S3",
            source: message.into(),
        }
    }

    #[test]
    fn only_a_416_status_reads_as_past_the_end() {
        let refused = generic(
            "Error performing GET http://127.0.0.1:9000/crawl/x.warc.gz in 2ms - \
             Server returned non-2xx status code: 416 Range Not Satisfiable: \
             <Error><Code>InvalidRange</Code></Error>",
        );
        assert_eq!(failure(refused).kind, FailureKind::PastEnd);
        let cut = generic(
            "Error performing GET http://127.0.0.1:41623/crawl/segments/1707947473416/x.warc.gz \
             in 2ms - error decoding response body",
        );
        assert_eq!(failure(cut).kind, FailureKind::Transient);
    }
}
