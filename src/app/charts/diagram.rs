//! The strategy diagram's layout: which nodes and GPUs are drawn, where,
//! and what each GPU's label says, computed from the engine's placement
//! apart from drawing.

use crate::oracle::{Placement, Share, units};

/// Nodes drawn at most: the first ones and the last (the others elided).
pub const SHOWN_NODES: u64 = 4;
/// Width of the diagram's coordinate space on a wide screen.
pub const DIAGRAM_WIDTH: u32 = 720;
/// Width of the diagram's coordinate space on a phone: the plots' (a 360
/// px phone's content width), so that its 12-unit text stays 12 px (at 720
/// units across such a screen it was 6 px).
pub const NARROW_DIAGRAM_WIDTH: u32 = crate::app::charts::NARROW_WIDTH;
/// The narrowest a GPU is drawn: its label ("layers 12–25", "filters
/// 2/4") fits at 12 px. More GPUs than fit a row wrap to the next.
pub const MIN_GPU_WIDTH: u32 = 80;
const GPU_GAP: u32 = 6;
const NODE_PAD: u32 = 8;
const NODE_TITLE: u32 = 22;
const GPU_HEIGHT: u32 = 52;
const NODE_GAP: u32 = 10;

/// A GPU as drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct GpuBox {
    /// Its index, 0-based.
    pub gpu: u64,
    /// Left, top, width, height.
    pub rect: (u32, u32, u32, u32),
    /// Its group (colour), 0-based.
    pub group: u64,
    /// Lines of its label.
    pub lines: Vec<String>,
}

/// A node as drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeBox {
    /// Its index, 0-based.
    pub node: u64,
    /// Left, top, width, height.
    pub rect: (u32, u32, u32, u32),
    /// Its GPUs.
    pub gpus: Vec<GpuBox>,
}

/// The whole diagram.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// The nodes drawn.
    pub nodes: Vec<NodeBox>,
    /// Nodes left out between the drawn ones (drawn as "…").
    pub elided: u64,
    /// Height of the coordinate space.
    pub height: u32,
    /// Width of the coordinate space.
    pub width: u32,
}

/// What GPU `gpu` holds, in two short lines.
pub fn label(placement: &Placement, gpu: u64) -> Vec<String> {
    let samples = |s: f64| units::count_of(s, 3, "sample");
    match &placement.share {
        Share::Samples { samples: s } => vec![samples(*s), "all layers".into()],
        Share::Slices {
            axis,
            parts,
            samples: s,
            ..
        } => {
            let slice = gpu % parts.max(&1) + 1;
            vec![format!("{axis} {slice}/{parts}"), samples(*s)]
        }
        Share::Stages { stages, .. } => stages.get(gpu as usize).map_or_else(
            || vec!["idle".into()],
            |s| vec![format!("layers {}–{}", s.first, s.last), format!("stage {}", gpu + 1)],
        ),
    }
}

/// Lays out `placement` in a space `width` units wide: up to
/// [`SHOWN_NODES`] nodes stacked, each with its GPUs in rows of as many as
/// fit at [`MIN_GPU_WIDTH`].
pub fn layout(placement: &Placement, width: u32) -> Layout {
    let n = placement.gpus_per_node.max(1);
    let shown: Vec<u64> = if placement.nodes <= SHOWN_NODES {
        (0..placement.nodes).collect()
    } else {
        (0..SHOWN_NODES - 1)
            .chain(std::iter::once(placement.nodes - 1))
            .collect()
    };
    let elided = placement.nodes - shown.len() as u64;
    let inner = width.saturating_sub(2 * NODE_PAD + 20).max(MIN_GPU_WIDTH);
    let fit = u64::from((inner + GPU_GAP) / (MIN_GPU_WIDTH + GPU_GAP)).max(1);
    let columns = n.min(fit) as u32;
    let rows = n.div_ceil(u64::from(columns)) as u32;
    let gpu_width = (inner - GPU_GAP * (columns - 1)) / columns;
    let node_height = NODE_TITLE + rows * (GPU_HEIGHT + GPU_GAP) - GPU_GAP + NODE_PAD;
    let mut top = 4;
    let mut nodes = Vec::new();
    for (i, &node) in shown.iter().enumerate() {
        if i > 0 && node != shown[i - 1] + 1 {
            top += NODE_GAP * 2; // room for the "…" of the elided nodes
        }
        let first = node * n;
        let gpus = (first..(first + n).min(placement.gpus))
            .enumerate()
            .map(|(k, gpu)| {
                let (row, column) = (k as u32 / columns, k as u32 % columns);
                GpuBox {
                    gpu,
                    rect: (
                        10 + NODE_PAD + column * (gpu_width + GPU_GAP),
                        top + NODE_TITLE + row * (GPU_HEIGHT + GPU_GAP),
                        gpu_width,
                        GPU_HEIGHT,
                    ),
                    group: if placement.group_size > 1 {
                        placement.group_of(gpu)
                    } else {
                        0
                    },
                    lines: label(placement, gpu),
                }
            })
            .collect();
        nodes.push(NodeBox {
            node,
            rect: (10, top, width.max(inner + 2 * NODE_PAD + 20) - 20, node_height),
            gpus,
        });
        top += node_height + NODE_GAP;
    }
    Layout {
        nodes,
        elided,
        height: top,
        width: width.max(inner + 2 * NODE_PAD + 20),
    }
}

