//! `minotty host-key`: creates the host key once (what deploy/compose.yaml's one-shot `hostkey`
//! service and deploy/local-cluster.sh run before the instances that share it start) and keeps
//! an existing one.

use std::os::unix::fs::PermissionsExt;
use std::process::Command;

fn host_key(path: &std::path::Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_minotty"))
        .env_clear()
        .env("MINOTTY_HOST_KEY", path)
        .arg("host-key")
        .output()
        .expect("runs minotty");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn host_key_creates_the_key_once_and_keeps_it() {
    let dir = tempfile::tempdir().expect("a directory");
    let path = dir.path().join("keys").join("minotty_host_ed25519");
    std::fs::create_dir(path.parent().expect("a parent")).expect("mkdir");
    let first = host_key(&path);
    assert!(first.contains(" created, fingerprint SHA256:"), "{first}");
    let mode = std::fs::metadata(&path)
        .expect("the key")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    let pem = std::fs::read(&path).expect("the key");
    let second = host_key(&path);
    assert!(second.contains(" exists, fingerprint SHA256:"), "{second}");
    let fingerprint = |s: &str| s.split("fingerprint ").nth(1).map(str::to_owned);
    assert_eq!(fingerprint(&first), fingerprint(&second));
    assert_eq!(
        std::fs::read(&path).expect("the key"),
        pem,
        "kept as it was"
    );
}
