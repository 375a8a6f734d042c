//! `linesift explain` and the eval HTML report, checked as text and as a
//! person sees them (the report's worst pages with their gold text, the
//! chart's title): the pages are rendered in headless Chromium and the
//! screenshots must show the charts' colours. The screenshot checks skip
//! with a note when `chromium` is absent.

mod cli_support;

use cli_support::linesift;
use linesift::extract::explain::explain;
use linesift::report::explain_view;
use linesift::report::svg::colour;
use linesift::{Extractor, Hints, Options};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const PAGE: &str = r#"<!DOCTYPE html><html><head><title>Rain Falls On The Plain | Daily News</title></head>
<body><div class="nav"><a href="/">Home</a> <a href="/world">World</a> <a href="/sport">Sport</a>
<a href="/tech">Tech</a> <a href="/arts">Arts</a></div>
<div class="article"><h1>Rain Falls On The Plain</h1>
<p>The rain in Spain stays mainly in the plain, the weather office said on Monday morning.</p>
<p>Farmers welcomed the rain after a long dry summer that hurt the harvest <b>badly</b>.</p>
<p>Forecasters expect more showers through the week across the central regions & beyond.</p>
<p>Reservoirs, which had fallen to a third of their capacity, are filling again slowly.</p></div>
<div class="footer"><a href="/about">About us</a> <a href="/contact">Contact</a> © Daily News
<script>var x = "<p>not text</p>";</script></div>
</body></html>"#;

/// `linesift explain PAGE -o OUT MORE...`, run to its end.
fn explain_to(page: &Path, out: impl AsRef<Path>, more: &[&str]) -> Output {
    let mut args = vec![
        "explain".as_ref(),
        page.as_os_str(),
        "-o".as_ref(),
        out.as_ref().as_os_str(),
    ];
    args.extend(more.iter().map(OsStr::new));
    linesift(&args)
}

