//! Lessons: ready views with a question and its answer, for a class. Each
//! opens from a link (`?s=…&lesson=ID`); with `&predict=1` the results stay
//! hidden until the student commits to a guess and reveals them. What each
//! answer says is checked against the engine by the tests below.

pub mod guess;

use crate::app::input::document::Document;
use crate::app::input::explain_target::ExplainTarget;
use crate::app::input::metric::Metric;
use crate::app::input::question::Question;
use crate::app::input::source::{ClusterSource, ModelSource};
use crate::app::input::view::View;
use crate::app::lessons::guess::Asks;
use crate::app::page::url;
use crate::oracle::{Batch, CommKind, Precision, Quantity, RankBy, Strategy};

/// The plot a lesson is about: shown right under the ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LessonPlot {
    /// The scaling curves.
    Scaling,
    /// The memory bars.
    Memory,
    /// The diagram of how a strategy places the work.
    Diagram,
}

/// A lesson.
#[derive(Debug)]
pub struct Lesson {
    /// Its key in links.
    pub id: &'static str,
    pub title: &'static str,
    /// The question asked before the results are shown.
    pub question: &'static str,
    /// What the results show.
    pub answer: &'static str,
    /// The document it opens.
    pub inputs: fn() -> Document,
    /// The plot it is about.
    pub plot: LessonPlot,
    /// The kind of guess its question asks.
    pub asks: Asks,
}

/// A question on the first visit's, changed by `edit`.
fn asking(edit: impl FnOnce(&mut Question)) -> Question {
    let mut question = Question::default();
    edit(&mut question);
    question
}

fn data_stops_scaling() -> Document {
    Document {
        question: asking(|q| {
            q.run.gpus = 1024;
            q.run.batch = Batch::MiniBatch(8192);
            q.strategies = vec![Strategy::Data];
        }),
        view: View {
            // the number to look at: the gradient Allreduce of an epoch
            explaining: Some(ExplainTarget::new(
                Strategy::Data,
                1024,
                Quantity::Kind(CommKind::GradientAllreduce),
            )),
            ..View::default()
        },
    }
}

fn spatial_for_cosmoflow() -> Document {
    Document {
        question: asking(|q| {
            q.model = ModelSource::Preset("cosmoflow".into());
            q.run.gpus = 64;
            q.run.batch = Batch::SamplesPerGpu(0.25);
            q.strategies = vec![Strategy::Data, Strategy::Spatial, Strategy::DataSpatial];
        }),
        view: View {
            drawing: Some(Strategy::DataSpatial),
            ..View::default()
        },
    }
}

fn memory_wall() -> Document {
    Document {
        question: asking(|q| {
            q.model = ModelSource::Preset("vgg16".into());
            q.run.gpus = 8;
            q.run.batch = Batch::SamplesPerGpu(256.0);
        }),
        view: View {
            explaining: Some(ExplainTarget::new(Strategy::Data, 8, Quantity::Memory)),
            ..View::default()
        },
    }
}

/// ResNet-50 on DGX A100s, data parallelism up to 1,024 GPUs at 128 images
/// each in FP16, ranked `by`, the scaling plot drawing `plot` from `from`
/// GPUs, the number at 1,024 GPUs of `quantity` explained.
fn resnet_on_a100s(by: RankBy, plot: Metric, from: u64, quantity: Quantity) -> Document {
    Document {
        question: asking(|q| {
            q.cluster = ClusterSource::Preset("dgx-a100".into());
            q.run.gpus = 1024;
            q.run.batch = Batch::SamplesPerGpu(128.0);
            q.run.precision = Precision::Fp16;
            q.strategies = vec![Strategy::Data];
            q.rank_by = by;
        }),
        view: View {
            gpu_range: Some((from, 1024)),
            plot,
            explaining: Some(ExplainTarget::new(Strategy::Data, 1024, quantity)),
            ..View::default()
        },
    }
}

