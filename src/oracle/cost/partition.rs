//! Pipeline stages: the optimal linear partition of layer times.

use std::ops::Range;

/// Contiguous stages of layers and their times.
#[derive(Debug, Clone, PartialEq)]
pub struct Stages {
    /// Layer ranges, one per non-empty stage, in order.
    pub ranges: Vec<Range<usize>>,
    /// `T_i = Σ_{l∈stage i} t_l`.
    pub times_s: Vec<f64>,
}

impl Stages {
    /// `max_i T_i`.
    pub fn largest_s(&self) -> f64 {
        self.times_s.iter().copied().fold(0.0, f64::max)
    }
}

/// Splits `times` into at most `stages` contiguous groups minimising the
/// largest group sum (the optimal linear partition), using exactly
/// `min(stages, len)` non-empty groups.
///
/// # Formula
/// Search on the bound `T`, which lies between `max(max t_l, Σt/stages)`
/// and `Σt`. Greedy packing under a probe `T` needs some number of groups;
/// if few enough, the largest group it made is a feasible bound (the upper
/// end moves down to it); if not, no bound below the smallest sum that
/// would let a group take one more layer can do better (the lower end moves
/// up to it). Both ends are sums of layer runs, so the search ends on the
/// optimum. The stages are then packed greedily under it, leaving at least
/// one layer for each remaining stage.
///
/// `prefix` holds the prefix sums of `times` ([`prefix_sums`]), kept by the
/// caller so that each stage count costs `O(S·log G)` per probe and no
/// `O(G)` allocation.
pub fn partition(times: &[f64], prefix: &[f64], stages: u64) -> Stages {
    let count = usize::try_from(stages)
        .unwrap_or(usize::MAX)
        .clamp(1, times.len().max(1));
    if times.is_empty() || prefix.len() != times.len() + 1 {
        return Stages {
            ranges: Vec::new(),
            times_s: Vec::new(),
        };
    }
    let total = prefix[times.len()];
    let largest = times.iter().copied().fold(0.0, f64::max);
    let mut low = largest.max(total / count as f64);
    let mut high = if count < times.len() { total } else { largest };
    for _ in 0..200 {
        if high <= low * (1.0 + 1e-13) {
            break;
        }
        let probe = greedy(prefix, 0.5 * (low + high), count);
        if probe.groups <= count {
            high = probe.largest.min(high);
        } else {
            low = probe.overflow.min(high);
        }
    }
    pack(times, prefix, high, count)
}

/// `[0, t_0, t_0 + t_1, ...]`: the prefix sums [`partition`] works on.
pub fn prefix_sums(times: &[f64]) -> Vec<f64> {
    let mut prefix = Vec::with_capacity(times.len() + 1);
    prefix.push(0.0);
    for t in times {
        prefix.push(prefix[prefix.len() - 1] + t);
    }
    prefix
}

/// What greedy packing under a bound makes.
struct Probe {
    /// Groups used (stops counting past the limit).
    groups: usize,
    /// Largest group sum.
    largest: f64,
    /// Smallest sum of a group and the layer after it.
    overflow: f64,
}

fn greedy(prefix: &[f64], bound: f64, limit: usize) -> Probe {
    let len = prefix.len() - 1;
    let mut probe = Probe {
        groups: 0,
        largest: 0.0,
        overflow: f64::INFINITY,
    };
    let mut start = 0;
    while start < len {
        probe.groups += 1;
        if probe.groups > limit {
            break;
        }
        let end = furthest(prefix, start, bound).max(start + 1);
        probe.largest = probe.largest.max(prefix[end] - prefix[start]);
        if end < len {
            probe.overflow = probe.overflow.min(prefix[end + 1] - prefix[start]);
        }
        start = end;
    }
    probe
}

/// Largest `end` with `Σ times[start..end] ≤ bound` (prefix sums).
fn furthest(prefix: &[f64], start: usize, bound: f64) -> usize {
    let base = prefix[start];
    start + prefix[start..].partition_point(|&p| p - base <= bound * (1.0 + 1e-12)) - 1
}

fn pack(times: &[f64], prefix: &[f64], bound: f64, count: usize) -> Stages {
    let len = times.len();
    let mut ranges = Vec::with_capacity(count);
    let mut start = 0;
    for stage in 0..count {
        let left_after = count - stage - 1;
        let end = if left_after == 0 {
            len
        } else {
            furthest(prefix, start, bound).max(start + 1).min(len - left_after)
        };
        ranges.push(start..end);
        start = end;
    }
    let times_s = ranges.iter().map(|r| times[r.clone()].iter().sum()).collect();
    Stages { ranges, times_s }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exhaustive optimum for small inputs.
    fn brute(times: &[f64], stages: usize) -> f64 {
        fn go(times: &[f64], stages: usize) -> f64 {
            if stages == 1 || times.len() == 1 {
                return times.iter().sum();
            }
            (1..times.len())
                .map(|cut| times[..cut].iter().sum::<f64>().max(go(&times[cut..], stages - 1)))
                .fold(f64::INFINITY, f64::min)
        }
        go(times, stages.min(times.len()))
    }

    fn partition(times: &[f64], stages: u64) -> Stages {
        super::partition(times, &prefix_sums(times), stages)
    }

    #[test]
    fn known_partition() {
        let s = partition(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0], 3);
        assert_eq!(s.ranges, vec![0..5, 5..7, 7..9]);
        assert_eq!(s.times_s, vec![15.0, 13.0, 17.0]);
        assert_eq!(s.largest_s(), 17.0);
    }

    #[test]
    fn more_stages_than_layers_gives_one_layer_each() {
        let s = partition(&[3.0, 1.0, 2.0], 10);
        assert_eq!(s.ranges, vec![0..1, 1..2, 2..3]);
        assert_eq!(s.largest_s(), 3.0);
    }

    #[test]
    fn zero_times_still_fill_every_stage() {
        let s = partition(&[0.0; 6], 3);
        assert_eq!(s.ranges.len(), 3);
        assert!(s.ranges.iter().all(|r| !r.is_empty()));
    }

    #[test]
    fn matches_brute_force() {
        let cases: [&[f64]; 4] = [
            &[5.0, 1.0, 1.0, 1.0, 5.0, 2.0, 2.0],
            &[0.3, 0.1, 0.4, 0.1, 0.5, 0.9, 0.2, 0.6],
            &[1e-3, 2e-5, 7e-4, 3e-4, 3e-4, 9e-6],
            &[10.0, 0.0, 0.0, 10.0],
        ];
        for times in cases {
            for stages in 1..=times.len() + 1 {
                let got = partition(times, stages as u64);
                let best = brute(times, stages);
                assert!(
                    (got.largest_s() - best).abs() <= 1e-12 * best.max(1e-30),
                    "{times:?} {stages}"
                );
                assert_eq!(got.ranges.len(), stages.min(times.len()));
                let covered: usize = got.ranges.iter().map(|r| r.len()).sum();
                assert_eq!(covered, times.len());
            }
        }
    }
}