/// `linesift eval MANIFEST --html REPORT --worst WORST`, run to its end.
fn eval_report(manifest: &Path, report: &Path, worst: &str) -> Output {
    linesift(&[
        "eval".as_ref(),
        manifest.as_os_str(),
        "--html".as_ref(),
        report.as_os_str(),
        "--worst".as_ref(),
        worst.as_ref(),
    ])
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("linesift-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn svg_chart_shows_counts_regions_and_headline() {
    let e = explain(
        &Extractor::new(Options::default()),
        PAGE.as_bytes(),
        &Hints::default(),
    )
    .unwrap();
    assert!(!e.chosen.is_empty());
    assert!(e.headline_line.is_some(), "headline from the <h1> line");
    let svg = explain_view::chart(&e, 1000.0, false, None);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    for c in [
        colour::CONTENT,
        colour::CODE,
        colour::CHOSEN,
        colour::HEADLINE,
        colour::DIFF,
    ] {
        assert!(svg.contains(c), "colour {c} drawn");
    }
    // One shaded band per region, in the chosen colour for the chosen ones.
    assert_eq!(
        svg.matches(&format!("fill=\"{}\"", colour::CHOSEN)).count() - 1,
        e.chosen.len()
    );
    assert!(!svg.contains("href=\"#L"), "no links in the standalone SVG");
}

#[test]
fn html_page_shows_escaped_source_lines_coloured_by_selection() {
    let e = explain(
        &Extractor::new(Options::default()),
        PAGE.as_bytes(),
        &Hints::default(),
    )
    .unwrap();
    let html = explain_view::page(&e, "page <1>.html", "algorithm linesift");
    assert!(html.contains("explain: page &lt;1&gt;.html"));
    assert!(!html.contains("<script"), "source is escaped, never live");
    assert!(html.contains("&lt;p&gt;The rain in Spain"));
    // Each line is a row; chosen lines carry class c (or h for the headline).
    let rows = html.matches("<tr class=").count();
    assert_eq!(rows, e.lines.len());
    let rain = (0..e.lines.len())
        .find(|&i| e.line_source(i).contains("rain in Spain"))
        .unwrap();
    assert!(html.contains(&format!("<tr class=c id=L{rain}>")));
    let nav = (0..e.lines.len())
        .find(|&i| e.line_source(i).contains("/sport"))
        .unwrap();
    assert!(!e.is_chosen(nav));
    assert!(!html.contains(&format!("<tr class=c id=L{nav}>")));
    assert!(html.contains("<p class=headline>Rain Falls On The Plain</p>"));
    assert!(
        html.contains("Reservoirs, which had fallen"),
        "extracted text shown"
    );
    assert!(html.contains(&format!("href=\"#L{}\"", e.chosen[0].first)));
}

#[test]
fn binary_writes_svg_and_html_and_refuses_other_extensions() {
    let dir = temp_dir("explain-cli");
    let page = dir.join("page.html");
    std::fs::write(&page, PAGE).unwrap();
    for (out, head) in [("x.svg", "<svg"), ("x.html", "<!DOCTYPE html>")] {
        let status = explain_to(&page, dir.join(out), &["--algorithm", "danag"]).status;
        assert!(status.success());
        let text = std::fs::read_to_string(dir.join(out)).unwrap();
        assert!(text.starts_with(head), "{out}");
    }
    let html = std::fs::read_to_string(dir.join("x.html")).unwrap();
    assert!(html.contains("algorithm danag, gap 20"));
    let bad = explain_to(&page, "x.png", &[]);
    assert!(!bad.status.success());
    let _ = std::fs::remove_dir_all(dir);
}

/// A chart file on its own says what it shows: its `<title>` (first in
/// the SVG, where viewers and screen readers look) and a visible heading
/// name the page and the options it was extracted with.
#[test]
fn explain_svg_is_titled_with_the_page_and_the_algorithm() {
    let dir = temp_dir("explain-title");
    let page = dir.join("rain & plain.html");
    std::fs::write(&page, PAGE).unwrap();
    let out = explain_to(&page, dir.join("x.svg"), &["--algorithm", "danag"]);
    cli_support::assert_success(&out);
    let svg = std::fs::read_to_string(dir.join("x.svg")).unwrap();
    let name = format!("{}", page.display()).replace('&', "&amp;");
    let after_open = svg.split_once(">\n").unwrap().1;
    let title = after_open
        .strip_prefix("<title>")
        .and_then(|t| t.split_once("</title>"))
        .map(|(t, _)| t)
        .expect("the first element is the title");
    assert!(title.contains(&name), "{title}");
    assert!(title.contains("algorithm danag"), "{title}");
    let heading = format!(">{title}</text>");
    assert!(svg.contains(&heading), "a visible heading: {heading}");
    let _ = std::fs::remove_dir_all(dir);
}

/// An empty page (0 bytes) is charted, empty, with a warning that names
/// it, as `extract` gives one.
#[test]
fn explaining_an_empty_page_warns_and_still_writes_the_chart() {
    let dir = temp_dir("explain-empty");
    let page = dir.join("empty.html");
    std::fs::write(&page, "").unwrap();
    let out = explain_to(&page, dir.join("x.svg"), &[]);
    cli_support::assert_success(&out);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        format!(
            "linesift: {}: warning: empty input (0 bytes), no text",
            page.display()
        )
    );
    let svg = std::fs::read_to_string(dir.join("x.svg")).unwrap();
    assert!(svg.trim_end().ends_with("</svg>"));
    let _ = std::fs::remove_dir_all(dir);
}

/// A page whose file name is not UTF-8 (Latin-1 `é`) is explained like
/// any other, its name shown with U+FFFD, as `extract` and `warc` take
/// such names.
#[cfg(unix)]
#[test]
fn a_page_named_in_latin1_is_explained() {
    use std::os::unix::ffi::OsStrExt;
    let dir = temp_dir("explain-latin1");
    let page = dir.join(std::ffi::OsStr::from_bytes(b"caf\xe9.html"));
    std::fs::write(&page, PAGE).unwrap();
    let out = explain_to(&page, dir.join("x.html"), &[]);
    cli_support::assert_success(&out);
    let html = std::fs::read_to_string(dir.join("x.html")).unwrap();
    assert!(html.contains("caf\u{fffd}.html"));
    let _ = std::fs::remove_dir_all(dir);
}

