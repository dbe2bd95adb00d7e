//! What runs in a bot program's process between `fork` and `exec`: its
//! cgroup, its user, its namespaces, its private disk, its limits and its
//! Landlock rules, in that order.
//!
//! The child of a multi-threaded parent may only make system calls there
//! (it must not allocate, nor take a lock another thread may hold), so
//! everything is made beforehand in the parent ([`Steps`]): the texts the
//! child writes, the paths it mounts, the descriptors it writes to, the
//! Landlock ruleset. An error is a raw OS error, which the standard
//! library hands back to the parent as the spawn's error.
//!
//! With isolation the program gets a user, PID and mount namespace of its
//! own: the process the server started stays outside as a small
//! supervisor that waits for the program and exits with its status, and
//! the program is the first process of its PID namespace. When it ends,
//! or is killed, the kernel kills every process left in that namespace,
//! so nothing it started outlives it, a `setsid` daemon included; the
//! supervisor's death kills it too (`PR_SET_PDEATHSIG`). Its private
//! folder is a size-limited tmpfs mounted in its own mount namespace, so
//! its files are bounded in total and no other process sees them.

use landlock::RulesetCreated;
use nix::sys::resource::{setrlimit, Resource};
use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};

/// Who a program runs as (a server run as root never runs it as root
/// unless told to).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunAs {
    /// The user id.
    pub uid: u32,
    /// The group id.
    pub gid: u32,
}

/// The namespaces of an isolated program: the texts of its id maps, and
/// its private disk.
pub(super) struct Isolation {
    /// `/proc/self/uid_map`'s line: the program's uid as itself.
    pub(super) uid_map: Vec<u8>,
    /// `/proc/self/gid_map`'s line.
    pub(super) gid_map: Vec<u8>,
    /// The private folder, and the tmpfs options that bound it.
    pub(super) disk: Option<(CString, CString)>,
    /// The Landlock ruleset (a second descriptor of [`Steps::ruleset`]'s)
    /// and the rights to grant beneath the tmpfs once it is mounted.
    pub(super) disk_rule: Option<(OwnedFd, u64)>,
}

/// `struct landlock_path_beneath_attr` of `<linux/landlock.h>`.
#[repr(C, packed)]
struct PathBeneath {
    allowed_access: u64,
    parent_fd: i32,
}

/// Everything the child does, made in the parent.
pub(super) struct Steps {
    /// The `cgroup.procs` of the program's own cgroup, open for writing.
    pub(super) cgroup_procs: Option<OwnedFd>,
    /// The user to become, from root.
    pub(super) user: Option<RunAs>,
    /// Namespaces of its own, and its private disk.
    pub(super) isolate: Option<Isolation>,
    /// Resource limits, set last before the rules.
    pub(super) limits: Vec<(Resource, u64)>,
    /// Its Landlock rules.
    pub(super) ruleset: Option<RulesetCreated>,
}

fn last_error() -> io::Error {
    io::Error::last_os_error()
}

/// 0 or -1 as a system call returns them, as a result.
fn check(ret: libc::c_int) -> io::Result<()> {
    if ret == -1 {
        Err(last_error())
    } else {
        Ok(())
    }
}

/// Writes all of `bytes` to `fd`.
fn write_all(fd: libc::c_int, mut bytes: &[u8]) -> io::Result<()> {
    while !bytes.is_empty() {
        // SAFETY: write(2) reads `bytes.len()` bytes from a live slice.
        #[allow(unsafe_code)]
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n < 0 {
            let e = last_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        bytes = &bytes[n.unsigned_abs()..];
    }
    Ok(())
}

/// Writes `bytes` to the file at `path` (a `/proc` control file).
fn write_file(path: &std::ffi::CStr, bytes: &[u8]) -> io::Result<()> {
    // SAFETY: open(2) takes a NUL-terminated path that outlives the call.
    #[allow(unsafe_code)]
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(last_error());
    }
    let written = write_all(fd, bytes);
    // SAFETY: closes the descriptor opened above, once.
    #[allow(unsafe_code)]
    unsafe {
        libc::close(fd);
    }
    written
}

