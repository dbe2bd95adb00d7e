//! `ratrace serve`: logs to standard output, the database, the bot
//! programs, the site of several processes (docs/deploy.md), then serving
//! until SIGTERM or Ctrl-C, and draining (docs/server.md, "Operations").
//!
//! Each step that can refuse to start is a function of its own, in the
//! order [`run`] takes them; every refusal is an [`Error::Server`] that
//! names the flag or the database at fault.

use crate::args::serve::{ClusterArgs, LogFormat, ServeBots, ServeOps};
use crate::args::ServeArgs;
use cli::Error;
use server::extbots::ExternalBots;
use std::sync::Arc;

/// Runs `ratrace serve`.
pub(crate) fn run(args: ServeArgs) -> Result<bool, Error> {
    let ServeArgs {
        addr,
        db,
        print_key,
        passkey_origin,
        cluster,
        limits,
        bots,
        ops,
    } = args;
    if print_key {
        return print_site_key(&db);
    }
    // a bad origin is said before anything is opened
    if let Some(origin) = &passkey_origin {
        server::state::passkeys::site(origin).map_err(|e| Error::Usage(e.to_string()))?;
    }
    let mut limits = limits.limits();
    init_logs(ops.log_format, ops.log_level.as_deref())?;
    let offered = !bots.bots.is_empty();
    let bots = bot_programs(&db, bots, offered)?;
    let token = metrics_token(ops)?;
    fit_connections(&mut limits);
    // Each worker gives its freed memory back as it goes idle (`alloc`).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_park(crate::alloc::collect_if_due)
        .build()
        .map_err(|e| Error::Server(e.to_string()))?;
    let served = runtime.block_on(async {
        let where_ = server::store::redact(&db);
        let store = server::store::open(&db)
            .await
            .map_err(|e| Error::Server(format!("{where_}: {e}")))?;
        let backend = store.backend();
        alone_or_together(&store, &cluster, &where_).await?;
        let (site, inner) = site(&store, &cluster, &where_).await?;
        let node = site.node.id.clone();
        let state = server::AppState::open_cluster(store, limits, site)
            .await
            .map_err(|e| Error::Server(format!("{where_}: {e}")))?;
        if let Some(t) = &token {
            state.require_metrics_token(t.trim());
        }
        state.trust_proxies(cluster.trusted_proxy.clone());
        if offered {
            let user = bots
                .sandbox()
                .and_then(|s| s.user)
                .map_or("the server's own".to_string(), |u| format!("uid {}", u.uid));
            tracing::info!(
                "bot programs offered as levels: {} (at most {} processes at once; run as {user})",
                bots.names().join(", "),
                bots.cap()
            );
        }
        state.offer_bots(bots);
        if let Some(origin) = &passkey_origin {
            state
                .offer_passkeys(origin)
                .map_err(|e| Error::Usage(e.to_string()))?;
            tracing::info!("passkeys offered for {origin}");
        }
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| Error::Server(format!("{addr}: {e}")))?;
        let local = listener.local_addr().map_err(|e| Error::Server(e.to_string()))?;
        if let Some(inner) = inner {
            tokio::spawn(server::run_cluster(
                inner,
                state.clone(),
                std::future::pending(),
            ));
        }
        tracing::info!(
            "serving on http://{local} (tables in {backend} {where_}, loaded when asked for; process {node})"
        );
        server::run(listener, state, stop_signal())
            .await
            .map_err(|e| Error::Server(e.to_string()))?;
        tracing::info!("stopped");
        Ok::<_, Error>(true)
    });
    // Blocking store calls still running (none after a complete drain)
    // get a moment, not forever.
    // Bot programs get up to a second to quit after their table ends.
    runtime.shutdown_timeout(std::time::Duration::from_secs(if offered { 2 } else { 1 }));
    served
}

/// `ratrace serve --print-key`: the site's public signing key, from the
/// database's site secret (made if the database has none yet).
fn print_site_key(db: &str) -> Result<bool, Error> {
    let runtime = tokio::runtime::Runtime::new().map_err(|e| Error::Server(e.to_string()))?;
    let where_ = server::store::redact(db);
    let secret = runtime.block_on(async {
        let store = server::store::open(db)
            .await
            .map_err(|e| Error::Server(format!("{where_}: {e}")))?;
        tokio::task::spawn_blocking(move || store.site_secret())
            .await
            .map_err(|e| Error::Server(e.to_string()))?
            .map_err(|e| Error::Server(format!("{where_}: {e}")))
    })?;
    outln!("{}", server::ids::signing_key(&secret).public_hex());
    Ok(true)
}

