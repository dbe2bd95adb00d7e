//! A bot program as a child process: its stdin, stdout and stderr each
//! served by a thread, so that no misbehaviour of the bot can block the
//! game that runs it.
//!
//! - **stdin** is written by a writer thread from a bounded queue: a bot
//!   that stops reading fills the queue, which the referee sees at once
//!   (a full queue), instead of blocking in `write`.
//! - **stdout** is read by a reader thread, line by line with a length cap,
//!   into a bounded channel: the referee waits on it with a deadline
//!   (`recv_timeout`), so a hung bot costs exactly its time limit.
//! - **stderr** is drained by a third thread, which counts the bytes and
//!   keeps only the last few lines, so gigabytes of log cost no memory
//!   (and, when asked, copies them into a bounded per-game file,
//!   [`crate::stderr_log`]).
//!
//! The command runs under `/bin/sh -c` in a process group of its own, and
//! [`Process`]'s drop (or [`Process::shutdown`]) kills the whole group
//! (and the program's cgroup, if it has one) and reaps the child. A
//! sandboxed program runs in a PID namespace of its own
//! ([`crate::sandbox`]), so a child that left the group (`setsid`) dies
//! with it too: no process is left behind.

use crate::protocol::MAX_LINE;
use crate::stderr_log::StderrLog;
use nix::errno::Errno;
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStderr, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Bytes queued for the bot's stdin before the bot counts as not reading.
/// Bounded by bytes, not messages: a table reloaded late in a long
/// 13-player session sends thousands of events at once to an honest bot,
/// and a whole such session's events fit many times over.
const WRITE_QUEUE_BYTES: usize = 4 << 20;
/// Lines read ahead from the bot's stdout before the reader waits.
const READ_QUEUE: usize = 64;
/// How much of the bot's stderr is kept for reports.
const STDERR_TAIL: usize = 4096;

/// What the reader thread saw on the bot's stdout.
#[derive(Debug)]
pub(crate) enum Line {
    /// One line, newline removed.
    Text(String),
    /// A line longer than [`MAX_LINE`]: a flood; the reader stops.
    TooLong,
    /// Not UTF-8.
    Binary,
    /// stdout closed (the bot exited or closed it).
    Closed,
}

/// Why waiting for a line ended without one.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Wait {
    /// The deadline passed.
    Timeout,
    /// The bot's stdout is gone.
    Closed,
}

/// The pipe threads' ends, as [`Process::spawn`] keeps them.
struct Pipes {
    to_bot: Sender<Vec<u8>>,
    queued: Arc<AtomicUsize>,
    from_bot: Receiver<Line>,
    stderr_bytes: Arc<AtomicU64>,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
    stderr_closed: Arc<AtomicBool>,
    stderr_log: SharedLog,
    stderr_fd: std::os::fd::RawFd,
}

/// The per-game stderr file the drain writes to, if any.
type SharedLog = Arc<Mutex<Option<StderrLog>>>;

/// A running bot program.
pub struct Process {
    child: Child,
    pgid: Pid,
    to_bot: Option<Sender<Vec<u8>>>,
    /// Bytes queued for stdin and not yet written.
    queued: Arc<AtomicUsize>,
    from_bot: Receiver<Line>,
    stderr_bytes: Arc<AtomicU64>,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
    /// Set when the stderr drain reads the end of the pipe.
    stderr_closed: Arc<AtomicBool>,
    /// Where the drain copies stderr (`--bot-log`), if anywhere.
    stderr_log: SharedLog,
    /// The stderr pipe's read end (the drain thread owns it; used to see
    /// what waits in the pipe while `stderr_closed` is unset).
    stderr_fd: std::os::fd::RawFd,
    /// The status, once reaped.
    status: Option<ExitStatus>,
    /// The group was killed and seen gone: its id may since belong to
    /// other processes, so it is never signalled again.
    gone: bool,
    /// A sandboxed process's private folder and cgroup, removed after it
    /// ends (fields drop in order: after the drop has killed the group).
    confined: Option<crate::sandbox::Confined>,
}

impl Process {
    /// Starts `command` under `/bin/sh -c` in its own process group, with
    /// piped stdin, stdout and stderr.
    pub fn spawn(command: &str) -> std::io::Result<Process> {
        Process::spawn_in(command, None)
    }

