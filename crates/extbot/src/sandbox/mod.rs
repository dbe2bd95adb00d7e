//! The confinement of a bot program a server runs for strangers
//! ([`Sandbox`]): least privilege between `fork` and `exec`, so that a
//! program that reads everything its user may read finds nothing of the
//! server's, and whatever it does stays inside its limits and ends with
//! it.
//!
//! What a sandboxed program gets:
//!
//! - **An environment of its own**: `PATH` and `LANG` (if set) from the
//!   server, `HOME` and `TMPDIR` set to a private folder (`0700`, removed
//!   when the process ends), which is also its working folder. Nothing
//!   else: no token, no database URL. Commands should name their programs
//!   by absolute path.
//! - **A user of its own** ([`Sandbox::user`]): a server run as root runs
//!   its programs as an unprivileged user (`nobody` by default).
//! - **Namespaces of its own** ([`Sandbox::isolate`], `child`): user, PID
//!   and mount. Every process it starts ends with it, a `setsid` daemon
//!   included (the kernel kills a PID namespace's processes with its
//!   first), and its private folder is a tmpfs of [`Sandbox::disk`] bytes
//!   that no other process sees.
//! - **No descriptor but its pipes**: every descriptor above 2 is marked
//!   close-on-exec in the child (`close_range`), whatever the server has
//!   open.
//! - **Resource limits**: memory by its own cgroup's `memory.max` where
//!   the operator delegated a cgroup folder ([`Sandbox::cgroup`], which
//!   also bounds its tasks and kills them all at its end), else by
//!   `RLIMIT_AS`, which counts shared mappings too (`RLIMIT_DATA`, also
//!   set, does not); CPU seconds for its whole life (`RLIMIT_CPU`); tasks
//!   (`RLIMIT_NPROC`: the user's tasks at spawn plus [`Sandbox::tasks`]);
//!   files of at most 16 MiB, no core dumps.
//! - **Landlock** (Linux 5.13+, through the `landlock` crate, best
//!   effort; `rules`): read and execute everywhere but `/proc` and the
//!   [`Sandbox::deny`] folders (the database's), write only in its
//!   private folder, the [`Sandbox::writable`] ones and `/dev/null`; no
//!   signal to a process outside the sandbox, no abstract Unix socket
//!   outside it (Linux 6.12+).
//!
//! `RLIMIT_AS` bounds address space, not memory in use: a runtime that
//! reserves large ranges up front (the JVM, Node.js, Go) needs a larger
//! `memory` or a cgroup. Everything the child does is made in the parent
//! first, so that between `fork` and `exec` only system calls run.

mod cgroup;
mod child;
mod rules;
mod user;

pub(crate) use cgroup::Cgroup;
pub use child::RunAs;
pub use rules::landlock_enforced;
pub use user::{run_as, unreadable, UserError};

use nix::sys::resource::Resource;
use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// How a sandboxed bot program is confined (see the module's docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sandbox {
    /// Folders the program may not read, besides `/proc` (the server's
    /// database folder).
    pub deny: Vec<PathBuf>,
    /// Folders it may write in, besides its private one (none for a
    /// server's programs; a test's log folder).
    pub writable: Vec<PathBuf>,
    /// The most memory, in bytes (its cgroup's `memory.max`, else
    /// `RLIMIT_AS`; and `RLIMIT_DATA`).
    pub memory: u64,
    /// The most CPU time over its whole life, seconds (`RLIMIT_CPU`: then
    /// it is killed).
    pub cpu_seconds: u64,
    /// The most tasks (processes and threads) it may add to those its
    /// user runs already (`RLIMIT_NPROC`; its cgroup's `pids.max`).
    pub tasks: u64,
    /// The most bytes of files in its private folder, all together (the
    /// size of its tmpfs; with [`Sandbox::isolate`] only).
    pub disk: u64,
    /// Who it runs as: `None` for the server's own user (a root server
    /// sets an unprivileged one).
    pub user: Option<RunAs>,
    /// Namespaces of its own (user, PID, mount): its processes end with
    /// it, and its private folder is a bounded tmpfs. [`probe`] tells
    /// whether this kernel lets the server make them.
    pub isolate: bool,
    /// A cgroup v2 folder delegated to the server, under which each
    /// program gets a cgroup of its own (memory, tasks, and a kill of all
    /// its processes at its end).
    pub cgroup: Option<PathBuf>,
}