fn training_stops_shortening() -> Document {
    // the number to look at: the epochs at 1,024 GPUs, extrapolated
    resnet_on_a100s(RankBy::TimeToTrain, Metric::Train, 16, Quantity::TimeToTrain)
}

fn fastest_is_not_greenest() -> Document {
    // the number to look at: the energy at 1,024 GPUs, by part
    resnet_on_a100s(RankBy::Energy, Metric::Energy, 1, Quantity::Energy)
}

/// ViT-B/16 or ResNet-50 (`model`) on one DGX A100 node, 32 images a GPU
/// in FP16, data against a split of each image (spatial), the spatial
/// split's exchange of `kind` explained.
fn split_on_a_node(model: &str, kind: CommKind) -> Document {
    Document {
        question: asking(|q| {
            q.model = ModelSource::Preset(model.into());
            q.cluster = ClusterSource::Preset("dgx-a100".into());
            q.run.gpus = 8;
            q.run.batch = Batch::SamplesPerGpu(32.0);
            q.run.precision = Precision::Fp16;
            q.strategies = vec![Strategy::Data, Strategy::Spatial];
        }),
        view: View {
            explaining: Some(ExplainTarget::new(Strategy::Spatial, 8, Quantity::Kind(kind))),
            ..View::default()
        },
    }
}

fn attention_spatial() -> Document {
    split_on_a_node("vit-b16", CommKind::KeyValue)
}

/// The lessons.
pub const LESSONS: [Lesson; 6] = [
    Lesson {
        id: "data-stops-scaling",
        title: "Why data parallelism stops scaling",
        question: "ResNet-50 with a fixed mini-batch of 8192: does doubling the GPUs keep halving the epoch, all the way to 1024 GPUs?",
        answer: "No. With a fixed mini-batch, compute shrinks with every GPU added but the gradient Allreduce of every iteration does not: past a few hundred GPUs communication takes most of the epoch and the curve leaves the ideal line. The explanation opened with the lesson shows why: each GPU exchanges every gradient (m = h·W bytes) whatever the GPU count, so the Allreduce stops shrinking while the compute keeps shrinking.",
        inputs: data_stops_scaling,
        plot: LessonPlot::Scaling,
        asks: Asks::KeepsHalving,
    },
    Lesson {
        id: "spatial-cosmoflow",
        title: "When spatial parallelism wins: CosmoFlow",
        question: "CosmoFlow's 512³ volumes are trained a quarter of a sample per GPU. On 64 GPUs, which strategy is fastest, and why can data parallelism not run at all?",
        answer: "Data parallelism needs at least one whole sample per GPU, so a quarter of a sample rules it out; splitting each volume spatially (in groups, with data parallelism between them) is what makes training possible. The diagram shows each volume's slices across a node's GPUs and the halo exchange between neighbours.",
        inputs: spatial_for_cosmoflow,
        plot: LessonPlot::Diagram,
        asks: Asks::Fastest,
    },
    Lesson {
        id: "memory-wall",
        title: "What the memory wall is",
        question: "VGG-16 at 256 samples per GPU on 16 GB V100s: which strategies fit in a GPU's memory?",
        answer: "Data parallelism keeps every activation of 256 samples on each GPU and runs out of memory; the memory plot shows activations as the largest part. The findings list what would make it fit: recompute, a smaller batch or a hybrid. The explanation opened with the lesson gives each part's formula.",
        inputs: memory_wall,
        plot: LessonPlot::Memory,
        asks: Asks::WhichFit,
    },
    Lesson {
        id: "training-stops-shortening",
        title: "Why more GPUs stop shortening training",
        question: "ResNet-50, 128 images per GPU: does doubling the GPUs, up to 1,024, halve the time to train?",
        answer: "No: each doubling halves the epoch but doubles the global batch, and past the largest batch that converged in MLPerf's reference runs (67,840) the epochs grow, 56 at 256 GPUs to over 130 at 1,024: 4x the GPUs, 1.7x faster. Hybrids add GPUs, not batch: CosmoFlow on 1,024 GPUs trains sooner with data+spatial (batch 256, 20 epochs) than data (1,024, 40).",
        inputs: training_stops_shortening,
        plot: LessonPlot::Scaling,
        asks: Asks::KeepsHalving,
    },
    Lesson {
        id: "fastest-is-not-greenest",
        title: "The fastest run is not the greenest",
        question: "ResNet-50, 128 images per GPU on DGX A100s: do the fastest, 1,024 GPUs, take the least energy?",
        answer: "No: one or two nodes (8 to 16 GPUs) take the least, 5.7 kWh in 35 epochs. 1,024 GPUs train 33 times sooner for almost 4 times the energy and money: a global batch of 131,072 needs 134 epochs, not 35. Under a node, its CPUs, memory and fans run for too few GPUs. Dashed: perfect scaling, the same GPU-seconds at any count.",
        inputs: fastest_is_not_greenest,
        plot: LessonPlot::Scaling,
        asks: Asks::FastestIsGreenest,
    },
    Lesson {
        id: "attention-spatial",
        title: "Why splitting tokens costs more than splitting images",
        question: "ViT-B/16 on one 8-GPU node: split each image's tokens over the GPUs (spatial), or give each GPU its own images (data)?",
        answer: "Data. Global attention lets every token see every other, so a token split makes every GPU gather all the others' keys and values in each of the 12 blocks (and send their gradients back): about 0.8 of the split's compute here. A convolution swaps only border rows: ResNet-50's halos cost under a tenth.",
        inputs: attention_spatial,
        plot: LessonPlot::Scaling,
        asks: Asks::Fastest,
    },
];

