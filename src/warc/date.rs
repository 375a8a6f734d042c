//! Dates of records, for the WET writer's `WARC-Date` and the JSONL
//! `warc_date`: a response's HTTP `Date` read (leniently, as servers write
//! it), a record's `WARC-Date` read (with the offsets and leap seconds
//! some writers put in it), and either written as a WARC-Date, in one
//! form. It does not decide which date a record gets: the writer does
//! (`sink::writer::conversion_date`, `sink::writer::Source::warc_date`).
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

/// A record's `WARC-Date` header value as both writers and `linesift
/// warc`'s summary take it: trimmed, then [`canonical_warc_date`], or else
/// the fallback for a day of the year written for the day of the month
/// ([`day_of_year_mended`]; the reader flags such a record, see
/// [`mended`]). One rule, so that what the summary calls unread is what
/// the writers leave out.
pub fn record_warc_date(value: &str) -> Option<String> {
    let value = value.trim();
    canonical_warc_date(value).or_else(|| canonical_warc_date(&day_of_year_mended(value)?))
}

/// Whether a record's `WARC-Date` is read by [`record_warc_date`]'s
/// fallback only: it is malformed, and mended.
pub fn mended(value: &str) -> bool {
    let value = value.trim();
    // A date that reads is not mended (whether it is in range or not):
    // checked without writing it, as the reader asks for every page.
    warc_date_seconds(value).is_none()
        && day_of_year_mended(value).is_some_and(|d| canonical_warc_date(&d).is_some())
}

/// A WARC-Date whose day is the day of the year (Java's `DD` for `dd`:
/// ClueWeb09's `2008-10-294T05:21:46-0700` is 20 October 2008, its 294th
/// day) with the day of the month in its place, and the rest as written.
/// Only when the day as written is no day of its month (in every month
/// but January the day of the year is past the month's end) and the day
/// of the year falls in the month written: a check that a day slipped in
/// by chance does not pass.
fn day_of_year_mended(value: &str) -> Option<String> {
    let (date, time) = value.split_once('T')?;
    let mut ymd = date.split('-');
    let (y, m, d) = (ymd.next()?, ymd.next()?, ymd.next()?);
    if ymd.next().is_some() {
        return None;
    }
    let (year, month, day) = (
        i64::from(digits(y, 4..=4)?),
        digits(m, 2..=2)?,
        digits(d, 2..=3)?,
    );
    if !(1..=12).contains(&month) || is_real_date(year, month, day) || day == 0 {
        return None;
    }
    let days = days_from_civil(year, 1, 1) + i64::from(day) - 1;
    let (in_year, in_month, day_of_month) = civil_from_days(days);
    (in_year == year && in_month == month).then(|| format!("{y}-{m}-{day_of_month:02}T{time}"))
}

/// `value` as a WARC-Date in the one form this crate writes, as WARC 1.0
/// wants one (its section 5.4: `YYYY-MM-DDThh:mm:ssZ`, UTC) and
/// [`warc_date`] writes it, if `value` names an instant to the second
/// ([`warc_date_seconds`] says which forms do). WARC 1.1's coarser forms
/// (`YYYY` to `YYYY-MM-DDThh:mmZ`) name a span, not an instant, and are
/// refused rather than padded with made-up digits, as is a date that an
/// offset moves out of the four-digit years (before `0000` or past
/// `9999`). One form, so that dates compare and sort as text, and so that
/// a reader of the output (a CDX indexer) need not take more than the
/// spec's.
pub fn canonical_warc_date(value: &str) -> Option<String> {
    let secs = warc_date_seconds(value)?;
    let four_digit_years =
        days_from_civil(0, 1, 1) * 86_400..days_from_civil(10_000, 1, 1) * 86_400;
    four_digit_years.contains(&secs).then(|| utc_text(secs))
}

/// The instant a WARC-Date names (as [`canonical_warc_date`] reads it),
/// or `None`.
pub fn warc_date_time(value: &str) -> Option<SystemTime> {
    let secs = u64::try_from(warc_date_seconds(value)?).ok()?;
    Some(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(secs))
}

