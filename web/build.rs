//! Builds the game page's replay player (`web/player`, the engine itself) to WebAssembly when
//! the `wasm32-unknown-unknown` target is installed, for `src/pages/game.rs` to embed; without
//! it the pages build and serve all the same, and a game's page says its player is missing.
//!
//! `MINOTTY_WEB_PLAYER`: unset or `auto` builds it when it can, `off` never does, `required`
//! fails the build when it cannot (`.ci/run`).

use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-unknown-unknown";
const CRATE: &str = "minotty-web-player";

fn main() {
    println!("cargo::rustc-check-cfg=cfg(minotty_player)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=player");
    println!("cargo::rerun-if-changed=../engine");
    println!("cargo::rerun-if-env-changed=MINOTTY_WEB_PLAYER");
    let wanted = std::env::var("MINOTTY_WEB_PLAYER").unwrap_or_default();
    let required = match wanted.as_str() {
        "off" => return,
        "required" => true,
        "" | "auto" => false,
        other => panic!("MINOTTY_WEB_PLAYER={other}: expected auto, off or required"),
    };
    match build() {
        Ok(()) => println!("cargo::rustc-cfg=minotty_player"),
        Err(why) if required => panic!("the replay player was not built: {why}"),
        Err(why) => println!(
            "cargo::warning=game pages will have no replay player: {why} \
             (`rustup target add {TARGET}` builds it)"
        ),
    }
}

fn build() -> Result<(), String> {
    let out = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| e.to_string())?);
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let libdir = Command::new(&rustc)
        .args(["--print", "target-libdir", "--target", TARGET])
        .output()
        .map_err(|e| format!("{rustc}: {e}"))?;
    let libdir = String::from_utf8_lossy(&libdir.stdout).trim().to_string();
    if !has_core(Path::new(&libdir)) {
        return Err(format!("the {TARGET} target is not installed"));
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("player/Cargo.toml");
    let target_dir = out.join("player-target");
    let mut command = Command::new(&cargo);
    command
        .args([
            "build",
            "--release",
            "--offline",
            "--target",
            TARGET,
            "-p",
            CRATE,
        ])
        .arg("--manifest-path")
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&target_dir)
        // A small module: no debug information, and a panic (a bug) traps.
        .env("CARGO_PROFILE_RELEASE_DEBUG", "0")
        .env("CARGO_PROFILE_RELEASE_STRIP", "true")
        .env("CARGO_PROFILE_RELEASE_PANIC", "abort")
        // The outer build's flags and wrappers (clippy's driver) are for the host crates.
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .env_remove("RUSTC_WRAPPER")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET");
    let run = command.output().map_err(|e| format!("{cargo}: {e}"))?;
    if !run.status.success() {
        return Err(format!(
            "cargo build --target {TARGET} failed:\n{}",
            String::from_utf8_lossy(&run.stderr)
        ));
    }
    let built = target_dir
        .join(TARGET)
        .join("release/minotty_web_player.wasm");
    std::fs::copy(&built, out.join("player.wasm"))
        .map_err(|e| format!("{}: {e}", built.display()))?;
    Ok(())
}

/// Whether the target's standard library is there (rustc prints the directory either way).
fn has_core(libdir: &Path) -> bool {
    std::fs::read_dir(libdir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("libcore-"))
    })
}
