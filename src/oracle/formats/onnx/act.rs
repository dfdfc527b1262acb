//! Computed tensors of an ONNX graph (activations) and where their channels
//! are: a graph may hold a tensor channels first (`NCHW`), channels last
//! (after a `Transpose`, as ConvNeXt's blocks do), its channels split in
//! groups (a channel shuffle) or flattened, and a layer of the model reads
//! it as `[C, spatial...]`.

use super::values::{Problem, items};

/// What an axis of an activation holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Channels (or a group of them).
    Channel,
    /// The `k`-th spatial dimension (or a piece of it).
    Spatial(u8),
    /// Channels and positions mixed (after a flatten).
    Mixed,
}

/// A computed tensor, without its batch dimension.
#[derive(Debug, Clone, PartialEq)]
pub struct Act {
    /// Dimensions as the graph holds them.
    pub dims: Vec<u64>,
    /// What each dimension holds.
    pub roles: Vec<Role>,
    /// The layer that produced it, if a layer did.
    pub producer: Option<usize>,
    /// Before a flatten: the `[C, spatial...]` shape it had, so that a
    /// following fully connected layer reads it as ParaDL's files do.
    pub unflat: Option<Vec<u64>>,
    /// Before a reshape that mixed its axes (a group normalization's
    /// `[G, C/G·P]` view): the dimensions and roles it had, restored by a
    /// reshape back to those dimensions.
    pub origin: Option<(Vec<u64>, Vec<Role>)>,
    /// Where the batch axis sits in the graph's tensor: 0, first, but after
    /// a Transpose that moves it (attention's `permute(2, 0, 3, 1, 4)` of
    /// its `Q`, `K`, `V` projection), until a Split and a Squeeze of the
    /// axis before it bring it back.
    pub batch_at: usize,
    /// Axes of the sample folded into the batch axis, with what each holds
    /// (windows of positions, as Swin's and MaxViT's window partitions fold
    /// them, `[B·windows, tokens, C]`): the graph's batch axis is the batch
    /// times their sizes; a layer counts them among its positions (or
    /// channels) as their roles say.
    pub folded: Vec<(u64, Role)>,
    /// How many of [`Act::folded`] come before the batch itself in the
    /// graph's batch axis: 0 where the batch is outermost (Swin's windows,
    /// `[B·windows, ...]`); all of them where the batch was merged into the
    /// axis before it (`nn.MultiheadAttention`'s `[N·B, C]` view of its
    /// tokens for its output projection).
    pub folded_before: usize,
}

impl Act {
    /// A channels-first tensor `[C, spatial...]`.
    pub fn channels_first(dims: Vec<u64>, producer: Option<usize>) -> Self {
        let roles = (0..dims.len())
            .map(|i| {
                if i == 0 {
                    Role::Channel
                } else {
                    Role::Spatial((i - 1) as u8)
                }
            })
            .collect();
        Self {
            dims,
            roles,
            producer,
            unflat: None,
            origin: None,
            batch_at: 0,
            folded: Vec::new(),
            folded_before: 0,
        }
    }

    /// The same tensor as the output of layer `producer`, with `dims` in
    /// its own layout.
    pub fn produced(&self, dims: Vec<u64>, producer: usize) -> Self {
        let origin = if dims == self.dims { self.origin.clone() } else { None };
        Self {
            dims,
            roles: self.roles.clone(),
            producer: Some(producer),
            unflat: None,
            origin,
            batch_at: self.batch_at,
            folded: self.folded.clone(),
            folded_before: self.folded_before,
        }
    }

    /// Its sizes as the graph holds them, with a batch of one: the batch
    /// axis where it sits, one sample times the axes folded into it.
    pub fn graph_dims(&self) -> Vec<u64> {
        let mut dims = self.dims.clone();
        dims.insert(
            self.batch_at.min(dims.len()),
            self.folded.iter().map(|(d, _)| *d).product::<u64>(),
        );
        dims
    }

    /// Whether its axes are channels then the spatial dimensions in order
    /// (what a convolution reads).
    pub fn is_channels_first(&self) -> bool {
        self.roles.first() == Some(&Role::Channel)
            && self
                .roles
                .iter()
                .skip(1)
                .enumerate()
                .all(|(i, r)| *r == Role::Spatial(i as u8))
    }

