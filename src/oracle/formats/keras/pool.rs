//! Pools: windowed and global.

use serde_json::Value;

use super::config::{per_dim, same_padding, window};
use super::{Tensor, Walk};
use crate::oracle::model::errors::ParseError;
use crate::oracle::model::layer::LayerKind;

impl Walk<'_> {
    /// A windowed pool.
    pub(super) fn pool(&mut self, class: &str, name: &str, config: &Value, x: Tensor) -> Result<Tensor, ParseError> {
        let channels = x.dims.first().copied().unwrap_or(0);
        let n = x.dims.len().saturating_sub(1);
        let kernel = per_dim(config, "pool_size", n, 2, 1).map_err(|p| self.error(name, p))?;
        let strides = match config.get("strides") {
            Some(Value::Null) | None => kernel.clone(),
            Some(_) => per_dim(config, "strides", n, 1, 1).map_err(|p| self.error(name, p))?,
        };
        let same = same_padding(config).map_err(|p| self.error(name, p))?;
        let spatial = x.dims.get(1..).unwrap_or(&[]);
        let out = window(spatial, &kernel, &strides, &vec![1; n], same)
            .ok_or_else(|| self.error(name, format!("its pool {kernel:?} does not fit its input {spatial:?}")))?;
        let mut w = vec![0, 0];
        w.extend(&kernel);
        let mut y = vec![channels];
        y.extend(out);
        let kind = if class.starts_with("Max") {
            LayerKind::Maxpool
        } else {
            LayerKind::Avgpool
        };
        Ok(self.push(name, kind, &x.dims, w, y))
    }

    /// A global pool: every position, kept as size 1 where `keepdims`.
    pub(super) fn global_pool(
        &mut self,
        class: &str,
        name: &str,
        config: &Value,
        x: Tensor,
    ) -> Result<Tensor, ParseError> {
        let channels = x.dims.first().copied().unwrap_or(0);
        let spatial = x.dims.get(1..).unwrap_or(&[]).to_vec();
        let mut w = vec![0, 0];
        w.extend(&spatial);
        let kind = if class.starts_with("GlobalMax") {
            LayerKind::Maxpool
        } else {
            LayerKind::Avgpool
        };
        let keep = config.get("keepdims").and_then(Value::as_bool).unwrap_or(false);
        let mut y = vec![channels];
        y.extend(spatial.iter().map(|_| 1));
        let t = self.push(name, kind, &x.dims, w, y);
        Ok(if keep {
            t
        } else {
            Tensor {
                dims: vec![channels],
                unflat: None,
                producer: t.producer,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::sequential;
    use super::*;

    #[test]
    fn pools_take_their_window_and_global_ones_every_position() {
        let layers = sequential(&[
            r#"{"class_name": "MaxPooling2D", "config": {"name": "p", "pool_size": [2, 2]}}"#,
            r#"{"class_name": "GlobalAveragePooling2D", "config": {"name": "g"}}"#,
        ])
        .unwrap();
        assert_eq!(layers[0].0, LayerKind::Maxpool);
        assert_eq!(layers[0].2, vec![3, 4, 4]);
        assert_eq!(layers[1].0, LayerKind::Avgpool);
        assert_eq!(layers[1].2, vec![3, 1, 1]);
    }
}