impl Steps {
    /// Runs the steps in the child. Returns in the program's process
    /// (which then execs); with isolation, the supervisor never returns.
    pub(super) fn run(&mut self) -> io::Result<()> {
        if let Some(fd) = &self.cgroup_procs {
            // "0": the writing process itself; its children follow it.
            write_all(fd.as_raw_fd(), b"0")?;
        }
        if let Some(user) = self.user {
            // SAFETY: plain system calls on this process's credentials;
            // setgroups(0, NULL) drops every supplementary group.
            #[allow(unsafe_code)]
            unsafe {
                check(libc::setgroups(0, std::ptr::null()))?;
                check(libc::setgid(user.gid))?;
                check(libc::setuid(user.uid))?;
                // A change of user makes the process undumpable, which
                // gives its /proc files (the id maps) to root; exec
                // sets it again from the program's own file.
                check(libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0))?;
            }
        }
        if let Some(iso) = &self.isolate {
            isolate(iso)?;
        }
        for &(resource, limit) in &self.limits {
            setrlimit(resource, limit, limit)
                .map_err(|e| io::Error::from_raw_os_error(e as i32))?;
        }
        close_inherited();
        if let Some(ruleset) = self.ruleset.take() {
            ruleset
                .restrict_self()
                .map_err(|_| io::Error::from_raw_os_error(libc::EPERM))?;
        }
        Ok(())
    }
}

/// New user, PID and mount namespaces; the supervisor stays behind in
/// the old PID namespace and the program goes on as the new one's first
/// process, on its private disk.
fn isolate(iso: &Isolation) -> io::Result<()> {
    // SAFETY: unshare(2) with flags only.
    #[allow(unsafe_code)]
    check(unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWPID | libc::CLONE_NEWNS) })?;
    // The program keeps its own ids inside (mapped to themselves), so
    // what it owns on disk is its user's.
    write_file(c"/proc/self/setgroups", b"deny")?;
    write_file(c"/proc/self/uid_map", &iso.uid_map)?;
    write_file(c"/proc/self/gid_map", &iso.gid_map)?;
    // SAFETY: fork(2) in a single-threaded child; each side only makes
    // system calls afterwards.
    #[allow(unsafe_code)]
    let pid = unsafe { libc::fork() };
    match pid {
        -1 => return Err(last_error()),
        0 => {}
        program => supervise(program),
    }
    // The first process of the new PID namespace: it dies with its
    // supervisor, and everything in the namespace dies with it.
    // SAFETY: prctl(2) and mount(2) with NUL-terminated strings that
    // outlive the calls (or null where the call takes none).
    #[allow(unsafe_code)]
    unsafe {
        check(libc::prctl(
            libc::PR_SET_PDEATHSIG,
            libc::SIGKILL as libc::c_ulong,
            0,
            0,
            0,
        ))?;
        // Mounts made here stay here.
        check(libc::mount(
            std::ptr::null(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ))?;
        if let Some((folder, options)) = &iso.disk {
            check(libc::mount(
                c"tmpfs".as_ptr(),
                folder.as_ptr(),
                c"tmpfs".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV,
                options.as_ptr().cast(),
            ))?;
            // The working folder was the folder beneath the mount.
            check(libc::chdir(folder.as_ptr()))?;
            if let Some((ruleset, access)) = &iso.disk_rule {
                allow_beneath(ruleset.as_raw_fd(), folder, *access)?;
            }
        }
    }
    Ok(())
}

/// Adds to the Landlock ruleset `ruleset` a rule granting `access`
/// beneath `folder` as it is now (the tmpfs just mounted there).
fn allow_beneath(ruleset: libc::c_int, folder: &std::ffi::CStr, access: u64) -> io::Result<()> {
    // SAFETY: open(2) with O_PATH on a NUL-terminated path; the
    // landlock_add_rule(2) attribute is a local of the kernel's layout;
    // the descriptor is closed once.
    #[allow(unsafe_code)]
    unsafe {
        let dir = libc::open(
            folder.as_ptr(),
            libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
        );
        if dir < 0 {
            return Err(last_error());
        }
        let attr = PathBeneath {
            allowed_access: access,
            parent_fd: dir,
        };
        let added = libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset,
            1u32, // LANDLOCK_RULE_PATH_BENEATH
            std::ptr::addr_of!(attr),
            0u32,
        );
        let e = last_error();
        libc::close(dir);
        if added != 0 {
            return Err(e);
        }
    }
    Ok(())
}

/// The supervisor: holds nothing of the program's (its pipes closed, so
/// the program alone holds them), waits for it and exits with its status
/// (128 + the signal that killed it, as a shell says it).
fn supervise(program: libc::pid_t) -> ! {
    // SAFETY: close_range(2), waitpid(2) and _exit(2) take plain values
    // and a pointer to a local.
    #[allow(unsafe_code)]
    unsafe {
        libc::close_range(0, libc::c_uint::MAX, 0);
        let mut status = 0;
        loop {
            let r = libc::waitpid(program, &mut status, 0);
            if r == program {
                break;
            }
            if r == -1 && last_error().kind() != io::ErrorKind::Interrupted {
                libc::_exit(1);
            }
        }
        if libc::WIFEXITED(status) {
            libc::_exit(libc::WEXITSTATUS(status));
        }
        if libc::WIFSIGNALED(status) {
            libc::_exit(128 + libc::WTERMSIG(status));
        }
        libc::_exit(1)
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