    /// [`Process::spawn`], confined by `sandbox` if given.
    pub fn spawn_in(command: &str, sandbox: Option<&crate::Sandbox>) -> std::io::Result<Process> {
        let mut cmd = Command::new("/bin/sh");
        cmd.arg("-c")
            .arg(exec_line(command))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let private = sandbox.map(|s| s.apply(&mut cmd)).transpose()?;
        let mut child = cmd.spawn()?;
        let pgid = Pid::from_raw(child.id() as i32);
        match Self::pipe_threads(&mut child) {
            Ok(p) => Ok(Process {
                child,
                pgid,
                to_bot: Some(p.to_bot),
                queued: p.queued,
                from_bot: p.from_bot,
                stderr_bytes: p.stderr_bytes,
                stderr_tail: p.stderr_tail,
                stderr_closed: p.stderr_closed,
                stderr_log: p.stderr_log,
                stderr_fd: p.stderr_fd,
                status: None,
                gone: false,
                confined: private,
            }),
            Err(e) => {
                // No process may outlive a failed start: the threads that
                // did start end when the pipes close.
                let _ = killpg(pgid, Signal::SIGKILL);
                let _ = child.kill();
                let _ = child.wait();
                Err(e)
            }
        }
    }

    /// Starts the three pipe threads: a bounded write queue to stdin, a
    /// capped line reader on stdout and a drain on stderr.
    fn pipe_threads(child: &mut Child) -> std::io::Result<Pipes> {
        let missing = || std::io::Error::other("a pipe of the bot process is missing");
        let stdin = child.stdin.take().ok_or_else(missing)?;
        let stdout = child.stdout.take().ok_or_else(missing)?;
        let stderr = child.stderr.take().ok_or_else(missing)?;
        let (to_bot, queue) = mpsc::channel::<Vec<u8>>();
        let queued = Arc::new(AtomicUsize::new(0));
        {
            let queued = queued.clone();
            std::thread::Builder::new()
                .name("bot-stdin".into())
                .spawn(move || write_loop(stdin, queue, &queued))?;
        }
        let (lines, from_bot) = mpsc::sync_channel(READ_QUEUE);
        std::thread::Builder::new()
            .name("bot-stdout".into())
            .spawn(move || read_loop(stdout, lines))?;
        let stderr_bytes = Arc::new(AtomicU64::new(0));
        let stderr_tail = Arc::new(Mutex::new(Vec::new()));
        let stderr_closed = Arc::new(AtomicBool::new(false));
        let stderr_log: SharedLog = Arc::default();
        let stderr_fd = std::os::fd::AsRawFd::as_raw_fd(&stderr);
        {
            let (bytes, tail) = (stderr_bytes.clone(), stderr_tail.clone());
            let closed = stderr_closed.clone();
            let log = stderr_log.clone();
            std::thread::Builder::new()
                .name("bot-stderr".into())
                .spawn(move || {
                    drain_loop(stderr, &bytes, &tail, &log);
                    closed.store(true, Ordering::Release);
                })?;
        }
        Ok(Pipes {
            to_bot,
            queued,
            from_bot,
            stderr_bytes,
            stderr_tail,
            stderr_closed,
            stderr_log,
            stderr_fd,
        })
    }

    /// Queues one message (a line, newline included) for the bot's stdin.
    /// False when the bot is not reading (the queue is full) or its stdin
    /// is gone.
    pub(crate) fn send(&mut self, line: Vec<u8>) -> bool {
        let Some(tx) = &self.to_bot else {
            return false;
        };
        let n = line.len();
        if self.queued.load(Ordering::Acquire) + n > WRITE_QUEUE_BYTES {
            return false;
        }
        // Counted before it is queued, so the writer never subtracts
        // bytes not yet added.
        self.queued.fetch_add(n, Ordering::AcqRel);
        if tx.send(line).is_err() {
            self.queued.fetch_sub(n, Ordering::AcqRel);
            return false;
        }
        true
    }

