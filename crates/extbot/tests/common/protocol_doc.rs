//! The shell lines of docs/bot-protocol.md, for the tests (here, in the
//! CLI and in the server) that run its commands as written. One reader,
//! included by path, so that every test sees the page's blocks alike.

use std::path::Path;

/// The trimmed lines of the ```` ```sh ```` blocks of docs/bot-protocol.md
/// (`root` is the workspace's root), in order.
pub(crate) fn shell_lines(root: &Path) -> Vec<String> {
    let doc =
        std::fs::read_to_string(root.join("docs/bot-protocol.md")).expect("docs/bot-protocol.md");
    let mut lines = Vec::new();
    let mut in_sh = false;
    for line in doc.lines() {
        match line.trim() {
            "```sh" => in_sh = true,
            "```" => in_sh = false,
            l if in_sh => lines.push(l.to_string()),
            _ => {}
        }
    }
    lines
}