    /// As the model reads it: `[C, spatial...]`, `C` the product of its
    /// channel (and mixed) axes, each spatial dimension the product of its
    /// pieces (those folded into the batch too); a tensor without channels
    /// has one.
    pub fn canonical(&self) -> Vec<u64> {
        let mut channels = 1u64;
        let mut spatial: Vec<(u8, u64)> = Vec::new();
        let folded = self.folded.iter().map(|(d, r)| (d, r));
        for (&d, role) in folded.chain(self.dims.iter().zip(&self.roles)) {
            match role {
                Role::Channel | Role::Mixed => channels = channels.saturating_mul(d),
                Role::Spatial(k) => match spatial.iter_mut().find(|(j, _)| j == k) {
                    Some((_, size)) => *size = size.saturating_mul(d),
                    None => spatial.push((*k, d)),
                },
            }
        }
        spatial.sort_by_key(|(k, _)| *k);
        let mut out = vec![channels];
        out.extend(spatial.into_iter().map(|(_, d)| d));
        out
    }

    /// The output of a reduction over the `reduced` axes, written by layer
    /// `producer`: each reduced axis dropped, or kept at size 1 (`keep`).
    pub fn reduced(&self, reduced: &[bool], keep: bool, producer: usize) -> Self {
        let (mut dims, mut roles) = (Vec::new(), Vec::new());
        for ((&d, &role), &r) in self.dims.iter().zip(&self.roles).zip(reduced) {
            if !r || keep {
                dims.push(if r { 1 } else { d });
                roles.push(role);
            }
        }
        Self {
            dims,
            roles,
            producer: Some(producer),
            unflat: None,
            origin: None,
            batch_at: 0,
            folded: self.folded.clone(),
            folded_before: self.folded_before,
        }
    }

    /// The index in [`Act::dims`] of the graph tensor's axis `axis`, or
    /// `None` for the batch axis.
    pub fn dim_of(&self, axis: usize) -> Option<usize> {
        match axis.cmp(&self.batch_at) {
            std::cmp::Ordering::Less => Some(axis),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(axis - 1),
        }
    }

    /// The tensor with its axes permuted by `perm` (of the batched tensor;
    /// the batch may move, see [`Act::batch_at`]).
    ///
    /// # Errors
    /// A `perm` that is not a permutation.
    pub fn transposed(&self, perm: &[usize]) -> Result<Self, Problem> {
        let rank = self.dims.len() + 1;
        let mut seen = vec![false; rank];
        if perm.len() != rank || perm.iter().any(|&a| a >= rank || std::mem::replace(&mut seen[a], true)) {
            return Err(format!("perm {perm:?} is not a permutation of {rank} axes"));
        }
        let kept: Vec<usize> = perm.iter().filter_map(|&a| self.dim_of(a)).collect();
        Ok(Self {
            dims: kept.iter().map(|&d| self.dims[d]).collect(),
            roles: kept.iter().map(|&d| self.roles[d]).collect(),
            producer: self.producer,
            unflat: None,
            origin: None,
            batch_at: perm.iter().position(|&a| a == self.batch_at).unwrap_or(0),
            folded: self.folded.clone(),
            folded_before: self.folded_before,
        })
    }

    /// The tensor reshaped to `dims` (without the batch), each new axis
    /// holding what the old axes it comes from held: an axis split keeps
    /// its role, axes merged keep theirs when they agree (else mixed).
    ///
    /// # Errors
    /// A shape of another size.
    pub fn reshaped(&self, dims: Vec<u64>) -> Result<Self, Problem> {
        if items(&dims)? != items(&self.dims)? {
            return Err(format!("a reshape of {:?} to {dims:?}", self.dims));
        }
        let origin = if self.is_channels_first() {
            Some((self.dims.clone(), self.roles.clone()))
        } else {
            self.origin.clone()
        };
        let roles = match &origin {
            Some((before, roles)) if *before == dims => roles.clone(),
            _ => positions_in_order(regroup(&self.dims, &self.roles, &dims)),
        };
        let flat = dims.len() == 1 && self.dims.len() > 1;
        let unflat = if flat {
            Some(self.unflat.clone().unwrap_or_else(|| self.canonical()))
        } else {
            None
        };
        Ok(Self {
            dims,
            roles,
            producer: self.producer,
            unflat,
            origin,
            batch_at: 0,
            folded: self.folded.clone(),
            folded_before: self.folded_before,
        })
    }
}

