//! Constant folding: a node whose inputs are all constants computes a
//! constant (shape arithmetic, a weight seen through a view).

use super::super::proto::NodeProto;
use super::super::values::{self, Const, Values, items};
use super::attributes::{attribute, constant, int, ints, non_negative, text};
use super::{MAX_TOTAL_FOLDED_ITEMS, SMALL_FOLDED_ITEMS};
use super::{Value, Walk, fail};
use crate::oracle::model::errors::{GraphError, NodeRef};

/// Elementwise arithmetic of constants (`None`: an operator that is not
/// arithmetic).
pub(super) fn arithmetic(op: &str, inputs: &[&Const]) -> Option<Result<Const, String>> {
    use values::elementwise as e;
    let checked = |f: fn(i64, i64) -> Option<i64>| move |a: &[i64]| f(a[0], a[1]);
    Some(match op {
        "Add" => e(inputs, |a| a[0] + a[1], Some(&checked(i64::checked_add))),
        "Sum" => e(
            inputs,
            |a| a.iter().sum(),
            Some(&|a: &[i64]| a.iter().try_fold(0i64, |s, &x| s.checked_add(x))),
        ),
        "Mean" => e(inputs, |a| a.iter().sum::<f64>() / a.len().max(1) as f64, None),
        "Sub" => e(inputs, |a| a[0] - a[1], Some(&checked(i64::checked_sub))),
        "Mul" => e(inputs, |a| a[0] * a[1], Some(&checked(i64::checked_mul))),
        "Div" => e(inputs, |a| a[0] / a[1], Some(&checked(i64::checked_div))),
        "Mod" => e(inputs, |a| a[0] % a[1], Some(&checked(i64::checked_rem))),
        "Pow" => e(inputs, |a| a[0].powf(a[1]), None),
        "Max" => e(
            inputs,
            |a| a.iter().copied().fold(f64::MIN, f64::max),
            Some(&|a: &[i64]| a.iter().copied().max()),
        ),
        "Min" => e(
            inputs,
            |a| a.iter().copied().fold(f64::MAX, f64::min),
            Some(&|a: &[i64]| a.iter().copied().min()),
        ),
        "Equal" => e(
            inputs,
            |a| f64::from(u8::from(a[0] == a[1])),
            Some(&|a: &[i64]| Some(i64::from(a[0] == a[1]))),
        ),
        "Less" => e(
            inputs,
            |a| f64::from(u8::from(a[0] < a[1])),
            Some(&|a: &[i64]| Some(i64::from(a[0] < a[1]))),
        ),
        "Greater" => e(
            inputs,
            |a| f64::from(u8::from(a[0] > a[1])),
            Some(&|a: &[i64]| Some(i64::from(a[0] > a[1]))),
        ),
        "Where" => e(
            inputs,
            |a| if a[0] != 0.0 { a[1] } else { a[2] },
            Some(&|a: &[i64]| Some(if a[0] != 0 { a[1] } else { a[2] })),
        ),
        "Neg" => e(inputs, |a| -a[0], Some(&|a: &[i64]| a[0].checked_neg())),
        "Abs" => e(inputs, |a| a[0].abs(), Some(&|a: &[i64]| a[0].checked_abs())),
        "Not" => e(
            inputs,
            |a| f64::from(u8::from(a[0] == 0.0)),
            Some(&|a: &[i64]| Some(i64::from(a[0] == 0))),
        ),
        "Sqrt" => e(inputs, |a| a[0].sqrt(), None),
        "Reciprocal" => e(inputs, |a| 1.0 / a[0], None),
        "Floor" => e(inputs, |a| a[0].floor(), Some(&|a: &[i64]| Some(a[0]))),
        "Ceil" => e(inputs, |a| a[0].ceil(), Some(&|a: &[i64]| Some(a[0]))),
        "Erf" | "Tanh" | "Sigmoid" | "Exp" | "Log" | "Relu" | "Sin" | "Cos" => {
            let f: fn(f64) -> f64 = match op {
                // a sinusoidal position encoding of a constant grid (XCiT's)
                "Sin" => f64::sin,
                "Cos" => f64::cos,
                "Tanh" => f64::tanh,
                "Sigmoid" => |x| 1.0 / (1.0 + (-x).exp()),
                "Exp" => f64::exp,
                "Log" => f64::ln,
                "Relu" => |x| x.max(0.0),
                _ => |x| x,
            };
            e(inputs, move |a| f(a[0]), None)
        }
        _ => return None,
    })
}

