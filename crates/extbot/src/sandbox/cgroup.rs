//! A cgroup (v2) of its own per bot program, under a folder the operator
//! delegated to the server (`ratrace serve --bot-cgroup DIR`): its
//! memory (`memory.max`, shared mappings and tmpfs pages included, no
//! swap) and tasks (`pids.max`) where those controllers are enabled, and
//! `cgroup.kill` when the program is reaped, which ends every process it
//! started, wherever it moved.
//!
//! A controller the folder does not offer is left to the fallback
//! (`RLIMIT_AS` for memory, `RLIMIT_NPROC` for tasks); the cgroup still
//! kills.

use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// One program's cgroup; killed and removed when dropped.
#[derive(Debug)]
pub(crate) struct Cgroup {
    path: PathBuf,
    /// Its memory is bounded by `memory.max` (else `RLIMIT_AS` is).
    pub(super) memory: bool,
}

impl Cgroup {
    /// Makes a fresh cgroup under `parent` for a program of at most
    /// `memory` bytes and `tasks` tasks.
    pub(super) fn create(parent: &Path, memory: u64, tasks: u64) -> io::Result<Cgroup> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        // Best effort: the controllers, if the parent may hand them down.
        let _ = std::fs::write(parent.join("cgroup.subtree_control"), "+memory +pids");
        let name = format!(
            "bot-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let path = parent.join(name);
        std::fs::create_dir(&path)?;
        let mut cgroup = Cgroup {
            memory: false,
            path,
        };
        cgroup.memory = if cgroup.path.join("memory.max").exists() {
            std::fs::write(cgroup.path.join("memory.max"), memory.to_string())?;
            if cgroup.path.join("memory.swap.max").exists() {
                std::fs::write(cgroup.path.join("memory.swap.max"), "0")?;
            }
            true
        } else {
            false
        };
        if cgroup.path.join("pids.max").exists() {
            std::fs::write(cgroup.path.join("pids.max"), tasks.to_string())?;
        }
        Ok(cgroup)
    }

    /// Its `cgroup.procs`, open for the child to move itself in.
    pub(super) fn procs(&self) -> io::Result<OwnedFd> {
        Ok(std::fs::OpenOptions::new()
            .write(true)
            .open(self.path.join("cgroup.procs"))?
            .into())
    }

    /// Whether a process is still in it.
    fn populated(&self) -> bool {
        std::fs::read_to_string(self.path.join("cgroup.events"))
            .map(|t| t.lines().any(|l| l == "populated 1"))
            .unwrap_or(false)
    }

    /// Kills every process in it (Linux 5.14+) and waits, briefly, until
    /// none is left.
    pub(crate) fn kill(&self) {
        if std::fs::write(self.path.join("cgroup.kill"), "1").is_err() {
            return;
        }
        let deadline = Instant::now() + Duration::from_millis(500);
        while self.populated() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir(&self.path);
    }
}