/// The lesson of a link's `lesson=` key.
pub fn find(id: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}

/// The query of a lesson's link (to append to the page's address).
pub fn query(lesson: &Lesson, predict: bool) -> String {
    let state = url::encode(&(lesson.inputs)());
    format!("?s={state}{}", suffix(lesson, predict))
}

/// The file of a lesson's own page, pre-rendered beside `index.html`
/// (`lesson-ID.html`), which shows it with no query.
pub fn page_file(lesson: &Lesson) -> String {
    format!("lesson-{}.html", lesson.id)
}

/// The address of a lesson's own page, relative to the app's page (so that
/// any sub-path works); with `predict`, opened in predict, then reveal.
pub fn page_address(lesson: &Lesson, predict: bool) -> String {
    let query = if predict { query(lesson, true) } else { String::new() };
    format!("./{}{query}", page_file(lesson))
}

/// What a lesson adds to an address: `&lesson=ID`, and `&predict=1` for
/// predict, then reveal.
pub fn suffix(lesson: &Lesson, predict: bool) -> String {
    let predict = if predict { "&predict=1" } else { "" };
    format!("&lesson={}{predict}", lesson.id)
}

#[cfg(test)]
mod tests {
    use crate::app::lessons::*;
    use crate::app::results::Results;
    use crate::oracle::Violation;

    fn results(lesson: &Lesson) -> Results {
        let question = (lesson.inputs)().question;
        let scenario = question.scenario().unwrap();
        Results::compute(&question, &scenario).unwrap()
    }

    #[test]
    fn data_parallelism_leaves_the_ideal_line() {
        let r = results(find("data-stops-scaling").unwrap());
        let at = |p: u64| {
            r.sweep()
                .iter()
                .find(|x| x.gpus == p && x.strategy == Strategy::Data)
                .unwrap()
        };
        let ideal = |p: u64| r.ideal().iter().find(|(g, _)| *g == p).unwrap().1;
        // close to ideal at 8 GPUs, far from it at 1024; communication most of the epoch there
        assert!(at(8).total_s < 1.2 * ideal(8));
        assert!(at(1024).total_s > 2.0 * ideal(1024));
        assert!(at(1024).communication_s > at(1024).compute_s);
    }

