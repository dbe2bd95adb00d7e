//! The confinement of a bot program a server runs for strangers
//! ([`Sandbox`]): least privilege between `fork` and `exec`, so that a
//! program that reads everything its user may read finds nothing of the
//! server's.
//!
//! What a sandboxed program gets:
//!
//! - **An environment of its own**: `PATH` and `LANG` (if set) from the
//!   server, `HOME` and `TMPDIR` set to a private folder (`0700`, removed
//!   when the process ends), which is also its working folder. Nothing
//!   else: no token, no database URL. Commands should name their programs
//!   by absolute path.
//! - **No descriptor but its pipes**: every descriptor above 2 is marked
//!   close-on-exec in the child (`close_range`), whatever the server has
//!   open.
//! - **Resource limits** (`setrlimit`): memory (`RLIMIT_DATA`: heap and
//!   private mappings), CPU seconds for its whole life (`RLIMIT_CPU`),
//!   tasks (`RLIMIT_NPROC`: the user's tasks at spawn plus
//!   [`Sandbox::tasks`]; the kernel does not apply it to root), files of
//!   at most 16 MiB, no core dumps.
//! - **Landlock** (Linux 5.13+, through the `landlock` crate, best
//!   effort): read and execute everywhere but `/proc` and the
//!   [`Sandbox::deny`] folders (the database's), write only in its
//!   private folder, the [`Sandbox::writable`] ones and `/dev/null`; no
//!   signal to a process outside the sandbox, no abstract Unix socket
//!   outside it (Linux 6.12+). Without `/proc`, the server's command line
//!   and environment are out of reach (and Landlock forbids tracing a
//!   process outside the sandbox).
//!
//! Landlock grants by allowing paths, not by denying them, so "everything
//! but a folder" is built as allowances: each folder on the way from `/`
//! to a denied one is not allowed itself, its other entries are (a symbolic
//! link that leads into a denied folder, or to one of its ancestors, is
//! left out). New entries made later beside a denied folder are not
//! readable: the safe side.
//!
//! The ruleset (opening every allowed path) is built in the parent;
//! between `fork` and `exec` only system calls run (`setrlimit`,
//! `close_range`, `prctl`, `landlock_restrict_self`), which is what may be
//! done there.

use landlock::{
    Access, AccessFs, BitFlags, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, Scope, ABI,
};
use nix::sys::resource::{setrlimit, Resource};
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
    /// The most memory, in bytes (`RLIMIT_DATA`).
    pub memory: u64,
    /// The most CPU time over its whole life, seconds (`RLIMIT_CPU`: then
    /// it is killed).
    pub cpu_seconds: u64,
    /// The most tasks (processes and threads) it may add to those its
    /// user runs already (`RLIMIT_NPROC`; not applied to root).
    pub tasks: u64,
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
        }
    }
}

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

/// The private folder of one sandboxed process; removed when dropped.
#[derive(Debug)]
pub(crate) struct Private(PathBuf);

impl Drop for Private {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The folder that holds this process's programs' private folders
/// (`0700`): denied to each of them, but for its own folder inside, so no
/// program reads another's.
fn programs_folder() -> std::io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let path = std::env::temp_dir().join(format!("ratrace-bots-{}", std::process::id()));
    match std::fs::DirBuilder::new().mode(0o700).create(&path) {
        Ok(()) => Ok(path),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(path),
        Err(e) => Err(e),
    }
}