impl<'g> Walk<'g> {
    /// Folds the node when it computes a constant (`Constant`,
    /// `ConstantOfShape`, or every input a constant, but for `Shape`):
    /// whether it did.
    pub(super) fn fold_node(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<bool, GraphError> {
        let op = at.op.as_str();
        let inputs: Vec<&str> = node
            .input
            .iter()
            .map(String::as_str)
            .filter(|n| !n.is_empty())
            .collect();
        let all_const = !inputs.is_empty()
            && inputs
                .iter()
                .all(|n| matches!(self.values.get(n), Some(Value::Const(_))));
        if !(op == "Constant" || op == "ConstantOfShape" || (all_const && op != "Shape")) {
            return Ok(false);
        }
        if inputs.iter().any(|n| self.is_frozen(n)) {
            self.frozen.extend(node.output.iter().map(String::as_str));
        }
        let folded = self.fold(node, at)?;
        self.set(node, Value::Const(folded));
        // computed from constants the exporter wrote only: written too (a ConstantOfShape of a
        // shape the graph computes is a buffer made in the forward pass, as Swin's shifted-window
        // mask; of a shape given as an initializer, a lightened graph's weight)
        if !inputs.is_empty() && inputs.iter().all(|n| self.written.contains(n)) {
            self.written.extend(node.output.iter().map(String::as_str));
        }
        self.held_parameters(node, op, &inputs);
        if matches!(op, "Unsqueeze" | "Squeeze" | "Reshape" | "Cast" | "Transpose")
            && let (Some(source), Some(out)) = (node.input.first(), node.output.first())
        {
            let source = self.tensor(source);
            self.aliases.insert(out.as_str(), source);
        }
        self.merged(op);
        Ok(true)
    }

    /// The parameters a computed constant holds, where they are not its
    /// items:
    /// - a table gathered by constant indices holds the table's, however
    ///   many times the indices repeat them (a relative position bias); a
    ///   gather of fewer items than a table (or a gathered table) holds its
    ///   share, `held·|part|/|table|` (one head's biases, one of four gates);
    /// - a view, or a repeat (`Tile`), holds its source's (not through an `Identity` of a
    ///   parameter: torch.onnx writes parameters of equal values as one
    ///   initializer and Identity nodes of it, each a parameter of its own);
    /// - a linear layer on a constant (`MatMul`, `Gemm` or `Conv`: Swin V2's
    ///   continuous position bias, an MLP on a table of coordinates) holds
    ///   its weight and bias, and what its input held (a buffer holds none);
    /// - an operator on such a constant holds what its inputs hold, and its
    ///   other constants' items, but for scalars and the values the exporter
    ///   wrote.
    fn held_parameters(&mut self, node: &'g NodeProto, op: &str, inputs: &[&'g str]) {
        let (Some(first), Some(out)) = (node.input.first(), node.output.first()) else {
            return;
        };
        let items = |walk: &Self, name: &str| match walk.values.get(name) {
            Some(Value::Const(c)) if !c.is_scalar() && !walk.written.contains(name) => c.count(),
            _ => 0,
        };
        let held = match op {
            "Gather" => match (self.values.get(first.as_str()), self.values.get(out.as_str())) {
                (Some(Value::Const(t)), Some(Value::Const(part))) if !self.written.contains(first.as_str()) => {
                    // a part of a table (EfficientViT-M's one head of its gathered biases,
                    // EfficientViM's one of four gates) holds its share of the table's parameters
                    let held = self.tables.get(first.as_str()).copied().unwrap_or_else(|| t.count());
                    if part.count() < t.count() {
                        u64::try_from(u128::from(held) * u128::from(part.count()) / u128::from(t.count().max(1)))
                            .unwrap_or(held)
                    } else {
                        held
                    }
                }
                _ => return,
            },
            "Unsqueeze" | "Squeeze" | "Reshape" | "Cast" | "Transpose" | "Expand" | "Identity" | "Tile" | "Flatten" => {
                match self.tables.get(first.as_str()) {
                    Some(&items) => items,
                    None => return,
                }
            }
            "MatMul" | "Gemm" | "Conv" => {
                let data = self.tables.get(first.as_str()).copied().unwrap_or(0);
                let trained: u64 = inputs.iter().skip(1).map(|n| items(self, n)).sum();
                data + trained
            }
            "Add" | "Sub" | "Mul" | "Div" | "Relu" | "Sigmoid" | "Tanh" | "Erf" | "Exp" | "Clip" | "Neg" | "Sin"
            | "Cos" | "Softmax" | "Resize" | "Upsample"
                if inputs.iter().any(|n| self.tables.contains_key(n)) =>
            {
                inputs
                    .iter()
                    .map(|n| self.tables.get(n).copied().unwrap_or_else(|| items(self, n)))
                    .sum()
            }
            _ => return,
        };
        self.tables.insert(out.as_str(), held);
    }