/// Logs to standard output, as text or JSON lines, filtered by `level`
/// (`target=level` pairs, the subset of `RUST_LOG` that needs no regular
/// expressions: tracing-subscriber's `env-filter` would add regex-automata
/// to the build).
fn init_logs(format: LogFormat, level: Option<&str>) -> Result<(), Error> {
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    let from_env = std::env::var("RUST_LOG")
        .ok()
        .filter(|v| !v.trim().is_empty());
    let directives = level.map(str::to_string).or(from_env);
    let filter: tracing_subscriber::filter::Targets = directives
        .as_deref()
        .unwrap_or("info")
        .parse()
        .map_err(|e| Error::Server(format!("--log-level / RUST_LOG: {e}")))?;
    // The builder's own cap (info) is lifted: `filter` decides.
    let logs = tracing_subscriber::fmt()
        .with_target(false)
        .with_max_level(tracing::Level::TRACE);
    let done = match format {
        LogFormat::Text => logs.finish().with(filter).try_init(),
        LogFormat::Json => logs
            .json()
            .with_ansi(false)
            .finish()
            .with(filter)
            .try_init(),
    };
    done.map_err(|e| Error::Server(e.to_string()))
}

/// The bot programs offered (`--bot`), confined by the sandbox; refused
/// when a program could not read itself (it sits in the database's
/// folder, which Landlock hides, or its user may not reach it), or when
/// it would run as root without leave. What the kernel does not allow
/// (Landlock, namespaces) is logged as a warning, saying what is not
/// confined.
fn bot_programs(db: &str, bots: ServeBots, offered: bool) -> Result<ExternalBots, Error> {
    let mut sandbox = server::extbots::sandbox_for(db, bots.bot_memory_mb << 20, bots.bot_cpu_s);
    sandbox.disk = bots.bot_disk_mb << 20;
    sandbox.cgroup = bots.bot_cgroup.clone();
    if offered {
        sandbox.user = extbot::sandbox::run_as(bots.bot_user.as_deref(), bots.bot_allow_root)
            .map_err(|e| Error::Server(e.to_string()))?;
        if let Err(e) = extbot::sandbox::probe(&sandbox) {
            sandbox.isolate = false;
            extbot::sandbox::probe(&sandbox)
                .map_err(|e| Error::Server(format!("bot programs cannot be started here: {e}")))?;
            tracing::warn!(
                "bot programs run without namespaces of their own ({e}): a process they start \
                 may outlive them, and their private folders have no total budget"
            );
        }
    }
    let programs = bots.bots;
    for p in &programs {
        let user = sandbox.user;
        if let Some(path) = user.and_then(|u| extbot::sandbox::unreadable(&p.command, u).pop()) {
            return Err(Error::Server(format!(
                "--bot {}: {} cannot be read by the bot programs' user (--bot-user): make it \
                 and its folders readable by them, or move it",
                p.name,
                path.display()
            )));
        }
    }
    let external = ExternalBots::new(programs, bots.bot_time, bots.bot_processes as usize)
        .map_err(|e| Error::Server(e.to_string()))?
        .per_ip(bots.bot_processes_per_ip as usize)
        .share_per_net(bots.bot_share_per_net as usize)
        .with_sandbox(sandbox.clone());
    if offered {
        if extbot::sandbox::landlock_enforced() {
            // A program in the database's folder could not read itself.
            for folder in &sandbox.deny {
                for p in external.programs() {
                    if let Some(path) = server::extbots::paths_within(&p.command, folder).first() {
                        return Err(Error::Server(format!(
                            "--bot {}: {path} is in the database's folder ({}), which bot \
                             programs may not read: move the program, or the database (--db)",
                            p.name,
                            folder.display()
                        )));
                    }
                }
            }
        } else {
            tracing::warn!(
                "Landlock is not available on this kernel: bot programs can read every file \
                 their user can (their environment, limits and private folder still apply)"
            );
        }
    }
    Ok(external)
}

/// The `/metrics` token: `--metrics-token`, else
/// `$RATRACE_METRICS_TOKEN`; an empty one is refused.
fn metrics_token(ops: ServeOps) -> Result<Option<String>, Error> {
    let token = ops
        .metrics_token
        .or_else(|| std::env::var("RATRACE_METRICS_TOKEN").ok());
    if token.as_deref().is_some_and(|t| t.trim().is_empty()) {
        return Err(Error::Server("--metrics-token: empty".to_string()));
    }
    Ok(token)
}