    /// The next line from the bot, waiting until `deadline` at most.
    pub(crate) fn recv(&mut self, deadline: Instant) -> Result<Line, Wait> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.from_bot.recv_timeout(left) {
            Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => Err(Wait::Closed),
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Wait::Timeout),
        }
    }

    /// Bytes the bot has written to stderr since the last
    /// `reset_stderr` (at each game).
    pub fn stderr_bytes(&self) -> u64 {
        self.stderr_bytes.load(Ordering::Relaxed)
    }

    /// Copies the bot's stderr from now on into `log` (a new game's
    /// file), or nowhere with `None`; the previous file is closed. What
    /// the bot wrote before now (still in the pipe) goes to the previous
    /// file first: the switch waits, `LOG_SWITCH_WAIT` at most, until
    /// the pipe is empty. The drain reads only while it holds the log, so
    /// nothing read is in its hands when the pipe is seen empty.
    pub fn log_stderr(&self, log: Option<StderrLog>) {
        let deadline = Instant::now() + LOG_SWITCH_WAIT;
        let mut log = Some(log);
        loop {
            let Ok(mut l) = self.stderr_log.lock() else {
                return;
            };
            let closed = self.stderr_closed.load(Ordering::Acquire);
            if closed || waiting_bytes(self.stderr_fd) == 0 || Instant::now() >= deadline {
                *l = log.take().flatten();
                return;
            }
            drop(l);
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Starts counting stderr bytes from zero (at each game).
    pub(crate) fn reset_stderr(&self) {
        self.stderr_bytes.store(0, Ordering::Relaxed);
    }

    /// The last line the bot wrote to stderr (at most a few KiB kept).
    pub fn stderr_last_line(&self) -> String {
        self.stderr_last_lines(1)
    }

    /// The last `n` lines the bot wrote to stderr, each cut to 200
    /// characters (at most a few KiB kept).
    pub fn stderr_last_lines(&self, n: usize) -> String {
        // A bot that has exited may have written its last words a moment
        // ago: give the drain a moment to read them (a child of the bot
        // may hold the pipe open, hence the bound).
        if self.status.is_some() {
            let deadline = Instant::now() + Duration::from_millis(200);
            while !self.stderr_closed.load(Ordering::Acquire) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        let tail = self
            .stderr_tail
            .lock()
            .map(|t| t.clone())
            .unwrap_or_default();
        let text = String::from_utf8_lossy(&tail);
        let mut lines: Vec<String> = text
            .trim_end()
            .rsplit('\n')
            .take(n)
            .map(|l| l.trim().chars().take(200).collect())
            .collect();
        lines.reverse();
        lines.join("\n").trim().to_string()
    }

    /// How the bot ended, in words, waiting up to `wait` for it to end
    /// (its stdout closes a moment before it is reaped): `exited with
    /// status 1`, `killed by signal 11`, or `closed its output`.
    pub(crate) fn ended(&mut self, wait: Duration) -> String {
        match self.wait_exit(wait) {
            Some(status) => describe(status),
            None => "closed its output".to_string(),
        }
    }

    /// Waits up to `wait` for the bot to exit by itself; its status if it
    /// did.
    pub(crate) fn wait_exit(&mut self, wait: Duration) -> Option<ExitStatus> {
        if self.status.is_some() {
            return self.status;
        }
        let deadline = Instant::now() + wait;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.status = Some(status);
                return self.status;
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Ends the bot: closes its stdin (after `last`, if given: `quit`),
    /// gives it `grace` to exit by itself, then kills its whole process
    /// group and reaps it. Returns its status if it exited by itself in
    /// time.
    pub fn shutdown(&mut self, last: Option<Vec<u8>>, grace: Duration) -> Option<ExitStatus> {
        if let Some(line) = last {
            self.send(line);
        }
        self.to_bot = None;
        let exited = self.wait_exit(grace);
        self.kill();
        exited
    }

    /// Kills the bot's process group (and its cgroup, if it has one) and
    /// reaps the child.
    pub(crate) fn kill(&mut self) {
        self.to_bot = None;
        if let Some(cgroup) = self.confined.as_ref().and_then(|c| c.cgroup.as_ref()) {
            cgroup.kill();
        }
        if self.gone {
            return;
        }
        // The group outlives its leader while children remain: always
        // signal it. ESRCH (nobody left) is fine.
        if self.status.is_none() {
            let _ = killpg(self.pgid, Signal::SIGKILL);
            // The leader by its pid too: it may have left its group.
            let _ = self.child.kill();
            // Never a wait without a deadline.
            self.wait_exit(Duration::from_millis(500));
        } else {
            let _ = killpg(self.pgid, Signal::SIGKILL);
        }
        // SIGKILL takes effect when each member is next scheduled, and
        // orphans are reaped by init: wait (briefly) until the group is
        // gone, so that "killed" means gone.
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            if killpg(self.pgid, None) == Err(Errno::ESRCH) {
                self.gone = self.status.is_some();
                break;
            }
            if Instant::now() >= deadline {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `command` for `sh -c`: a simple command (one program and its
/// arguments) is run with `exec`, so the bot *is* the process the pipes
/// lead to. Otherwise the shell waits with the pipes still open, and a bot
/// that closes its output would only be noticed at its deadlines. Lists,
/// pipelines, compound commands, builtins and leading assignments keep
/// their shell.
fn exec_line(command: &str) -> String {
    const SHELL: [&str; 14] = [
        "cd", "if", "for", "while", "until", "case", "exec", "export", "set", "ulimit", "umask",
        "eval", ".", "!",
    ];
    let special = command.contains([';', '&', '|', '(', ')', '{', '}', '`', '\n']);
    let first = command.split_whitespace().next().unwrap_or("");
    if special || first.is_empty() || first.contains('=') || SHELL.contains(&first) {
        command.to_string()
    } else {
        format!("exec {command}")
    }
}

/// An exit status in words.
pub(crate) fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        // `sh -c` reports a command killed by signal N as 128 + N.
        (Some(code), _) if (129..160).contains(&code) => {
            format!(
                "exited with status {code} (killed by signal {})",
                code - 128
            )
        }
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        (None, None) => "ended".to_string(),
    }
}

fn write_loop(mut stdin: ChildStdin, queue: Receiver<Vec<u8>>, queued: &AtomicUsize) {
    let mut buf = Vec::new();
    while let Ok(first) = queue.recv() {
        // Everything already queued goes in one write.
        buf.clear();
        buf.extend_from_slice(&first);
        while let Ok(more) = queue.try_recv() {
            buf.extend_from_slice(&more);
        }
        let ok = stdin.write_all(&buf).and_then(|()| stdin.flush()).is_ok();
        queued.fetch_sub(buf.len(), Ordering::AcqRel);
        if !ok {
            return;
        }
    }
}

fn read_loop(stdout: impl Read, lines: SyncSender<Line>) {
    let mut reader = BufReader::with_capacity(16 * 1024, stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let limit = (MAX_LINE + 1) as u64;
        // A read error ends the stream as EOF does.
        let n: usize = (&mut reader)
            .take(limit)
            .read_until(b'\n', &mut buf)
            .unwrap_or_default();
        if n == 0 {
            let _ = lines.send(Line::Closed);
            return;
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        } else if buf.len() > MAX_LINE {
            let _ = lines.send(Line::TooLong);
            return;
        }
        let line = match std::str::from_utf8(&buf) {
            Ok(text) => Line::Text(text.to_string()),
            Err(_) => Line::Binary,
        };
        if lines.send(line).is_err() {
            return;
        }
    }
}

fn drain_loop(
    stderr: ChildStderr,
    bytes: &AtomicU64,
    tail: &Mutex<Vec<u8>>,
    log: &Mutex<Option<StderrLog>>,
) {
    let mut stderr = stderr;
    let fd = std::os::fd::AsRawFd::as_raw_fd(&stderr);
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        // wait for data without the log, then read and copy it holding
        // the log: a switch of log (a new game) never finds bytes read
        // but not yet written (see `Process::log_stderr`)
        if !readable(fd) {
            return;
        }
        let Ok(mut held) = log.lock() else {
            return;
        };
        let n = match stderr.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        bytes.fetch_add(n as u64, Ordering::Relaxed);
        if let Some(l) = held.as_mut() {
            l.write(&buf[..n]);
        }
        drop(held);
        if let Ok(mut t) = tail.lock() {
            t.extend_from_slice(&buf[..n]);
            if t.len() > STDERR_TAIL {
                let cut = t.len() - STDERR_TAIL;
                t.drain(..cut);
            }
        }
    }
}

/// The longest a switch of stderr log waits for the pipe to empty.
const LOG_SWITCH_WAIT: Duration = Duration::from_millis(200);

/// Blocks until `fd` has data or its writer is gone; `false` on an error.
fn readable(fd: std::os::fd::RawFd) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    loop {
        // SAFETY: one valid pollfd, its count 1; the fd is the pipe this
        // thread owns and keeps open.
        #[allow(unsafe_code)]
        let n = unsafe { libc::poll(&mut p, 1, -1) };
        if n > 0 {
            return true;
        }
        if n < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return false;
        }
    }
}

/// Bytes waiting in pipe `fd` (0 if it cannot be asked).
fn waiting_bytes(fd: std::os::fd::RawFd) -> usize {
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one c_int through the valid pointer given.
    #[allow(unsafe_code)]
    let r = unsafe { libc::ioctl(fd, libc::FIONREAD, &mut n) };
    if r < 0 {
        0
    } else {
        usize::try_from(n).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::exec_line;

    #[test]
    fn only_a_simple_command_is_execed() {
        assert_eq!(exec_line("python3 bot.py a"), "exec python3 bot.py a");
        assert_eq!(
            exec_line("./bot --level 2 2>log"),
            "exec ./bot --level 2 2>log"
        );
        for kept in [
            "cd bots && python3 bot.py",
            "python3 a.py | tee log",
            "FOO=1 python3 bot.py",
            "exec python3 bot.py",
            "(python3 bot.py)",
            "",
        ] {
            assert_eq!(exec_line(kept), kept);
        }
    }
}
