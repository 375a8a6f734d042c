//! Dates of records, for the WET writer's `WARC-Date`: a response's HTTP
//! `Date` read (leniently, as servers write it), and a time written as a
//! WARC-Date. It does not decide which date a record gets: the writer
//! does (`writer::conversion_date`).
//!
//! Written here rather than with a date crate (chrono, time, jiff; none
//! is a dependency): httpdate, which is, reads the strict HTTP forms, and
//! what is left (a sloppy server's fixdate, a calendar check, days to a
//! civil date) is a few short functions that no crate does in the
//! lenient way wanted.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The time an HTTP `Date` header's value names: one of the RFC 9110
/// forms (IMF-fixdate, RFC 850, asctime), or else an IMF-fixdate as
/// servers get it wrong ([`lenient_http_date`]). `None` for anything else,
/// and for a time before 1970, which no HTTP date names.
pub fn parse_http_date(value: &str) -> Option<SystemTime> {
    let value = value.trim();
    httpdate::parse_http_date(value)
        .ok()
        .or_else(|| lenient_http_date(value))
}

/// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) with the slips that
/// httpdate refuses and servers make: a weekday that is not the date's
/// (ignored, as is a missing one), `UTC` or `+0000` for `GMT`, and a day of
/// one digit. The rest must be as the form says (a month's English
/// abbreviation, a four-digit year, two-digit hours, minutes and seconds),
/// and a real date: the slips are a sloppy server's, anything looser is
/// more likely no date at all.
fn lenient_http_date(value: &str) -> Option<SystemTime> {
    let mut parts = value.split_ascii_whitespace().peekable();
    // The weekday, if any: letters and a comma, whichever day they name.
    if let Some(weekday) = parts.next_if(|p| p.ends_with(',')) {
        let name = weekday.strip_suffix(',').unwrap_or(weekday);
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphabetic()) {
            return None;
        }
    }
    let (day, month, year, time, zone) = (
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
    );
    if parts.next().is_some() || !matches!(zone, "GMT" | "UTC" | "+0000") {
        return None;
    }
    let day = digits(day, 1..=2)?;
    let month = MONTHS.iter().position(|&m| m == month)? as u32 + 1;
    let year = i64::from(digits(year, 4..=4)?);
    let seconds = time_of_day(time)?;
    if year < 1970 || !is_real_date(year, month, day) {
        return None;
    }
    let days = u64::try_from(days_from_civil(year, month, day)).ok()?;
    UNIX_EPOCH.checked_add(Duration::from_secs(days * 86_400 + u64::from(seconds)))
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// `value` as a WARC-Date as WARC 1.0 wants one (its section 5.4:
/// `YYYY-MM-DDThh:mm:ssZ`, a real date and time in UTC), if it is one or
/// one of WARC 1.1's with a fraction of seconds (1 to 9 digits, W3CDTF as
/// WARC 1.1 bounds it), whose fraction is dropped: the conversion record
/// is WARC/1.0, and a second is precise enough to date it. WARC 1.1's
/// coarser forms (`YYYY` to `YYYY-MM-DDThh:mmZ`) are refused rather than
/// padded with made-up digits, and so is an offset other than `Z`: the
/// spec wants UTC, and a reader of the output (a CDX indexer) may not
/// take one.
pub fn warc_1_0_date(value: &str) -> Option<String> {
    let (date, time) = value.split_once('T')?;
    let time = time.strip_suffix('Z')?;
    let (hms, fraction) = match time.split_once('.') {
        Some((hms, fraction)) => (hms, Some(fraction)),
        None => (time, None),
    };
    let whole = is_calendar_date(date)
        && time_of_day(hms).is_some()
        && fraction.is_none_or(|f| digits(f, 1..=9).is_some());
    whole.then(|| format!("{date}T{hms}Z"))
}

/// Whether `date` is `YYYY-MM-DD` naming a real day.
fn is_calendar_date(date: &str) -> bool {
    let mut ymd = date.split('-');
    let mut part = |len| digits(ymd.next()?, len..=len);
    let (Some(year), Some(month), Some(day)) = (part(4), part(2), part(2)) else {
        return false;
    };
    ymd.next().is_none() && is_real_date(i64::from(year), month, day)
}

/// Whether `year`, `month` (1-12 to be one) and `day` name a real day.
fn is_real_date(year: i64, month: u32, day: u32) -> bool {
    (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)
}

/// `hh:mm:ss`, two digits each, as seconds since midnight, if it names a
/// time of day (no leap second: neither HTTP nor WARC dates take one).
fn time_of_day(hms: &str) -> Option<u32> {
    let mut parts = hms.split(':');
    let mut part = || digits(parts.next()?, 2..=2);
    let (hour, minute, second) = (part()?, part()?, part()?);
    let real = parts.next().is_none() && hour < 24 && minute < 60 && second < 60;
    real.then_some(hour * 3600 + minute * 60 + second)
}

