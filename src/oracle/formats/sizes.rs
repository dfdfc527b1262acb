//! Output sizes of convolutions and pools (the formulas ONNX operators and
//! Keras layers share).

/// How a node pads: explicit `pads`, or `auto_pad`.
#[derive(Debug, Clone, PartialEq)]
pub enum Padding {
    /// `pads` = begins then ends, one per spatial dimension.
    Explicit(Vec<u64>),
    /// `SAME_UPPER` or `SAME_LOWER`: the output is `ceil(in / stride)`.
    Same,
    /// `VALID`: no padding.
    Valid,
}

/// One spatial dimension's output size, or `None` when the window does not
/// fit.
///
/// # Formula
/// `e = d·(k−1) + 1` (the dilated window); explicit pads:
/// `⌊(in + pb + pe − e) / s⌋ + 1` (`⌈⌉` with `ceil_mode`); same:
/// `⌈in / s⌉`; valid: `⌊(in − e) / s⌋ + 1`.
pub fn output(input: u64, kernel: u64, stride: u64, dilation: u64, pads: (u64, u64), ceil: bool) -> Option<u64> {
    let window = dilation.checked_mul(kernel.checked_sub(1)?)?.checked_add(1)?;
    let padded = input.checked_add(pads.0)?.checked_add(pads.1)?;
    let span = padded.checked_sub(window)?;
    let stride = stride.max(1);
    let steps = if ceil { span.div_ceil(stride) } else { span / stride };
    steps.checked_add(1)
}

/// The output spatial sizes of a window of `kernel` over `input`.
pub fn spatial(
    input: &[u64],
    kernel: &[u64],
    strides: &[u64],
    dilations: &[u64],
    padding: &Padding,
    ceil: bool,
) -> Option<Vec<u64>> {
    let n = input.len();
    if kernel.len() != n {
        return None;
    }
    (0..n)
        .map(|i| {
            let stride = strides.get(i).copied().unwrap_or(1).max(1);
            let dilation = dilations.get(i).copied().unwrap_or(1).max(1);
            match padding {
                Padding::Same => Some(input[i].div_ceil(stride)),
                Padding::Valid => output(input[i], kernel[i], stride, dilation, (0, 0), ceil),
                Padding::Explicit(pads) => {
                    let begin = pads.get(i).copied().unwrap_or(0);
                    let end = pads.get(i + n).copied().unwrap_or(0);
                    output(input[i], kernel[i], stride, dilation, (begin, end), ceil)
                }
            }
        })
        .collect()
}

/// One spatial dimension's output size of a transposed convolution.
///
/// # Formula
/// `s·(in − 1) + output_padding + d·(k − 1) + 1 − pb − pe`.
pub fn transposed(input: u64, kernel: u64, stride: u64, dilation: u64, pads: (u64, u64), extra: u64) -> Option<u64> {
    let grown = stride.max(1).checked_mul(input.checked_sub(1)?)?;
    let window = dilation.checked_mul(kernel.checked_sub(1)?)?.checked_add(1)?;
    grown
        .checked_add(extra)?
        .checked_add(window)?
        .checked_sub(pads.0)?
        .checked_sub(pads.1)
        .filter(|&o| o > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_the_operator_formulas() {
        // AlexNet's first convolution: 224, 11x11, stride 4, no pad → 54
        assert_eq!(output(224, 11, 4, 1, (0, 0), false), Some(54));
        // ResNet's stem: 224, 7x7, stride 2, pad 3 → 112; its pool 3x3/2 pad 1 → 56
        assert_eq!(output(224, 7, 2, 1, (3, 3), false), Some(112));
        assert_eq!(output(112, 3, 2, 1, (1, 1), false), Some(56));
        // ceil mode (SqueezeNet's pools): 111, 3x3, stride 2 → 55
        assert_eq!(output(111, 3, 2, 1, (0, 0), true), Some(55));
        assert_eq!(output(112, 3, 2, 1, (0, 0), true), Some(56));
        // dilation 2 widens a 3x3 window to 5
        assert_eq!(output(10, 3, 1, 2, (0, 0), false), Some(6));
        assert_eq!(output(2, 3, 1, 1, (0, 0), false), None);
        assert_eq!(
            spatial(&[7, 9], &[3, 3], &[2, 2], &[], &Padding::Same, false),
            Some(vec![4, 5])
        );
        assert_eq!(
            spatial(
                &[8, 8],
                &[3, 3],
                &[1, 1],
                &[],
                &Padding::Explicit(vec![1, 1, 0, 0]),
                false
            ),
            Some(vec![7, 7])
        );
        assert_eq!(spatial(&[8], &[3, 3], &[], &[], &Padding::Valid, false), None);
        // a 2x2/2 up-convolution doubles; 3x3/2 with pad 1 and output padding 1 too
        assert_eq!(transposed(16, 2, 2, 1, (0, 0), 0), Some(32));
        assert_eq!(transposed(16, 3, 2, 1, (1, 1), 1), Some(32));
        assert_eq!(transposed(1, 1, 1, 1, (1, 0), 0), None);
    }
}
