//! How this process shares the site with others: its node in the store,
//! the lease, the secret forwarded requests carry, and the WebSockets it
//! pipes to other processes. The forwarding itself is `crate::cluster`;
//! the heartbeats and take-overs are [`super::nodes`].

use crate::store::Node;
use std::sync::Arc;
use std::time::Duration;

/// The header a forwarding process puts the client's address in.
pub const PEER_HEADER: &str = "x-ratrace-peer";
/// The header that carries the site's secret between processes.
pub const SECRET_HEADER: &str = "x-ratrace-secret";

/// How this process shares the site with others.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// This process in the store.
    pub node: Node,
    /// A process silent for this long is dead, and its tables are taken
    /// over.
    pub lease: Duration,
    /// Take over the tables of dead processes without waiting for a
    /// client to ask (so their bots and turn timers go on).
    pub adopt_orphans: bool,
    /// The secret forwarded requests carry; `None` forwards nothing.
    pub secret: Option<String>,
    /// The WebSockets this process pipes to other processes, by table.
    pub(crate) pipes: Arc<Pipes>,
}

/// The WebSocket connections piped to another process, by table id, each
/// with the process it goes to and a way to cut it.
#[derive(Debug, Default)]
pub(crate) struct Pipes {
    open: std::sync::Mutex<std::collections::HashMap<String, Vec<Pipe>>>,
}

/// One piped WebSocket.
#[derive(Debug)]
struct Pipe {
    node: String,
    cut: Arc<tokio::sync::Notify>,
}

type PipeMap = std::collections::HashMap<String, Vec<Pipe>>;

impl Pipes {
    fn lock(&self) -> std::sync::MutexGuard<'_, PipeMap> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new pipe for `table` to `node`; notified to cut it.
    pub(crate) fn open(&self, table: &str, node: &str) -> Arc<tokio::sync::Notify> {
        let cut = Arc::new(tokio::sync::Notify::new());
        self.lock()
            .entry(table.to_string())
            .or_default()
            .push(Pipe {
                node: node.to_string(),
                cut: Arc::clone(&cut),
            });
        cut
    }

    /// Forgets an ended pipe.
    pub(crate) fn close(&self, table: &str, cut: &Arc<tokio::sync::Notify>) {
        let mut open = self.lock();
        if let Some(list) = open.get_mut(table) {
            list.retain(|p| !Arc::ptr_eq(&p.cut, cut));
            if list.is_empty() {
                open.remove(table);
            }
        }
    }

    /// The processes some pipe goes to.
    pub(crate) fn nodes(&self) -> Vec<String> {
        let mut nodes: Vec<String> = self
            .lock()
            .values()
            .flatten()
            .map(|p| p.node.clone())
            .collect();
        nodes.sort();
        nodes.dedup();
        nodes
    }

    /// Cuts every pipe to `node`.
    pub(crate) fn cut_node(&self, node: &str) {
        for p in self.lock().values().flatten().filter(|p| p.node == node) {
            p.cut.notify_one();
        }
    }

    /// Cuts every pipe.
    pub(crate) fn cut_all(&self) {
        for p in self.lock().values().flatten() {
            p.cut.notify_one();
        }
    }
}

impl Cluster {
    /// A process alone on its store: it claims the tables it loads, never
    /// forwards, and adopts nothing.
    pub fn standalone() -> Cluster {
        Cluster {
            node: Node {
                id: crate::store::new_node_id(),
                url: String::new(),
            },
            lease: Duration::from_secs(2),
            adopt_orphans: false,
            secret: None,
            pipes: Arc::default(),
        }
    }

    /// A process of a site of several: it heartbeats as `node`, takes
    /// over the tables of processes silent for `lease`, and forwards with
    /// `secret`.
    pub fn member(node: Node, lease: Duration, secret: String) -> Cluster {
        Cluster {
            node,
            lease,
            adopt_orphans: true,
            secret: Some(secret),
            pipes: Arc::default(),
        }
    }

    /// Whether requests for other processes' tables are forwarded.
    pub fn forwards(&self) -> bool {
        self.secret.is_some()
    }
}
