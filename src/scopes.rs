//! `scope:*` labels from changed paths, the job actions/labeler did: a label applies when any of its
//! globs matches any changed file.

use crate::facts::{PullFact, PullRequest};
use crate::glob::labeler_match;
use crate::labels::Wants;
use std::collections::BTreeMap;

pub fn scope_wants(pr: &PullRequest, scopes: &BTreeMap<String, Vec<String>>, sync: bool, wants: &mut Wants) {
    if pr.unknown(PullFact::Files) {
        return;
    }
    for (label, globs) in scopes {
        // The reason names the first matching path in path order, so the order the files were listed
        // in never changes the plan.
        let hit = pr.files.iter().filter_map(|f| globs.iter().find(|g| labeler_match(g, f)).map(|g| (f, g))).min_by(|a, b| a.0.cmp(b.0));
        match hit {
            Some((file, glob)) => wants.present(label, format!("{file} matches {glob}")),
            None if sync => wants.absent(label, "no changed file matches its globs"),
            None => {}
        }
    }
}