/// The report's worst pages show the gold text beside the extracted text,
/// escaped; with every score between 0.8 and 1, the bars' axis starts at
/// a round value below the lowest and says so, instead of at 0 where the
/// bars would all look alike.
#[test]
fn eval_report_shows_the_gold_beside_the_output_of_its_worst_pages() {
    let dir = temp_dir("report-gold");
    let text = Extractor::new(Options::default())
        .extract(PAGE.as_bytes(), &Hints::default())
        .unwrap()
        .text;
    let golds = [
        ("alpha", text.clone()),
        (
            "beta",
            format!("{text}\nAnd a <last> line the page never had."),
        ),
    ];
    let mut tsv = String::from("dataset\tid\thtml\tgold_text\n");
    for (ds, gold) in &golds {
        std::fs::write(dir.join(format!("{ds}.html")), PAGE).unwrap();
        std::fs::write(dir.join(format!("{ds}.txt")), gold).unwrap();
        tsv.push_str(&format!("{ds}\t1\t{ds}.html\t{ds}.txt\n"));
    }
    std::fs::write(dir.join("m.tsv"), tsv).unwrap();
    let report = dir.join("report.html");
    let out = eval_report(&dir.join("m.tsv"), &report, "1");
    cli_support::assert_success(&out);
    let html = std::fs::read_to_string(&report).unwrap();
    let (_, texts) = html
        .split_once("<h2>Worst pages: gold and output</h2>")
        .expect("a section of gold and output");
    assert!(
        texts.starts_with("\n<h3>beta/1 · F1 0.9"),
        "the worst page: {texts}"
    );
    let (gold, output) = texts.split_once("<h4>output</h4>").unwrap();
    assert!(
        gold.contains("And a &lt;last&gt; line the page never had."),
        "{gold}"
    );
    assert!(gold.contains("Reservoirs, which had fallen"), "{gold}");
    assert!(output.contains("Reservoirs, which had fallen"), "{output}");
    assert!(!output.contains("line the page never had"), "{output}");
    assert!(!texts.contains("alpha/1"), "only the worst page");
    let bars = html
        .split_once("<h2>Scores per dataset</h2>")
        .and_then(|(_, b)| b.split_once("</svg>"))
        .unwrap()
        .0;
    assert!(bars.contains("not from 0"), "the axis says where it starts");
    assert!(!bars.contains(">0.0</text>"), "no tick at 0: {bars}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Renders `file` in headless Chromium; `None` (with a note) when absent.
fn screenshot(file: &Path, png: &Path) -> Option<()> {
    if Command::new("chromium").arg("--version").output().is_err() {
        eprintln!("note: chromium absent; skipping the screenshot check");
        return None;
    }
    let profile = temp_dir(&format!("chromium-{}", png.file_stem()?.to_str()?));
    let mut child = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=1200,900",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", file.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "chromium hangs"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let _ = std::fs::remove_dir_all(profile);
    assert!(png.exists(), "chromium wrote no screenshot");
    Some(())
}

/// Decodes an RGB(A) PNG into (width, height, pixels as RGB).
fn pixels(png: &Path) -> (u32, u32, Vec<[u8; 3]>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let step = info.color_type.samples();
    assert!(step >= 3, "colour screenshot");
    let px = buf[..info.buffer_size()]
        .chunks(step)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    (info.width, info.height, px)
}

fn rgb(hex: &str) -> [u8; 3] {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

/// How many pixels are within a small distance of the colour.
fn count_colour(px: &[[u8; 3]], hex: &str) -> usize {
    let c = rgb(hex);
    px.iter()
        .filter(|p| p.iter().zip(c).all(|(a, b)| a.abs_diff(b) <= 6))
        .count()
}

/// Not blank: many distinct colours and not nearly all one colour.
fn assert_not_blank(px: &[[u8; 3]]) {
    let white = px.iter().filter(|p| p.iter().all(|&v| v > 245)).count();
    assert!(
        white * 100 < px.len() * 97,
        "screenshot is almost all white"
    );
    let distinct: std::collections::HashSet<[u8; 3]> = px.iter().copied().collect();
    assert!(distinct.len() > 20, "only {} colours", distinct.len());
}

#[test]
fn explain_page_screenshot_shows_the_chart() {
    let dir = temp_dir("explain-shot");
    let e = explain(
        &Extractor::new(Options::default()),
        PAGE.as_bytes(),
        &Hints::default(),
    )
    .unwrap();
    let file = dir.join("explain.html");
    std::fs::write(&file, explain_view::page(&e, "fixture", "defaults")).unwrap();
    let png = dir.join("explain.png");
    if screenshot(&file, &png).is_none() {
        return;
    }
    let (w, h, px) = pixels(&png);
    assert_eq!((w, h), (1200, 900));
    assert_not_blank(&px);
    for (name, c, min) in [
        ("content bars", colour::CONTENT, 200),
        ("code bars", colour::CODE, 200),
        ("chosen region", colour::CHOSEN, 2000),
        ("headline marker", colour::HEADLINE, 100),
    ] {
        let n = count_colour(&px, c);
        assert!(n >= min, "{name} ({c}): {n} pixels");
    }
    if std::env::var_os("LINESIFT_KEEP_SCREENSHOTS").is_none() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn eval_report_screenshot_shows_bars_and_histogram() {
    let dir = temp_dir("report-shot");
    let mut tsv = String::from("dataset\tid\thtml\tgold_text\n");
    for (ds, id, gold) in [
        (
            "alpha",
            "1",
            "Rain Falls On The Plain. The rain in Spain stays mainly in the plain.",
        ),
        (
            "alpha",
            "2",
            "Farmers welcomed the rain after a long dry summer.",
        ),
        (
            "beta",
            "1",
            "Something else entirely that the page never says.",
        ),
    ] {
        std::fs::write(dir.join(format!("{ds}{id}.html")), PAGE).unwrap();
        std::fs::write(dir.join(format!("{ds}{id}.txt")), gold).unwrap();
        tsv.push_str(&format!("{ds}\t{id}\t{ds}{id}.html\t{ds}{id}.txt\n"));
    }
    std::fs::write(dir.join("m.tsv"), tsv).unwrap();
    let report = dir.join("report.html");
    let out = eval_report(&dir.join("m.tsv"), &report, "2");
    cli_support::assert_success(&out);
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.contains("Worst 2 pages"));
    assert!(
        !html.contains("src=\"http") && !html.contains("href=\"http"),
        "no external assets"
    );
    let links: Vec<&str> = html
        .split("href=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .collect();
    assert_eq!(links.len(), 2, "{links:?}");
    for l in &links {
        assert!(l.starts_with("report_explain/"), "{l}");
        assert!(dir.join(l).exists(), "explain page {l} written");
    }
    assert!(links[0].contains("beta_1"), "worst first: {links:?}");
    let png = dir.join("report.png");
    if screenshot(&report, &png).is_none() {
        return;
    }
    let (_, _, px) = pixels(&png);
    assert_not_blank(&px);
    for (name, c) in [
        ("precision bars", colour::PRECISION),
        ("recall bars", colour::RECALL),
        ("F1 bars", colour::F1),
        ("bag-of-words bars", colour::BOW_F1),
    ] {
        let n = count_colour(&px, c);
        assert!(n >= 300, "{name} ({c}): {n} pixels");
    }
    if std::env::var_os("LINESIFT_KEEP_SCREENSHOTS").is_none() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// `explain` reads no more than `--max-bytes` (plus one byte to know the
/// page is larger) before refusing it: fed an endless stdin, it stops
/// reading at the limit and says so, instead of holding everything first.
#[test]
fn explain_stops_reading_at_the_page_limit() {
    let dir = temp_dir("explain-limit");
    let svg = dir.join("x.svg");
    let chunk = "<p>More and more of the same paragraph.</p>\n".repeat(1500);
    let (written, code, stderr) = cli_support::linesift_fed_until_closed(
        &[
            "explain",
            "-",
            "--max-bytes",
            "64K",
            "-o",
            svg.to_str().unwrap(),
        ],
        chunk.as_bytes(),
        64 << 20,
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("larger than the limit of 65536 bytes"),
        "{stderr}"
    );
    // Pipe buffers hold a little; nowhere near the 64 MiB offered.
    assert!(written < 16 << 20, "read {written} bytes of a 64 KiB page");
    assert!(!svg.exists());
    let _ = std::fs::remove_dir_all(dir);
}

/// A page named with control characters is named with them escaped
/// (`\u{1b}`), in its warning as in the chart's title: a message stays
/// one line, and the SVG stays XML, which cannot hold them.
#[test]
fn a_page_named_with_control_characters_is_shown_escaped() {
    let dir = temp_dir("explain-control");
    let page = dir.join("empty\u{1b}[31m.html");
    std::fs::write(&page, "").unwrap();
    let out = explain_to(&page, dir.join("x.svg"), &[]);
    cli_support::assert_success(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("empty\\u{1b}[31m.html: warning"),
        "{stderr}"
    );
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    let svg = std::fs::read_to_string(dir.join("x.svg")).unwrap();
    assert!(svg.contains("empty\\u{1b}[31m.html"));
    assert!(!svg.chars().any(|c| c.is_control() && c != '\n'), "{svg:?}");
    let _ = std::fs::remove_dir_all(dir);
}

/// An output that is the page itself is refused (exit 2), the page left
/// as it was: it used to be overwritten by its own chart.
#[test]
fn an_output_that_is_the_page_is_refused() {
    let dir = temp_dir("explain-same");
    let page = dir.join("page.html");
    std::fs::write(&page, PAGE).unwrap();
    let out = explain_to(&page, dir.join(".").join("page.html"), &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("is the page"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&page).unwrap(), PAGE);
    let _ = std::fs::remove_dir_all(dir);
}

/// `--width` that is no number (`nan`) is refused (exit 2), not written
/// into the chart as `width="NaN"`, which no viewer draws; out-of-range
/// widths are still brought into range.
#[test]
fn a_width_that_is_no_number_is_refused() {
    let dir = temp_dir("explain-width");
    let page = dir.join("page.html");
    std::fs::write(&page, PAGE).unwrap();
    let explain = |width: &str| {
        explain_to(
            &page,
            dir.join(format!("{width}.svg")),
            &[&format!("--width={width}")],
        )
    };
    let nan = explain("nan");
    let stderr = String::from_utf8_lossy(&nan.stderr);
    assert_eq!(nan.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--width"), "{stderr}");
    assert!(!dir.join("nan.svg").exists());
    for (width, drawn) in [("0", "width=\"300\""), ("inf", "width=\"20000\"")] {
        cli_support::assert_success(&explain(width));
        let svg = std::fs::read_to_string(dir.join(format!("{width}.svg"))).unwrap();
        assert!(svg.contains(drawn), "{width}: {}", &svg[..200]);
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// `-o -` (stdout to other commands) is refused (exit 2) with its own
/// one-line message: explain writes to a file, and the message names one,
/// rather than saying only that `-` lacks `.svg` or `.html`.
#[test]
fn an_output_of_stdout_is_refused_naming_a_file_to_write() {
    let dir = temp_dir("explain-stdout");
    let page = dir.join("page.html");
    std::fs::write(&page, PAGE).unwrap();
    let out = explain_to(&page, "-", &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("writes to a file, not stdout"), "{stderr}");
    assert!(stderr.contains("-o page.svg"), "{stderr}");
    assert!(!stderr.contains("must end in"), "{stderr}");
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_dir_all(dir);
}
