//! The Landlock rules of a sandboxed bot program: read and execute
//! everywhere but `/proc`, the denied folders and the other programs'
//! folders; write only in its own folder, the writable ones and
//! `/dev/null`; no signal or abstract socket outside the sandbox.
//!
//! Landlock grants by allowing paths, not by denying them, so "everything
//! but a folder" is built as allowances: each folder on the way from `/`
//! to a denied one is not allowed itself, its other entries are (a symbolic
//! link that leads into a denied folder, or to one of its ancestors, is
//! left out). New entries made later beside a denied folder are not
//! readable: the safe side. The ruleset (every allowed path opened) is
//! built in the parent; the child only applies it.

use super::Sandbox;
use landlock::{
    Access, AccessFs, BitFlags, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, Scope, ABI,
};
use std::path::{Path, PathBuf};

/// Whether the running kernel enforces Landlock (else the folders a
/// sandboxed program may read are not limited; the rest still holds).
pub fn landlock_enforced() -> bool {
    // Only asks: a ruleset that is made and never applied changes nothing.
    Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_all(ABI::V1))
        .and_then(Ruleset::create)
        .is_ok()
}

/// The paths to allow read access beneath so that everything is readable
/// but `denied` (and what is inside): `/` itself if nothing is denied,
/// else, on the way down to each denied folder, every other entry.
pub(super) fn readable_roots(denied: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    allow(Path::new("/"), denied, &mut out);
    out
}

fn allow(dir: &Path, denied: &[PathBuf], out: &mut Vec<PathBuf>) {
    if denied.iter().any(|d| dir.starts_with(d)) {
        return;
    }
    if !denied.iter().any(|d| d.starts_with(dir)) {
        out.push(dir.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let is_link = entry.file_type().is_ok_and(|t| t.is_symlink());
        if is_link {
            // A link is allowed as its target: never one that leads into
            // a denied folder or to one of its ancestors.
            match std::fs::canonicalize(&path) {
                Ok(target)
                    if !denied
                        .iter()
                        .any(|d| target.starts_with(d) || d.starts_with(&target)) =>
                {
                    out.push(path);
                }
                _ => {}
            }
        } else {
            allow(&path, denied, out);
        }
    }
}

/// The access rights to grant beneath a folder the child mounts itself
/// (its private tmpfs, whose root a rule made in the parent cannot name:
/// Landlock passes over the folder it is mounted on), as the raw bits of
/// every right this kernel's Landlock handles; `None` without Landlock.
pub(super) fn mounted_folder_access() -> Option<u64> {
    // SAFETY: landlock_create_ruleset(2) with a null attribute and the
    // version flag only asks the ABI version; it makes no ruleset.
    #[allow(unsafe_code)]
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    };
    let abi = match version {
        i64::MIN..=0 => return None,
        1 => ABI::V1,
        2 => ABI::V2,
        3 => ABI::V3,
        4 => ABI::V4,
        5 => ABI::V5,
        _ => ABI::V6,
    };
    Some((AccessFs::from_all(abi) & AccessFs::from_all(ABI::V6)).bits())
}

impl Sandbox {
    /// The Landlock ruleset of a process whose private folder is
    /// `private`. On a kernel without Landlock it is an empty one that
    /// enforces nothing (the rest of the sandbox still applies); an error
    /// here means it could not be built as asked, and the program is not
    /// started (never run with less than it should have).
    pub(super) fn ruleset(&self, private: &Path) -> std::io::Result<RulesetCreated> {
        let failed = |e: landlock::RulesetError| std::io::Error::other(format!("Landlock: {e}"));
        let abi = ABI::V6;
        let mut denied: Vec<PathBuf> = self
            .deny
            .iter()
            .map(|d| std::fs::canonicalize(d).unwrap_or_else(|_| d.clone()))
            .collect();
        denied.push(PathBuf::from("/proc"));
        if let Some(others) = private.parent() {
            denied.push(others.to_path_buf());
        }
        let read = AccessFs::from_read(abi);
        let all = AccessFs::from_all(abi);
        let mut created = Ruleset::default()
            .handle_access(all)
            .map_err(failed)?
            .scope(Scope::Signal | Scope::AbstractUnixSocket)
            .map_err(failed)?
            .create()
            .map_err(failed)?;
        let add = |created: RulesetCreated, path: &Path, access: BitFlags<AccessFs>| {
            let fd = PathFd::new(path).map_err(|e| std::io::Error::other(e.to_string()))?;
            // Rights a file cannot have are left out for a file.
            let access = if path.is_dir() {
                access
            } else {
                access & AccessFs::from_file(abi)
            };
            created
                .add_rule(PathBeneath::new(fd, access))
                .map_err(failed)
        };
        // A readable path that fails (gone meanwhile) is only left out:
        // that takes access away, never gives it.
        for path in readable_roots(&denied) {
            created = match add(created.try_clone()?, &path, read) {
                Ok(more) => more,
                Err(_) => continue,
            };
        }
        // What the program needs to write must be there.
        created = add(created, private, all)?;
        for w in &self.writable {
            created = add(created, w, all)?;
        }
        add(created, Path::new("/dev/null"), AccessFs::from_file(abi))
    }
}
