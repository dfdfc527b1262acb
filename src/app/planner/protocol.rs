//! The messages between the page and the planner's worker, as JSON text,
//! and the one function that answers a request (pure: tested natively).

use serde::{Deserialize, Serialize};

use crate::oracle::{Cluster, ClusterSpec, Network, NetworkSpec, Objective, OracleError, Plan, RunSpec, Scenario};

/// What the page asks: search this network on this cluster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub network: NetworkSpec,
    pub cluster: ClusterSpec,
    /// The settings every configuration shares (batch, precision,
    /// optimizer, edition, calibration, overlap); its strategy, GPUs,
    /// group, segments, ZeRO stage and recompute are searched.
    pub template: RunSpec,
    /// The GPU budget.
    pub max_gpus: u64,
    /// What "best" means.
    pub objective: Objective,
}

impl Request {
    /// The search of `scenario` with the settings of `template` (its
    /// strategy, GPUs, group, segments, ZeRO stage and recompute are left
    /// to the search, so that they do not make a new request).
    pub fn new(scenario: &Scenario, template: &RunSpec, max_gpus: u64, objective: Objective) -> Self {
        Self {
            network: scenario.network().spec(),
            cluster: scenario.cluster().spec().clone(),
            template: RunSpec {
                strategy: crate::oracle::Strategy::Data,
                gpus: 1,
                group_size: None,
                segments: None,
                zero: 0,
                recompute: false,
                ..template.clone()
            },
            max_gpus,
            objective,
        }
    }
}

/// What the worker says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// Loaded: it takes requests from now on.
    Ready,
    /// Configurations projected so far, of all.
    Progress {
        done: usize,
        /// All.
        total: usize,
    },
    /// The search is over.
    Done(Box<Plan>),
    /// The request could not be searched.
    Failed(String),
}

/// A message as the text posted between threads.
pub fn write<T: Serialize>(message: &T) -> String {
    serde_json::to_string(message).unwrap_or_default()
}

/// Reads a message posted between threads.
///
/// # Errors
/// Text that is not such a message (serde's description).
pub fn read<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// How many progress reports a search sends at most.
pub const PROGRESS_STEPS: usize = 50;

/// Answers a request: builds the scenario and searches it, reporting
/// progress through `report` about [`PROGRESS_STEPS`] times.
pub fn answer(request: &Request, mut report: impl FnMut(Reply)) -> Reply {
    let searched = Network::new(request.network.clone())
        .map_err(OracleError::from)
        .and_then(|n| Ok((n, Cluster::new(request.cluster.clone())?)))
        .and_then(|(network, cluster)| {
            let scenario = Scenario::new(network, cluster);
            let mut step = 0;
            Ok(
                scenario.search_with(&request.template, request.max_gpus, request.objective, |done, total| {
                    let every = total.div_ceil(PROGRESS_STEPS).max(1);
                    if done / every > step || done == total {
                        step = done / every;
                        report(Reply::Progress { done, total });
                    }
                })?,
            )
        });
    match searched {
        Ok(plan) => Reply::Done(Box::new(plan)),
        Err(e) => Reply::Failed(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use crate::app::planner::protocol::*;
    use crate::oracle::{Batch, Strategy, presets};

    fn request() -> Request {
        Request {
            network: presets::network("alexnet").unwrap().spec(),
            cluster: presets::cluster("abci").unwrap().spec().clone(),
            template: RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(32.0)),
            max_gpus: 16,
            objective: Objective::Cost,
        }
    }

    #[test]
    fn messages_round_trip() {
        let r = request();
        assert_eq!(read::<Request>(&write(&r)).unwrap(), r);
        let replies = [
            Reply::Ready,
            Reply::Progress { done: 3, total: 9 },
            answer(&r, |_| {}),
            Reply::Failed("no".into()),
        ];
        for reply in replies {
            assert_eq!(read::<Reply>(&write(&reply)).unwrap(), reply);
        }
        assert!(read::<Request>("{\"network\": 1}").is_err());
    }

    #[test]
    fn the_answer_is_the_engines_search_with_progress() {
        let r = request();
        let mut reports = Vec::new();
        let reply = answer(&r, |m| reports.push(m));
        let scenario = presets::scenario("alexnet", "abci").unwrap();
        let plan = scenario.search(&r.template, 16, Objective::Cost).unwrap();
        assert_eq!(reply, Reply::Done(Box::new(plan.clone())));
        assert!(
            reports.len() <= PROGRESS_STEPS + 1 && reports.len() > 1,
            "{}",
            reports.len()
        );
        assert_eq!(
            reports.last(),
            Some(&Reply::Progress {
                done: plan.evaluated + plan.invalid,
                total: plan.evaluated + plan.invalid
            })
        );
    }

    #[test]
    fn a_request_ignores_what_the_search_varies() {
        let scenario = presets::scenario("alexnet", "abci").unwrap();
        let base = RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(32.0));
        let tuned = RunSpec {
            strategy: Strategy::DataFilter,
            gpus: 8,
            group_size: Some(4),
            segments: Some(16),
            zero: 2,
            recompute: true,
            ..base.clone()
        };
        let a = Request::new(&scenario, &base, 64, Objective::Time);
        assert_eq!(a, Request::new(&scenario, &tuned, 64, Objective::Time));
        let other = RunSpec {
            precision: crate::oracle::Precision::Fp16,
            ..base
        };
        assert_ne!(a, Request::new(&scenario, &other, 64, Objective::Time));
    }

    #[test]
    fn a_bad_request_fails_with_the_reason() {
        let mut r = request();
        r.max_gpus = 0;
        assert!(matches!(answer(&r, |_| {}), Reply::Failed(m) if m.contains("max_gpus")));
        let mut r = request();
        r.cluster.gpus_per_node = 0;
        assert!(matches!(answer(&r, |_| {}), Reply::Failed(m) if m.contains("gpus_per_node")));
    }
}