/// The instant a WARC-Date names, in seconds since 1970 (negative
/// before): `YYYY-MM-DDThh:mm:ss`, with WARC 1.1's fraction of seconds (1
/// to 9 digits, W3CDTF as WARC 1.1 bounds it; dropped, a second is precise
/// enough to date a record), then `Z` or a numeric offset (`+02:00`,
/// `-05:00`, or `+0200` without the colon), a real date and time, and a
/// second of 60 only where one may fall: the last second of a UTC day
/// (`23:59:60Z`, or `18:59:60-05:00`), taken as that minute's `:59`. Any
/// UTC day's end is taken, not only the days a leap second was added:
/// the list grows, and a wrong `:60` there is still that second.
///
/// WARC 1.0 and 1.1 (section 5.4) want a UTC timestamp as W3CDTF (the W3C
/// profile of ISO 8601) writes one, that is with `Z`, and W3CDTF counts
/// seconds 00 to 59 (RFC 3339 takes `:60`, and neither takes `+0200`).
/// More is taken here because writers do write it (crawlers and
/// hand-made tools that stamp local time with its offset, Python's `%z`
/// giving `+0200`; a clock that steps through a leap second reads `:60`),
/// and each names one instant without doubt: refused, the record would
/// be dated by the server's HTTP `Date` or not at all. A leap second
/// cannot be written in seconds since 1970, so it is taken as the second
/// before it, which keeps the record in the day and minute it names. Anything else (a lowercase
/// `t` or `z`, a space for `T`, an offset of hours only or of 24 hours or
/// more, `:60` in any other minute) is refused as before: a WARC-Date
/// looser than that is more likely no date at all.
fn warc_date_seconds(value: &str) -> Option<i64> {
    let (date, time) = value.split_once('T')?;
    let (clock, offset) = split_zone(time)?;
    let (hms, fraction) = match clock.split_once('.') {
        Some((hms, fraction)) => (hms, Some(fraction)),
        None => (clock, None),
    };
    if fraction.is_some_and(|f| digits(f, 1..=9).is_none()) {
        return None;
    }
    let (hour, minute, second) = clock_time(hms)?;
    let local = calendar_days(date)? * 86_400 + i64::from(hour * 3600 + minute * 60);
    let utc = local + i64::from(second.min(59)) - offset;
    let leap_second_fits = second < 60 || utc.rem_euclid(86_400) == 86_399;
    leap_second_fits.then_some(utc)
}

/// A WARC-Date's time of day and its zone, in seconds east of UTC: `Z`,
/// or an offset `+hh:mm`, `-hh:mm`, `+hhmm` or `-hhmm` of less than a day.
fn split_zone(time: &str) -> Option<(&str, i64)> {
    if let Some(clock) = time.strip_suffix('Z') {
        return Some((clock, 0));
    }
    // The time of day has no sign in it: the last one starts the offset.
    let at = time.rfind(['+', '-'])?;
    let (clock, zone) = time.split_at(at);
    let (sign, zone) = match zone.strip_prefix('-') {
        Some(zone) => (-1, zone),
        None => (1, zone.get(1..)?),
    };
    let (hh, mm) = match zone.split_once(':') {
        Some(parts) => parts,
        None => (zone.get(..2)?, zone.get(2..)?),
    };
    let (hours, minutes) = (digits(hh, 2..=2)?, digits(mm, 2..=2)?);
    let real = hours < 24 && minutes < 60;
    real.then(|| (clock, sign * i64::from(hours * 3600 + minutes * 60)))
}

/// `YYYY-MM-DD` naming a real day, as days since 1970-01-01.
fn calendar_days(date: &str) -> Option<i64> {
    let mut ymd = date.split('-');
    let mut part = |len| digits(ymd.next()?, len..=len);
    let (year, month, day) = (i64::from(part(4)?), part(2)?, part(2)?);
    let real = ymd.next().is_none() && is_real_date(year, month, day);
    real.then(|| days_from_civil(year, month, day))
}