#[cfg(test)]
mod tests {
    use crate::app::charts::diagram::*;
    use crate::oracle::{Batch, RunSpec, Strategy, presets};

    fn placement(strategy: Strategy, gpus: u64) -> Placement {
        let s = presets::scenario("resnet50", "abci").unwrap();
        let mut spec = RunSpec::new(strategy, gpus, Batch::SamplesPerGpu(32.0));
        spec.group_size = strategy.is_hybrid().then_some(4);
        s.placement(&spec).unwrap()
    }

    #[test]
    fn many_nodes_show_the_first_and_the_last() {
        let l = layout(&placement(Strategy::Data, 64), DIAGRAM_WIDTH);
        let nodes: Vec<u64> = l.nodes.iter().map(|n| n.node).collect();
        assert_eq!(nodes, vec![0, 1, 2, 15]);
        assert_eq!(l.elided, 12);
        assert_eq!(
            l.nodes[3].gpus.iter().map(|g| g.gpu).collect::<Vec<_>>(),
            vec![60, 61, 62, 63]
        );
        assert_eq!(l.nodes[0].gpus[0].lines, vec!["32 samples", "all layers"]);
        // GPUs stay inside their node
        for node in &l.nodes {
            for gpu in &node.gpus {
                assert!(gpu.rect.0 + gpu.rect.2 <= node.rect.0 + node.rect.2);
            }
        }
    }

    #[test]
    fn labels_say_what_each_gpu_holds() {
        let hybrid = layout(&placement(Strategy::DataFilter, 8), DIAGRAM_WIDTH);
        let gpus: Vec<&GpuBox> = hybrid.nodes.iter().flat_map(|n| &n.gpus).collect();
        assert_eq!(gpus[5].lines[0], "filters 2/4");
        assert_eq!((gpus[3].group, gpus[4].group), (0, 1));
        let pipeline = layout(&placement(Strategy::Pipeline, 2), DIAGRAM_WIDTH);
        assert_eq!(pipeline.nodes.len(), 1);
        assert!(pipeline.nodes[0].gpus[1].lines[1] == "stage 2");
        assert!(pipeline.nodes[0].gpus[0].lines[0].starts_with("layers 1–"));
    }

    #[test]
    fn a_phone_wraps_a_node_s_gpus_into_rows_as_wide_as_their_labels() {
        let p = placement(Strategy::Data, 64);
        let wide = layout(&p, DIAGRAM_WIDTH);
        let narrow = layout(&p, NARROW_DIAGRAM_WIDTH);
        assert_eq!(narrow.width, NARROW_DIAGRAM_WIDTH);
        let rows = |l: &Layout| {
            let mut tops: Vec<u32> = l.nodes[0].gpus.iter().map(|g| g.rect.1).collect();
            tops.dedup();
            tops.len()
        };
        assert_eq!(rows(&wide), 1, "ABCI's 4 GPUs a node in one row");
        assert_eq!(rows(&narrow), 2, "in two rows of 3 and 1 on a phone");
        for l in [&wide, &narrow] {
            for node in &l.nodes {
                for gpu in &node.gpus {
                    assert!(gpu.rect.2 >= MIN_GPU_WIDTH, "{:?}", gpu.rect);
                    assert!(gpu.rect.0 + gpu.rect.2 <= node.rect.0 + node.rect.2);
                    assert!(gpu.rect.1 + gpu.rect.3 <= node.rect.1 + node.rect.3);
                }
                assert!(node.rect.0 + node.rect.2 <= l.width);
            }
            // nodes never overlap
            for w in l.nodes.windows(2) {
                assert!(w[0].rect.1 + w[0].rect.3 < w[1].rect.1);
            }
            assert!(l.nodes.last().is_some_and(|n| n.rect.1 + n.rect.3 <= l.height));
        }
    }
}
