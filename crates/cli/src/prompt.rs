//! Where a terminal game's moves come from: the [`Input`] trait, and its
//! two sources, [`Lines`] and [`Editor`].
//!
//! [`Lines`] reads any text reader (a pipe, a file, a test's bytes) line
//! by line, as `ratrace play` always did. [`Editor`] is for a person at a
//! terminal. It uses rustyline, so the line can be edited (arrows, Home,
//! End, word moves) and the up arrow recalls earlier moves. The history
//! lasts for the session only and is never written to disk. Ctrl-C and
//! Ctrl-D leave the game cleanly: the record is saved as it is after a
//! `quit`. Before this, the up arrow sent its raw escape code as a move.
//!
//! `ratrace play` uses the editor only when standard input and output are
//! both terminals, so scripts and the CLI tests that pipe moves in get
//! [`Lines`], unchanged.

use crate::Error;
use std::io::{BufRead, Write};

/// What one prompt read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line the person typed (without its line end).
    Text(String),
    /// The person leaves. The text is said before leaving (it may be
    /// empty).
    Leave(&'static str),
}

/// A source of the person's lines.
pub trait Input {
    /// Shows `prompt` and reads one line. The prompt goes to `out` or to
    /// the terminal; the board printed before it is flushed first.
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> Result<Line, Error>;
}

/// Lines from any reader, the prompt written to the game's output; the
/// end of input leaves the game.
#[derive(Debug)]
pub struct Lines<R: BufRead>(pub R);

impl<R: BufRead> Input for Lines<R> {
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> Result<Line, Error> {
        write!(out, "{prompt}").map_err(Error::Terminal)?;
        out.flush().map_err(Error::Terminal)?;
        let mut line = String::new();
        if self.0.read_line(&mut line).map_err(Error::Terminal)? == 0 {
            // Ends the prompt's line.
            return Ok(Line::Leave(""));
        }
        Ok(Line::Text(line.trim_end_matches(['\n', '\r']).to_string()))
    }
}

/// A line editor on the terminal, with this session's history.
pub struct Editor(rustyline::DefaultEditor);

impl std::fmt::Debug for Editor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Editor")
    }
}

impl Editor {
    /// A line editor on this process's terminal.
    pub fn new() -> Result<Editor, Error> {
        let config = rustyline::Config::builder()
            .auto_add_history(true)
            .history_ignore_dups(true)
            .map_err(other)?
            .history_ignore_space(true)
            .max_history_size(1000)
            .map_err(other)?
            .build();
        rustyline::DefaultEditor::with_config(config)
            .map(Editor)
            .map_err(other)
    }
}

fn other(e: rustyline::error::ReadlineError) -> Error {
    match e {
        rustyline::error::ReadlineError::Io(e) => Error::Terminal(e),
        e => Error::Terminal(std::io::Error::other(e.to_string())),
    }
}

impl Input for Editor {
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> Result<Line, Error> {
        out.flush().map_err(Error::Terminal)?;
        match self.0.readline(prompt) {
            Ok(line) => Ok(Line::Text(line)),
            Err(rustyline::error::ReadlineError::Interrupted) => {
                Ok(Line::Leave("Ctrl-C: leaving the game."))
            }
            Err(rustyline::error::ReadlineError::Eof) => {
                Ok(Line::Leave("Ctrl-D: leaving the game."))
            }
            Err(e) => Err(other(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_reads_each_line_writes_the_prompt_and_leaves_at_the_end() {
        let mut input = Lines("bid 3\r\n  pass \nlast".as_bytes());
        let mut out = Vec::new();
        assert_eq!(
            input.read("P1> ", &mut out).unwrap(),
            Line::Text("bid 3".into())
        );
        assert_eq!(
            input.read("P1> ", &mut out).unwrap(),
            Line::Text("  pass ".into())
        );
        assert_eq!(
            input.read("P1> ", &mut out).unwrap(),
            Line::Text("last".into())
        );
        assert_eq!(input.read("P1> ", &mut out).unwrap(), Line::Leave(""));
        assert_eq!(String::from_utf8(out).unwrap(), "P1> ".repeat(4));
    }
}
