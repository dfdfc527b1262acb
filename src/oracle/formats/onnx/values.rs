//! Constant tensors of an ONNX graph and the folding of the operators that
//! compute on them (shape arithmetic, reshaped or transposed weights), within
//! limits, so that no file can make the import grow without bound.

/// Values a folded constant may hold: larger results keep their dimensions
/// only (enough for a weight, not for a shape).
pub const MAX_FOLDED_ITEMS: usize = 1 << 16;

/// Dimensions a tensor may have.
pub const MAX_RANK: usize = 8;

/// Items a tensor may hold (2^53: every count stays exact in an `f64`).
pub const MAX_ITEMS: u64 = 1 << 53;

/// A constant's values, when known.
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    /// Integers (and booleans as 0 and 1).
    Int(Vec<i64>),
    /// Floating-point numbers.
    Float(Vec<f64>),
}

impl Values {
    pub fn len(&self) -> usize {
        match self {
            Self::Int(v) => v.len(),
            Self::Float(v) => v.len(),
        }
    }

    pub fn float(&self, i: usize) -> f64 {
        match self {
            Self::Int(v) => v.get(i).map_or(0.0, |&x| x as f64),
            Self::Float(v) => v.get(i).copied().unwrap_or(0.0),
        }
    }

    fn int(&self, i: usize) -> i64 {
        match self {
            Self::Int(v) => v.get(i).copied().unwrap_or(0),
            Self::Float(v) => v.get(i).map_or(0, |&x| saturating(x)),
        }
    }

    /// The values picked at `indices`, in that order.
    fn pick(&self, indices: &[usize]) -> Self {
        match self {
            Self::Int(v) => Self::Int(indices.iter().map(|&i| v.get(i).copied().unwrap_or(0)).collect()),
            Self::Float(v) => Self::Float(indices.iter().map(|&i| v.get(i).copied().unwrap_or(0.0)).collect()),
        }
    }
}

/// A float as an integer, saturating (ONNX writes `INT64_MAX` as "to the
/// end").
fn saturating(x: f64) -> i64 {
    if x.is_nan() {
        0
    } else {
        x.clamp(i64::MIN as f64, i64::MAX as f64) as i64
    }
}

/// A constant tensor: its dimensions, and its values when small enough to
/// keep.
#[derive(Debug, Clone, PartialEq)]
pub struct Const {
    /// Dimensions (a scalar has none).
    pub dims: Vec<u64>,
    /// Row-major values, when known.
    pub values: Option<Values>,
}

/// Why folding failed, in words (the caller names the node).
pub type Problem = String;

/// The items of `dims`, checked.
///
/// # Errors
/// More than [`MAX_ITEMS`] items, or more than [`MAX_RANK`] dimensions.
pub fn items(dims: &[u64]) -> Result<u64, Problem> {
    if dims.len() > MAX_RANK {
        return Err(format!("a tensor of {} dimensions (at most {MAX_RANK})", dims.len()));
    }
    dims.iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(d))
        .filter(|&n| n <= MAX_ITEMS)
        .ok_or_else(|| format!("a tensor of more than 2^53 items ({dims:?})"))
}

impl Const {
    /// A constant of known dimensions and values (kept when small enough).
    ///
    /// # Errors
    /// As [`items`].
    pub fn new(dims: Vec<u64>, values: Option<Values>) -> Result<Self, Problem> {
        let n = items(&dims)?;
        let values = values.filter(|v| v.len() as u64 == n && v.len() <= MAX_FOLDED_ITEMS);
        Ok(Self { dims, values })
    }

    /// A one-dimensional integer constant.
    pub fn ints(values: Vec<i64>) -> Self {
        Self {
            dims: vec![values.len() as u64],
            values: (values.len() <= MAX_FOLDED_ITEMS).then_some(Values::Int(values)),
        }
    }

    /// Its integers, when known.
    pub fn integers(&self) -> Option<Vec<i64>> {
        self.values.as_ref().map(|v| (0..v.len()).map(|i| v.int(i)).collect())
    }

    /// Its items.
    pub fn count(&self) -> u64 {
        self.dims.iter().product()
    }