    pub(super) fn fold(&self, node: &NodeProto, at: &NodeRef) -> Result<Const, GraphError> {
        let problem = |p: String| fail(Some(at.clone()), p);
        // a node reading more values than one constant may hold (a Concat or Sum of one
        // constant 100,000 times) computes its shape only
        let read: usize = node
            .input
            .iter()
            .filter_map(|n| self.folded_len(n))
            .fold(0, usize::saturating_add);
        let heavy = read > 4 * values::MAX_FOLDED_ITEMS
            || (read > SMALL_FOLDED_ITEMS && self.folded_items.saturating_add(read) > MAX_TOTAL_FOLDED_ITEMS);
        let large = |i: usize| node.input.get(i).and_then(|n| self.folded_len(n)) > Some(SMALL_FOLDED_ITEMS);
        let c = |i: usize| {
            if heavy && large(i) {
                self.konst_shape(node, i, at)
            } else {
                self.konst(node, i, at)
            }
        };
        let op = at.op.as_str();
        let result = match op {
            "Constant" => constant_attribute(node),
            "ConstantOfShape" => {
                let shape = c(0)?
                    .integers()
                    .ok_or_else(|| fail(Some(at.clone()), "its shape is not known"))?;
                let dims = non_negative(&shape, "its shape", at)?;
                let value = attribute(node, "value")
                    .and_then(|a| a.t.as_ref())
                    .and_then(|t| constant(t).ok());
                let n = items(&dims).map_err(problem)? as usize;
                let values = value.and_then(|v| v.values).and_then(|v| match v {
                    Values::Int(x) if n <= values::MAX_FOLDED_ITEMS => {
                        Some(Values::Int(vec![x.first().copied().unwrap_or(0); n]))
                    }
                    Values::Float(x) if n <= values::MAX_FOLDED_ITEMS => {
                        Some(Values::Float(vec![x.first().copied().unwrap_or(0.0); n]))
                    }
                    _ => None,
                });
                Const::new(
                    dims,
                    values.or_else(|| (n <= values::MAX_FOLDED_ITEMS).then(|| Values::Float(vec![0.0; n]))),
                )
            }
            "Identity" | "Cast" | "CastLike" => cast(c(0)?, int(node, "to", 1), op == "Cast"),
            "Shape" => Ok(Const::ints(c(0)?.dims.iter().map(|&d| d as i64).collect())),
            "Size" => Const::new(vec![], Some(Values::Int(vec![c(0)?.count() as i64]))),
            "Reshape" => {
                let x = c(0)?;
                let target = c(1)?
                    .integers()
                    .ok_or_else(|| fail(Some(at.clone()), "its shape is not known"))?;
                values::reshaped(&x.dims, &target, int(node, "allowzero", 0) != 0)
                    .and_then(|dims| Const::new(dims, x.values))
            }
            "Flatten" => {
                let x = c(0)?;
                let axis = values::axis(int(node, "axis", 1), x.dims.len() + 1).map_err(problem)?;
                let outer: u64 = x.dims[..axis.min(x.dims.len())].iter().product();
                Const::new(vec![outer, x.count() / outer.max(1)], x.values)
            }
            "Unsqueeze" | "Squeeze" => {
                let x = c(0)?;
                let axes = self.integers(node, 1, "axes", at)?;
                if op == "Unsqueeze" {
                    values::unsqueezed(&x.dims, &axes.unwrap_or_default())
                } else {
                    values::squeezed(&x.dims, axes.as_deref())
                }
                .and_then(|dims| Const::new(dims, x.values))
            }
            "Transpose" => values::transpose(&c(0)?, ints(node, "perm")),
            "Concat" => {
                let parts = (0..node.input.len()).map(c).collect::<Result<Vec<_>, _>>()?;
                values::concat(&parts.iter().collect::<Vec<_>>(), int(node, "axis", 0))
            }
            "Gather" => values::gather(&c(0)?, &c(1)?, int(node, "axis", 0)),
            "MatMul" | "Gemm" => values::matmul_shape(
                &c(0)?.dims,
                &c(1)?.dims,
                int(node, "transA", 0) != 0,
                int(node, "transB", 0) != 0,
            ),
            "ScatterND" if text(node, "reduction").is_none_or(|r| r == "none") => {
                values::scatter_nd(&c(0)?, &c(1)?, &c(2)?)
            }
            "Slice" => {
                let x = c(0)?;
                let starts = self.integers(node, 1, "starts", at)?.unwrap_or_default();
                let ends = self.integers(node, 2, "ends", at)?.unwrap_or_default();
                let axes = self.integers(node, 3, "axes", at)?;
                let steps = self.integers(node, 4, "steps", at)?;
                values::slice(&x, &starts, &ends, axes.as_deref(), steps.as_deref())
            }
            "Expand" => {
                let shape = c(1)?
                    .integers()
                    .ok_or_else(|| fail(Some(at.clone()), "its shape is not known"))?;
                values::expand(&c(0)?, &non_negative(&shape, "its shape", at)?)
            }
            "Tile" => {
                let repeats = c(1)?
                    .integers()
                    .ok_or_else(|| fail(Some(at.clone()), "its repeats are not known"))?;
                values::tile(&c(0)?, &repeats)
            }
            _ if op.starts_with("Reduce") => {
                let x = c(0)?;
                let axes = self.integers(node, 1, "axes", at)?;
                let axes = match axes {
                    Some(a) if a.is_empty() && int(node, "noop_with_empty_axes", 0) != 0 => return Ok(x),
                    Some(a) if a.is_empty() => None,
                    a => a,
                };
                values::reduce(&x, op, axes.as_deref(), int(node, "keepdims", 1) != 0)
            }
            // a softmax of a constant (ConViT's positional attention, computed from a table of
            // relative positions): its shape, values unknown
            "Softmax" | "LogSoftmax" => Const::new(c(0)?.dims, None),
            "Conv" => {
                // a convolution of a constant (XCiT's projection of its Fourier position
                // encoding): `[N, F, out...]`, values unknown
                let (x, w) = (c(0)?, c(1)?);
                let (Some(&filters), Some(kernel), Some(spatial)) = (w.dims.first(), w.dims.get(2..), x.dims.get(2..))
                else {
                    return Err(fail(Some(at.clone()), "its weight must be [F, C/group, kernel...]"));
                };
                let out = self.window(node, at, spatial, kernel)?;
                let mut dims = vec![x.dims[0], filters];
                dims.extend(out);
                Const::new(dims, None)
            }
            "Resize" | "Upsample" => {
                // a resize of a constant (HieraDet's position embedding to the image's size)
                let dims = self.resized(node, at, &c(0)?.dims)?;
                Const::new(dims, None)
            }
            "BatchNormalization" | "InstanceNormalization" | "LayerNormalization" | "GroupNormalization" => {
                // a normalization of a weight (weight standardization): its shape, values unknown
                Const::new(c(0)?.dims, None)
            }
            "Clip" => {
                // the bounds: inputs 1 and 2 (opset 11 on), or attributes before
                let bound = |i: usize, name: &str, default: f64| -> Result<f64, GraphError> {
                    if node.input.get(i).is_some_and(|n| !n.is_empty()) {
                        let k = c(i)?;
                        return Ok(k.values.as_ref().map_or(default, |v| v.float(0)));
                    }
                    Ok(attribute(node, name).and_then(|a| a.f).map_or(default, f64::from))
                };
                let (lo, hi) = (bound(1, "min", f64::NEG_INFINITY)?, bound(2, "max", f64::INFINITY)?);
                clipped(c(0)?, lo, hi)
            }
            "Range" => range(&c(0)?, &c(1)?, &c(2)?),
            _ => {
                let parts = (0..node.input.len())
                    .filter(|&i| node.input.get(i).is_some_and(|n| !n.is_empty()))
                    .map(c)
                    .collect::<Result<Vec<_>, _>>()?;
                let refs: Vec<&Const> = parts.iter().collect();
                arithmetic(op, &refs).ok_or_else(|| {
                    fail(
                        Some(at.clone()),
                        format!("the operator {op} on constants is not supported (it cannot be folded)"),
                    )
                })?
            }
        };
        result.map_err(problem)
    }
}

