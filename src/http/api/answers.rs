//! Answer shapes shared by several resources: the empty answer `{}` and a job's progress.

use serde::Serialize;
use ts_rs::TS;

/// `{}`: the answer of a delete or sign-out that has nothing to show.
#[derive(Debug, Default, Serialize, TS)]
#[ts(export_to = "answers.ts")]
pub struct Empty {}

/// How far an export or import has got: `done` of `total` steps.
#[derive(Debug, Serialize, TS)]
#[ts(export_to = "answers.ts")]
pub struct Progress {
    /// Work done so far (0 while unknown).
    pub done: i64,
    /// Work to do.
    pub total: i64,
}
