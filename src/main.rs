//! The `linesift` binary: a thin command-line layer over the library.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("linesift: {err:#}");
            ExitCode::from(2)
        }
    }
}