/// The value a `Constant` node writes (its `value` tensor, or a scalar or
/// list attribute).
fn constant_attribute(node: &NodeProto) -> Result<Const, String> {
    let attr = node.attribute.first().ok_or("a Constant without a value")?;
    match (attr.name.as_deref(), &attr.t) {
        (Some("value"), Some(t)) => constant(t),
        (Some("value_int"), _) => Const::new(vec![], Some(Values::Int(vec![attr.i.unwrap_or(0)]))),
        (Some("value_ints"), _) => Ok(Const::ints(attr.ints.clone())),
        (Some("value_float"), _) => Const::new(vec![], Some(Values::Float(vec![f64::from(attr.f.unwrap_or(0.0))]))),
        _ => Err("a Constant of an unsupported kind".to_string()),
    }
}

/// `x` cast to ONNX's element type `to` (a float type: 1, 10, 11, 16),
/// floats truncated to integers only by `Cast` (`CastLike` and `Identity`
/// keep them).
fn cast(x: Const, to: i64, truncates: bool) -> Result<Const, String> {
    let float = matches!(to, 1 | 10 | 11 | 16);
    let values = x.values.map(|v| match (v, float) {
        (Values::Int(i), true) => Values::Float(i.into_iter().map(|x| x as f64).collect()),
        (Values::Float(f), false) if truncates => {
            Values::Int(f.into_iter().map(|x| if x.is_nan() { 0 } else { x as i64 }).collect())
        }
        (v, _) => v,
    });
    Const::new(x.dims, values)
}

