//! SSRF guard: which addresses the fetcher may connect to.
//!
//! By default private (RFC 1918), loopback, link-local, unique-local,
//! CGNAT, multicast, unspecified and reserved addresses are refused, and so
//! are the cloud metadata addresses ([`is_metadata`]: 169.254.169.254,
//! fd00:ec2::/32, ... in every IPv6 form that embeds them). Allowing
//! private addresses does not allow those: a crawl that must reach its own
//! private hosts must not also reach the instance's credentials; they
//! have their own switch (`allow_metadata`). The check runs on the
//! *resolved* addresses: [`GuardedResolver`] is the client's DNS resolver
//! and hands the connector only addresses that passed, so what is checked is
//! what is connected to (no time-of-check/time-of-use gap, no DNS rebinding
//! between check and connect). URLs whose host is an IP literal never reach
//! a resolver, so [`Guard::check_url`] checks those before the first request
//! and in the redirect policy before every redirect is followed.

use futures_util::future::BoxFuture;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use thiserror::Error;
use url::{Host, Url};

/// Which address classes are allowed besides public unicast.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Guard {
    /// Allow every address (private, loopback, link-local, ...) but the
    /// cloud metadata addresses.
    pub allow_private: bool,
    /// Allow loopback only (local test servers, a local proxy).
    pub allow_loopback: bool,
    /// Allow the cloud metadata addresses ([`is_metadata`]), which
    /// `allow_private` leaves refused.
    pub allow_metadata: bool,
}

/// The reason given for a cloud metadata address.
pub const METADATA: &str = "cloud metadata";

/// IPv4 addresses of cloud instance metadata and credentials services:
/// the link-local metadata service (AWS, GCP, Azure, Oracle, DigitalOcean,
/// OpenStack), AWS ECS's task credentials and EKS's pod identity agent,
/// and Alibaba Cloud's metadata service (inside CGNAT space).
const METADATA_V4: [Ipv4Addr; 4] = [
    Ipv4Addr::new(169, 254, 169, 254),
    Ipv4Addr::new(169, 254, 170, 2),
    Ipv4Addr::new(169, 254, 170, 23),
    Ipv4Addr::new(100, 100, 100, 200),
];

/// Whether `ip` is a cloud metadata address: one of [`METADATA_V4`], AWS's
/// instance services block fd00:ec2::/32 (metadata at fd00:ec2::254, the
/// pod identity agent at fd00:ec2::23), or an IPv6 address that embeds
/// one of the IPv4 ones (IPv4-mapped `::ffff:169.254.169.254`,
/// translated, compatible, NAT64, 6to4).
pub fn is_metadata(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => METADATA_V4.contains(&v4),
        IpAddr::V6(v6) => {
            let seg = v6.segments();
            (seg[0] == 0xfd00 && seg[1] == 0x0ec2)
                || embedded_v4(v6).is_some_and(|v4| METADATA_V4.contains(&v4))
        }
    }
}

/// Why the guard refused a host or an address.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GuardError {
    #[error("{host} resolves to {addr}, a {reason} address")]
    Refused {
        host: String,
        addr: IpAddr,
        reason: &'static str,
    },
    #[error("cannot resolve {host}: {message}")]
    Resolve { host: String, message: String },
}

impl Guard {
    /// Why `ip` is refused, or `None` when it may be connected to.
    pub fn refuses(&self, ip: IpAddr) -> Option<&'static str> {
        if is_metadata(ip) {
            return (!self.allow_metadata).then_some(METADATA);
        }
        if self.allow_private {
            return None;
        }
        let reason = classify(ip)?;
        (!(self.allow_loopback && reason == "loopback")).then_some(reason)
    }

    /// Checks a URL whose host is an IP literal (names go through the
    /// resolver). `Ok` for names and allowed literals.
    pub fn check_url(&self, url: &Url) -> Result<(), GuardError> {
        let ip = match url.host() {
            Some(Host::Ipv4(v4)) => IpAddr::V4(v4),
            Some(Host::Ipv6(v6)) => IpAddr::V6(v6),
            _ => return Ok(()),
        };
        match self.refuses(ip) {
            Some(reason) => Err(GuardError::Refused {
                host: ip.to_string(),
                addr: ip,
                reason,
            }),
            None => Ok(()),
        }
    }
}

/// The class of a non-public address, `None` for public unicast.
pub fn classify(ip: IpAddr) -> Option<&'static str> {
    if is_metadata(ip) {
        return Some(METADATA);
    }
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