impl Act {
    /// The tensor reshaped to `target` (the graph's sizes, the batch axis
    /// among them, at the batch of one the graph was exported with), where
    /// the batch may fold axes of the sample into its axis or unfold them
    /// (windows, heads, tokens), and may move.
    ///
    /// The graph's axes are runs of pieces in order: the sample's axes
    /// before the batch, the axes folded into the batch's axis, the batch
    /// itself (of one), the sample's axes after it. Which axis of `target`
    /// holds the batch is not written in a graph of batch one; it is the
    /// axis the pieces before the batch end in, where they end inside one.
    /// Where they end between two axes, it is an axis of one there (the
    /// batch on its own), else the next axis (`[N, B·h, d]`, the heads
    /// folded with the batch), unless the next is the last, the features
    /// a linear layer reads (`[N·B, C]`, the tokens folded with it). The
    /// pieces of the batch's axis become the folded axes.
    ///
    /// # Errors
    /// A batch axis that folds part of an axis, or a shape of another size.
    pub fn refolded(&self, target: &[u64]) -> Result<Self, Problem> {
        let at = self.batch_at.min(self.dims.len());
        let before = self.folded_before.min(self.folded.len());
        let sample = |range: std::ops::Range<usize>| {
            self.dims[range.clone()]
                .iter()
                .copied()
                .zip(self.roles[range].iter().copied())
        };
        let (sizes, roles): (Vec<u64>, Vec<Role>) = sample(0..at)
            .chain(self.folded.iter().copied())
            .chain(sample(at..self.dims.len()))
            .unzip();
        let leading = sizes[..at + before]
            .iter()
            .try_fold(1u64, |a, &d| a.checked_mul(d))
            .ok_or("a tensor of too many items")?;
        let pieces = refine(&sizes, &roles, target)
            .ok_or_else(|| format!("a reshape of {sizes:?} to {target:?} splits an axis unevenly"))?;
        let batch = batch_axis(target, leading)
            .ok_or_else(|| format!("a reshape to {target:?} puts the batch inside an axis of the sample"))?;
        let mut folded = Vec::new();
        let (mut folded_before, mut passed) = (0, 1u64);
        let (mut dims, mut out_roles) = (Vec::new(), Vec::new());
        for (axis, &size) in target.iter().enumerate() {
            let of: Vec<(u64, Role)> = pieces
                .iter()
                .filter(|(a, _, _)| *a == axis)
                .map(|&(_, d, r)| (d, r))
                .collect();
            if axis == batch {
                for (d, r) in of {
                    passed = passed.saturating_mul(d);
                    if passed <= leading {
                        folded_before += 1;
                    }
                    folded.push((d, r));
                }
                continue;
            }
            passed = passed.saturating_mul(of.iter().map(|(d, _)| d).product::<u64>());
            let pieces: Vec<Role> = of.iter().map(|&(_, r)| r).collect();
            // an axis of one: a channel
            let role = joined(&pieces).unwrap_or(Role::Channel);
            dims.push(size);
            out_roles.push(role);
        }
        if dims.is_empty() {
            return Err(format!("a reshape to {target:?} leaves the sample no axis"));
        }
        let out_roles = if folded.is_empty() || windows_in_order(&folded, &out_roles) {
            positions_in_order(out_roles)
        } else {
            out_roles
        };
        Ok(Self {
            dims,
            roles: out_roles,
            producer: self.producer,
            unflat: None,
            origin: None,
            batch_at: batch,
            folded,
            folded_before,
        })
    }
}

/// The axis of `target` that holds the batch, after `leading` items of
/// the sample (see [`Act::refolded`]); `None` where the batch would sit
/// inside an axis between two of its factors' pieces.
fn batch_axis(target: &[u64], leading: u64) -> Option<usize> {
    let mut passed = 1u64;
    for (axis, &size) in target.iter().enumerate() {
        if passed == leading {
            let last = axis + 1 == target.len();
            return Some(if size == 1 || !last || axis == 0 {
                axis
            } else {
                axis - 1
            });
        }
        let next = passed.checked_mul(size)?;
        if next > leading {
            // the pieces before the batch end inside this axis
            return (size > 0 && leading.is_multiple_of(passed)).then_some(axis);
        }
        passed = next;
    }
    target.len().checked_sub(1)
}

