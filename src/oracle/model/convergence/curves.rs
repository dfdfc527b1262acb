//! The curves: MLPerf's reference convergence points, copied from
//! `tests/validation/mlperf-rcp/rcps-cnn.csv` (mlcommons/logging @7bbf792,
//! `mlperf_logging/rcp_checker/`), which `tests/measured/convergence.rs`
//! reads to check every point here. A point's epochs are the checker's
//! mean of its reference runs without the fastest and the slowest (four
//! of each for 3D U-Net), as MLPerf compares submissions with them.
//!
//! Two more come from large-batch papers (`tests/validation/large-batch/`,
//! read by the same test): one run at each batch, so its fewest and most
//! epochs are its own.

use super::{Curve, Point};

const fn point(global_batch: u64, epochs: f64, (min_epochs, max_epochs): (f64, f64), runs: u32) -> Point {
    Point {
        global_batch,
        epochs,
        min_epochs,
        max_epochs,
        runs,
    }
}

/// Every curve.
pub const CURVES: [Curve; 10] = [
    Curve {
        key: "mlperf-resnet50",
        name: "ResNet-50 v1.5 on ImageNet-1k, LARS (MLPerf Training 4.0)",
        optimizer: "LARS",
        target: "75.90% top-1",
        dataset: "ImageNet-1k",
        dataset_samples: 1_281_167,
        points: &[
            point(1632, 35.0, (33.0, 37.0), 17),
            point(3264, 35.1538, (34.0, 37.0), 15),
            point(4096, 39.875, (39.0, 42.0), 10),
            point(8192, 41.875, (41.0, 44.0), 10),
            point(13056, 45.5, (44.0, 46.0), 10),
            point(32768, 56.0, (55.0, 57.0), 10),
            point(49152, 68.0, (67.0, 69.0), 10),
            point(58880, 80.0, (78.0, 81.0), 10),
            point(65536, 84.5, (83.0, 86.0), 10),
            point(67840, 85.8462, (85.0, 87.0), 28),
        ],
        source: "mlcommons/logging@7bbf792 mlperf_logging/rcp_checker/training_4.0.0/rcps_resnet.json",
    },
    Curve {
        key: "mlperf-ssd-resnet34",
        name: "SSD-ResNet34 on COCO, SGD (MLPerf Training 1.1)",
        optimizer: "SGD with momentum",
        target: "23.0% mAP",
        dataset: "COCO 2017",
        dataset_samples: 117_266,
        points: &[
            point(1024, 50.0, (50.0, 50.0), 10),
            point(1536, 55.0, (55.0, 55.0), 20),
            point(2048, 65.0862, (65.0, 70.0), 60),
            point(4096, 87.0, (85.0, 90.0), 37),
        ],
        source: "mlcommons/logging@7bbf792 mlperf_logging/rcp_checker/training_1.1.0/rcps_ssd.json",
    },
    Curve {
        key: "mlperf-retinanet",
        name: "RetinaNet-ResNeXt50 on OpenImages, Adam (MLPerf Training 5.1)",
        optimizer: "Adam",
        target: "34.0% mAP",
        dataset: "the OpenImages subset of MLPerf",
        dataset_samples: 1_170_301,
        points: &[
            point(256, 4.0, (4.0, 4.0), 20),
            point(320, 4.1111, (4.0, 5.0), 20),
            point(512, 5.0, (5.0, 5.0), 20),
            point(768, 5.0, (5.0, 5.0), 10),
            point(1024, 6.0, (6.0, 6.0), 10),
            point(1280, 6.6667, (6.0, 7.0), 20),
            point(2048, 7.8889, (7.0, 9.0), 20),
            point(2560, 8.6364, (8.0, 9.0), 13),
            point(4096, 15.1538, (14.0, 16.0), 15),
        ],
        source: "mlcommons/logging@7bbf792 mlperf_logging/rcp_checker/training_5.1.0/rcps_retinanet.json",
    },
    Curve {
        key: "mlperf-maskrcnn",
        name: "Mask R-CNN on COCO, SGD (MLPerf Training 3.1)",
        optimizer: "SGD with momentum",
        target: "0.377 box AP and 0.339 mask AP",
        dataset: "COCO 2017",
        dataset_samples: 117_266,
        points: &[
            point(8, 12.75, (12.0, 13.0), 10),
            point(48, 14.0, (14.0, 14.0), 10),
            point(64, 14.0, (14.0, 20.0), 10),
            point(96, 14.0556, (13.0, 15.0), 20),
            point(128, 14.0, (14.0, 14.0), 10),
            point(256, 17.0, (17.0, 18.0), 10),
            point(272, 17.125, (16.0, 18.0), 10),
        ],
        source: "mlcommons/logging@7bbf792 mlperf_logging/rcp_checker/training_3.1.0/rcps_maskrcnn.json",
    },
    Curve {
        key: "mlperf-unet3d",
        name: "3D U-Net on KiTS19, SGD (MLPerf Training 4.0)",
        optimizer: "SGD with momentum",
        target: "0.908 mean Dice",
        dataset: "KiTS19",
        dataset_samples: 168,
        points: &[
            point(28, 2054.5652, (1340.0, 3400.0), 100),
            point(56, 2127.4074, (1120.0, 3780.0), 197),
            point(64, 2336.7252, (1420.1905, 3540.1905), 91),
            point(84, 2480.0, (1560.0, 4420.0), 97),
        ],
        source: "mlcommons/logging@7bbf792 mlperf_logging/rcp_checker/training_4.0.0/rcps_unet3d.json",
    },
    Curve {
        key: "mlperf-hpc-cosmoflow",
        name: "CosmoFlow on 128³ cubes, SGD (MLPerf HPC 3.0)",
        optimizer: "SGD with momentum",
        target: "0.124 mean absolute error",
        dataset: "MLPerf HPC CosmoFlow",
        dataset_samples: 524_288,
        points: &[
            point(32, 7.871, (6.0, 9.0), 33),
            point(64, 18.2778, (17.0, 20.0), 20),
            point(128, 17.8889, (16.0, 19.0), 20),
            point(512, 22.8333, (21.0, 24.0), 20),
            point(1024, 40.0556, (36.0, 43.0), 20),
        ],
        source: "mlcommons/logging@7bbf792 mlperf_logging/rcp_checker/hpc_3.0.0/rcps_cosmoflow.json",
    },
    Curve {
        key: "mlperf-hpc-deepcam",
        name: "DeepCAM on climate images, LAMB (MLPerf HPC 3.0)",
        optimizer: "LAMB",
        target: "0.82 IoU",
        dataset: "MLPerf HPC DeepCAM",
        dataset_samples: 121_266,
        points: &[
            point(128, 6.9444, (6.0, 8.0), 20),
            point(256, 9.0, (9.0, 9.0), 10),
            point(512, 11.0526, (10.0, 16.0), 40),
            point(1024, 13.0, (12.0, 14.0), 10),
            point(2048, 22.625, (22.0, 26.0), 10),
        ],
        source: "mlcommons/logging@7bbf792 mlperf_logging/rcp_checker/hpc_3.0.0/rcps_deepcam.json",
    },
    Curve {
        key: "goyal-sgd-resnet50",
        name: "ResNet-50 on ImageNet-1k, SGD with momentum, linear scaling and warmup (Goyal et al. 2017)",
        optimizer: "SGD with momentum",
        target: "76.3% top-1 (no loss of accuracy up to a minibatch of 8,192)",
        dataset: "ImageNet-1k",
        dataset_samples: 1_281_167,
        points: &[point(256, 90.0, (90.0, 90.0), 1), point(8192, 90.0, (90.0, 90.0), 1)],
        source: "Goyal et al. 2017, arXiv:1706.02677 (abstract; 90 epochs at 256 and 8,192)",
    },
    Curve {
        key: "kfac-resnet50d",
        name: "ResNet-50-D on ImageNet-1k, K-FAC (Osawa et al. 2019, the authors' later runs)",
        optimizer: "K-FAC",
        target: "75.0% top-1 or more",
        dataset: "ImageNet-1k",
        dataset_samples: 1_281_167,
        points: &[
            point(4096, 35.0, (35.0, 35.0), 1),
            point(8192, 35.0, (35.0, 35.0), 1),
            point(16384, 35.0, (35.0, 35.0), 1),
            point(32768, 45.0, (45.0, 45.0), 1),
            point(65536, 60.0, (60.0, 60.0), 1),
            point(131072, 80.0, (80.0, 80.0), 1),
        ],
        source: "tyohei/chainerkfac README, \"Training ResNet-50 on ImageNet with large mini-batch\" (Osawa et al. 2019, arXiv:1811.12019)",
    },
    Curve {
        key: "deit-adamw",
        name: "DeiT (vision transformers) on ImageNet-1k, AdamW (Touvron et al. 2021)",
        optimizer: "AdamW",
        target: "the accuracy DeiT reports (79.8% top-1 for DeiT-S, 81.8% for DeiT-B)",
        dataset: "ImageNet-1k",
        dataset_samples: 1_281_167,
        points: &[point(1024, 300.0, (300.0, 300.0), 1)],
        source: "Touvron et al. 2021, arXiv:2012.12877, Table 9 (300 epochs, batch 1,024, AdamW, learning rate 0.0005 x batch/512)",
    },
];