/// Makes a fresh private folder (`0700`) in [`programs_folder`].
fn private_folder() -> std::io::Result<Private> {
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

/// The paths to allow read access beneath so that everything is readable
/// but `denied` (and what is inside): `/` itself if nothing is denied,
/// else, on the way down to each denied folder, every other entry.
pub(crate) fn readable_roots(denied: &[PathBuf]) -> Vec<PathBuf> {
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
    /// The Landlock ruleset of a process whose private folder is
    /// `private`. On a kernel without Landlock it is an empty one that
    /// enforces nothing (the rest of the sandbox still applies); an error
    /// here means it could not be built as asked, and the program is not
    /// started (never run with less than it should have).
    fn ruleset(&self, private: &Path) -> std::io::Result<RulesetCreated> {
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

    /// Confines `command` (about to run a bot program): its environment,
    /// working folder, limits and Landlock rules. The private folder it
    /// returns must live as long as the process.
    pub(crate) fn apply(&self, command: &mut Command) -> std::io::Result<Private> {
        use std::os::unix::process::CommandExt;
        let private = private_folder()?;
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
        let tasks = tasks_of(nix::unistd::getuid().as_raw()).map(|n| n + self.tasks);
        let limits = [
            (Resource::RLIMIT_DATA, Some(self.memory)),
            (Resource::RLIMIT_CPU, Some(self.cpu_seconds)),
            (Resource::RLIMIT_NPROC, tasks),
            (Resource::RLIMIT_FSIZE, Some(FILE_BYTES)),
            (Resource::RLIMIT_CORE, Some(0)),
        ];
        let mut ruleset = Some(self.ruleset(&private.0)?);
        let confine = move || -> std::io::Result<()> {
            for (resource, limit) in limits {
                if let Some(limit) = limit {
                    setrlimit(resource, limit, limit)
                        .map_err(|e| std::io::Error::from_raw_os_error(e as i32))?;
                }
            }
            close_inherited();
            if let Some(ruleset) = ruleset.take() {
                ruleset
                    .restrict_self()
                    .map_err(|_| std::io::Error::from_raw_os_error(libc::EPERM))?;
            }
            Ok(())
        };
        // SAFETY: the closure runs in the child between fork and exec,
        // where only async-signal-safe calls may be made. It makes system
        // calls only (setrlimit, close_range, prctl and
        // landlock_restrict_self, whose ruleset and path descriptors were
        // all opened in the parent) and allocates nothing: the limits are
        // an array, an error is a raw OS error, and the ruleset is moved,
        // not built, here.
        #[allow(unsafe_code)]
        unsafe {
            command.pre_exec(confine);
        }
        Ok(private)
    }
}

/// Marks every descriptor above 2 close-on-exec (Linux 5.11+; a no-op
/// before): the program keeps its three pipes only, whatever the server
/// has open. Closing them instead would close the pipe through which the
/// standard library reports a failed `exec`.
fn close_inherited() {
    // SAFETY: close_range(2) takes plain integers and touches only this
    // process's descriptor table.
    #[allow(unsafe_code)]
    unsafe {
        libc::close_range(
            3,
            libc::c_uint::MAX,
            libc::CLOSE_RANGE_CLOEXEC as libc::c_int,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everything_is_readable_but_the_denied_folders() {
        let base = std::env::temp_dir().join(format!("ratrace-sandbox-{}", std::process::id()));
        let db = base.join("data");
        let bots = base.join("bots");
        std::fs::create_dir_all(&db).unwrap();
        std::fs::create_dir_all(&bots).unwrap();
        std::os::unix::fs::symlink(&db, base.join("alias")).unwrap();
        std::os::unix::fs::symlink(&bots, base.join("bots-link")).unwrap();
        let roots = readable_roots(&[db.clone(), PathBuf::from("/proc")]);
        assert!(!roots.contains(&PathBuf::from("/")));
        assert!(roots.contains(&bots), "{roots:?}");
        assert!(roots.contains(&base.join("bots-link")));
        assert!(roots.contains(&PathBuf::from("/usr")));
        assert!(!roots.iter().any(|r| r.starts_with(&db)), "{roots:?}");
        assert!(!roots.contains(&base.join("alias")), "a link into it");
        assert!(!roots.iter().any(|r| r.starts_with("/proc")));
        // No ancestor of a denied folder is allowed whole.
        for r in &roots {
            assert!(!db.starts_with(r), "{r:?} holds the denied folder");
        }
        assert_eq!(readable_roots(&[]), vec![PathBuf::from("/")]);
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn the_users_tasks_are_counted() {
        let me = nix::unistd::getuid().as_raw();
        let n = tasks_of(me).unwrap();
        // This test's own threads at least.
        assert!(n >= 1, "{n}");
    }

    /// What a bot program that snoops finds in the sandbox: it tries to
    /// read the database, the server's (here: this test's) environment and
    /// command line, its inherited descriptors, and to write outside its
    /// folder; it reports as one JSON line.
    #[test]
    fn a_snooping_program_finds_nothing() {
        use crate::process::{Line, Process};
        let base = std::env::temp_dir().join(format!(
            "ratrace-snoop-{}-{}",
            std::process::id(),
            NEXT_TEST.fetch_add(1, Ordering::Relaxed)
        ));
        let data = base.join("data");
        let bots = base.join("bots");
        std::fs::create_dir_all(&data).unwrap();
        std::fs::create_dir_all(&bots).unwrap();
        let db = data.join("ratrace.db");
        std::fs::write(&db, "SECRET-DB").unwrap();
        let probe = bots.join("probe.py");
        std::fs::write(&probe, PROBE).unwrap();
        // An open descriptor of this process, which must not reach it.
        let held = std::fs::File::open(&db).unwrap();
        // Another program's private folder, with something in it.
        let other = private_folder().unwrap();
        std::fs::write(other.0.join("notes"), "another program's").unwrap();
        let sandbox = Sandbox {
            deny: vec![data.clone()],
            ..Sandbox::default()
        };
        let command = format!(
            "python3 {} {} {} {} {}",
            probe.display(),
            db.display(),
            std::process::id(),
            base.join("outside").display(),
            other.0.join("notes").display()
        );
        let mut p = Process::spawn_in(&command, Some(&sandbox)).unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        let line = match p.recv(deadline) {
            Ok(Line::Text(t)) => t,
            other => panic!("no report: {other:?}; stderr: {}", p.stderr_last_line()),
        };
        drop(held);
        let report: serde_json::Value = serde_json::from_str(&line).unwrap();
        let landlock = landlock_enforced();
        for key in [
            "db",
            "db_folder",
            "parent_cmdline",
            "server_cmdline",
            "server_environ",
            "outside",
            "other_program",
        ] {
            if landlock || key.starts_with("server") {
                assert_eq!(report[key], "denied", "{key}: {report}");
            }
        }
        // Nothing of this process's environment but PATH and LANG (a
        // launcher such as pyenv's adds variables of its own: PYENV_*).
        let env = report["env"].as_object().unwrap();
        let mine: std::collections::HashMap<String, String> = std::env::vars().collect();
        assert!(mine.keys().any(|k| k.starts_with("CARGO")), "run by cargo");
        for (key, value) in env {
            let passed = ["PATH", "LANG"].contains(&key.as_str())
                || key.starts_with("PYENV")
                || key.starts_with("_PYENV");
            assert!(
                passed || mine.get(key) != value.as_str().map(str::to_string).as_ref(),
                "{key} leaked: {env:?}"
            );
        }
        assert!(env.contains_key("HOME") && env.contains_key("TMPDIR"));
        assert_eq!(report["fds"], serde_json::json!([]), "{report}");
        assert_eq!(report["home_is_cwd"], true, "{report}");
        assert_eq!(report["cwd_entries"], 0, "{report}");
        assert_eq!(report["writes_home"], true, "{report}");
        assert_eq!(report["data_limit"], MEMORY, "{report}");
        assert_eq!(report["cpu_limit"], CPU_SECONDS, "{report}");
        assert_eq!(report["core_limit"], 0, "{report}");
        let home = std::path::PathBuf::from(report["home"].as_str().unwrap());
        drop(p);
        assert!(!home.exists(), "the private folder is removed");
        let _ = std::fs::remove_dir_all(&base);
    }

    static NEXT_TEST: AtomicU64 = AtomicU64::new(0);

    /// The snooping program: argv = database, this test's pid, a path
    /// outside its folder to write.
    const PROBE: &str = r#"
import json, os, resource, sys
db, server, outside, other = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return "denied"
def listing(path):
    try:
        return os.listdir(path)
    except OSError:
        return "denied"
def write(path):
    try:
        with open(path, "w") as f:
            f.write("x")
        return "written"
    except OSError:
        return "denied"
fds = []
for fd in range(3, 256):
    try:
        os.fstat(fd)
        fds.append(fd)
    except OSError:
        pass
home = os.environ.get("HOME", "")
print(json.dumps({
    "db": read(db),
    "db_folder": "denied" if listing(os.path.dirname(db)) == "denied" else "listed",
    "parent_cmdline": read("/proc/%d/cmdline" % os.getppid()),
    "server_cmdline": read("/proc/%s/cmdline" % server),
    "server_environ": read("/proc/%s/environ" % server),
    "outside": write(outside),
    "other_program": read(other),
    "env": dict(os.environ),
    "fds": fds,
    "home": home,
    "home_is_cwd": os.path.realpath(home) == os.path.realpath(os.getcwd()),
    "cwd_entries": len(os.listdir(".")),
    "writes_home": write(os.path.join(home, "scratch")) == "written",
    "data_limit": resource.getrlimit(resource.RLIMIT_DATA)[0],
    "cpu_limit": resource.getrlimit(resource.RLIMIT_CPU)[0],
    "core_limit": resource.getrlimit(resource.RLIMIT_CORE)[0],
}), flush=True)
"#;
}
