//! The app's ground: what the user asks and how they look at the answer,
//! as typed documents, with the keys of every editable field. It imports
//! only the engine; everything else in the app builds on it.
//!
//! - [`question::Question`]: the network, the cluster, the run every
//!   strategy is projected with ([`crate::oracle::RunSpec`]), the
//!   strategies drawn and the measured runs. The results are computed from
//!   it alone.
//! - [`view::View`]: which number is explained, which strategy is drawn,
//!   the planner, the other edition's curves. Changing it recomputes
//!   nothing.
//! - [`document::Document`]: the two together, as the share link writes
//!   them (serde, with the short keys every link has used).
//! - [`keys`]: the typed keys of the editable fields and the engine errors
//!   they show; [`run_fields`] and [`cluster_fields`] the tables that
//!   describe the run's and the cluster's fields (label, unit, parser).

pub mod cluster_fields;
pub mod document;
pub mod explain_target;
pub mod keys;
pub mod metric;
pub mod quantity;
pub mod question;
pub mod run_fields;
pub mod source;
pub mod view;
