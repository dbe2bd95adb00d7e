//! `ratrace site DIR`: the client for play in the browser with no server,
//! written as static files (`server::web::site`), and how to serve them.

use crate::args::SiteArgs;
use cli::Error;

/// Runs `ratrace site`.
pub(crate) fn run(args: SiteArgs) -> Result<bool, Error> {
    let files = server::web::site::write(&args.dir).map_err(|source| Error::Io {
        path: args.dir.clone(),
        source,
    })?;
    outln!("wrote {} files into {}", files.len(), args.dir.display());
    outln!(
        "serve the folder at a site's root with any static file server, for example: python3 -m http.server -d {}",
        args.dir.display()
    );
    Ok(true)
}