    /// Whether it holds one item (a scalar, however many dimensions of 1).
    pub fn is_scalar(&self) -> bool {
        self.count() == 1
    }
}

/// An axis of a tensor of `rank` dimensions, negative ones counted from the
/// end.
///
/// # Errors
/// An axis outside `-rank..rank`.
pub fn axis(value: i64, rank: usize) -> Result<usize, Problem> {
    let r = rank as i64;
    let a = if value < 0 { value + r } else { value };
    if (0..r).contains(&a) {
        Ok(a as usize)
    } else {
        Err(format!("axis {value} of a tensor of {rank} dimensions"))
    }
}

/// Row-major strides of `dims`.
fn strides(dims: &[u64]) -> Vec<usize> {
    let mut s = vec![1usize; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1].saturating_mul(dims[i + 1] as usize);
    }
    s
}

/// Every row-major multi-index of `dims`, as flat offsets under `strides`
/// (the caller checked the item count).
fn offsets(dims: &[u64], strides: &[usize]) -> Vec<usize> {
    let n: u64 = dims.iter().product();
    picked(dims, n as usize, |index| {
        index.iter().zip(strides).map(|(&i, &s)| i as usize * s).sum()
    })
}

/// `Transpose`: dimensions (and values) permuted by `perm` (default: reversed).
///
/// # Errors
/// A `perm` that is not a permutation of the axes.
pub fn transpose(c: &Const, perm: Option<&[i64]>) -> Result<Const, Problem> {
    let rank = c.dims.len();
    let perm: Vec<usize> = match perm {
        Some(p) => p.iter().map(|&a| axis(a, rank)).collect::<Result<_, _>>()?,
        None => (0..rank).rev().collect(),
    };
    let mut seen = vec![false; rank];
    if perm.len() != rank || perm.iter().any(|&a| std::mem::replace(&mut seen[a], true)) {
        return Err(format!("perm {perm:?} is not a permutation of {rank} axes"));
    }
    let dims: Vec<u64> = perm.iter().map(|&a| c.dims[a]).collect();
    let values = c.values.as_ref().map(|v| {
        let from = strides(&c.dims);
        let permuted: Vec<usize> = perm.iter().map(|&a| from[a]).collect();
        v.pick(&offsets(&dims, &permuted))
    });
    Const::new(dims, values)
}

/// `Reshape`'s target: `0` copies the input's dimension (unless
/// `allowzero`), one `-1` is inferred.
///
/// # Errors
/// A target that does not hold the same number of items.
pub fn reshaped(from: &[u64], target: &[i64], allowzero: bool) -> Result<Vec<u64>, Problem> {
    let total = items(from)?;
    let mut dims = Vec::with_capacity(target.len());
    let mut infer = None;
    for (i, &t) in target.iter().enumerate() {
        match t {
            0 if !allowzero => dims.push(from.get(i).copied().unwrap_or(1)),
            -1 if infer.is_none() => {
                infer = Some(i);
                dims.push(1);
            }
            t if t >= 0 => dims.push(t as u64),
            _ => return Err(format!("a shape holding {t}")),
        }
    }
    let known = items(&dims)?;
    if let Some(i) = infer {
        if known == 0 || total % known != 0 {
            return Err(format!("the shape {target:?} does not divide {total} items"));
        }
        dims[i] = total / known;
    }
    if items(&dims)? != total {
        return Err(format!(
            "the shape {target:?} does not hold the {total} items of {from:?}"
        ));
    }
    Ok(dims)
}

/// `Unsqueeze`: ones inserted at `axes` (of the output).
///
/// # Errors
/// Too many axes, repeated or out-of-range ones.
pub fn unsqueezed(dims: &[u64], axes: &[i64]) -> Result<Vec<u64>, Problem> {
    let rank = dims.len() + axes.len();
    if rank > MAX_RANK {
        return Err(format!("a tensor of {rank} dimensions (at most {MAX_RANK})"));
    }
    let mut inserted = vec![false; rank];
    for &a in axes {
        let a = axis(a, rank)?;
        if std::mem::replace(&mut inserted[a], true) {
            return Err(format!("axis {a} given twice"));
        }
    }
    let mut rest = dims.iter();
    Ok(inserted
        .iter()
        .map(|&one| if one { 1 } else { rest.next().copied().unwrap_or(1) })
        .collect())
}

