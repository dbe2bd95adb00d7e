//! Who a server's bot programs run as, and whether that user can read
//! their commands' files: a server run as root runs them as an
//! unprivileged user (`nobody` unless told otherwise), and runs them as
//! root only when the operator says so explicitly.

use super::RunAs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Why the programs' user is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UserError {
    /// No such user (the name).
    #[error("--bot-user {0}: no such user")]
    Unknown(String),
    /// The users database could not be read (why).
    #[error("--bot-user: {0}")]
    Lookup(String),
    /// Another user, asked of a server that is not root (the name).
    #[error(
        "--bot-user {0}: only a server run as root can run bot programs as another user; \
         run the server as that user instead"
    )]
    NotRoot(String),
    /// Root, without the operator's explicit leave.
    #[error(
        "bot programs would run as root, which lets them read every file of this machine: \
         choose an unprivileged --bot-user (the default is nobody), or pass \
         --bot-allow-root to run them as root all the same"
    )]
    Root,
}

/// The user bot programs run as: `name` (default: `nobody` for a server
/// run as root, the server's own user otherwise), `None` when that is the
/// server's own user. Root only with `allow_root`.
pub fn run_as(name: Option<&str>, allow_root: bool) -> Result<Option<RunAs>, UserError> {
    let me = nix::unistd::geteuid();
    let name = match name {
        Some(n) => n,
        None if me.is_root() => "nobody",
        None => return Ok(None),
    };
    let user = nix::unistd::User::from_name(name)
        .map_err(|e| UserError::Lookup(e.to_string()))?
        .ok_or_else(|| UserError::Unknown(name.to_string()))?;
    if user.uid.is_root() && !allow_root {
        return Err(UserError::Root);
    }
    if user.uid == me {
        return Ok(None);
    }
    if !me.is_root() {
        return Err(UserError::NotRoot(name.to_string()));
    }
    Ok(Some(RunAs {
        uid: user.uid.as_raw(),
        gid: user.gid.as_raw(),
    }))
}

/// The absolute paths `command` names (its words that start with `/`)
/// that `user` could not reach: a folder on the way it may not pass
/// through, or the file itself it may not read. Its groups are its own
/// group only (a sandboxed program keeps no other).
pub fn unreadable(command: &str, user: RunAs) -> Vec<PathBuf> {
    command
        .split(|c: char| c.is_whitespace() || c == '\'' || c == '"' || c == '=')
        .filter(|w| w.starts_with('/'))
        .map(PathBuf::from)
        .filter(|p| p.exists() && !reachable(p, user))
        .collect()
}

/// Whether `user` may pass through every folder above `path` and read
/// it.
fn reachable(path: &Path, user: RunAs) -> bool {
    // (mode bits for the owner, the group, the others)
    let may = |p: &Path, want: u32| {
        std::fs::metadata(p).is_ok_and(|m| {
            let mode = m.mode();
            let bits = if m.uid() == user.uid {
                mode >> 6
            } else if m.gid() == user.gid {
                mode >> 3
            } else {
                mode
            };
            user.uid == 0 || bits & want == want
        })
    };
    let folders_ok = path.ancestors().skip(1).all(|a| may(a, 0o1));
    folders_ok && may(path, 0o4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_closed_to_others_is_reported() {
        use std::os::unix::fs::PermissionsExt;
        let nobody = RunAs {
            uid: 65534,
            gid: 65534,
        };
        let base = std::env::temp_dir().join(format!("ratrace-user-{}", std::process::id()));
        let open = base.join("open");
        let closed = base.join("closed");
        std::fs::create_dir_all(&open).unwrap();
        std::fs::create_dir_all(&closed).unwrap();
        std::fs::set_permissions(&base, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o700)).unwrap();
        for d in [&open, &closed] {
            std::fs::write(d.join("bot.py"), "").unwrap();
            std::fs::set_permissions(d.join("bot.py"), std::fs::Permissions::from_mode(0o644))
                .unwrap();
        }
        let command = format!(
            "python3 {} --log={}",
            open.join("bot.py").display(),
            closed.join("bot.py").display()
        );
        if nix::unistd::geteuid().as_raw() != nobody.uid {
            assert_eq!(unreadable(&command, nobody), vec![closed.join("bot.py")]);
        }
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn root_needs_leave() {
        if nix::unistd::geteuid().is_root() {
            assert!(matches!(run_as(None, false), Ok(Some(u)) if u.uid != 0));
            assert_eq!(run_as(Some("root"), false), Err(UserError::Root));
            assert_eq!(run_as(Some("root"), true), Ok(None));
        } else {
            assert_eq!(run_as(None, false), Ok(None));
            assert!(matches!(run_as(Some("root"), false), Err(UserError::Root)));
        }
        assert!(matches!(
            run_as(Some("no-such-user-here"), false),
            Err(UserError::Unknown(_))
        ));
    }
}