    #[test]
    fn cosmoflow_needs_a_spatial_split() {
        let r = results(find("spatial-cosmoflow").unwrap());
        let data = r.ranking.iter().find(|p| p.strategy == Strategy::Data).unwrap();
        assert!(!data.feasible && data.violations.contains(&Violation::Batch));
        let best = r.ranking.first().unwrap();
        assert!(best.feasible && matches!(best.strategy, Strategy::Spatial | Strategy::DataSpatial));
    }

    #[test]
    fn vgg_hits_the_memory_wall() {
        let r = results(find("memory-wall").unwrap());
        let data = r.ranking.iter().find(|p| p.strategy == Strategy::Data).unwrap();
        assert!(data.violations.contains(&Violation::Memory));
        assert_eq!(data.memory.dominant(), crate::oracle::Part::Activations);
    }

    #[test]
    fn the_numbers_a_lesson_opens_are_the_ones_its_answer_names() {
        let lesson = find("data-stops-scaling").unwrap();
        let inputs = (lesson.inputs)();
        let scenario = inputs.question.scenario().unwrap();
        let r = results(lesson);
        let target = inputs.view.explaining.unwrap();
        let spec = r.template.for_strategy(target.strategy, target.gpus);
        let e = scenario.explain(&spec, target.quantity).unwrap();
        let data = r
            .sweep()
            .iter()
            .find(|p| p.gpus == 1024 && p.strategy == Strategy::Data)
            .unwrap();
        assert_eq!(e.result, data.communication.get(CommKind::GradientAllreduce));
        assert!(e.terms[0].formula.starts_with("AR(d, m)") || e.terms[0].formula.contains("least of"));
        let wall = find("memory-wall").unwrap();
        let inputs = (wall.inputs)();
        let e = inputs.question.scenario().unwrap().explain(
            &results(wall).template.for_strategy(Strategy::Data, 8),
            inputs.view.explaining.unwrap().quantity,
        );
        assert!(e.unwrap().steps.iter().any(|s| s.label == "activations per GPU"));
    }

    #[test]
    fn more_gpus_stop_shortening_training_and_a_hybrid_keeping_the_batch_small_trains_sooner() {
        let r = results(find("training-stops-shortening").unwrap());
        let data = |p: u64| {
            r.sweep()
                .iter()
                .find(|x| x.gpus == p && x.strategy == Strategy::Data)
                .unwrap()
        };
        // every doubling halves the epoch (within 10%), but not the time to train
        for p in [16, 32, 64, 128, 256, 512] {
            assert!(data(p).total_s / data(2 * p).total_s > 1.8, "{p}");
        }
        assert_eq!(crate::app::lessons::guess::keeps_halving(&r), Some(false));
        // the answer's numbers: 56 epochs at 256 GPUs, about 85 at 512, over 130 at 1,024 (past
        // the largest batch that converged), x1.7 for x4 the GPUs
        let epochs = |p: u64| data(p).training.epochs.epochs;
        assert_eq!(epochs(256), 56.0);
        assert!((84.0..86.0).contains(&epochs(512)) && epochs(1024) > 130.0);
        assert!(matches!(
            data(1024).training.epochs.how,
            crate::oracle::model::convergence::How::PastLargest {
                largest_batch: 67840,
                ..
            }
        ));
        let gain = data(256).training.time_s / data(1024).training.time_s;
        assert!((1.6..1.8).contains(&gain), "{gain}");
        // CosmoFlow on 1,024 GPUs: data+spatial at a quarter sample per GPU against data at one
        let cosmoflow = |samples: f64, strategy: Strategy| {
            let question = asking(|q| {
                q.model = ModelSource::Preset("cosmoflow".into());
                q.cluster = ClusterSource::Preset("dgx-a100".into());
                q.run.gpus = 1024;
                q.run.batch = Batch::SamplesPerGpu(samples);
                q.run.precision = Precision::Fp16;
            });
            let scenario = question.scenario().unwrap();
            scenario.project(&question.run_of(strategy)).unwrap()
        };
        let (data, hybrid) = (cosmoflow(1.0, Strategy::Data), cosmoflow(0.25, Strategy::DataSpatial));
        assert!(data.feasible && hybrid.feasible);
        assert_eq!((data.mini_batch, hybrid.mini_batch), (1024, 256));
        assert!((38.0..42.0).contains(&data.training.epochs.epochs));
        assert!((18.0..22.0).contains(&hybrid.training.epochs.epochs));
        assert!(hybrid.training.time_s < data.training.time_s);
        assert!(data.total_s < hybrid.total_s, "data's epoch is the shorter");
    }