/// `Squeeze`: the ones at `axes` removed (all ones when none are given).
///
/// # Errors
/// An axis out of range or not of size 1.
pub fn squeezed(dims: &[u64], axes: Option<&[i64]>) -> Result<Vec<u64>, Problem> {
    let rank = dims.len();
    let mut drop = vec![false; rank];
    match axes {
        Some(axes) if !axes.is_empty() => {
            for &a in axes {
                let a = axis(a, rank)?;
                if dims[a] != 1 {
                    return Err(format!("axis {a} has size {}, not 1", dims[a]));
                }
                drop[a] = true;
            }
        }
        _ => {
            for (d, flag) in dims.iter().zip(drop.iter_mut()) {
                *flag = *d == 1;
            }
        }
    }
    Ok(dims.iter().zip(drop).filter(|(_, d)| !d).map(|(&x, _)| x).collect())
}

/// `Concat` along `axis`.
///
/// # Errors
/// Inputs of different ranks or sizes off the axis.
pub fn concat(parts: &[&Const], axis_value: i64) -> Result<Const, Problem> {
    let Some(first) = parts.first() else {
        return Err("a concatenation of nothing".into());
    };
    let rank = first.dims.len();
    let a = axis(axis_value, rank.max(1))?;
    let mut dims = first.dims.clone();
    if dims.is_empty() {
        dims.push(1);
    }
    let mut along = 0u64;
    for p in parts {
        let d = if p.dims.is_empty() { vec![1] } else { p.dims.clone() };
        if d.len() != dims.len() || d.iter().enumerate().any(|(i, &x)| i != a && x != dims[i]) {
            return Err(format!("inputs {:?} and {:?} differ off axis {a}", first.dims, p.dims));
        }
        along = along
            .checked_add(d[a])
            .ok_or_else(|| "a concatenation too large".to_string())?;
    }
    dims[a] = along;
    let n = items(&dims)?;
    if n == 0 {
        // nothing to copy, however many empty rows ([2^50, 0]) there are
        return Const::new(dims, Some(Values::Int(Vec::new())));
    }
    let known = parts.iter().all(|p| p.values.is_some()) && n as usize <= MAX_FOLDED_ITEMS;
    let values = known.then(|| {
        let outer: u64 = dims[..a].iter().product();
        let floats = parts.iter().any(|p| matches!(p.values, Some(Values::Float(_))));
        let mut ints = Vec::new();
        let mut reals = Vec::new();
        for o in 0..outer as usize {
            for p in parts {
                let d = if p.dims.is_empty() { vec![1] } else { p.dims.clone() };
                let block: u64 = d[a..].iter().product();
                let Some(v) = &p.values else { continue };
                for i in 0..block as usize {
                    let at = o * block as usize + i;
                    if floats {
                        reals.push(v.float(at));
                    } else {
                        ints.push(v.int(at));
                    }
                }
            }
        }
        if floats {
            Values::Float(reals)
        } else {
            Values::Int(ints)
        }
    });
    Const::new(dims, values)
}

/// `Gather` of `indices` along `axis` of `data`.
///
/// # Errors
/// An index outside the axis, unknown indices.
pub fn gather(data: &Const, indices: &Const, axis_value: i64) -> Result<Const, Problem> {
    let rank = data.dims.len();
    let a = axis(axis_value, rank.max(1))?;
    let size = data.dims.get(a).copied().unwrap_or(1);
    let picks = indices
        .integers()
        .ok_or_else(|| "its indices are not known".to_string())?
        .into_iter()
        .map(|i| {
            let j = if i < 0 { i + size as i64 } else { i };
            u64::try_from(j)
                .ok()
                .filter(|&j| j < size)
                .ok_or_else(|| format!("index {i} outside an axis of {size}"))
        })
        .collect::<Result<Vec<u64>, Problem>>()?;
    let mut dims: Vec<u64> = data.dims[..a.min(rank)].to_vec();
    dims.extend(&indices.dims);
    dims.extend(data.dims.get(a + 1..).unwrap_or(&[]));
    let n = items(&dims)?;
    let values = data
        .values
        .as_ref()
        .filter(|_| n as usize <= MAX_FOLDED_ITEMS)
        .map(|v| {
            let outer: u64 = data.dims[..a.min(rank)].iter().product();
            let inner: u64 = data.dims.get(a + 1..).unwrap_or(&[]).iter().product();
            let mut at = Vec::with_capacity(n as usize);
            for o in 0..outer {
                for &p in &picks {
                    for i in 0..inner {
                        at.push(((o * size + p) * inner + i) as usize);
                    }
                }
            }
            v.pick(&at)
        });
    Const::new(dims, values)
}