/// Lowers the connection cap to fit the process's descriptors, or accept
/// fails before the cap ever refuses anyone.
fn fit_connections(limits: &mut server::Limits) {
    if let Some(files) = open_file_limit() {
        let fit = files.saturating_sub(64).max(16);
        if limits.max_connections > fit {
            tracing::warn!(
                "--max-connections {} lowered to {fit}: this process may open {files} files (ulimit -n)",
                limits.max_connections
            );
            limits.max_connections = fit;
        }
    }
}

/// This process's place in the site: alone without `--cluster-listen`,
/// else a member listening there for the others, with the URL they reach
/// it at and the site's secret from the database.
async fn site(
    store: &Arc<dyn server::store::Store>,
    cluster: &ClusterArgs,
    where_: &str,
) -> Result<(server::cluster::Cluster, Option<tokio::net::TcpListener>), Error> {
    let Some(at) = cluster.cluster_listen else {
        return Ok((server::cluster::Cluster::standalone(), None));
    };
    let inner = tokio::net::TcpListener::bind(at)
        .await
        .map_err(|e| Error::Server(format!("--cluster-listen {at}: {e}")))?;
    let bound = inner
        .local_addr()
        .map_err(|e| Error::Server(e.to_string()))?;
    let url = match &cluster.advertise {
        Some(url) => url.clone(),
        None if bound.ip().is_unspecified() => {
            return Err(Error::Server(format!(
                "--cluster-listen {at} is every address: say where the other \
                 processes reach this one with --advertise http://HOST:PORT"
            )))
        }
        None => format!("http://{bound}"),
    };
    let probe = Arc::clone(store);
    let secret = tokio::task::spawn_blocking(move || probe.site_secret())
        .await
        .map_err(|e| Error::Server(e.to_string()))?
        .map_err(|e| Error::Server(format!("{where_}: {e}")))?;
    tracing::info!("cluster listener on http://{bound}, advertised as {url}");
    let site = server::cluster::Cluster::member(
        server::store::Node {
            id: server::store::new_node_id(),
            url,
        },
        std::time::Duration::from_millis(cluster.lease_ms),
        secret,
    );
    Ok((site, Some(inner)))
}

/// Resolves when the process is told to stop: SIGTERM (a service
/// manager, an orchestrator) or Ctrl-C.
async fn stop_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    match signal(SignalKind::terminate()) {
        Ok(mut term) => {
            tokio::select! {
                _ = term.recv() => tracing::info!("SIGTERM: stopping"),
                _ = tokio::signal::ctrl_c() => tracing::info!("interrupted: stopping"),
            }
        }
        Err(e) => {
            tracing::warn!("no SIGTERM handler ({e}): stopping on Ctrl-C only");
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// Refuses to start a process that would fight another for the same
/// database: one alone (no --cluster-listen) while any other process
/// serves it, or any process while one serves it alone (the others cannot
/// forward to it). A process that just died still counts for one lease,
/// so this waits that long before refusing (a restart after a crash goes
/// through).
async fn alone_or_together(
    store: &Arc<dyn server::store::Store>,
    cluster: &ClusterArgs,
    where_: &str,
) -> Result<(), Error> {
    let lease = std::time::Duration::from_millis(cluster.lease_ms);
    let give_up = std::time::Instant::now() + lease + std::time::Duration::from_millis(500);
    loop {
        let probe = Arc::clone(store);
        let live = tokio::task::spawn_blocking(move || probe.live_nodes(lease))
            .await
            .map_err(|e| Error::Server(e.to_string()))?
            .map_err(|e| Error::Server(format!("{where_}: {e}")))?;
        let rival = live
            .iter()
            .find(|n| cluster.cluster_listen.is_none() || n.url.is_empty());
        let Some(rival) = rival else {
            return Ok(());
        };
        if std::time::Instant::now() >= give_up {
            return Err(Error::Server(if rival.url.is_empty() {
                format!(
                    "{where_}: another ratrace serve (process {}) serves this database alone: \
                     stop it, or start every process with --cluster-listen (docs/deploy.md)",
                    rival.id
                )
            } else {
                format!(
                    "{where_}: processes of a site serve this database (one at {}): \
                     start this one with --cluster-listen too (docs/deploy.md)",
                    rival.url
                )
            }));
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// The soft limit on open files (Linux: /proc/self/limits), if known.
fn open_file_limit() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}