/// `s` as a number, if it is ASCII digits, as many as `len` allows.
fn digits(s: &str, len: std::ops::RangeInclusive<usize>) -> Option<u32> {
    if !len.contains(&s.len()) || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Days in `month` (1-12) of `year`, in the Gregorian calendar.
fn days_in_month(year: i64, month: u32) -> u32 {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `time` as a WARC-Date (UTC, seconds); a time before 1970 (which an
/// HTTP date cannot name) as the epoch.
pub fn warc_date(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to a Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A Gregorian date to days since 1970-01-01 (the inverse of
/// [`civil_from_days`], same algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    fn http(value: &str) -> Option<String> {
        parse_http_date(value).map(warc_date)
    }

    /// The three forms httpdate reads, and an IMF-fixdate with a wrong or
    /// missing weekday, `UTC` or `+0000` for `GMT`, or a one-digit day.
    #[test]
    fn http_dates_are_read_with_a_sloppy_servers_slips() {
        let want = Some("1994-11-06T08:49:37Z".to_string());
        for value in [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
            " Sun, 06 Nov 1994 08:49:37 GMT ",
            "Mon, 06 Nov 1994 08:49:37 GMT",
            "Xyz, 06 Nov 1994 08:49:37 GMT",
            "06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 06 Nov 1994 08:49:37 +0000",
            "Sun, 6 Nov 1994 08:49:37 GMT",
            "Thu, 6 Nov 1994 08:49:37 UTC",
        ] {
            assert_eq!(http(value), want, "{value:?}");
        }
        let leap = "Thu, 29 Feb 2024 23:59:59 UTC";
        assert_eq!(http(leap).as_deref(), Some("2024-02-29T23:59:59Z"));
        assert_eq!(
            http("Thu, 1 Jan 1970 00:00:00 UTC").as_deref(),
            Some("1970-01-01T00:00:00Z")
        );
    }

    /// Anything looser is no date.
    #[test]
    fn what_is_no_http_date() {
        for value in [
            "",
            "yesterday",
            "Sun 06 Nov 1994 08:49:37 GMT",
            "S1n, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 CET",
            "Sun, 06 Nov 1994 08:49:37 +0100",
            "Sun, 06 Nov 1994 08:49:37",
            "Sun, 06 Nov 1994 08:49:37 GMT extra",
            "Sun, 006 Nov 1994 08:49:37 GMT",
            "Sun, 0 Nov 1994 08:49:37 GMT",
            "Sun, 31 Nov 1994 08:49:37 GMT",
            "Sun, 29 Feb 2023 08:49:37 GMT",
            "Sun, 06 nov 1994 08:49:37 GMT",
            "Sun, 06 November 1994 08:49:37 GMT",
            "Sun, 06 Nov 94 08:49:37 GMT",
            "Sun, 06 Nov 1969 08:49:37 UTC",
            "Sun, 06 Nov 1994 24:00:00 UTC",
            "Sun, 06 Nov 1994 08:60:00 UTC",
            "Sun, 06 Nov 1994 08:49:60 UTC",
            "Sun, 06 Nov 1994 8:49:37 UTC",
            "Sun, 06 Nov 1994 08:49 UTC",
            "Sun, 06 Nov 1994 08:49:37:00 UTC",
            "Sun, +6 Nov 1994 08:49:37 UTC",
            ", 06 Nov 1994 08:49:37 GMT",
        ] {
            assert_eq!(http(value), None, "{value:?}");
        }
    }

    /// A WARC-Date as WARC 1.0 has it, or with a fraction of seconds
    /// (dropped); not anything else, nor WARC 1.1's coarser forms.
    #[test]
    fn warc_dates_are_read_as_warc_1_0_has_them() {
        for (value, want) in [
            ("2024-05-06T07:08:09Z", "2024-05-06T07:08:09Z"),
            ("2024-05-06T07:08:09.5Z", "2024-05-06T07:08:09Z"),
            ("2024-05-06T07:08:09.123456789Z", "2024-05-06T07:08:09Z"),
            ("2024-02-29T23:59:59Z", "2024-02-29T23:59:59Z"),
            ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
        ] {
            assert_eq!(warc_1_0_date(value).as_deref(), Some(want), "{value:?}");
        }
        for value in [
            "",
            " ",
            "yesterday",
            "24",
            "20240506070809",
            "2024-5-06",
            "2024-05-6",
            "2024-00",
            "2024-13",
            "2024-05-00",
            "2024-04-31",
            "2023-02-29",
            "2024-05-06-07",
            "2024-",
            "2024-05-",
            "2024T07:08Z",
            "2024-05T07:08Z",
            "2024-05-06T",
            "2024-05-06TZ",
            "2024-05-06T07Z",
            "2024-05-06T07:08",
            "2024-05-06T07:08:09",
            "2024-05-06 07:08:09Z",
            "2024-05-06t07:08:09z",
            "2024-05-06T07:08:09+00:00",
            "2024-05-06T07:08:09-0800",
            "2024-05-06T24:00:00Z",
            "2024-05-06T07:60:00Z",
            "2024-05-06T07:08:60Z",
            "2024-05-06T7:08:09Z",
            "2024-05-06T07:08:09:10Z",
            "2024-05-06T07:08:09.Z",
            "2024-05-06T07:08:09.1a2Z",
            "2024-05-06T07:08.5Z",
            "2024-05-06T07:08:09Z ",
            "+2024-05-06",
            "2009-03-65T08:43:19-0800",
            "2024-05-06T07:08:09.1234567890Z",
            "2024",
            "2024-05",
            "2024-05-06",
            "2024-05-06T07:08Z",
        ] {
            assert_eq!(warc_1_0_date(value), None, "{value:?}");
        }
    }

    #[test]
    fn days_from_civil_undoes_civil_from_days() {
        for days in [0, 1, 58, 59, 60, 365, 10_957, 11_016, 19_782, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
        }
    }
}