/// The product of two constants over their last two axes (`MatMul`, and
/// `Gemm` with its flags): its shape, the leading axes broadcast; its
/// values are not computed (a trained MLP on constants: Swin V2's
/// continuous position bias).
///
/// # Errors
/// Shapes whose inner sizes differ.
pub fn matmul_shape(a: &[u64], b: &[u64], trans_a: bool, trans_b: bool) -> Result<Const, Problem> {
    let unfit = || format!("a product of {a:?} and {b:?}: the shapes do not fit");
    let (ra, rb) = (a.len(), b.len());
    if ra < 2 || rb < 2 {
        return Err(unfit());
    }
    let (m, k) = if trans_a {
        (a[ra - 1], a[ra - 2])
    } else {
        (a[ra - 2], a[ra - 1])
    };
    let (k2, n) = if trans_b {
        (b[rb - 1], b[rb - 2])
    } else {
        (b[rb - 2], b[rb - 1])
    };
    if k != k2 {
        return Err(unfit());
    }
    let mut dims = broadcast(&a[..ra - 2], &b[..rb - 2])?;
    dims.extend([m, n]);
    items(&dims)?;
    Const::new(dims, None)
}

/// `ScatterND` without reduction: `data` with each slice that a row of
/// `indices` (its last axis `k` coordinates of `data`'s first `k` axes)
/// names replaced by that row's slice of `updates` (Swin's shifted-window
/// mask, `mask[h, w] = region` written in place). Values unknown where any
/// input's are.
///
/// # Errors
/// Shapes that do not fit, an index outside its axis.
pub fn scatter_nd(data: &Const, indices: &Const, updates: &Const) -> Result<Const, Problem> {
    let k = indices.dims.last().copied().unwrap_or(0) as usize;
    let rows = &indices.dims[..indices.dims.len().saturating_sub(1)];
    let expected: Vec<u64> = rows.iter().chain(data.dims.get(k..).unwrap_or(&[])).copied().collect();
    if indices.dims.is_empty() || k > data.dims.len() || updates.dims != expected {
        return Err(format!(
            "a ScatterND of {:?} at {:?} by {:?}: the shapes do not fit",
            data.dims, indices.dims, updates.dims
        ));
    }
    let (Some(v), Some(at), Some(u)) = (&data.values, indices.integers(), &updates.values) else {
        return Const::new(data.dims.clone(), None);
    };
    let slice = items(&data.dims[k..])? as usize;
    let mut out = v.clone();
    for (row, coordinates) in at.chunks(k.max(1)).enumerate().take(items(rows)? as usize) {
        let mut offset = 0usize;
        for (&c, &size) in coordinates.iter().zip(&data.dims) {
            let c = if c < 0 { c.saturating_add(size as i64) } else { c };
            let c = u64::try_from(c)
                .ok()
                .filter(|&c| c < size)
                .ok_or_else(|| format!("index {c} outside an axis of {size}"))?;
            offset = offset * size as usize + c as usize;
        }
        let start = offset * slice;
        for i in 0..slice {
            match &mut out {
                Values::Int(o) => o[start + i] = u.int(row * slice + i),
                Values::Float(o) => o[start + i] = u.float(row * slice + i),
            }
        }
    }
    Const::new(data.dims.clone(), Some(out))
}

