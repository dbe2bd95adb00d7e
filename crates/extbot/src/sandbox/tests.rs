//! The sandbox's tests: what a program finds, and what it cannot do.

use super::rules::readable_roots;
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

/// The users a confinement test runs its program as: the server's own,
/// and, when the test runs as root (as CI does), `nobody`, as a root
/// server runs its programs.
fn users() -> Vec<Option<RunAs>> {
    let mut out = vec![None];
    if nix::unistd::geteuid().is_root() {
        if let Ok(Some(u)) = nix::unistd::User::from_name("nobody") {
            out.push(Some(RunAs {
                uid: u.uid.as_raw(),
                gid: u.gid.as_raw(),
            }));
        }
    } else {
        eprintln!("not root: the programs run as this user only");
    }
    out
}

/// A folder for a test's program files, readable by every user.
fn scripts(name: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!(
        "ratrace-sandbox-{name}-{}-{}",
        std::process::id(),
        NEXT_TEST.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// Runs `script` (Python) under `sandbox` and reads its one JSON line.
fn report_of(dir: &Path, script: &str, args: &str, sandbox: &Sandbox) -> serde_json::Value {
    use crate::process::{Line, Process};
    let path = dir.join("program.py");
    std::fs::write(&path, script).unwrap();
    let mut p =
        Process::spawn_in(&format!("python3 {} {args}", path.display()), Some(sandbox)).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    match p.recv(deadline) {
        Ok(Line::Text(t)) => serde_json::from_str(&t).unwrap(),
        other => panic!("no report: {other:?}; stderr: {}", p.stderr_last_lines(5)),
    }
}

/// The processes whose command line holds `marker`, as the kernel lists
/// them (zombies left out: they are gone but for their exit status).
fn processes_with(marker: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        let zombie = status
            .lines()
            .any(|l| l.starts_with("State:") && l.contains('Z'));
        if !zombie && String::from_utf8_lossy(&cmdline).contains(marker) {
            out.push(pid);
        }
    }
    out
}

/// Shared anonymous memory (which `RLIMIT_DATA` does not count) cannot
/// take a program past its memory limit: a 2 GiB shared mapping touched
/// page by page fails, while 256 MiB of it work.
#[test]
fn shared_memory_cannot_pass_the_limit() {
    const MAP: &str = r#"
import json, mmap, sys
def touch(size):
    try:
        m = mmap.mmap(-1, size, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
    except OSError as e:
        return "refused: %s" % e
    for i in range(0, size, 4096):
        m[i] = 1
    return "touched"
print(json.dumps({"small": touch(256 << 20), "large": touch(2 << 30)}), flush=True)
"#;
    for user in users() {
        let dir = scripts("shm");
        let sandbox = Sandbox {
            user,
            ..Sandbox::default()
        };
        let report = report_of(&dir, MAP, "", &sandbox);
        assert_eq!(report["small"], "touched", "{user:?}: {report}");
        let large = report["large"].as_str().unwrap_or_default();
        assert!(large.starts_with("refused"), "{user:?}: {report}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A program's child that leaves its session (`setsid`) and sleeps does
/// not outlive the program: once the program is reaped, no process of
/// its is left.
#[test]
fn a_setsid_child_does_not_outlive_its_program() {
    const DAEMON: &str = r#"
import json, os, sys, time
marker = sys.argv[1]
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp("python3", ["python3", "-c", "import time; time.sleep(300)", marker + "-daemon"])
    os._exit(0)
time.sleep(0.5)
print(json.dumps({"started": True}), flush=True)
sys.stdin.read()
"#;
    for user in users() {
        let dir = scripts("daemon");
        let marker = format!("ratrace-daemon-{}", rand_marker());
        let sandbox = Sandbox {
            user,
            ..Sandbox::default()
        };
        let path = dir.join("program.py");
        std::fs::write(&path, DAEMON).unwrap();
        let mut p = crate::process::Process::spawn_in(
            &format!("python3 {} {marker}", path.display()),
            Some(&sandbox),
        )
        .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        assert!(
            matches!(p.recv(deadline), Ok(crate::process::Line::Text(_))),
            "{user:?}: {}",
            p.stderr_last_lines(5)
        );
        assert_eq!(
            processes_with(&format!("{marker}-daemon")).len(),
            1,
            "{user:?}: the daemon runs"
        );
        drop(p);
        let gone = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while !processes_with(&format!("{marker}-daemon")).is_empty()
            && std::time::Instant::now() < gone
        {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(
            processes_with(&format!("{marker}-daemon")),
            Vec::<u32>::new(),
            "{user:?}: the daemon outlived its program"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A program that writes 100 MiB of small files is stopped at its
/// folder's budget (64 MiB), and what it wrote is gone with it.
#[test]
fn the_private_folder_has_a_disk_budget() {
    const FILL: &str = r#"
import errno, json, os
total, error = 0, None
chunk = b"x" * 65536
for i in range(1600):
    try:
        with open("f%05d" % i, "wb") as f:
            f.write(chunk)
        total += len(chunk)
    except OSError as e:
        error = errno.errorcode.get(e.errno, str(e.errno))
        break
print(json.dumps({"total": total, "error": error, "home": os.environ["HOME"]}), flush=True)
"#;
    for user in users() {
        let dir = scripts("disk");
        let sandbox = Sandbox {
            user,
            ..Sandbox::default()
        };
        let report = report_of(&dir, FILL, "", &sandbox);
        let total = report["total"].as_u64().unwrap();
        assert!(total <= DISK, "{user:?}: wrote {total}: {report}");
        assert!(
            total >= DISK - (2 << 20),
            "{user:?}: stopped early: {report}"
        );
        assert_eq!(report["error"], "ENOSPC", "{user:?}: {report}");
        // Nothing of it reached the server's disk.
        let home = PathBuf::from(report["home"].as_str().unwrap());
        assert!(
            std::fs::read_dir(&home).map_or(true, |d| d.count() == 0),
            "{user:?}: the program's files are on the server's disk"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// As `nobody`, a program reads no file that only root may, and owns
/// what it writes as `nobody`.
#[test]
fn a_root_servers_program_runs_as_nobody() {
    const WHO: &str = r#"
import json, os, sys
try:
    open(sys.argv[1]).read()
    secret = "read"
except OSError:
    secret = "denied"
with open("mine", "w") as f:
    f.write("x")
st = os.stat("mine")
print(json.dumps({"uid": os.getuid(), "secret": secret, "owner": st.st_uid}), flush=True)
"#;
    let Some(nobody) = users().into_iter().flatten().next() else {
        eprintln!("not root: nothing to check");
        return;
    };
    let dir = scripts("who");
    let secret = dir.join("secret");
    std::fs::write(&secret, "root's").unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let sandbox = Sandbox {
        user: Some(nobody),
        ..Sandbox::default()
    };
    let report = report_of(&dir, WHO, &secret.display().to_string(), &sandbox);
    assert_eq!(report["uid"], nobody.uid, "{report}");
    assert_eq!(report["owner"], nobody.uid, "{report}");
    assert_eq!(report["secret"], "denied", "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// With a cgroup folder delegated (here one made under this machine's
/// cgroup v2 mount, as root), each program has a cgroup of its own, and
/// its end kills every process in it, without namespaces too.
#[test]
fn a_programs_cgroup_holds_and_ends_all_its_processes() {
    const DAEMON: &str = r#"
import json, os, sys, time
marker = sys.argv[1]
if os.fork() == 0:
    os.setsid()
    os.execvp("python3", ["python3", "-c", "import time; time.sleep(300)", marker + "-daemon"])
time.sleep(0.5)
print(json.dumps({"started": True}), flush=True)
sys.stdin.read()
"#;
    let Some(mount) = cgroup2_mount() else {
        eprintln!("no cgroup v2 mount: nothing to check");
        return;
    };
    let parent = mount.join(format!("ratrace-test-{}", rand_marker()));
    if std::fs::create_dir(&parent).is_err() {
        eprintln!("{}: not writable here: nothing to check", mount.display());
        return;
    }
    let dir = scripts("cgroup");
    let marker = format!("ratrace-cgroup-{}", rand_marker());
    let sandbox = Sandbox {
        cgroup: Some(parent.clone()),
        isolate: false,
        ..Sandbox::default()
    };
    let path = dir.join("program.py");
    std::fs::write(&path, DAEMON).unwrap();
    let mut p = crate::process::Process::spawn_in(
        &format!("python3 {} {marker}", path.display()),
        Some(&sandbox),
    )
    .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    assert!(matches!(
        p.recv(deadline),
        Ok(crate::process::Line::Text(_))
    ));
    let daemon = processes_with(&format!("{marker}-daemon"));
    assert_eq!(daemon.len(), 1);
    let cgroup = std::fs::read_to_string(format!("/proc/{}/cgroup", daemon[0])).unwrap();
    let name = parent.file_name().unwrap().to_string_lossy().to_string();
    assert!(cgroup.contains(&name), "{cgroup}");
    drop(p);
    assert_eq!(
        processes_with(&format!("{marker}-daemon")),
        Vec::<u32>::new(),
        "killed with its cgroup"
    );
    let left: Vec<_> = std::fs::read_dir(&parent)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .collect();
    assert!(left.is_empty(), "its cgroup is removed: {left:?}");
    let _ = std::fs::remove_dir(&parent);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where this machine mounts cgroup v2 (the unified hierarchy).
fn cgroup2_mount() -> Option<PathBuf> {
    let mounts = std::fs::read_to_string("/proc/self/mounts").ok()?;
    mounts.lines().find_map(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        (f.get(2) == Some(&"cgroup2")).then(|| PathBuf::from(f[1]))
    })
}

fn rand_marker() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{}-{nanos:x}", std::process::id())
}