/// `roles` of one channel axis and positions, but with a dimension named
/// twice (pieces of several joined, split and joined again, as
/// torchvision's MaxViT's grid partition and its reverse do, which leaves
/// every piece named after one; or a row of tokens split into rows and
/// columns, TinyViT's `[N, C]` to `[H, W, C]`), or each named apart in
/// order but not from the first name (NesT's map, its axes of blocks of
/// one gone): its positions in order.
fn positions_in_order(mut roles: Vec<Role>) -> Vec<Role> {
    let mut named: Vec<u8> = roles
        .iter()
        .filter_map(|r| match r {
            Role::Spatial(k) => Some(*k),
            _ => None,
        })
        .collect();
    let positions = named.len();
    // distinct names in order, but not from 0 (NesT's map after its axes of blocks, of one
    // each, took the first names)
    let increasing = named.windows(2).all(|w| w[0] < w[1]);
    named.sort_unstable();
    named.dedup();
    let one_channel = roles.iter().filter(|r| **r == Role::Channel).count() == 1;
    // all of them under one name (a dimension's pieces under several names are a partition
    // into windows, and stay), or each under its own in order
    if one_channel && positions + 1 == roles.len() && positions > 1 && (named.len() == 1 || increasing) {
        for (k, role) in roles.iter_mut().filter(|r| matches!(r, Role::Spatial(_))).enumerate() {
            *role = Role::Spatial(k as u8);
        }
    }
    roles
}

/// Whether windows folded into the batch are of the dimensions in order,
/// as many as a window's positions (EfficientViT-M's `[B·windows, C, N]`
/// split back into a window's rows and columns), so that a window's
/// positions under one name are in that order too.
fn windows_in_order(folded: &[(u64, Role)], window: &[Role]) -> bool {
    let names: Vec<u8> = folded
        .iter()
        .filter_map(|(_, r)| match r {
            Role::Spatial(k) => Some(*k),
            _ => None,
        })
        .collect();
    let positions = window.iter().filter(|r| matches!(r, Role::Spatial(_))).count();
    names.len() == positions && names.iter().enumerate().all(|(i, &k)| usize::from(k) == i)
}

/// What an axis joined from pieces of these roles holds: their role where
/// they agree, one spatial dimension for pieces of several, else mixed;
/// `None` for no piece.
fn joined(pieces: &[Role]) -> Option<Role> {
    let first = *pieces.first()?;
    Some(match first {
        _ if pieces.iter().all(|r| *r == first) => first,
        // pieces of several spatial dimensions: one spatial dimension
        Role::Spatial(_) if pieces.iter().all(|r| matches!(r, Role::Spatial(_))) => first,
        _ => Role::Mixed,
    })
}

/// The common pieces of a reshape of `from` (axes with `roles`) to `to`:
/// `(axis of to, size, role)`, each axis of either side a run of
/// consecutive pieces (an axis split where the other side's boundary falls
/// inside it); `None` when a boundary falls between factors (no common
/// pieces).
fn refine(from: &[u64], roles: &[Role], to: &[u64]) -> Option<Vec<(usize, u64, Role)>> {
    let mut pieces = Vec::new();
    let (mut i, mut j) = (0usize, 0usize);
    let (mut a, mut b) = (from.first().copied()?, to.first().copied()?);
    loop {
        if i >= from.len() || j >= to.len() {
            break;
        }
        if a == 1 {
            i += 1;
            a = from.get(i).copied().unwrap_or(1);
            continue;
        }
        if b == 1 {
            j += 1;
            b = to.get(j).copied().unwrap_or(1);
            continue;
        }
        let role = roles.get(i).copied().unwrap_or(Role::Mixed);
        if a == 0 || b == 0 {
            return None;
        }
        if a == b {
            pieces.push((j, a, role));
            i += 1;
            j += 1;
            a = from.get(i).copied().unwrap_or(1);
            b = to.get(j).copied().unwrap_or(1);
        } else if a % b == 0 {
            pieces.push((j, b, role));
            a /= b;
            j += 1;
            b = to.get(j).copied().unwrap_or(1);
        } else if b % a == 0 {
            pieces.push((j, a, role));
            b /= a;
            i += 1;
            a = from.get(i).copied().unwrap_or(1);
        } else {
            return None;
        }
    }
    // what is left of either side is ones (both hold the same items)
    Some(pieces)
}