/// `Slice` along `axes` from `starts` to `ends` by `steps` (clamped as the
/// operator says).
///
/// # Errors
/// Lists of different lengths, a step of 0.
pub fn slice(
    c: &Const,
    starts: &[i64],
    ends: &[i64],
    axes: Option<&[i64]>,
    steps: Option<&[i64]>,
) -> Result<Const, Problem> {
    let rank = c.dims.len();
    let axes: Vec<usize> = match axes {
        Some(a) => a.iter().map(|&x| axis(x, rank)).collect::<Result<_, _>>()?,
        None => (0..starts.len()).collect(),
    };
    let steps: Vec<i64> = steps.map_or_else(|| vec![1; starts.len()], <[i64]>::to_vec);
    if ends.len() != starts.len() || axes.len() != starts.len() || steps.len() != starts.len() {
        return Err("starts, ends, axes and steps of different lengths".into());
    }
    // each axis as (first index, step, count): nothing is listed that is only counted
    let mut ranges: Vec<(i64, i64, u64)> = c.dims.iter().map(|&d| (0, 1, d)).collect();
    for (k, &a) in axes.iter().enumerate() {
        let d = i64::try_from(c.dims.get(a).copied().unwrap_or(1)).unwrap_or(i64::MAX);
        let step = steps[k];
        if step == 0 {
            return Err("a step of 0".into());
        }
        let clamp = |v: i64, low: i64, high: i64| {
            let v = if v < 0 { v.saturating_add(d) } else { v };
            v.clamp(low, high)
        };
        let (s, e) = if step > 0 {
            (clamp(starts[k], 0, d), clamp(ends[k], 0, d))
        } else {
            (clamp(starts[k], -1, d - 1), clamp(ends[k], -1, d - 1))
        };
        // the count of s, s + step, ... strictly before e
        let span = if step > 0 {
            e.saturating_sub(s)
        } else {
            s.saturating_sub(e)
        };
        let stride = step.unsigned_abs();
        let count = if span <= 0 { 0 } else { (span as u64).div_ceil(stride) };
        ranges[a] = (s, step, count);
    }
    let dims: Vec<u64> = ranges.iter().map(|r| r.2).collect();
    let n = items(&dims)?;
    let values = c.values.as_ref().filter(|_| n as usize <= MAX_FOLDED_ITEMS).map(|v| {
        let from = strides(&c.dims);
        let mut at = Vec::with_capacity(n as usize);
        let mut index = vec![0usize; dims.len()];
        for _ in 0..n {
            at.push(
                index
                    .iter()
                    .enumerate()
                    .map(|(d, &i)| (ranges[d].0 + i as i64 * ranges[d].1) as usize * from[d])
                    .sum(),
            );
            for d in (0..dims.len()).rev() {
                index[d] += 1;
                if (index[d] as u64) < dims[d] {
                    break;
                }
                index[d] = 0;
            }
        }
        v.pick(&at)
    });
    Const::new(dims, values)
}

/// Numpy's broadcast of two shapes.
///
/// # Errors
/// Shapes that do not broadcast.
pub fn broadcast(a: &[u64], b: &[u64]) -> Result<Vec<u64>, Problem> {
    let rank = a.len().max(b.len());
    (0..rank)
        .map(|i| {
            let x = if i + a.len() >= rank { a[i + a.len() - rank] } else { 1 };
            let y = if i + b.len() >= rank { b[i + b.len() - rank] } else { 1 };
            match (x, y) {
                (x, y) if x == y => Ok(x),
                (1, y) => Ok(y),
                (x, 1) => Ok(x),
                _ => Err(format!("shapes {a:?} and {b:?} do not broadcast")),
            }
        })
        .collect()
}

/// The offset in a tensor of `dims` that broadcasts to `out` at the output
/// multi-index `index`.
fn broadcast_offset(dims: &[u64], out: &[u64], index: &[u64]) -> usize {
    let skip = out.len() - dims.len();
    let s = strides(dims);
    dims.iter()
        .enumerate()
        .map(|(i, &d)| if d == 1 { 0 } else { index[skip + i] as usize * s[i] })
        .sum()
}

/// An integer function of an elementwise operator (`None`: an overflow).
pub type IntegerOp<'f> = &'f dyn Fn(&[i64]) -> Option<i64>;

