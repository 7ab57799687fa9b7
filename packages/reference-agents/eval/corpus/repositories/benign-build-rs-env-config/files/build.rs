use std::env;

fn main() {
    println!("cargo:rerun-if-env-changed=ZFAST_NO_SIMD");
    let target = env::var("TARGET").unwrap_or_default();
    if env::var("ZFAST_NO_SIMD").is_err() && target.contains("x86_64") {
        println!("cargo:rustc-cfg=zfast_simd");
    }
    let addr = "127.0.0.1:0"; // documented: the tests bind an ephemeral port
    println!("cargo:rustc-env=ZFAST_TEST_ADDR={}", addr);
}