    #[test]
    fn the_fastest_run_takes_four_times_the_energy_and_money_of_one_or_two_nodes() {
        let r = results(find("fastest-is-not-greenest").unwrap());
        let (least, budget) = crate::app::lessons::guess::least_energy(&r).unwrap();
        let e = |p: &crate::oracle::Projection| p.energy.as_ref().unwrap().clone();
        // the answer's numbers: 8 to 16 GPUs, 35 epochs, 5.7 kWh; 1,024 GPUs 33x sooner for about 4x
        assert!((8..=16).contains(&least.gpus), "{}", least.gpus);
        assert_eq!(least.training.epochs.epochs, 35.0);
        assert!((5.6..5.8).contains(&e(least).train_kwh), "{}", e(least).train_kwh);
        assert_eq!(budget.gpus, 1024);
        assert!((130.0..140.0).contains(&budget.training.epochs.epochs));
        let sooner = least.training.time_s / budget.training.time_s;
        let energy = e(budget).train_kwh / e(least).train_kwh;
        let money = e(budget).train_usd / e(least).train_usd;
        assert!((30.0..36.0).contains(&sooner), "{sooner}");
        assert!(
            (3.5..4.0).contains(&energy) && (3.5..4.0).contains(&money),
            "{energy} {money}"
        );
        // fewer GPUs than a node: the node's other power over more time
        let one = r
            .sweep()
            .iter()
            .find(|p| p.gpus == 1 && p.strategy == Strategy::Data)
            .unwrap();
        assert!(e(one).train_kwh > 3.0 * e(least).train_kwh);
        assert_eq!(r.rank_by, RankBy::Energy);
    }

    #[test]
    fn global_attention_gathers_far_more_than_a_convolutions_halo() {
        let r = results(find("attention-spatial").unwrap());
        assert_eq!(r.ranking.first().unwrap().strategy, Strategy::Data);
        let spatial = r.ranking.iter().find(|p| p.strategy == Strategy::Spatial).unwrap();
        let gathered = spatial.communication.get(CommKind::KeyValue) / spatial.compute_s;
        // the answer's numbers: about 0.8 of the split's compute
        assert!((0.6..1.0).contains(&gathered), "{gathered}");
        let document = split_on_a_node("resnet50", CommKind::Halo);
        let scenario = document.question.scenario().unwrap();
        let cnn = Results::compute(&document.question, &scenario).unwrap();
        let cnn = cnn.ranking.iter().find(|p| p.strategy == Strategy::Spatial).unwrap();
        let halo = cnn.communication.get(CommKind::Halo) / cnn.compute_s;
        assert!(halo < 0.1, "{halo}");
        assert_eq!(cnn.communication.get(CommKind::KeyValue), 0.0);
    }

    #[test]
    fn links_open_their_view() {
        for lesson in &LESSONS {
            let q = query(lesson, true);
            assert!(q.ends_with(&format!("&lesson={}&predict=1", lesson.id)));
            let state = q.trim_start_matches("?s=").split('&').next().unwrap();
            assert_eq!(url::decode(state).unwrap(), (lesson.inputs)());
        }
        assert!(find("none").is_none());
    }
}
