//! From an ONNX node's name to the PyTorch module it came from.
//!
//! PyTorch's ONNX exporter names a node after the modules it ran in and
//! its operator: `/layer2/layer2.0/downsample/downsample.0/Conv`. Each
//! scope is a module, written either as its own attribute name
//! (`downsample`) or as its parent's scope, a dot and its name
//! (`downsample.0`); a module called again in one forward pass gets a
//! numbered scope (`relu_1` for the second call of `relu`). The module's
//! path is the scopes joined: `layer2.0.downsample.0`.

/// The module a node ran in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopePath {
    /// The module's path as written (`layer1.0.relu_1`).
    pub path: String,
    /// The same path read as a numbered call (`layer1.0.relu`, call 1),
    /// when its last scope ends in `_N`.
    pub call: Option<(String, u32)>,
}

/// The module a node named `name` ran in, or `None` for a name that is
/// not an exporter's scoped name (a top-level operator, another tool's
/// name). A name the importer suffixed with the operators it fused
/// (`.../Mul (SiLU)`) is read without the suffix.
pub fn scope_path(name: &str) -> Option<ScopePath> {
    let name = match name.rfind(" (") {
        Some(at) if name.ends_with(')') => &name[..at],
        _ => name,
    };
    let rest = name.strip_prefix('/')?;
    let mut scopes: Vec<&str> = rest.split('/').collect();
    // the operator
    scopes.pop();
    if scopes.is_empty() || scopes.iter().any(|s| s.is_empty()) {
        return None;
    }
    let mut path = String::new();
    let mut previous = "";
    let mut own = "";
    for scope in &scopes {
        own = match scope.strip_prefix(previous).and_then(|s| s.strip_prefix('.')) {
            Some(own) if !previous.is_empty() => own,
            _ => scope,
        };
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(own);
        previous = scope;
    }
    let call = own.rsplit_once('_').and_then(|(stem, n)| {
        if stem.is_empty() || n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let number = n.parse().ok()?;
        Some((path[..path.len() - n.len() - 1].to_string(), number))
    });
    Some(ScopePath { path, call })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(name: &str) -> Option<String> {
        scope_path(name).map(|s| s.path)
    }

    #[test]
    fn scopes_join_into_the_module_path() {
        assert_eq!(path("/conv1/Conv").as_deref(), Some("conv1"));
        assert_eq!(path("/layer1/layer1.0/conv1/Conv").as_deref(), Some("layer1.0.conv1"));
        assert_eq!(
            path("/layer2/layer2.0/downsample/downsample.0/Conv").as_deref(),
            Some("layer2.0.downsample.0")
        );
        assert_eq!(
            path("/features/features.0/features.0.0/Conv").as_deref(),
            Some("features.0.0")
        );
        // a functional operator runs in its parent module
        assert_eq!(path("/layer1/layer1.0/Add").as_deref(), Some("layer1.0"));
        // the importer's fused name
        assert_eq!(
            path("/features/features.0/features.0.2/Mul (SiLU)").as_deref(),
            Some("features.0.2")
        );
    }

    #[test]
    fn a_numbered_scope_is_a_later_call() {
        let s = scope_path("/layer1/layer1.0/relu_1/Relu").unwrap();
        assert_eq!(s.path, "layer1.0.relu_1");
        assert_eq!(s.call, Some(("layer1.0.relu".to_string(), 1)));
        assert_eq!(scope_path("/relu/Relu").unwrap().call, None);
        assert_eq!(scope_path("/block_12/Relu").unwrap().call, Some(("block".into(), 12)));
        assert_eq!(scope_path("/x_y/Relu").unwrap().call, None);
    }

    #[test]
    fn other_names_have_no_module() {
        assert_eq!(scope_path("Conv_0"), None);
        assert_eq!(scope_path("/Flatten"), None);
        assert_eq!(scope_path(""), None);
        assert_eq!(scope_path("//Conv"), None);
        assert_eq!(scope_path("conv1"), None);
    }
}