fn classify_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    let reason = match (a, b, c) {
        (0, _, _) => "unspecified",
        (10, _, _) => "private",
        (100, 64..=127, _) => "CGNAT",
        (127, _, _) => "loopback",
        (169, 254, _) => "link-local",
        (172, 16..=31, _) => "private",
        (192, 0, 0) => "IETF protocol",
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => "documentation",
        (192, 168, _) => "private",
        (198, 18..=19, _) => "benchmarking",
        (224..=239, _, _) => "multicast",
        (240..=255, _, _) => "reserved",
        _ => return None,
    };
    Some(reason)
}

fn classify_v6(ip: Ipv6Addr) -> Option<&'static str> {
    if let Some(v4) = embedded_v4(ip) {
        return classify_v4(v4);
    }
    let seg = ip.segments();
    let reason = match seg[0] {
        _ if ip.is_unspecified() => "unspecified",
        _ if ip.is_loopback() => "loopback",
        s if s & 0xfe00 == 0xfc00 => "unique-local",
        s if s & 0xffc0 == 0xfe80 => "link-local",
        s if s & 0xffc0 == 0xfec0 => "site-local",
        s if s & 0xff00 == 0xff00 => "multicast",
        0x2001 if seg[1] == 0x0db8 => "documentation",
        // Teredo tunnels to a host behind a NAT (its address obfuscated
        // in the low bits): no destination a crawler means to reach.
        0x2001 if seg[1] == 0 => "teredo",
        // NAT64 for local use (RFC 8215): a translator of the operator's
        // own, which may reach any IPv4 address behind it.
        0x0064 if seg[1] == 0xff9b && seg[2] == 1 => "nat64 local-use",
        0x0100 if seg[1..4] == [0, 0, 0] => "discard",
        _ => return None,
    };
    Some(reason)
}

/// The IPv4 address inside IPv4-mapped (::ffff:a.b.c.d), IPv4-translated
/// (SIIT, ::ffff:0:a.b.c.d), IPv4-compatible, NAT64 (64:ff9b::/96) and 6to4
/// (2002::/16) addresses.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let seg = ip.segments();
    let low = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
    match seg {
        [0, 0, 0, 0, 0, 0xffff, hi, lo] => Some(low(hi, lo)),
        [0, 0, 0, 0, 0xffff, 0, hi, lo] => Some(low(hi, lo)),
        [0, 0, 0, 0, 0, 0, hi, lo] if hi != 0 => Some(low(hi, lo)),
        [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => Some(low(hi, lo)),
        [0x2002, hi, lo, ..] => Some(low(hi, lo)),
        _ => None,
    }
}

/// Where names are looked up. Production uses [`SystemLookup`]; tests put
/// in answers that change from one lookup to the next (DNS rebinding) to
/// show every connection is checked against the answer it connects to.
pub trait Lookup: Send + Sync + 'static {
    fn lookup(&self, host: String) -> BoxFuture<'static, std::io::Result<Vec<SocketAddr>>>;
}

/// What a lookup that found no address at all reports.
pub(crate) const NO_ADDRESSES: &str = "no addresses";

/// The operating system's resolver (getaddrinfo on tokio's blocking pool).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemLookup;

impl Lookup for SystemLookup {
    fn lookup(&self, host: String) -> BoxFuture<'static, std::io::Result<Vec<SocketAddr>>> {
        Box::pin(async move { Ok(tokio::net::lookup_host((host.as_str(), 0)).await?.collect()) })
    }
}

/// The client's DNS resolver: a [`Lookup`], filtered by the guard.
/// Refused addresses are dropped; a name with none left is an error, so
/// the connector never sees a refused address. Every connection the client
/// opens resolves anew through here, so an answer that changes after an
/// earlier check is checked again.
#[derive(Clone)]
pub struct GuardedResolver {
    guard: Guard,
    lookup: Arc<dyn Lookup>,
}

impl GuardedResolver {
    pub fn new(guard: Guard, lookup: Arc<dyn Lookup>) -> Self {
        GuardedResolver { guard, lookup }
    }
}

