//! The timm graphs of `tests/timm/onnx.zip` (made by `tests/timm/truth.py`).
#![allow(dead_code)]

use std::io::{Cursor, Read};

/// The archive of light ONNX graphs, `timm_NAME.opsetN.onnx`.
pub fn archive() -> zip::ZipArchive<Cursor<&'static [u8]>> {
    zip::ZipArchive::new(Cursor::new(&include_bytes!("../timm/onnx.zip")[..])).unwrap()
}

/// The graph of `name` at `opset`, with its path in the archive, if it was written.
pub fn graph(zip: &mut zip::ZipArchive<Cursor<&'static [u8]>>, name: &str, opset: u32) -> Option<(String, Vec<u8>)> {
    let path = format!("timm_{name}.opset{opset}.onnx");
    let mut f = zip.by_name(&path).ok()?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).unwrap();
    Some((path, bytes))
}