/// `x` clipped to `[lo, hi]`.
fn clipped(x: Const, lo: f64, hi: f64) -> Result<Const, String> {
    let values = x.values.map(|v| match v {
        Values::Int(i) => Values::Int(i.into_iter().map(|x| (x as f64).max(lo).min(hi) as i64).collect()),
        Values::Float(f) => Values::Float(f.into_iter().map(|x| x.max(lo).min(hi)).collect()),
    });
    Const::new(x.dims, values)
}

/// `Range(start, limit, delta)`: `⌈(limit − start)/delta⌉` values from
/// `start`, integers when `start` is.
fn range(start: &Const, limit: &Const, delta: &Const) -> Result<Const, String> {
    let get = |k: &Const| {
        k.values.as_ref().map(|v| match v {
            Values::Int(i) => i.first().copied().unwrap_or(0) as f64,
            Values::Float(f) => f.first().copied().unwrap_or(0.0),
        })
    };
    let (Some(s), Some(l), Some(d)) = (get(start), get(limit), get(delta)) else {
        return Err("its bounds are not known".into());
    };
    let n = if d == 0.0 {
        f64::INFINITY
    } else {
        ((l - s) / d).ceil().max(0.0)
    };
    if n > values::MAX_FOLDED_ITEMS as f64 {
        return Err("a range of too many items to fold".into());
    }
    let v: Vec<f64> = (0..n as usize).map(|i| s + i as f64 * d).collect();
    let ints = matches!(start.values, Some(Values::Int(_)));
    Const::new(
        vec![v.len() as u64],
        Some(if ints {
            Values::Int(v.into_iter().map(|x| x as i64).collect())
        } else {
            Values::Float(v)
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::super::super::build::{int, int64s, node, weight};
    use super::super::{kinds_and_outputs, small};
    use super::*;
    use crate::oracle::model::layer::{Layer, LayerKind};

    /// The parameters of a small graph's layers.
    fn parameters(c: &super::super::Converted) -> f64 {
        c.layers
            .iter()
            .map(|l| Layer::new(l.clone()).unwrap().weight_items())
            .sum()
    }

    #[test]
    fn arithmetic_of_constants_is_computed_with_integers_checked() {
        let a = Const::ints(vec![2, 3]);
        let b = Const::ints(vec![4, 5]);
        let sum = arithmetic("Mul", &[&a, &b]).unwrap().unwrap();
        assert_eq!(sum.integers(), Some(vec![8, 15]));
        let big = Const::ints(vec![i64::MAX]);
        assert!(arithmetic("Add", &[&big, &big]).unwrap().is_err());
        assert!(arithmetic("Conv", &[&a, &b]).is_none());
    }

    #[test]
    fn a_sinusoidal_encoding_of_a_constant_grid_folds() {
        // XCiT's Fourier features: sines and cosines of a constant grid
        let grid = Const::new(vec![2], Some(Values::Float(vec![0.0, std::f64::consts::FRAC_PI_2]))).unwrap();
        let sin = arithmetic("Sin", &[&grid]).unwrap().unwrap();
        let cos = arithmetic("Cos", &[&grid]).unwrap().unwrap();
        let near = |c: &Const, i: usize, v: f64| (c.values.as_ref().unwrap().float(i) - v).abs() < 1e-12;
        assert!(near(&sin, 0, 0.0) && near(&sin, 1, 1.0));
        assert!(near(&cos, 0, 1.0) && near(&cos, 1, 0.0));
    }

    #[test]
    fn a_convolution_or_a_softmax_of_a_constant_holds_its_parameters_through_a_repeat() {
        // XCiT's position encoding: a 1×1 convolution (8·2 weights, 8 biases) of a constant
        // grid `[1, 2, 8, 8]`, repeated for the batch, added to the image's map
        let c = small(
            vec![
                node("Conv", "project", &["grid", "w", "b"], &["p"], vec![]),
                node("Tile", "repeat", &["p", "repeats"], &["r"], vec![]),
                node("Add", "add", &["data", "r"], &["y"], vec![]),
            ],
            vec![
                weight("grid", &[1, 2, 8, 8]),
                weight("w", &[8, 2, 1, 1]),
                weight("b", &[8]),
                int64s("repeats", &[1, 1, 1, 1]),
            ],
        )
        .unwrap();
        // the convolution's 24 (the grid it reads holds none, as a buffer)
        assert_eq!(parameters(&c), 24.0, "{:?}", c.layers);
        // ConViT's positional scores: a softmax of a linear layer (3·8 weights) of a table
        let c = small(
            vec![
                node("MatMul", "scores", &["table", "w"], &["s"], vec![]),
                node("Softmax", "softmax", &["s"], &["p"], vec![int("axis", -1)]),
                node("Add", "add", &["data", "p"], &["y"], vec![]),
            ],
            vec![weight("table", &[8, 3]), weight("w", &[3, 8])],
        )
        .unwrap();
        assert_eq!(parameters(&c), 24.0, "{:?}", c.layers);
    }

    #[test]
    fn a_part_of_a_trained_table_holds_its_share() {
        // EfficientViM's gates: a trained `[4, 8]`, one row of it scaling the map (8 of the 32)
        let c = small(
            vec![
                node("Gather", "gate", &["alpha", "two"], &["g"], vec![int("axis", 0)]),
                node("Reshape", "view", &["g", "shape"], &["v"], vec![]),
                node("Mul", "scale", &["data", "v"], &["y"], vec![]),
            ],
            vec![
                weight("alpha", &[4, 8]),
                int64s("two", &[2]),
                int64s("shape", &[1, 8, 1, 1]),
            ],
        )
        .unwrap();
        assert_eq!(c.layers.len(), 1);
        assert_eq!(c.layers[0].w.items(), 8.0, "{:?}", c.layers);
    }

    #[test]
    fn a_part_of_a_gathered_table_holds_its_share_of_the_parameters() {
        // a table of 4 heads' 8 biases gathered at 64 positions (it holds the table's 32
        // parameters however often it repeats them), then one head's row: 8 of them
        let c = small(
            vec![
                node("Reshape", "tokens", &["data", "tokens_shape"], &["x"], vec![]),
                node("Gather", "biases", &["table", "index"], &["all"], vec![int("axis", 1)]),
                node("Gather", "head", &["all", "one"], &["row"], vec![int("axis", 0)]),
                node("Add", "add", &["x", "row"], &["y"], vec![]),
            ],
            vec![
                int64s("tokens_shape", &[1, 8, 64]),
                weight("table", &[4, 8]),
                int64s("index", &(0..64).map(|i| i % 8).collect::<Vec<i64>>()),
                int64s("one", &[1]),
            ],
        )
        .unwrap();
        assert_eq!(parameters(&c), 8.0, "{:?}", c.layers);
    }

    #[test]
    fn a_shape_computed_from_constants_reshapes_as_given() {
        // the sample's shape written as Concat of two constants: [1, -1]
        let c = small(
            vec![
                node("Concat", "cat", &["one", "rest"], &["shape"], vec![int("axis", 0)]),
                node("Reshape", "flat", &["data", "shape"], &["f"], vec![]),
                node("Gemm", "fc", &["f", "w"], &["y"], vec![int("transB", 1)]),
            ],
            vec![int64s("one", &[1]), int64s("rest", &[-1]), weight("w", &[10, 512])],
        )
        .unwrap();
        assert_eq!(kinds_and_outputs(&c), vec![(LayerKind::Fc, vec![10, 1, 1])]);
        assert_eq!(c.merged.get("Concat"), Some(&1));
    }
}