impl fmt::Debug for GuardedResolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GuardedResolver")
            .field("guard", &self.guard)
            .finish_non_exhaustive()
    }
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let guard = self.guard;
        let host = name.as_str().to_string();
        let lookup = self.lookup.lookup(host.clone());
        Box::pin(async move {
            let found = lookup.await.map_err(|e| GuardError::Resolve {
                host: host.clone(),
                message: e.to_string(),
            })?;
            let addrs = filter(guard, &host, found)?;
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

/// Keeps the allowed addresses; an error naming the first refused one when
/// none is left.
fn filter(guard: Guard, host: &str, found: Vec<SocketAddr>) -> Result<Vec<SocketAddr>, GuardError> {
    let mut refused = None;
    let mut allowed = Vec::with_capacity(found.len());
    for addr in found {
        match guard.refuses(addr.ip()) {
            Some(reason) => refused = refused.or(Some((addr.ip(), reason))),
            None => allowed.push(addr),
        }
    }
    match (allowed.is_empty(), refused) {
        (true, Some((addr, reason))) => Err(GuardError::Refused {
            host: host.to_string(),
            addr,
            reason,
        }),
        (true, None) => Err(GuardError::Resolve {
            host: host.to_string(),
            message: NO_ADDRESSES.into(),
        }),
        (false, _) => Ok(allowed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(s: &str) -> Option<&'static str> {
        Guard::default().refuses(s.parse().unwrap())
    }

    #[test]
    fn refuses_non_public_v4() {
        for (ip, reason) in [
            ("10.0.0.1", "private"),
            ("172.16.5.4", "private"),
            ("192.168.1.1", "private"),
            ("127.0.0.1", "loopback"),
            ("169.254.169.254", "cloud metadata"),
            ("169.254.1.1", "link-local"),
            ("100.64.0.1", "CGNAT"),
            ("0.0.0.0", "unspecified"),
            ("224.0.0.1", "multicast"),
            ("255.255.255.255", "reserved"),
        ] {
            assert_eq!(refused(ip), Some(reason), "{ip}");
        }
    }

    #[test]
    fn refuses_non_public_v6_and_embedded_v4() {
        for ip in [
            "::1",
            "::",
            "fd00:ec2::254",
            "fc00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a00:1",
            "2002:a00:1::",
            "ff02::1",
            // SIIT's IPv4-translated form of 169.254.169.254.
            "::ffff:0:a9fe:a9fe",
            // NAT64 local-use (RFC 8215) and Teredo.
            "64:ff9b:1::a9fe:a9fe",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
        ] {
            assert!(refused(ip).is_some(), "{ip}");
        }
        // A public address in the translated form stays allowed.
        assert_eq!(refused("::ffff:0:808:808"), None);
    }

    #[test]
    fn allows_public() {
        for ip in ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700::1111"] {
            assert_eq!(refused(ip), None, "{ip}");
        }
    }

    #[test]
    fn options_widen_what_is_allowed() {
        let loopback = Guard {
            allow_loopback: true,
            ..Guard::default()
        };
        assert_eq!(loopback.refuses("127.0.0.1".parse().unwrap()), None);
        assert_eq!(
            loopback.refuses("10.0.0.1".parse().unwrap()),
            Some("private")
        );
        let all = Guard {
            allow_private: true,
            ..Guard::default()
        };
        assert_eq!(all.refuses("10.0.0.1".parse().unwrap()), None);
        assert_eq!(all.refuses("169.254.1.1".parse().unwrap()), None);
    }

    /// The metadata addresses in every form: IPv4, AWS's IPv6, and IPv6
    /// forms that embed the IPv4 ones.
    const METADATA_FORMS: [&str; 9] = [
        "169.254.169.254",
        "169.254.170.2",
        "100.100.100.200",
        "fd00:ec2::254",
        "fd00:ec2::23",
        "::ffff:169.254.169.254",
        "::ffff:a9fe:a9fe",
        "::ffff:0:a9fe:a9fe",
        "64:ff9b::a9fe:a9fe",
    ];

    #[test]
    fn metadata_addresses_are_refused_even_when_private_ones_are_allowed() {
        let private = Guard {
            allow_private: true,
            allow_loopback: true,
            allow_metadata: false,
        };
        for ip in METADATA_FORMS {
            let ip: IpAddr = ip.parse().unwrap();
            assert!(is_metadata(ip), "{ip}");
            assert_eq!(Guard::default().refuses(ip), Some(METADATA), "{ip}");
            assert_eq!(private.refuses(ip), Some(METADATA), "{ip}");
        }
        let literal = Url::parse("http://[::ffff:169.254.169.254]/latest/").unwrap();
        assert!(private.check_url(&literal).is_err());
        let literal = Url::parse("http://169.254.169.254/latest/meta-data/").unwrap();
        assert!(private.check_url(&literal).is_err());
    }

    #[test]
    fn only_allow_metadata_opens_the_metadata_addresses() {
        let metadata = Guard {
            allow_metadata: true,
            ..Guard::default()
        };
        for ip in METADATA_FORMS {
            assert_eq!(metadata.refuses(ip.parse().unwrap()), None, "{ip}");
        }
        // It opens nothing else.
        assert_eq!(
            metadata.refuses("10.0.0.1".parse().unwrap()),
            Some("private")
        );
        assert_eq!(
            metadata.refuses("169.254.1.1".parse().unwrap()),
            Some("link-local")
        );
    }

    #[test]
    fn neighbours_of_the_metadata_addresses_are_no_metadata() {
        for ip in [
            "169.254.169.253",
            "169.254.170.3",
            "100.100.100.201",
            "fd00:ec3::254",
        ] {
            assert!(!is_metadata(ip.parse().unwrap()), "{ip}");
        }
    }

    /// Always answers with `addrs`.
    struct Fixed(Vec<&'static str>);

    impl Lookup for Fixed {
        fn lookup(&self, _: String) -> BoxFuture<'static, std::io::Result<Vec<SocketAddr>>> {
            let addrs = self.0.iter().map(|a| a.parse().unwrap()).collect();
            Box::pin(async move { Ok(addrs) })
        }
    }

    /// A name that resolves to a metadata address (any form) is refused
    /// with `allow_private`: only its other, allowed, answers are used.
    #[tokio::test]
    async fn a_name_resolving_to_a_metadata_address_is_refused_with_allow_private() {
        let private = Guard {
            allow_private: true,
            allow_loopback: true,
            allow_metadata: false,
        };
        let name = || "metadata.internal".parse::<Name>().unwrap();
        for answer in [
            "169.254.169.254:80",
            "[fd00:ec2::254]:80",
            "[::ffff:169.254.169.254]:80",
        ] {
            let r = GuardedResolver::new(private, Arc::new(Fixed(vec![answer])));
            let e = r.resolve(name()).await.err().expect("refused").to_string();
            assert!(e.contains(METADATA), "{answer}: {e}");
        }
        let mixed = Fixed(vec!["169.254.169.254:80", "10.1.2.3:80"]);
        let r = GuardedResolver::new(private, Arc::new(mixed));
        let ips: Vec<String> = r
            .resolve(name())
            .await
            .unwrap()
            .map(|a| a.ip().to_string())
            .collect();
        assert_eq!(ips, ["10.1.2.3"]);
        let metadata = Guard {
            allow_metadata: true,
            ..private
        };
        let r = GuardedResolver::new(metadata, Arc::new(Fixed(vec!["169.254.169.254:80"])));
        assert!(r.resolve(name()).await.is_ok());
    }

    #[test]
    fn filter_keeps_public_and_refuses_all_private() {
        let a: SocketAddr = "10.0.0.1:0".parse().unwrap();
        let b: SocketAddr = "8.8.8.8:0".parse().unwrap();
        assert_eq!(filter(Guard::default(), "h", vec![a, b]), Ok(vec![b]));
        assert!(matches!(
            filter(Guard::default(), "h", vec![a]),
            Err(GuardError::Refused { .. })
        ));
    }

    #[test]
    fn check_url_only_judges_ip_literals() {
        let g = Guard::default();
        assert!(
            g.check_url(&Url::parse("http://example.com/").unwrap())
                .is_ok()
        );
        assert!(
            g.check_url(&Url::parse("http://[::1]:8080/").unwrap())
                .is_err()
        );
        assert!(
            g.check_url(&Url::parse("http://169.254.169.254/").unwrap())
                .is_err()
        );
    }

    /// Answers in turn: public; public and metadata; private only.
    struct Changing(std::sync::atomic::AtomicUsize);

    impl Lookup for Changing {
        fn lookup(&self, _: String) -> BoxFuture<'static, std::io::Result<Vec<SocketAddr>>> {
            let n = self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let answer: &[&str] = match n {
                0 => &["93.184.216.34:0"],
                1 => &["93.184.216.34:0", "169.254.169.254:0"],
                _ => &["192.168.1.10:0"],
            };
            let addrs = answer.iter().map(|a| a.parse().unwrap()).collect();
            Box::pin(async move { Ok(addrs) })
        }
    }

    #[tokio::test]
    async fn every_resolution_is_filtered_anew() {
        let r = GuardedResolver::new(Guard::default(), Arc::new(Changing(0.into())));
        let name = || "rebind.example".parse::<Name>().unwrap();
        let ips = |addrs: Addrs| addrs.map(|a| a.ip().to_string()).collect::<Vec<_>>();
        assert_eq!(ips(r.resolve(name()).await.unwrap()), ["93.184.216.34"]);
        assert_eq!(ips(r.resolve(name()).await.unwrap()), ["93.184.216.34"]);
        let e = r.resolve(name()).await.err().unwrap().to_string();
        assert!(e.contains("192.168.1.10") && e.contains("private"), "{e}");
    }
}
