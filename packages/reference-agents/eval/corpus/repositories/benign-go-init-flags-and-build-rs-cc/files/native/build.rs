use std::env;
use std::process::Command;

fn main() {
    let target = env::var("TARGET").unwrap();
    if pkg_config::probe_library("zlib").is_err() {
        println!("cargo:warning=zlib not found through pkg-config");
    }
    cc::Build::new().file("src/fast.c").flag_if_supported("-O3").compile("fast");
    let cc = env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc).arg("--version").output().expect("cc");
    println!("cargo:rustc-env=TALLY_CC={}", String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or(""));
    println!("cargo:rustc-env=TALLY_TARGET={}", target);
}
