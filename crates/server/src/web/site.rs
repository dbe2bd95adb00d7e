//! `ratrace site DIR`: the client for play in the browser with no server,
//! as static files any static file server serves (docs/web.md, "A static
//! site"): the lobby (its online parts hidden), the table page for local
//! games, the engine, the service worker and manifest, and `/api/games`
//! as a file. The files are the server's own, prepared as it serves them
//! (versions written in, scripts linked), so a static site and a server of
//! the same build serve the same client.

use std::io;
use std::path::{Path, PathBuf};

/// What a static site's lobby is told: it hides what needs a server.
const MARK: &str = "<meta name=\"ratrace-site\" content=\"static\">";

/// Writes the site into `dir` (made if missing; files of the same names
/// replaced, nothing else touched). Returns the files written.
pub fn write(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let site = &*super::SITE;
    let mut written = Vec::new();
    let mut put = |name: &str, body: &[u8]| -> io::Result<()> {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, body)?;
        written.push(path);
        Ok(())
    };
    let page = |name: &str| -> io::Result<String> {
        let body = site
            .pages
            .get(name)
            .ok_or_else(|| io::Error::other(format!("no page {name}")))?;
        String::from_utf8(body.identity.body.to_vec()).map_err(io::Error::other)
    };
    let lobby = page("index.html")?.replacen("<title>", &format!("{MARK}<title>"), 1);
    put("index.html", lobby.as_bytes())?;
    put("local/index.html", page("table.html")?.as_bytes())?;
    put("bench/index.html", page("bench.html")?.as_bytes())?;
    let mut names: Vec<&&str> = site.files.keys().collect();
    names.sort();
    for name in names {
        put(&format!("static/{name}"), &site.files[*name].identity.body)?;
    }
    for name in ["sw.js", "manifest.webmanifest"] {
        put(name, &site.files[name].identity.body)?;
    }
    put("api/games", &crate::lobby::games_json())?;
    Ok(written)
}