/// The default memory limit: 1 GiB.
pub const MEMORY: u64 = 1 << 30;
/// The default CPU limit: 10 minutes over a program's life (it thinks 2 s
/// per decision at most; a busy loop between decisions ends here).
pub const CPU_SECONDS: u64 = 600;
/// The default number of tasks a program may add: room for a runtime's
/// threads, and for other programs started after it (the count is the
/// user's, taken at its start); a fork bomb stops there.
pub const TASKS: u64 = 256;
/// The default disk budget of a program's private folder: 64 MiB.
pub const DISK: u64 = 64 << 20;
/// The largest file a program may write.
const FILE_BYTES: u64 = 16 << 20;

impl Default for Sandbox {
    fn default() -> Sandbox {
        Sandbox {
            deny: Vec::new(),
            writable: Vec::new(),
            memory: MEMORY,
            cpu_seconds: CPU_SECONDS,
            tasks: TASKS,
            disk: DISK,
            user: None,
            isolate: true,
            cgroup: None,
        }
    }
}

/// What a sandboxed process holds while it runs: its private folder and
/// its cgroup, both removed after it ends.
#[derive(Debug)]
pub(crate) struct Confined {
    /// Its cgroup, if it has one: [`Cgroup::kill`] ends all its processes.
    pub(crate) cgroup: Option<Cgroup>,
    /// Dropped after the cgroup (fields drop in order).
    pub(crate) _private: Private,
}

/// The private folder of one sandboxed process; removed when dropped.
#[derive(Debug)]
pub(crate) struct Private(pub(crate) PathBuf);

impl Drop for Private {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The folder that holds this process's programs' private folders
/// (`0711`: a program of another user may pass through to its own, but
/// not list it): denied to each of them, but for its own folder inside,
/// so no program reads another's.
fn programs_folder() -> std::io::Result<PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    let path = std::env::temp_dir().join(format!("ratrace-bots-{}", std::process::id()));
    let made = std::fs::DirBuilder::new().mode(0o711).create(&path);
    if made.is_ok() {
        // The process's umask may have taken the others' x away.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o711))?;
    }
    match made {
        Ok(()) => Ok(path),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(path),
        Err(e) => Err(e),
    }
}

/// Makes a fresh private folder (`0700`) in [`programs_folder`].
pub(crate) fn private_folder() -> std::io::Result<Private> {
    use std::os::unix::fs::DirBuilderExt;
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let base = programs_folder()?;
    for _ in 0..100 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!("bot-{}-{nanos:08x}", NEXT.fetch_add(1, Ordering::Relaxed));
        let path = base.join(name);
        match std::fs::DirBuilder::new().mode(0o700).create(&path) {
            Ok(()) => return Ok(Private(path)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("no fresh private folder"))
}

/// How many tasks (threads) the real user `uid` runs now, from `/proc`;
/// `None` if it cannot be read.
fn tasks_of(uid: u32) -> Option<u64> {
    let mut total = 0u64;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let field = |key: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse::<u64>().ok())
        };
        if field("Uid:") == Some(u64::from(uid)) {
            total += field("Threads:").unwrap_or(1);
        }
    }
    Some(total)
}

