//! `linesift explain PAGE -o out.svg|out.html`: one page's line counts,
//! smoothed diff, regions and headline line as an SVG chart, or as an HTML
//! page that adds the source lines coloured by selection and the extracted
//! text. The format follows the output's extension.

use super::eval::describe;
use super::options::ExtractOptions;
use super::printable_path;
use anyhow::{Context, bail};
use linesift::extract::explain::explain;
use linesift::report::{explain_view, read_page};
use linesift::{Extractor, Hints};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The HTML page to explain (`-` for stdin).
    // A path: a file name need not be UTF-8.
    page: PathBuf,
    /// Output file: `.svg` for the chart, `.html` for the full page.
    #[arg(long, short)]
    output: PathBuf,
    /// Charset to assume when the page declares none (no BOM, no
    /// `<meta>` charset), instead of detecting one.
    #[arg(long, value_parser = super::options::parse_charset)]
    charset: Option<String>,
    /// Width of the SVG chart in pixels (brought into 300 to 20000).
    #[arg(long, default_value_t = 1200.0, value_parser = width)]
    width: f64,
    #[command(flatten)]
    extract: ExtractOptions,
}

/// `--width`: a number (`nan` would be drawn as `width="NaN"`).
fn width(value: &str) -> Result<f64, String> {
    match value.trim().parse::<f64>() {
        Ok(w) if !w.is_nan() => Ok(w),
        _ => Err(format!("{value} is no number of pixels")),
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // `-` is stdout to other commands: say so, not that it lacks `.svg`.
    if args.output == Path::new("-") {
        bail!(
            "explain writes to a file, not stdout: name one, e.g. -o page.svg (the chart) or -o page.html"
        );
    }
    let ext = args
        .output
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let html = match ext.as_deref() {
        Some("html" | "htm") => true,
        Some("svg") => false,
        _ => bail!(
            "{}: the output must end in .svg or .html",
            printable_path(&args.output)
        ),
    };
    // Written after the page is read: over the page, it would lose it.
    if super::one_file(&args.page, &args.output) {
        bail!(
            "the output {} is the page: it would be overwritten",
            printable_path(&args.output)
        );
    }
    let options = args.extract.options();
    // Read no further than the page limit, so that a huge page (or
    // /dev/zero) is refused by the extractor below, not held whole first.
    // As messages and the chart's heading show it: control characters
    // escaped (an SVG cannot hold them, and a message stays one line).
    let name = printable_path(&args.page);
    let bytes = if args.page == Path::new("-") {
        read_page(std::io::stdin().lock(), options.max_bytes).context("reading stdin")?
    } else {
        std::fs::File::open(&args.page)
            .and_then(|f| read_page(f, options.max_bytes))
            .with_context(|| format!("reading {name}"))?
    };
    if bytes.is_empty() {
        say!("linesift: {name}: warning: empty input (0 bytes), no text");
    }
    let hints = Hints {
        url: None,
        charset: None,
        fallback_charset: args.charset.clone(),
    };
    let e = explain(&Extractor::new(options), &bytes, &hints)
        .with_context(|| format!("extracting {name}"))?;
    let options = describe(&options);
    let out = if html {
        explain_view::page(&e, &name, &options)
    } else {
        let heading = format!("{name} · {options}");
        explain_view::chart(&e, args.width.clamp(300.0, 20_000.0), false, Some(&heading))
    };
    std::fs::write(&args.output, out)
        .with_context(|| format!("writing {}", printable_path(&args.output)))?;
    Ok(ExitCode::SUCCESS)
}