/// Whether `year`, `month` (1-12 to be one) and `day` name a real day.
fn is_real_date(year: i64, month: u32, day: u32) -> bool {
    (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)
}

/// `hh:mm:ss`, two digits each, as seconds since midnight, if it names a
/// time of day (no leap second: RFC 9110 allows `:60`, but httpdate, which
/// reads the strict forms, refuses it, and the lenient forms follow it).
fn time_of_day(hms: &str) -> Option<u32> {
    let (hour, minute, second) = clock_time(hms)?;
    (second < 60).then_some(hour * 3600 + minute * 60 + second)
}

/// `hh:mm:ss`, two digits each, as hours, minutes and seconds, if they
/// name a time of day or a leap second in it (second 60; the caller
/// decides whether one may fall there).
fn clock_time(hms: &str) -> Option<(u32, u32, u32)> {
    let mut parts = hms.split(':');
    let mut part = || digits(parts.next()?, 2..=2);
    let (hour, minute, second) = (part()?, part()?, part()?);
    let real = parts.next().is_none() && hour < 24 && minute < 60 && second <= 60;
    real.then_some((hour, minute, second))
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
    utc_text(i64::try_from(secs).unwrap_or(i64::MAX))
}

/// `secs` since 1970 (negative before) as `YYYY-MM-DDThh:mm:ssZ`.
fn utc_text(secs: i64) -> String {
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
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
            assert_eq!(
                canonical_warc_date(value).as_deref(),
                Some(want),
                "{value:?}"
            );
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
            "2024-05-06T24:00:00Z",
            "2024-05-06T07:60:00Z",
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
            assert_eq!(canonical_warc_date(value), None, "{value:?}");
        }
    }

    /// A numeric offset is applied: the date is written in UTC, across a
    /// day, month or year boundary when the offset moves it there. With a
    /// colon or without (`+0200`), and with a fraction of seconds.
    #[test]
    fn warc_dates_with_an_offset_are_written_in_utc() {
        for (value, want) in [
            ("2024-05-01T12:00:00+02:00", "2024-05-01T10:00:00Z"),
            ("2024-05-01T12:00:00-05:00", "2024-05-01T17:00:00Z"),
            ("2024-05-01T12:00:00+0200", "2024-05-01T10:00:00Z"),
            ("2024-05-01T12:00:00-0530", "2024-05-01T17:30:00Z"),
            ("2024-05-01T12:00:00+05:45", "2024-05-01T06:15:00Z"),
            ("2024-05-06T07:08:09+00:00", "2024-05-06T07:08:09Z"),
            ("2024-05-06T07:08:09-00:00", "2024-05-06T07:08:09Z"),
            ("2024-05-06T07:08:09.123+02:00", "2024-05-06T05:08:09Z"),
            ("2024-05-06T07:08:09.5-0800", "2024-05-06T15:08:09Z"),
            ("2024-03-01T01:00:00+02:00", "2024-02-29T23:00:00Z"),
            ("2023-12-31T20:00:00-04:00", "2024-01-01T00:00:00Z"),
            ("2024-01-01T00:59:59+23:59", "2023-12-31T01:00:59Z"),
            ("2024-12-31T23:59:59-23:59", "2025-01-01T23:58:59Z"),
            ("0000-01-01T12:00:00+01:00", "0000-01-01T11:00:00Z"),
            ("9999-12-31T12:00:00-01:00", "9999-12-31T13:00:00Z"),
        ] {
            assert_eq!(
                canonical_warc_date(value).as_deref(),
                Some(want),
                "{value:?}"
            );
        }
    }

    /// A leap second, at the end of a UTC day only, is that minute's last
    /// second (`:59`), also when an offset puts it in another local hour.
    #[test]
    fn a_leap_second_is_the_second_before_it() {
        for (value, want) in [
            ("2016-12-31T23:59:60Z", "2016-12-31T23:59:59Z"),
            ("2016-12-31T23:59:60.25Z", "2016-12-31T23:59:59Z"),
            ("2015-06-30T23:59:60Z", "2015-06-30T23:59:59Z"),
            ("2016-12-31T18:59:60-05:00", "2016-12-31T23:59:59Z"),
            ("2017-01-01T00:59:60+01:00", "2016-12-31T23:59:59Z"),
            ("2017-01-01T05:29:60+0530", "2016-12-31T23:59:59Z"),
        ] {
            assert_eq!(
                canonical_warc_date(value).as_deref(),
                Some(want),
                "{value:?}"
            );
        }
    }

    /// What stays refused: offsets other than `±hh:mm` and `±hhmm` of less
    /// than a day, an offset with or after `Z`, `:60` where no leap second
    /// falls, and a date an offset moves out of the four-digit years.
    #[test]
    fn what_is_still_no_warc_date() {
        for value in [
            "2024-05-06T07:08:09+02",
            "2024-05-06T07:08:09+2:00",
            "2024-05-06T07:08:09+02:0",
            "2024-05-06T07:08:09+020",
            "2024-05-06T07:08:09+02000",
            "2024-05-06T07:08:09+02:00:00",
            "2024-05-06T07:08:09+24:00",
            "2024-05-06T07:08:09+02:60",
            "2024-05-06T07:08:09+",
            "2024-05-06T07:08:09-",
            "2024-05-06T07:08:09+:",
            "2024-05-06T07:08:09++02:00",
            "2024-05-06T07:08:09+-02:00",
            "2024-05-06T07:08:09 +02:00",
            "2024-05-06T07:08:09+02:00 ",
            "2024-05-06T07:08:09\u{2212}02:00",
            "2024-05-06T07:08:09+\u{ff10}2:00",
            "2024-05-06T07:08:09Z+02:00",
            "2024-05-06T07:08:09+02:00Z",
            "2024-05-06T07:08:09+02:00z",
            "2024-05-06T07:08:09.+02:00",
            "2024-05-06T07:08+02:00",
            "2024-05-06+02:00",
            "2024-05-06T07:08:09+02:00:",
            "2024-05-06T07:08:09EST",
            "2024-05-06T07:08:09GMT",
            "2024-05-06T07:08:60Z",
            "2016-12-31T23:58:60Z",
            "2016-12-31T22:59:60Z",
            "2016-12-31T23:59:60+01:00",
            "2016-12-31T23:59:61Z",
            "2016-12-31T23:60:00Z",
            "2016-12-31T24:00:00Z",
            "0000-01-01T00:30:00+01:00",
            "9999-12-31T23:30:00-01:00",
        ] {
            assert_eq!(canonical_warc_date(value), None, "{value:?}");
        }
    }

    #[test]
    fn days_from_civil_undoes_civil_from_days() {
        for days in [0, 1, 58, 59, 60, 365, 10_957, 11_016, 19_782, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
        }
    }

    /// ClueWeb09's day of the year written for the day of the month is
    /// read as the day it names, and flagged; a day that is no day of the
    /// year in the month written, or a date that is right, is not mended.
    #[test]
    fn a_day_of_the_year_for_the_day_of_the_month_is_mended() {
        for (value, want) in [
            ("2008-10-294T05:21:46-0700", "2008-10-20T12:21:46Z"),
            ("2009-03-65T08:43:19-0800", "2009-03-06T16:43:19Z"),
            ("2009-02-45T00:00:00Z", "2009-02-14T00:00:00Z"),
            ("2008-12-366T23:59:59Z", "2008-12-31T23:59:59Z"),
        ] {
            assert_eq!(record_warc_date(value).as_deref(), Some(want), "{value}");
            assert!(mended(value), "{value}");
        }
        for value in [
            "2008-10-20T05:21:46Z",
            "2008-10-310T05:21:46Z",
            "2009-12-366T00:00:00Z",
            "2008-10-000T05:21:46Z",
            "2008-10-294",
            "2008-10-294T25:00:00Z",
        ] {
            assert!(!mended(value), "{value}");
        }
        assert_eq!(record_warc_date("2008-10-310T05:21:46Z"), None);
        assert!(record_warc_date("2008-10-20T05:21:46Z").is_some());
    }
}