/// An elementwise operator of one or more constants, with broadcasting:
/// `f` on floats, `g` on integers (when every input is integer).
///
/// # Errors
/// Shapes that do not broadcast.
pub fn elementwise(inputs: &[&Const], f: impl Fn(&[f64]) -> f64, g: Option<IntegerOp<'_>>) -> Result<Const, Problem> {
    let mut dims: Vec<u64> = Vec::new();
    for c in inputs {
        dims = broadcast(&dims, &c.dims)?;
    }
    let n = items(&dims)?;
    let known = inputs.iter().all(|c| c.values.is_some()) && n as usize <= MAX_FOLDED_ITEMS;
    if !known {
        return Const::new(dims, None);
    }
    let ints = g.is_some() && inputs.iter().all(|c| matches!(c.values, Some(Values::Int(_))));
    let mut index = vec![0u64; dims.len()];
    let mut out_f = Vec::new();
    let mut out_i = Vec::new();
    let mut args_f = vec![0.0; inputs.len()];
    let mut args_i = vec![0i64; inputs.len()];
    for _ in 0..n {
        for (k, c) in inputs.iter().enumerate() {
            let at = broadcast_offset(&c.dims, &dims, &index);
            if let Some(v) = &c.values {
                args_f[k] = v.float(at);
                args_i[k] = v.int(at);
            }
        }
        match (ints, g) {
            (true, Some(g)) => out_i.push(g(&args_i).ok_or_else(|| "an integer overflow".to_string())?),
            _ => out_f.push(f(&args_f)),
        }
        for d in (0..dims.len()).rev() {
            index[d] += 1;
            if index[d] < dims[d] {
                break;
            }
            index[d] = 0;
        }
    }
    let values = if ints { Values::Int(out_i) } else { Values::Float(out_f) };
    Const::new(dims, Some(values))
}

/// `Expand`: `c` broadcast to `shape`.
///
/// # Errors
/// Shapes that do not broadcast.
pub fn expand(c: &Const, shape: &[u64]) -> Result<Const, Problem> {
    let dims = broadcast(&c.dims, shape)?;
    let n = items(&dims)? as usize;
    let values = c
        .values
        .as_ref()
        .filter(|_| n <= MAX_FOLDED_ITEMS)
        .map(|v| v.pick(&picked(&dims, n, |index| broadcast_offset(&c.dims, &dims, index))));
    Const::new(dims, values)
}

/// For each row-major multi-index of `dims` (`n` of them), the offset
/// `source` gives for it.
fn picked(dims: &[u64], n: usize, source: impl Fn(&[u64]) -> usize) -> Vec<usize> {
    let mut index = vec![0u64; dims.len()];
    let mut at = Vec::with_capacity(n);
    for _ in 0..n {
        at.push(source(&index));
        for d in (0..dims.len()).rev() {
            index[d] += 1;
            if index[d] < dims[d] {
                break;
            }
            index[d] = 0;
        }
    }
    at
}

/// `Tile`: `c` repeated `repeats[i]` times along each axis `i`.
///
/// # Formula
/// `out[j] = c[j mod dims]`, `out.dims[i] = dims[i]·repeats[i]`.
///
/// # Errors
/// A repeat count per axis missing or negative, or too many items.
pub fn tile(c: &Const, repeats: &[i64]) -> Result<Const, Problem> {
    if repeats.len() != c.dims.len() || repeats.iter().any(|&r| r < 0) {
        return Err(format!(
            "its repeats {repeats:?} are not one count of at least 0 per axis of {:?}",
            c.dims
        ));
    }
    let dims: Vec<u64> = c
        .dims
        .iter()
        .zip(repeats)
        .map(|(&d, &r)| {
            d.checked_mul(r.unsigned_abs())
                .ok_or_else(|| "its size overflows".to_string())
        })
        .collect::<Result<_, _>>()?;
    let n = items(&dims)? as usize;
    let source = strides(&c.dims);
    let values = c.values.as_ref().filter(|_| n <= MAX_FOLDED_ITEMS).map(|v| {
        v.pick(&picked(&dims, n, |index| {
            index
                .iter()
                .zip(&c.dims)
                .zip(&source)
                .map(|((&i, &d), &s)| (i % d.max(1)) as usize * s)
                .sum()
        }))
    });
    Const::new(dims, values)
}