/// The roles of `to`'s axes, reshaped from `from` with `roles`: contiguous
/// runs of axes of equal size products are matched; a run keeps its role
/// when all its old axes agree (spatial pieces of several dimensions make
/// one spatial dimension), else is mixed. Axes of size 1 take the
/// role of their neighbour run.
fn regroup(from: &[u64], roles: &[Role], to: &[u64]) -> Vec<Role> {
    let mut out = vec![Role::Mixed; to.len()];
    let (mut i, mut j) = (0usize, 0usize);
    while i < from.len() || j < to.len() {
        // ones on either side join no run
        if j < to.len() && to[j] == 1 && (i >= from.len() || from[i] != 1) {
            out[j] = roles.get(i).or(roles.last()).copied().unwrap_or(Role::Mixed);
            j += 1;
            continue;
        }
        if i < from.len() && from[i] == 1 && (j >= to.len() || to[j] != 1) {
            i += 1;
            continue;
        }
        let (start_i, start_j) = (i, j);
        let (mut a, mut b) = (1u64, 1u64);
        loop {
            if a <= b && i < from.len() {
                a = a.saturating_mul(from[i]);
                i += 1;
            } else if j < to.len() {
                b = b.saturating_mul(to[j]);
                j += 1;
            } else {
                break;
            }
            if a == b && (i >= from.len() || from[i] != 1 || j >= to.len()) {
                break;
            }
        }
        // an axis of one holds nothing: its role does not mix a run (MaxViT's partition of a
        // 7×7 map into one window of 7×7 leaves axes of one beside the positions)
        let end = i.min(roles.len()).min(from.len());
        let holding: Vec<Role> = (start_i..end).filter(|&k| from[k] != 1).map(|k| roles[k]).collect();
        let run = if holding.is_empty() {
            &roles[start_i..i.min(roles.len())]
        } else {
            &holding[..]
        };
        let role = joined(run).unwrap_or(Role::Mixed);
        for slot in out.iter_mut().take(j).skip(start_j) {
            *slot = role;
        }
        if i >= from.len() && j >= to.len() {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_under_one_name_or_named_apart_from_another_first_come_in_order() {
        use Role::{Channel, Spatial};
        // TinyViT's row of tokens split into rows and columns, under one name
        assert_eq!(
            positions_in_order(vec![Spatial(0), Spatial(0), Channel]),
            [Spatial(0), Spatial(1), Channel]
        );
        // NesT's map after its axes of blocks (of one) took the first names
        assert_eq!(
            positions_in_order(vec![Channel, Spatial(2), Spatial(3)]),
            [Channel, Spatial(0), Spatial(1)]
        );
        // positions transposed, and a partition into windows, stay as they are
        assert_eq!(
            positions_in_order(vec![Channel, Spatial(1), Spatial(0)]),
            [Channel, Spatial(1), Spatial(0)]
        );
        assert_eq!(
            positions_in_order(vec![Spatial(0), Spatial(1), Spatial(0), Spatial(1), Channel]),
            [Spatial(0), Spatial(1), Spatial(0), Spatial(1), Channel]
        );
    }

    #[test]
    fn multi_head_attention_moves_and_folds_its_batch_and_brings_it_back() {
        // nn.MultiheadAttention on 197 tokens of 768: [B, 197, 768] -> [197, B, 768]
        let tokens = Act::channels_first(vec![768, 197], None)
            .transposed(&[0, 2, 1])
            .unwrap()
            .transposed(&[1, 0, 2])
            .unwrap();
        assert_eq!((tokens.batch_at, tokens.dims.clone()), (1, vec![197, 768]));
        // its Q, K and V, three parts before the features: the batch on its own axis of one
        let parts = tokens.refolded(&[197, 1, 3, 256]).unwrap();
        assert_eq!((parts.batch_at, parts.dims.clone()), (1, vec![197, 3, 256]));
        // the heads folded with the batch: [197, B·12, 64]
        let q = tokens.refolded(&[197, 12, 64]).unwrap();
        assert_eq!(
            (q.batch_at, q.dims.clone(), q.folded.clone()),
            (1, vec![197, 64], vec![(12, Role::Channel)])
        );
        // to the front and unfolded: [B, 12, 197, 64]
        let heads = q.transposed(&[1, 0, 2]).unwrap().refolded(&[1, 12, 197, 64]).unwrap();
        assert_eq!((heads.batch_at, heads.dims.clone()), (0, vec![12, 197, 64]));
        assert!(heads.folded.is_empty());
        assert_eq!(heads.roles, [Role::Channel, Role::Spatial(0), Role::Channel]);
        // the tokens folded with the batch before the features: [197·B, 768], then back
        let out = heads.transposed(&[2, 0, 1, 3]).unwrap();
        assert_eq!(out.batch_at, 1);
        let flat = out.refolded(&[197, 768]).unwrap();
        assert_eq!(
            (flat.batch_at, flat.dims.clone(), flat.folded_before),
            (0, vec![768], 1)
        );
        assert_eq!(flat.canonical(), [768, 197]);
        let back = flat.refolded(&[197, 1, 768]).unwrap();
        assert_eq!((back.batch_at, back.dims.clone()), (1, vec![197, 768]));
        assert!(back.folded.is_empty());
    }

    #[test]
    fn windows_fold_into_the_batch_and_back() {
        // Swin's partition: [56, 56, 96] -> [8, 7, 8, 7, 96] -> windows first -> [64 windows, 49, 96]
        let x = Act::channels_first(vec![96, 56, 56], None)
            .transposed(&[0, 2, 3, 1])
            .unwrap();
        let split = x.reshaped(vec![8, 7, 8, 7, 96]).unwrap();
        let windows = split
            .transposed(&[0, 1, 3, 2, 4, 5])
            .unwrap()
            .refolded(&[64, 49, 96])
            .unwrap();
        assert_eq!(windows.folded.iter().map(|(d, _)| *d).collect::<Vec<u64>>(), [8, 8]);
        assert_eq!(windows.dims, [49, 96]);
        assert_eq!(windows.canonical().iter().product::<u64>(), 96 * 56 * 56);
        assert_eq!(windows.canonical()[0], 96);
        // and back: [1, 8, 8, 7, 7, 96], nothing folded
        let back = windows.refolded(&[1, 8, 8, 7, 7, 96]).unwrap();
        assert!(back.folded.is_empty());
        assert_eq!(back.dims, [8, 8, 7, 7, 96]);
        // a fold that cuts an axis between its factors is refused
        let odd = Act::channels_first(vec![6, 4], None);
        assert!(odd.refolded(&[4, 6]).is_err());
        // sizes of nothing are refused, not divided by; a sample folded whole into the batch too
        assert!(odd.refolded(&[0, 24]).is_err());
        assert!(odd.refolded(&[]).is_err());
        assert!(odd.refolded(&[24]).is_err());
    }

    #[test]
    fn a_channel_shuffle_is_a_free_permutation() {
        // [C=116, 28, 28] -> [2, 58, 28, 28] -> swap the two channel axes -> [116, 28, 28]
        let x = Act::channels_first(vec![116, 28, 28], Some(3));
        let grouped = x.reshaped(vec![2, 58, 28, 28]).unwrap();
        assert_eq!(grouped.roles[..2], [Role::Channel, Role::Channel]);
        let swapped = grouped.transposed(&[0, 2, 1, 3, 4]).unwrap();
        let back = swapped.reshaped(vec![116, 28, 28]).unwrap();
        assert!(back.is_channels_first());
        assert_eq!(back.canonical(), [116, 28, 28]);
        assert_eq!(back.producer, Some(3));
    }

    #[test]
    fn channels_last_and_flattened_tensors() {
        let x = Act::channels_first(vec![96, 56, 56], None);
        let last = x.transposed(&[0, 2, 3, 1]).unwrap();
        assert_eq!(last.roles[2], Role::Channel);
        assert!(!last.is_channels_first());
        assert_eq!(last.canonical(), [96, 56, 56]);
        let flat = x.reshaped(vec![96 * 56 * 56]).unwrap();
        assert_eq!(flat.unflat, Some(vec![96, 56, 56]));
        // the batch may move (attention's permute), and says where it went
        assert_eq!(x.transposed(&[1, 0, 2, 3]).unwrap().batch_at, 1);
        assert!(x.transposed(&[0, 0, 2, 3]).is_err());
        assert!(x.reshaped(vec![5]).is_err());
        // tokens: [768, 14, 14] -> [768, 196] -> [196, 768]
        let tokens = Act::channels_first(vec![768, 14, 14], None)
            .reshaped(vec![768, 196])
            .unwrap()
            .transposed(&[0, 2, 1])
            .unwrap();
        assert_eq!(tokens.roles, [Role::Spatial(0), Role::Channel]);
        assert_eq!(tokens.canonical(), [768, 196]);
    }
}
