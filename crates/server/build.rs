//! Builds the browser's engine (`crates/browser`) for
//! `wasm32-unknown-unknown` and leaves it in `OUT_DIR/engine.wasm`, which
//! `src/web.rs` embeds as `/static/engine.wasm`.
//!
//! Built here, on the fly, rather than kept as a built file in the
//! repository (ARCHITECTURE.md, "The browser's engine"): the engine is
//! the rules crates' own code, so a served engine can never lag behind
//! the server's rules, and a change to the rules needs no second step.
//! The cost is one release build of the rules, bots and analysis for
//! wasm32 (about a minute on two cores, then only when they change), in
//! its own target folder (`target/engine`) so that it never waits on the
//! build that runs this script. The wasm32 target is installed with
//! rustup when it is missing, so `cargo run` from a fresh clone works as
//! it did.

use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-unknown-unknown";

/// The crates the engine is built from: a change to any of them rebuilds it.
const SOURCES: &[&str] = &[
    "game",
    "bigcheese",
    "dalmuti",
    "bots",
    "analysis",
    "browser",
];

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("../..");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    for c in SOURCES {
        println!(
            "cargo::rerun-if-changed={}",
            root.join("crates").join(c).join("src").display()
        );
        println!(
            "cargo::rerun-if-changed={}",
            root.join("crates").join(c).join("Cargo.toml").display()
        );
    }
    println!(
        "cargo::rerun-if-changed={}",
        root.join("Cargo.lock").display()
    );
    println!("cargo::rerun-if-env-changed=CARGO_TARGET_DIR");

    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    install_target();
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("engine");
    let mut build = Command::new(&cargo);
    build
        .current_dir(&root)
        .args([
            "build",
            "--release",
            "--locked",
            "-p",
            "browser",
            "--target",
            TARGET,
        ])
        .env("CARGO_TARGET_DIR", &target_dir)
        // The engine's own profile: small and fast, no debug information
        // (the workspace's release profile keeps some for profiling).
        .env("CARGO_PROFILE_RELEASE_DEBUG", "0")
        .env("CARGO_PROFILE_RELEASE_STRIP", "true")
        .env("CARGO_PROFILE_RELEASE_LTO", "true")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "1")
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "3");
    // Flags meant for the host build (coverage, sanitizers) are not the
    // engine's.
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
    ] {
        build.env_remove(var);
    }
    let status = build
        .status()
        .unwrap_or_else(|e| panic!("cannot run cargo for the browser's engine: {e}"));
    assert!(
        status.success(),
        "building the browser's engine (crates/browser) for {TARGET} failed"
    );
    let built = target_dir.join(TARGET).join("release").join("browser.wasm");
    copy(&built, &out.join("engine.wasm"));
}

/// Installs the wasm32 target with rustup when the toolchain lacks it.
fn install_target() {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let sysroot = Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| PathBuf::from(s.trim()));
    let installed = sysroot.is_some_and(|s| s.join("lib/rustlib").join(TARGET).exists());
    if installed {
        return;
    }
    println!("cargo::warning=installing the {TARGET} target with rustup (the browser's engine is built for it)");
    let status = Command::new("rustup")
        .args(["target", "add", TARGET])
        .status();
    if !status.is_ok_and(|s| s.success()) {
        panic!("the browser's engine needs the {TARGET} target: run `rustup target add {TARGET}`");
    }
}

fn copy(from: &Path, to: &Path) {
    std::fs::copy(from, to)
        .unwrap_or_else(|e| panic!("{} -> {}: {e}", from.display(), to.display()));
}