/// A reduction of a constant (`ReduceSum`, `ReduceMean`, `ReduceProd`,
/// `ReduceMax`, `ReduceMin`, `ReduceL2`, ...) over `axes` (all of them when
/// none are given); its values when the input's are known.
///
/// # Errors
/// An axis outside the tensor, or an unknown reduction.
pub fn reduce(c: &Const, op: &str, axes: Option<&[i64]>, keepdims: bool) -> Result<Const, Problem> {
    let rank = c.dims.len();
    let mut reduced = vec![axes.is_none(); rank];
    for &a in axes.unwrap_or_default() {
        reduced[axis(a, rank)?] = true;
    }
    let dims: Vec<u64> = c
        .dims
        .iter()
        .zip(&reduced)
        .filter_map(|(&d, &r)| match (r, keepdims) {
            (false, _) => Some(d),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect();
    let start: f64 = match op {
        "ReduceSum" | "ReduceMean" | "ReduceL2" | "ReduceL1" | "ReduceSumSquare" => 0.0,
        "ReduceProd" => 1.0,
        "ReduceMax" => f64::NEG_INFINITY,
        "ReduceMin" => f64::INFINITY,
        _ => return Err(format!("the reduction {op}")),
    };
    let Some(values) = &c.values else {
        return Const::new(dims, None);
    };
    let out_n = items(&dims)? as usize;
    let mut out = vec![start; out_n];
    let mut counts = vec![0u64; out_n];
    let mut index = vec![0u64; rank];
    let kept: Vec<u64> = c
        .dims
        .iter()
        .zip(&reduced)
        .map(|(&d, &r)| if r { 1 } else { d })
        .collect();
    let kept_strides = strides(&kept);
    for i in 0..values.len() {
        let at: usize = index
            .iter()
            .zip(&reduced)
            .zip(&kept_strides)
            .map(|((&x, &r), &s)| if r { 0 } else { x as usize * s })
            .sum();
        let x = values.float(i);
        out[at] = match op {
            "ReduceProd" => out[at] * x,
            "ReduceMax" => out[at].max(x),
            "ReduceMin" => out[at].min(x),
            "ReduceL2" | "ReduceSumSquare" => out[at] + x * x,
            "ReduceL1" => out[at] + x.abs(),
            _ => out[at] + x,
        };
        counts[at] += 1;
        for d in (0..rank).rev() {
            index[d] += 1;
            if index[d] < c.dims[d] {
                break;
            }
            index[d] = 0;
        }
    }
    for (v, n) in out.iter_mut().zip(&counts) {
        match op {
            "ReduceMean" if *n > 0 => *v /= *n as f64,
            "ReduceL2" => *v = v.sqrt(),
            _ => {}
        }
    }
    let ints = matches!(values, Values::Int(_)) && matches!(op, "ReduceSum" | "ReduceProd" | "ReduceMax" | "ReduceMin");
    let values = if ints {
        Values::Int(out.into_iter().map(|x| x as i64).collect())
    } else {
        Values::Float(out)
    };
    Const::new(dims, Some(values))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_repeats_each_axis() {
        let c = Const::new(vec![2, 2], Some(Values::Int(vec![1, 2, 3, 4]))).unwrap();
        let t = tile(&c, &[2, 1]).unwrap();
        assert_eq!(t.dims, [4, 2]);
        assert_eq!(t.values, Some(Values::Int(vec![1, 2, 3, 4, 1, 2, 3, 4])));
        let t = tile(&c, &[1, 2]).unwrap();
        assert_eq!(t.values, Some(Values::Int(vec![1, 2, 1, 2, 3, 4, 3, 4])));
        assert!(tile(&c, &[2]).is_err());
        assert!(tile(&c, &[2, -1]).is_err());
        assert_eq!(tile(&c, &[0, 1]).unwrap().dims, [0, 2]);
    }

    #[test]
    fn a_scatter_writes_its_updates_where_its_indices_say() {
        // a 3×3 mask of zeros, its rows 1 and 2 set to 5 and 7 (k = 1: whole rows)
        let data = int(&[3, 3], &[0; 9]);
        let rows = scatter_nd(&data, &int(&[2, 1], &[1, -1]), &int(&[2, 3], &[5, 5, 5, 7, 7, 7])).unwrap();
        assert_eq!(rows.values, Some(Values::Int(vec![0, 0, 0, 5, 5, 5, 7, 7, 7])));
        // one item at (0, 2) (k = 2)
        let item = scatter_nd(&data, &int(&[1, 2], &[0, 2]), &int(&[1], &[9])).unwrap();
        assert_eq!(item.values, Some(Values::Int(vec![0, 0, 9, 0, 0, 0, 0, 0, 0])));
        // updates of the wrong shape, an index outside its axis: refused
        assert!(scatter_nd(&data, &int(&[1, 1], &[0]), &int(&[1, 2], &[1, 1])).is_err());
        assert!(scatter_nd(&data, &int(&[1, 1], &[3]), &int(&[1, 3], &[1, 1, 1])).is_err());
        // values unknown: the shape only
        let unknown = Const::new(vec![3, 3], None).unwrap();
        let shape = scatter_nd(&unknown, &int(&[1, 1], &[0]), &int(&[1, 3], &[1, 1, 1])).unwrap();
        assert_eq!((shape.dims, shape.values), (vec![3, 3], None));
    }

    #[test]
    fn a_product_of_constants_has_the_shape_of_a_matmul() {
        // Swin V2's bias MLP: [1, 15, 15, 2] by [2, 512]
        assert_eq!(
            matmul_shape(&[1, 15, 15, 2], &[2, 512], false, false).unwrap().dims,
            [1, 15, 15, 512]
        );
        // Gemm's transposed weight, leading axes broadcast
        assert_eq!(matmul_shape(&[4, 8], &[16, 8], false, true).unwrap().dims, [4, 16]);
        assert_eq!(
            matmul_shape(&[3, 1, 4, 8], &[5, 8, 2], false, false).unwrap().dims,
            [3, 5, 4, 2]
        );
        assert!(matmul_shape(&[4, 8], &[7, 2], false, false).is_err());
        assert!(matmul_shape(&[8], &[8, 2], false, false).is_err());
    }

    fn int(dims: &[u64], v: &[i64]) -> Const {
        Const::new(dims.to_vec(), Some(Values::Int(v.to_vec()))).unwrap()
    }

    #[test]
    fn shape_arithmetic_folds() {
        let shape = Const::ints(vec![1, 64, 7, 7]);
        let picked = gather(&shape, &Const::ints(vec![0]), 0).unwrap();
        assert_eq!(picked.integers(), Some(vec![1]));
        let cat = concat(&[&picked, &Const::ints(vec![-1])], 0).unwrap();
        assert_eq!(cat.integers(), Some(vec![1, -1]));
        assert_eq!(reshaped(&[1, 64, 7, 7], &[1, -1], false).unwrap(), [1, 3136]);
        let half = elementwise(
            &[&int(&[], &[64]), &int(&[], &[2])],
            |a| a[0] / a[1],
            Some(&|a: &[i64]| a[0].checked_div(a[1])),
        )
        .unwrap();
        assert_eq!(half.integers(), Some(vec![32]));
        let sliced = slice(&shape, &[1], &[i64::MAX], None, None).unwrap();
        assert_eq!(sliced.integers(), Some(vec![64, 7, 7]));
    }

    #[test]
    fn transposes_move_values() {
        let c = int(&[2, 3], &[0, 1, 2, 3, 4, 5]);
        let t = transpose(&c, Some(&[1, 0])).unwrap();
        assert_eq!(t.dims, [3, 2]);
        assert_eq!(t.integers(), Some(vec![0, 3, 1, 4, 2, 5]));
        assert!(transpose(&c, Some(&[0, 0])).is_err());
    }

    #[test]
    fn limits_hold() {
        // a list that doubles at every concatenation stops holding values
        let mut c = Const::ints(vec![1; 1024]);
        for _ in 0..10 {
            c = concat(&[&c, &c], 0).unwrap();
        }
        assert_eq!(c.count(), 1 << 20);
        assert!(c.values.is_none());
        assert!(unsqueezed(&[1, 2], &(0..400_000).collect::<Vec<i64>>()).is_err());
        assert!(items(&[1 << 40, 1 << 40]).is_err());
        assert!(squeezed(&[1, 2], Some(&[1])).is_err());
    }
}
