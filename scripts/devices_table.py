#!/usr/bin/env python3
"""Writes src/oracle/model/devices/table.rs from gpus.csv beside it.

The GPUs' datasheets are data (gpus.csv: one row a product, each with its
source); the engine reads them as a Rust table so that a wrong row fails to
compile rather than at run time. Run it after editing the CSV:

    python3 scripts/devices_table.py

`tests`' `the_table_is_the_csv` (src/oracle/model/devices/mod.rs) reads the
CSV again and fails when the two differ. Standard library only.
"""
import csv
import pathlib
import shutil
import subprocess

HERE = pathlib.Path(__file__).resolve().parent.parent / "src/oracle/model/devices"

ARCHITECTURES = {
    "pascal": "Pascal",
    "volta": "Volta",
    "turing": "Turing",
    "ampere_ga100": "AmpereGa100",
    "ampere_ga10x": "AmpereGa10x",
    "ada": "Ada",
    "hopper": "Hopper",
    "blackwell": "Blackwell",
    "blackwell_gb20x": "BlackwellGb20x",
    "gcn5": "Gcn5",
    "cdna1": "Cdna1",
    "cdna2": "Cdna2",
    "cdna3": "Cdna3",
    "cdna4": "Cdna4",
    "rdna2": "Rdna2",
    "rdna3": "Rdna3",
    "rdna4": "Rdna4",
}


def rust_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tflops(text: str) -> str:
    value = float(text or 0)
    return f"{value!r} * T" if value else "0.0"


def option(text: str, unit: str = "") -> str:
    if not text:
        return "None"
    return f"Some({float(text)!r}{unit})"


def main() -> None:
    rows = list(csv.DictReader(open(HERE / "gpus.csv", newline="")))
    out = [
        "//! The GPUs' datasheets, as `gpus.csv` beside this file gives them.",
        "//! Made by `scripts/devices_table.py`: edit the CSV and run it, not this file.",
        "",
        "use super::{Architecture, Device, Measured, Peaks};",
        "",
        "const T: f64 = 1e12;",
        "const G: f64 = 1e9;",
        "",
        "/// Every GPU this tool knows, in the CSV's order (a model's default",
        "/// variant first where several share a name).",
        f"pub static DEVICES: [Device; {len(rows)}] = [",
    ]
    for r in rows:
        variant = ", ".join(rust_str(v) for v in r["variant"].split())
        strings = ", ".join(rust_str(s) for s in r["device_strings"].split("|") if s)
        out += [
            "    Device {",
            f"        name: {rust_str(r['name'])},",
            f"        model: {rust_str(r['model'])},",
            f"        variant: &[{variant}],",
            f"        architecture: Architecture::{ARCHITECTURES[r['architecture']]},",
            f"        sms: {int(r['sms'])},",
            f"        memory_bytes: {float(r['memory_bytes'])!r},",
            "        peaks: Peaks {",
            f"            fp32: {tflops(r['fp32_tflops'])},",
            f"            tf32: {tflops(r['tf32_tflops'])},",
            f"            fp16: {tflops(r['fp16_tflops'])},",
            f"            bf16: {tflops(r['bf16_tflops'])},",
            "        },",
            f"        memory_bandwidth_bytes_per_s: {float(r['bandwidth_gb_s'])!r} * G,",
            "        measured: Measured {",
            f"            stream_bytes_per_s: {option(r['stream_gb_s'], ' * G')},",
            f"            tensor_fraction: {option(r['tensor_fraction'])},",
            f"            fp32_fraction: {option(r['fp32_fraction'])},",
            "        },",
            f"        device_strings: &[{strings}],",
            f"        source: {rust_str(r['source'])},",
            f"        board_power_w: {float(r['board_power_w'])!r},",
            f"        power_source: {rust_str(r['power_source'])},",
            "    },",
        ]
    out.append("];")
    table = HERE / "table.rs"
    table.write_text("\n".join(out) + "\n")
    # as `cargo fmt --check` wants it
    if shutil.which("rustfmt"):
        config = HERE.parent.parent.parent.parent / "rustfmt.toml"
        subprocess.run(["rustfmt", "--edition", "2024", "--config-path", str(config), str(table)], check=True)


if __name__ == "__main__":
    main()