impl Sandbox {
    /// Confines `command` (about to run a bot program): its environment,
    /// working folder, user, namespaces, limits and Landlock rules. What
    /// it returns must live as long as the process.
    pub(crate) fn apply(&self, command: &mut Command) -> std::io::Result<Confined> {
        use std::os::unix::process::CommandExt;
        let private = private_folder()?;
        if let Some(user) = self.user {
            std::os::unix::fs::chown(&private.0, Some(user.uid), Some(user.gid))?;
        }
        command.env_clear();
        command.env(
            "PATH",
            std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into()),
        );
        if let Some(lang) = std::env::var_os("LANG") {
            command.env("LANG", lang);
        }
        command.env("HOME", &private.0);
        command.env("TMPDIR", &private.0);
        command.current_dir(&private.0);
        let cgroup = self
            .cgroup
            .as_deref()
            .map(|parent| Cgroup::create(parent, self.memory, self.tasks))
            .transpose()?;
        let uid = self
            .user
            .map_or_else(|| nix::unistd::getuid().as_raw(), |u| u.uid);
        let gid = self
            .user
            .map_or_else(|| nix::unistd::getgid().as_raw(), |u| u.gid);
        let mut limits = vec![
            (Resource::RLIMIT_DATA, self.memory),
            (Resource::RLIMIT_CPU, self.cpu_seconds),
            (Resource::RLIMIT_FSIZE, FILE_BYTES),
            (Resource::RLIMIT_CORE, 0),
        ];
        if !cgroup.as_ref().is_some_and(|c| c.memory) {
            limits.push((Resource::RLIMIT_AS, self.memory));
        }
        if let Some(n) = tasks_of(uid) {
            limits.push((Resource::RLIMIT_NPROC, n + self.tasks));
        }
        let ruleset = self.ruleset(&private.0)?;
        let mut isolate = self
            .isolate
            .then(|| isolation(&private.0, uid, gid, self.disk))
            .transpose()?;
        if let Some(iso) = isolate.as_mut().filter(|i| i.disk.is_some()) {
            let fd: Option<std::os::fd::OwnedFd> = ruleset.try_clone()?.into();
            iso.disk_rule = fd.zip(rules::mounted_folder_access());
        }
        let mut steps = child::Steps {
            cgroup_procs: cgroup.as_ref().map(Cgroup::procs).transpose()?,
            user: self.user,
            isolate,
            limits,
            ruleset: Some(ruleset),
        };
        // SAFETY: the closure runs in the child between fork and exec,
        // where only async-signal-safe calls may be made: `child::Steps`
        // makes system calls only, on values made here in the parent
        // (texts, paths, descriptors, the Landlock ruleset), and allocates
        // nothing.
        #[allow(unsafe_code)]
        unsafe {
            command.pre_exec(move || steps.run());
        }
        Ok(Confined {
            cgroup,
            _private: private,
        })
    }
}

/// The namespaces' id maps (the program's ids as themselves) and its
/// private disk: a tmpfs of `disk` bytes over `folder`.
fn isolation(folder: &Path, uid: u32, gid: u32, disk: u64) -> std::io::Result<child::Isolation> {
    use std::os::unix::ffi::OsStrExt;
    let text = |s: String| CString::new(s).map_err(std::io::Error::other);
    let folder = CString::new(folder.as_os_str().as_bytes()).map_err(std::io::Error::other)?;
    // A page per file at least: as many files as pages.
    let inodes = (disk / 4096).max(64);
    Ok(child::Isolation {
        uid_map: format!("{uid} {uid} 1\n").into_bytes(),
        gid_map: format!("{gid} {gid} 1\n").into_bytes(),
        disk: (disk > 0)
            .then(|| {
                let options = text(format!("size={disk},nr_inodes={inodes},mode=0700"))?;
                Ok::<_, std::io::Error>((folder, options))
            })
            .transpose()?,
        disk_rule: None,
    })
}

/// Whether this kernel lets the server give `sandbox`'s programs
/// namespaces of their own (user namespaces may be turned off, or
/// refused to a container): starts `true` under it and sees it end well.
/// A server that may not logs so and runs them without
/// ([`Sandbox::isolate`] false): their children may then outlive them,
/// and their folders have no total budget.
pub fn probe(sandbox: &Sandbox) -> std::io::Result<()> {
    let mut command = Command::new("/bin/true");
    let _confined = sandbox.apply(&mut command)?;
    let status = command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()?;
    if status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "a sandboxed `true` {status}"
        )))
    }
}

#[cfg(test)]
mod tests;
